//! Channels as tools show them: what a channel is, and, for the person's own channels, what is unread
//! and mentions them there.

use super::fields::is_false;
use crate::mattermost::facts::{ChannelFacts, ChannelKind};
use crate::mattermost::types;
use crate::time::rfc3339;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::HashMap;

/// A channel: id, name, display name, kind, team, purpose, header, archived flag, last post time and
/// post count; for
/// one of the person's channels, the unread posts, the mentions and when they last viewed it; for a
/// direct message, the other person.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChannelItem {
    pub id: String,
    pub name: String,
    pub display_name: String,
    /// public, private, direct or group.
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_id: Option<String>,
    /// The team's URL name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purpose: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub archived: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_post: Option<String>,
    /// How many posts the channel holds, replies included (Mattermost's own count, kept on the channel).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub posts: Option<i64>,
    /// The other person of a direct message, by username.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub with: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unread: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mentions: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_viewed: Option<String>,
    /// false when you are not a member (a public channel you have not joined).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<bool>,
}

impl ChannelItem {
    /// The item of a channel; `team_name` is its team's URL name when known.
    pub fn of(c: &types::Channel, team_name: Option<&str>) -> ChannelItem {
        let nonempty = |s: &Option<String>| s.clone().filter(|v| !v.is_empty());
        ChannelItem {
            id: c.id().to_string(),
            name: c.name().to_string(),
            display_name: c.display_name().to_string(),
            kind: c.kind().as_str().to_string(),
            team_id: nonempty(&c.team_id),
            team: team_name.map(str::to_string),
            purpose: nonempty(&c.purpose),
            header: nonempty(&c.header),
            archived: c.archived(),
            last_post: Some(c.last_post_at()).filter(|t| *t > 0).map(rfc3339),
            posts: c.total_msg_count,
            with: None,
            unread: None,
            mentions: None,
            last_viewed: None,
            member: None,
        }
    }

    /// One of the person's channels: a direct message named by the other person (`display_name`
    /// `@bob`, `with` `bob`), and, from the membership, the unread posts, the mentions and when the
    /// person last viewed it.
    pub fn mine(
        c: &types::Channel,
        team_name: Option<&str>,
        with: Option<&str>,
        member: Option<&types::ChannelMember>,
    ) -> ChannelItem {
        let mut item = ChannelItem::of(c, team_name);
        if let Some(name) = with {
            item.display_name = format!("@{name}");
            item.with = Some(name.to_string());
        }
        if let Some(m) = member {
            item.unread = Some(unread_posts(c, m));
            item.mentions = Some(m.mention_count.unwrap_or(0));
            item.last_viewed = m.last_viewed_at.filter(|t| *t > 0).map(rfc3339);
        }
        item
    }
}

/// How many posts of a channel the person has not read: the channel's total less the member's count.
pub fn unread_posts(c: &types::Channel, m: &types::ChannelMember) -> i64 {
    (c.total_msg_count.unwrap_or(0) - m.msg_count.unwrap_or(0)).max(0)
}

/// A channel as a post, thread, file or draft names it: `~name` for a team channel, `@username` for a
/// direct message (when the other person's username is known), the display name of a group message.
pub fn channel_label(c: &types::Channel, me: &str, usernames: &HashMap<String, String>) -> String {
    match c.kind() {
        ChannelKind::Direct => {
            let other = c.other_person(me).unwrap_or(me);
            match usernames.get(other) {
                Some(u) => format!("@{u}"),
                None => c.name().to_string(),
            }
        }
        ChannelKind::Group => c.display_name().to_string(),
        _ => format!("~{}", c.name()),
    }
}
