//! Who wrote a post, as far as Mattermost says: the person themselves, a bot, a webhook, an app, a
//! guest, or someone on another server of a shared channel; nothing is said for the common case, a
//! member of the person's own organization. Read only from what Mattermost already returns: the post's
//! props (`from_webhook`, `from_bot`, `from_plugin`, `from_oauth_app`, set by the server for
//! integrations; `server/public/model/post.go` `PostPropsFrom*`), the post's `remote_id`, and its
//! author's user (`is_bot`, the `system_guest` role, `remote_id`; `model/user.go` `IsBot`, `IsGuest`,
//! `IsRemote`).
//!
//! With `MATTERMOST_CONTENT=trusted-only` the text of a post whose author is not such a member (a
//! guest, a bot, a webhook, an app, a remote user) is withheld, the post saying so and where the person
//! can read it.

use crate::config::Content;
use crate::mattermost::types;
use schemars::JsonSchema;
use serde::Serialize;
use std::sync::OnceLock;

/// What Mattermost says of one author.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Author {
    pub(crate) username: String,
    pub(crate) bot: bool,
    pub(crate) guest: bool,
    pub(crate) remote: bool,
}

impl Author {
    /// The facts of a user object.
    pub(crate) fn of(u: &types::User) -> Author {
        Author {
            username: u.username.clone().unwrap_or_default(),
            bot: u.is_bot == Some(true),
            guest: u
                .roles
                .as_deref()
                .is_some_and(|r| r.split_whitespace().any(|r| r == "system_guest")),
            remote: u.remote_id.as_deref().is_some_and(|r| !r.is_empty()),
        }
    }
}

/// Whose a post is, when it is not an ordinary member's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum From {
    /// The person this server acts for.
    You,
    /// A bot account, or a plugin posting as one.
    Bot,
    /// An incoming webhook (any text whoever holds its URL sends).
    Webhook,
    /// An OAuth app posting for its user.
    App,
    /// A guest account.
    Guest,
    /// A user of another server, through a shared channel.
    Remote,
}

impl From {
    fn words(self) -> &'static str {
        match self {
            From::You => "you",
            From::Bot => "a bot",
            From::Webhook => "a webhook",
            From::App => "an app",
            From::Guest => "a guest",
            From::Remote => "a user of another server (a shared channel)",
        }
    }
}

fn prop_true(p: &types::Post, name: &str) -> bool {
    p.props
        .as_ref()
        .and_then(|m| m.get(name))
        .is_some_and(|v| v.as_str() == Some("true") || v.as_bool() == Some(true))
}

/// Whose `p` is: `None` for an ordinary member of the person's organization (the common case says
/// nothing). The post's own marks come first (a webhook posts as the user who made it), then its author.
pub(super) fn from_of(p: &types::Post, author: Option<&Author>, me: &str) -> Option<From> {
    let author_id = p.user_id.as_deref().unwrap_or("");
    if prop_true(p, "from_webhook") {
        return Some(From::Webhook);
    }
    if prop_true(p, "from_bot") || prop_true(p, "from_plugin") || author.is_some_and(|a| a.bot) {
        return Some(From::Bot);
    }
    if prop_true(p, "from_oauth_app") {
        return Some(From::App);
    }
    if p.remote_id.as_deref().is_some_and(|r| !r.is_empty()) || author.is_some_and(|a| a.remote) {
        return Some(From::Remote);
    }
    if author.is_some_and(|a| a.guest) {
        return Some(From::Guest);
    }
    if !me.is_empty() && author_id == me {
        return Some(From::You);
    }
    None
}

fn content_slot() -> &'static OnceLock<Content> {
    static CONTENT: OnceLock<Content> = OnceLock::new();
    &CONTENT
}

/// Sets which posts' text this process shows, once, at start.
pub fn set_content(content: Content) {
    let _ = content_slot().set(content);
}

/// Which posts' text this process shows.
pub(crate) fn content() -> Content {
    content_slot().get().copied().unwrap_or_default()
}

/// Why a post's text is withheld, when it is: the author is not the person or an ordinary member, and
/// only their text is shown.
pub(crate) fn withheld(from: Option<From>) -> Option<String> {
    let from = from.filter(|f| *f != From::You)?;
    (content() == Content::TrustedOnly).then(|| {
        format!(
            "Text withheld: its author is {}, and this server shows only the text of posts by the person and \
             the members of their organization ({}=trusted-only). The person can read it in Mattermost (the \
             page's permalink, with this post's id); the server's administrator can set {}=all.",
            from.words(),
            crate::config::CONTENT,
            crate::config::CONTENT
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn post(v: serde_json::Value) -> types::Post {
        serde_json::from_value(v).expect("a post")
    }

    #[test]
    fn a_posts_marks_come_before_its_author() {
        let member = Author {
            username: "bob".into(),
            ..Author::default()
        };
        let plain = post(json!({"id": "p", "user_id": "u1", "message": "hi"}));
        assert_eq!(from_of(&plain, Some(&member), "me"), None);
        assert_eq!(from_of(&plain, Some(&member), "u1"), Some(From::You));
        let hook = post(json!({"id": "p", "user_id": "u1", "props": {"from_webhook": "true"}}));
        assert_eq!(from_of(&hook, Some(&member), "u1"), Some(From::Webhook));
        let bot = Author {
            bot: true,
            ..member.clone()
        };
        assert_eq!(from_of(&plain, Some(&bot), "me"), Some(From::Bot));
        let guest = Author {
            guest: true,
            ..member.clone()
        };
        assert_eq!(from_of(&plain, Some(&guest), "me"), Some(From::Guest));
        let remote = post(json!({"id": "p", "user_id": "u1", "remote_id": "r1"}));
        assert_eq!(from_of(&remote, Some(&member), "me"), Some(From::Remote));
        let app = post(json!({"id": "p", "user_id": "u1", "props": {"from_oauth_app": true}}));
        assert_eq!(from_of(&app, Some(&member), "me"), Some(From::App));
    }
}
