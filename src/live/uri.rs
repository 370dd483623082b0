//! What can be watched, by its resource URI: a channel (`mattermost://channels/{channel_id}`), a
//! thread (`mattermost://posts/{root_id}`) and the person's inbox (`mattermost://me/inbox`: anything
//! that changes what they have unread or are mentioned in).

use crate::error::quote;
use crate::ids::is_id;

/// The inbox's URI.
pub const INBOX: &str = "mattermost://me/inbox";

/// A watchable resource.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Watchable {
    Channel(String),
    Thread(String),
    Inbox,
}

impl Watchable {
    /// Reads a URI as a watchable resource, or says what is accepted.
    pub fn parse(uri: &str) -> Result<Watchable, String> {
        let accepted = "Watch mattermost://channels/{channel_id}, mattermost://posts/{root_post_id} (a thread) \
                        or mattermost://me/inbox, with the 26-character ids the tools answer and nothing after \
                        them.";
        if uri == INBOX {
            return Ok(Watchable::Inbox);
        }
        let split = |prefix: &str| uri.strip_prefix(prefix).map(str::to_string);
        let (kind, id) = match (
            split("mattermost://channels/"),
            split("mattermost://posts/"),
        ) {
            (Some(id), _) => ("channel", id),
            (_, Some(id)) => ("post", id),
            _ => {
                return Err(format!("{} cannot be watched. {accepted}", quote(uri)));
            }
        };
        if !is_id(&id) {
            return Err(format!(
                "{} does not end in a {kind} id (26 lowercase letters and digits). {accepted}",
                quote(uri)
            ));
        }
        Ok(match kind {
            "channel" => Watchable::Channel(id),
            _ => Watchable::Thread(id),
        })
    }

    /// The resource URI.
    pub fn uri(&self) -> String {
        match self {
            Watchable::Channel(id) => format!("mattermost://channels/{id}"),
            Watchable::Thread(id) => format!("mattermost://posts/{id}"),
            Watchable::Inbox => INBOX.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_read_as_what_they_watch_and_others_are_refused_naming_the_forms() {
        let id = "abcdefghijklmnopqrstuvwxyz";
        assert_eq!(
            Watchable::parse(&format!("mattermost://channels/{id}")),
            Ok(Watchable::Channel(id.into()))
        );
        assert_eq!(
            Watchable::parse(&format!("mattermost://posts/{id}")),
            Ok(Watchable::Thread(id.into()))
        );
        assert_eq!(Watchable::parse(INBOX), Ok(Watchable::Inbox));
        for bad in [
            "mattermost://channels/town-square",
            "mattermost://files/abcdefghijklmnopqrstuvwxyz",
            "mattermost://posts/abcdefghijklmnopqrstuvwxyz?cursor=x",
        ] {
            let e = Watchable::parse(bad).expect_err(bad);
            assert!(
                e.contains(bad) && e.contains("mattermost://me/inbox"),
                "{e}"
            );
        }
        assert_eq!(
            Watchable::Thread(id.into()).uri(),
            format!("mattermost://posts/{id}")
        );
    }
}
