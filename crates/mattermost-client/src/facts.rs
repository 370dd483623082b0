//! What Mattermost encodes in its objects, decoded in one place: a channel's kind (`O`, `P`, `D`,
//! `G`), the other person of a direct channel (its name is `<user id>__<user id>`), a post list's order,
//! a post's kind and times, a person's name. Every generated field is optional; these read them with
//! the defaults Mattermost itself means (an absent time is 0, an absent id is empty).

use super::types::{Channel, FileInfo, Post, PostList, Team, User};

/// What kind of channel it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChannelKind {
    /// Type `O`: an open channel anyone on its team can join.
    Public,
    /// Type `P`: a private channel, joined by invitation.
    Private,
    /// Type `D`: a direct message channel between two people (or one person with themself).
    Direct,
    /// Type `G`: a group message channel of three to eight people.
    Group,
    /// No type, or a letter Mattermost does not define.
    Unknown,
}

impl ChannelKind {
    /// The word tools show.
    pub fn as_str(self) -> &'static str {
        match self {
            ChannelKind::Public => "public",
            ChannelKind::Private => "private",
            ChannelKind::Direct => "direct",
            ChannelKind::Group => "group",
            ChannelKind::Unknown => "unknown",
        }
    }

    /// A direct or group message channel, which belongs to no team.
    pub fn is_message(self) -> bool {
        matches!(self, ChannelKind::Direct | ChannelKind::Group)
    }
}

/// Facts of a channel.
pub trait ChannelFacts {
    /// The channel's id (26 characters); empty when absent.
    fn id(&self) -> &str;
    /// Its kind, from the one-letter `type`.
    fn kind(&self) -> ChannelKind;
    /// Its URL name (`town-square`), unique within its team; for a direct channel the two people's
    /// ids joined by `__`. Empty when absent.
    fn name(&self) -> &str;
    /// The name people see (`Town Square`); empty when absent.
    fn display_name(&self) -> &str;
    /// The id of its team; empty for direct and group channels, which belong to none.
    fn team_id(&self) -> &str;
    /// Whether it is archived: Mattermost archives a channel by setting its `delete_at`.
    fn archived(&self) -> bool;
    /// When its last post was made (`last_post_at`), in milliseconds since the Unix epoch; 0 when
    /// absent.
    fn last_post_at(&self) -> i64;
    /// The other person of a direct channel (the person themself for a channel with oneself).
    fn other_person<'a>(&'a self, me: &'a str) -> Option<&'a str>;
}

impl ChannelFacts for Channel {
    fn id(&self) -> &str {
        self.id.as_deref().unwrap_or("")
    }

    fn kind(&self) -> ChannelKind {
        match self.type_.as_deref() {
            Some("O") => ChannelKind::Public,
            Some("P") => ChannelKind::Private,
            Some("D") => ChannelKind::Direct,
            Some("G") => ChannelKind::Group,
            _ => ChannelKind::Unknown,
        }
    }

    fn name(&self) -> &str {
        self.name.as_deref().unwrap_or("")
    }

    fn display_name(&self) -> &str {
        self.display_name.as_deref().unwrap_or("")
    }

    fn team_id(&self) -> &str {
        self.team_id.as_deref().unwrap_or("")
    }

    fn archived(&self) -> bool {
        self.delete_at.unwrap_or(0) > 0
    }

    fn last_post_at(&self) -> i64 {
        self.last_post_at.unwrap_or(0)
    }

    fn other_person<'a>(&'a self, me: &'a str) -> Option<&'a str> {
        if self.kind() != ChannelKind::Direct {
            return None;
        }
        let mut ids = self.name().split("__");
        let (a, b) = (ids.next()?, ids.next()?);
        Some(if a == me { b } else { a })
    }
}

/// Facts of a post.
pub trait PostFacts {
    /// The post's id (26 characters); empty when absent.
    fn id(&self) -> &str;
    /// When it was posted (`create_at`), in milliseconds since the Unix epoch; 0 when absent.
    fn created(&self) -> i64;
    /// When Mattermost last changed it (`update_at`), in milliseconds since the Unix epoch; 0 when
    /// absent.
    fn updated(&self) -> i64;
    /// The id of the person (or bot) who posted it (`user_id`); empty when absent.
    fn author(&self) -> &str;
    /// The id of the channel it is in (`channel_id`); empty when absent.
    fn channel(&self) -> &str;
    /// The thread's root, for a reply.
    fn root(&self) -> Option<&str>;
    /// Mattermost's post type (`system_join_channel`, say); `None` for a person's ordinary post.
    fn kind(&self) -> Option<&str>;
    /// Its text as Mattermost stores it (Markdown, mentions as typed); empty when absent.
    fn message(&self) -> &str;
}

impl PostFacts for Post {
    fn id(&self) -> &str {
        self.id.as_deref().unwrap_or("")
    }

    fn created(&self) -> i64 {
        self.create_at.unwrap_or(0)
    }

    fn updated(&self) -> i64 {
        self.update_at.unwrap_or(0)
    }

    fn author(&self) -> &str {
        self.user_id.as_deref().unwrap_or("")
    }

    fn channel(&self) -> &str {
        self.channel_id.as_deref().unwrap_or("")
    }

    fn root(&self) -> Option<&str> {
        self.root_id.as_deref().filter(|r| !r.is_empty())
    }

    fn kind(&self) -> Option<&str> {
        self.type_.as_deref().filter(|t| !t.is_empty())
    }

    fn message(&self) -> &str {
        self.message.as_deref().unwrap_or("")
    }
}

/// A post list's posts in its `order` (newest first, as Mattermost orders every list); the thread
/// posts `posts` also holds around them are left out.
pub fn ordered(list: PostList) -> Vec<Post> {
    let mut by_id = list.posts.unwrap_or_default();
    list.order
        .unwrap_or_default()
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect()
}

/// Facts of a person.
pub trait UserFacts {
    /// The person's id (26 characters); empty when absent.
    fn id(&self) -> &str;
    /// Their username, without the `@`; empty when absent.
    fn username(&self) -> &str;
    /// First and last name, when either is set.
    fn full_name(&self) -> Option<String>;
    /// Whether the account is deactivated: Mattermost deactivates one by setting its `delete_at`.
    fn deactivated(&self) -> bool;
}

impl UserFacts for User {
    fn id(&self) -> &str {
        self.id.as_deref().unwrap_or("")
    }

    fn username(&self) -> &str {
        self.username.as_deref().unwrap_or("")
    }

    fn full_name(&self) -> Option<String> {
        let name = format!(
            "{} {}",
            self.first_name.as_deref().unwrap_or(""),
            self.last_name.as_deref().unwrap_or("")
        );
        let name = name.trim();
        (!name.is_empty()).then(|| name.to_string())
    }

    fn deactivated(&self) -> bool {
        self.delete_at.unwrap_or(0) > 0
    }
}

/// Facts of a team.
pub trait TeamFacts {
    /// The team's id (26 characters); empty when absent.
    fn id(&self) -> &str;
    /// Its URL name (`acme`), unique on the server; empty when absent.
    fn name(&self) -> &str;
    /// The name people see (`Acme Inc.`); empty when absent.
    fn display_name(&self) -> &str;
}

impl TeamFacts for Team {
    fn id(&self) -> &str {
        self.id.as_deref().unwrap_or("")
    }

    fn name(&self) -> &str {
        self.name.as_deref().unwrap_or("")
    }

    fn display_name(&self) -> &str {
        self.display_name.as_deref().unwrap_or("")
    }
}

/// Facts of a file.
pub trait FileFacts {
    /// The file's id (26 characters); empty when absent.
    fn id(&self) -> &str;
    /// Its name as uploaded, with its extension; empty when absent.
    fn name(&self) -> &str;
    /// The MIME type Mattermost recorded (`mime_type`); `None` when absent or empty.
    fn mime(&self) -> Option<&str>;
    /// Its size in bytes; 0 when absent (or negative).
    fn size(&self) -> u64;
}

impl FileFacts for FileInfo {
    fn id(&self) -> &str {
        self.id.as_deref().unwrap_or("")
    }

    fn name(&self) -> &str {
        self.name.as_deref().unwrap_or("")
    }

    fn mime(&self) -> Option<&str> {
        self.mime_type.as_deref().filter(|m| !m.is_empty())
    }

    fn size(&self) -> u64 {
        self.size.unwrap_or(0).max(0) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_direct_channel_names_the_other_person_whichever_side_they_are() {
        let c = Channel {
            type_: Some("D".into()),
            name: Some("aaa__bbb".into()),
            ..Channel::default()
        };
        assert_eq!(c.kind(), ChannelKind::Direct);
        assert_eq!(c.other_person("aaa"), Some("bbb"));
        assert_eq!(c.other_person("bbb"), Some("aaa"));
        let self_dm = Channel {
            type_: Some("D".into()),
            name: Some("aaa__aaa".into()),
            ..Channel::default()
        };
        assert_eq!(self_dm.other_person("aaa"), Some("aaa"));
        let open = Channel {
            type_: Some("O".into()),
            name: Some("a__b".into()),
            ..Channel::default()
        };
        assert_eq!(open.other_person("a"), None);
    }
}
