//! The smaller objects tools show: a team, a followed thread, a draft, a custom emoji, and a post's
//! reactions grouped by emoji.

use super::fields::{cut, is_false};
use super::post::{MESSAGE_CUT, PostItem, Shown};
use crate::mattermost::facts::TeamFacts;
use crate::mattermost::types;
use crate::time::rfc3339;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::HashMap;

fn username_or_id(usernames: &HashMap<String, String>, id: &str) -> String {
    usernames.get(id).cloned().unwrap_or_else(|| id.to_string())
}

/// A team: id, name (its URL name), display name, whether anyone may join, description.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct TeamItem {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) display_name: String,
    /// open or invite_only.
    #[serde(rename = "type")]
    pub(crate) kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) archived: bool,
}

impl TeamItem {
    pub(crate) fn of(t: &types::Team) -> TeamItem {
        TeamItem {
            id: t.id().to_string(),
            name: t.name().to_string(),
            display_name: t.display_name().to_string(),
            kind: match t.type_.as_deref() {
                Some("O") => "open",
                Some("I") => "invite_only",
                _ => "unknown",
            }
            .to_string(),
            description: t.description.clone().filter(|d| !d.is_empty()),
            archived: t.delete_at.unwrap_or(0) > 0,
        }
    }
}

/// A followed thread: its root post (cut), replies, last reply, participants by username, and what is
/// unread in it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ThreadItem {
    pub(crate) id: String,
    pub(crate) reply_count: i64,
    pub(crate) last_reply: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) last_viewed: Option<String>,
    pub(crate) unread_replies: i64,
    pub(crate) unread_mentions: i64,
    pub(crate) participants: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) root: Option<PostItem>,
}

impl ThreadItem {
    pub(crate) fn of(t: &types::UserThread, shown: &Shown<'_>) -> ThreadItem {
        ThreadItem {
            id: t.id.clone().unwrap_or_default(),
            reply_count: t.reply_count.unwrap_or(0),
            last_reply: rfc3339(t.last_reply_at.unwrap_or(0)),
            last_viewed: t.last_viewed_at.filter(|v| *v > 0).map(rfc3339),
            unread_replies: t.unread_replies.unwrap_or(0),
            unread_mentions: t.unread_mentions.unwrap_or(0),
            participants: t
                .participants
                .iter()
                .flatten()
                .filter_map(|u| u.id.as_deref())
                .map(|id| username_or_id(shown.usernames, id))
                .collect(),
            root: t.post.as_ref().map(|root| {
                let mut item = PostItem::of(root, shown, Some(MESSAGE_CUT));
                // The thread's own fields say these.
                item.reply_count = None;
                item.participants.clear();
                item
            }),
        }
    }
}

/// A draft: where it is (its thread, when it is a reply), its message (a long one cut) and when it was
/// last changed. Drafts have no id of their own: `id` is the channel id, with `:` and the root id for
/// a reply's draft.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct DraftItem {
    pub(crate) id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) root_id: Option<String>,
    #[serde(rename = "text")]
    pub(crate) message: String,
    #[serde(rename = "text_length", skip_serializing_if = "Option::is_none")]
    pub(crate) message_length: Option<usize>,
    #[serde(rename = "text_cut", default, skip_serializing_if = "is_false")]
    pub(crate) message_cut: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) file_ids: Vec<String>,
    pub(crate) updated: String,
    pub(crate) channel_id: String,
    /// The channel as a person names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) channel: Option<String>,
}

impl DraftItem {
    pub(crate) fn of(d: &types::GetDraftsResponseItem, label: Option<&str>) -> DraftItem {
        let (message, message_length) = cut(d.message.as_deref().unwrap_or(""), Some(MESSAGE_CUT));
        DraftItem {
            id: draft_id(d),
            root_id: d.root_id.clone().filter(|r| !r.is_empty()),
            message,
            message_cut: message_length.is_some(),
            message_length,
            file_ids: d.file_ids.clone().unwrap_or_default(),
            updated: rfc3339(d.update_at.unwrap_or(0)),
            channel_id: d.channel_id.clone().unwrap_or_default(),
            channel: label.map(str::to_string),
        }
    }
}

/// The id [`DraftItem`] shows for a draft.
/// The key a draft is paged by: its thread's root when it replies (a post id also names its
/// channel), else its channel. One id per draft of a person, so a cursor holds 26 characters of it
/// instead of the 53 of `channel:root`.
pub(crate) fn draft_key(d: &types::GetDraftsResponseItem) -> &str {
    d.root_id
        .as_deref()
        .filter(|r| !r.is_empty())
        .or(d.channel_id.as_deref())
        .unwrap_or("")
}

pub(crate) fn draft_id(d: &types::GetDraftsResponseItem) -> String {
    let channel = d.channel_id.as_deref().unwrap_or("");
    match d.root_id.as_deref().filter(|r| !r.is_empty()) {
        Some(root) => format!("{channel}:{root}"),
        None => channel.to_string(),
    }
}

/// A custom emoji: id, name (as `:name:` is typed), who added it and when.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct EmojiItem {
    pub(crate) id: String,
    pub(crate) name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) creator: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) creator_id: Option<String>,
    pub(crate) created: String,
}

impl EmojiItem {
    pub(crate) fn of(e: &types::Emoji, usernames: &HashMap<String, String>) -> EmojiItem {
        let creator_id = e.creator_id.clone().unwrap_or_default();
        let creator = usernames.get(&creator_id).cloned();
        EmojiItem {
            id: e.id.clone().unwrap_or_default(),
            name: e.name.clone().unwrap_or_default(),
            creator_id: creator.is_none().then_some(creator_id),
            creator,
            created: rfc3339(e.create_at.unwrap_or(0)),
        }
    }
}

/// One emoji's reactions on a post: how many, who (by username, in the order they reacted), and when
/// it was first used.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ReactionGroup {
    pub(crate) emoji: String,
    pub(crate) count: usize,
    pub(crate) users: Vec<String>,
    pub(crate) first: String,
}

impl ReactionGroup {
    /// A post's reactions, one group per emoji in the order each was first used (ties by name).
    pub(crate) fn all(
        rs: &[types::Reaction],
        usernames: &HashMap<String, String>,
    ) -> Vec<ReactionGroup> {
        let mut sorted: Vec<&types::Reaction> = rs.iter().collect();
        sorted.sort_by(|a, b| {
            (a.create_at, &a.emoji_name, &a.user_id).cmp(&(b.create_at, &b.emoji_name, &b.user_id))
        });
        let mut groups: Vec<ReactionGroup> = Vec::new();
        for r in sorted {
            let emoji = r.emoji_name.clone().unwrap_or_default();
            let who = username_or_id(usernames, r.user_id.as_deref().unwrap_or(""));
            match groups.iter_mut().find(|g| g.emoji == emoji) {
                Some(g) => {
                    g.users.push(who);
                    g.count += 1;
                }
                None => groups.push(ReactionGroup {
                    emoji,
                    count: 1,
                    users: vec![who],
                    first: rfc3339(r.create_at.unwrap_or(0)),
                }),
            }
        }
        groups
    }
}
