//! A post as tools show it: `id`, `time`, `by` (the author's username), `text` (the message; a long one
//! cut, with its full length), its kind, thread (root id; reply count and participants on the root), files, edit time, pin,
//! and its reactions counted by emoji, with the ones the person used, from the post's own metadata (no
//! extra request). Permalinks are given
//! once per page as a pattern ([`permalink_pattern`]), not per post.

use super::author::{self, Author, From};
use super::fields::{cut, is_false};
use super::text;
use crate::mattermost::facts::PostFacts;
use crate::mattermost::types;
use crate::time::{rfc3339, rfc3339_seconds};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Messages longer than this many characters are cut in lists.
pub(crate) const MESSAGE_CUT: usize = 4000;

/// A post's permalink. `_redirect` lets Mattermost find the team, so no team lookup is needed.
pub(crate) fn permalink(base_url: &str, post_id: &str) -> String {
    format!("{base_url}/_redirect/pl/{post_id}")
}

/// The permalink of any post of a page, with `{id}` for the post's id.
pub(crate) fn permalink_pattern(base_url: &str) -> String {
    permalink(base_url, "{id}")
}

/// The user ids a page of these posts needs usernames for.
pub(crate) fn authors<'a>(posts: impl IntoIterator<Item = &'a types::Post>) -> Vec<String> {
    posts.into_iter().map(|p| p.author().to_string()).collect()
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct PostItem {
    pub(crate) id: String,
    /// When it was written, to the second (RFC 3339, UTC).
    pub(crate) time: String,
    /// Who wrote it, by username (`by_id` when the username is not known).
    #[serde(rename = "by", skip_serializing_if = "Option::is_none")]
    pub(crate) author: Option<String>,
    #[serde(rename = "by_id", skip_serializing_if = "Option::is_none")]
    pub(crate) author_id: Option<String>,
    /// Whose the post is when it is not an ordinary member's: you, a bot, a webhook, an app, a guest,
    /// or a user of another server (a shared channel).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) from: Option<From>,
    /// The message, invisible and direction-changing characters removed (empty when withheld).
    #[serde(rename = "text")]
    pub(crate) message: String,
    /// How many invisible or direction-changing characters were removed from the message: text hidden
    /// from the people who read the post in Mattermost.
    #[serde(rename = "invisible_removed", skip_serializing_if = "Option::is_none")]
    pub(crate) invisible_removed: Option<usize>,
    /// Why the text is not shown (`MATTERMOST_CONTENT=trusted-only`) and where to read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) withheld: Option<String>,
    /// The whole message's length, when `text` was cut.
    #[serde(rename = "text_length", skip_serializing_if = "Option::is_none")]
    pub(crate) message_length: Option<usize>,
    #[serde(rename = "text_cut", default, skip_serializing_if = "is_false")]
    pub(crate) message_cut: bool,
    /// Mattermost's post type, for a system message (`system_join_channel`, say).
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub(crate) kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) root_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reply_count: Option<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) participants: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) file_ids: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) edited: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) pinned: bool,
    /// How many reacted with each emoji.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) reactions: BTreeMap<String, u32>,
    /// The emoji you reacted with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) my_reactions: Vec<String>,
    /// The channel's id, in lists that span channels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) channel_id: Option<String>,
    /// The channel as a person names it (`~name`, `@username`, a group's names), when it is yours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) channel: Option<String>,
    /// true for a post you had already read, shown for context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) read: Option<bool>,
}

/// What showing posts needs to know: usernames by id, what Mattermost says of the authors (bot, guest,
/// remote: [`Author`], from `Ctx::authors`), and the person's own id.
pub(crate) struct Shown<'a> {
    pub(crate) usernames: &'a HashMap<String, String>,
    pub(crate) authors: &'a HashMap<String, Author>,
    pub(crate) me: &'a str,
}

impl PostItem {
    /// The item of a post; `max` is the message length beyond which the message is cut.
    pub(crate) fn of(p: &types::Post, shown: &Shown<'_>, max: Option<usize>) -> PostItem {
        let names = shown.usernames;
        let author = names.get(p.author()).cloned();
        let (reactions, my_reactions) = reaction_counts(p, shown.me);
        let from = author::from_of(p, shown.authors.get(p.author()), shown.me);
        let withheld = author::withheld(from);
        let (clean, removed) = text::clean(p.message());
        let (message, message_length) = match withheld {
            Some(_) => (String::new(), None),
            None => cut(&clean, max),
        };
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
            time: rfc3339_seconds(p.created()),
            author_id: author.is_none().then(|| p.author().to_string()),
            author,
            from,
            message,
            invisible_removed: (removed > 0 && withheld.is_none()).then_some(removed),
            withheld,
            message_cut: message_length.is_some(),
            message_length,
            kind: p.kind().map(str::to_string),
            root_id: p.root().map(str::to_string),
            // Mattermost gives every post of a thread the thread's reply count; shown on the root only.
            reply_count: p.reply_count.filter(|n| *n > 0 && p.root().is_none()),
            participants,
            file_ids: p.file_ids.clone().unwrap_or_default(),
            edited: p.edit_at.filter(|t| *t > 0).map(rfc3339),
            pinned: p.is_pinned == Some(true),
            reactions,
            my_reactions,
            channel_id: None,
            channel: None,
            read: None,
        }
    }

    /// The same item, saying which channel it is in.
    pub(crate) fn in_channel(mut self, channel_id: &str, label: Option<&str>) -> PostItem {
        self.channel_id = Some(channel_id.to_string());
        self.channel = label.map(str::to_string);
        self
    }
}

/// A post's reactions from its metadata: how many reacted with each emoji, and the emoji the person
/// reacted with.
fn reaction_counts(p: &types::Post, me: &str) -> (BTreeMap<String, u32>, Vec<String>) {
    let mut counts = BTreeMap::new();
    let mut mine = Vec::new();
    for r in p.metadata.iter().flat_map(|m| m.reactions.iter().flatten()) {
        let emoji = r.emoji_name.clone().unwrap_or_default();
        if !me.is_empty() && r.user_id.as_deref() == Some(me) && !mine.contains(&emoji) {
            mine.push(emoji.clone());
        }
        *counts.entry(emoji).or_insert(0) += 1;
    }
    mine.sort();
    (counts, mine)
}
