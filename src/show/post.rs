//! A post as tools show it: id, time, author's username, message (a long one cut, with its full
//! length), its kind, thread (root id, reply count, participants), files, edit time, pin, and its
//! reactions counted by emoji from the post's own metadata (no extra request). Permalinks are given
//! once per page as a pattern ([`permalink_pattern`]), not per post.

use super::{cut, is_false};
use crate::mattermost::facts::PostFacts;
use crate::mattermost::types;
use crate::time::rfc3339;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::HashMap;

/// Messages longer than this many characters are cut in lists.
pub const MESSAGE_CUT: usize = 4000;

/// A post's permalink. `_redirect` lets Mattermost find the team, so no team lookup is needed.
pub fn permalink(base_url: &str, post_id: &str) -> String {
    format!("{base_url}/_redirect/pl/{post_id}")
}

/// The permalink of any post of a page, with `{id}` for the post's id.
pub fn permalink_pattern(base_url: &str) -> String {
    permalink(base_url, "{id}")
}

/// The user ids a page of these posts needs usernames for.
pub fn authors<'a>(posts: impl IntoIterator<Item = &'a types::Post>) -> Vec<String> {
    posts.into_iter().map(|p| p.author().to_string()).collect()
}

/// One emoji's reactions on a post.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReactionCount {
    pub emoji: String,
    pub count: u32,
    /// You reacted with it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub mine: bool,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PostItem {
    pub id: String,
    pub time: String,
    /// The author's username (`author_id` when it is not known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author_id: Option<String>,
    pub message: String,
    /// The whole message's length, when `message` was cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_length: Option<usize>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub message_cut: bool,
    /// Mattermost's post type, for a system message (`system_join_channel`, say).
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply_count: Option<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub participants: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub file_ids: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edited: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub pinned: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<ReactionCount>,
    /// The channel's id, in lists that span channels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel_id: Option<String>,
    /// The channel as a person names it (`~name`, `@username`, a group's names), when it is yours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// true for a post you had already read, shown for context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read: Option<bool>,
}

/// What showing posts needs to know: usernames by id, and the person's own id (for `mine`).
pub struct Shown<'a> {
    pub usernames: &'a HashMap<String, String>,
    pub me: &'a str,
}

impl PostItem {
    /// The item of a post; `max` is the message length beyond which the message is cut.
    pub fn of(p: &types::Post, shown: &Shown<'_>, max: Option<usize>) -> PostItem {
        let names = shown.usernames;
        let author = names.get(p.author()).cloned();
        let (message, message_length) = cut(p.message(), max);
        let participants = p
            .participants
            .iter()
            .flatten()
            .filter_map(|u| match (&u.username, &u.id) {
                (Some(name), _) if !name.is_empty() => Some(name.clone()),
                (_, Some(id)) => Some(names.get(id).cloned().unwrap_or_else(|| id.clone())),
                (_, None) => None,
            })
            .collect();
        PostItem {
            id: p.id().to_string(),
            time: rfc3339(p.created()),
            author_id: author.is_none().then(|| p.author().to_string()),
            author,
            message,
            message_cut: message_length.is_some(),
            message_length,
            kind: p.kind().map(str::to_string),
            root_id: p.root().map(str::to_string),
            reply_count: p.reply_count.filter(|n| *n > 0),
            participants,
            file_ids: p.file_ids.clone().unwrap_or_default(),
            edited: p.edit_at.filter(|t| *t > 0).map(rfc3339),
            pinned: p.is_pinned == Some(true),
            reactions: reaction_counts(p, shown.me),
            channel_id: None,
            channel: None,
            read: None,
        }
    }

    /// The same item, saying which channel it is in.
    pub fn in_channel(mut self, channel_id: &str, label: Option<&str>) -> PostItem {
        self.channel_id = Some(channel_id.to_string());
        self.channel = label.map(str::to_string);
        self
    }
}

/// A post's reactions from its metadata, one per emoji in the order each was first used.
fn reaction_counts(p: &types::Post, me: &str) -> Vec<ReactionCount> {
    let Some(reactions) = p.metadata.as_ref().and_then(|m| m.reactions.as_ref()) else {
        return Vec::new();
    };
    let mut sorted: Vec<&types::Reaction> = reactions.iter().collect();
    sorted.sort_by_key(|r| (r.create_at.unwrap_or(0), r.emoji_name.clone()));
    let mut out: Vec<ReactionCount> = Vec::new();
    for r in sorted {
        let emoji = r.emoji_name.clone().unwrap_or_default();
        let mine = r.user_id.as_deref() == Some(me) && !me.is_empty();
        match out.iter_mut().find(|c| c.emoji == emoji) {
            Some(c) => {
                c.count += 1;
                c.mine |= mine;
            }
            None => out.push(ReactionCount {
                emoji,
                count: 1,
                mine,
            }),
        }
    }
    out
}
