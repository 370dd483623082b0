//! What is unread for the person, as Mattermost counts it: whether collapsed reply threads are on for
//! them, their channel memberships (which hold the read counts), a channel's unread posts and mentions
//! in the counting the person's clients use, whether they muted it, and the read posts shown before
//! the first unread one. `list_channels`, `read_unread` and `read_inbox` count and read alike through
//! these.

use crate::calls::{Call, Source};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::PostFacts;
use crate::mattermost::types::{self, Post};
use crate::paging::pages_with_ties::read_pages;
use crate::paging::posts_by_time::{self, Mode, Query};
use std::collections::HashMap;

/// How many read posts are shown before the first unread one.
pub const CONTEXT: u32 = 3;

/// The person's own display preference for collapsed reply threads (`cx.collapsed_threads`).
pub const CRT_PREFERENCE: Call = Call {
    operation: "GetPreferencesByCategory",
    params: &[
        (
            "user_id",
            Source::Fixed("me", "the person's own display settings"),
        ),
        (
            "category",
            Source::Fixed(
                "display_settings",
                "the category of the collapsed_reply_threads preference",
            ),
        ),
    ],
};

/// Whether collapsed reply threads are on for the person, as `app/channel.go` `IsCRTEnabledForUser`
/// decides: the server's `CollapsedThreads` (from its client configuration) when it is `disabled` or
/// `always_on`, otherwise the person's `display_settings`/`collapsed_reply_threads` preference, or
/// without one the setting's default (`default_on` on). With them on, a thread's replies are counted
/// in the thread (followed threads), not in its channel.
pub async fn collapsed_threads(cx: &Ctx) -> Result<bool, ToolError> {
    let config = super::config::client_config(cx).await?;
    let mode = config
        .get("CollapsedThreads")
        .map(String::as_str)
        .unwrap_or("always_on");
    match mode {
        "disabled" => return Ok(false),
        "default_on" | "default_off" => {}
        _ => return Ok(true),
    }
    let request = cx
        .api()
        .get_preferences_by_category()
        .user_id("me")
        .category("display_settings")
        .send();
    let chosen = match cx.send(request).await {
        Ok(list) => list
            .into_inner()
            .into_iter()
            .find(|p| p.name.as_deref() == Some("collapsed_reply_threads"))
            .and_then(|p| p.value),
        // No display preference at all: `GetPreferenceByCategoryForUser` answers 404.
        Err(e) if e.status() == Some(404) => None,
        Err(e) => return Err(cx.fail(e, "display preferences", "me")),
    };
    Ok(chosen.map_or(mode == "default_on", |v| v == "on"))
}

/// A channel's unread posts and mentions for the person, as their clients count them
/// (`mattermost-redux` `utils/channel_utils.ts` `calculateUnreadCount`): with collapsed reply
/// threads, root posts only (`total_msg_count_root - msg_count_root`, `mention_count_root`), the
/// replies being counted in their threads; without, every post (`total_msg_count - msg_count`,
/// `mention_count`).
pub fn unread_in(c: &types::Channel, m: &types::ChannelMember, crt: bool) -> (i64, i64) {
    if crt {
        let posts = c.total_msg_count_root.unwrap_or(0) - m.msg_count_root.unwrap_or(0);
        (posts.max(0), m.mention_count_root.unwrap_or(0))
    } else {
        let posts = c.total_msg_count.unwrap_or(0) - m.msg_count.unwrap_or(0);
        (posts.max(0), m.mention_count.unwrap_or(0))
    }
}

/// Whether the person muted the channel: its `mark_unread` notify prop is `mention`
/// (`mattermost-redux` `utils/channel_utils.ts` `isChannelMuted`), so only mentions bold it.
pub fn muted(m: &types::ChannelMember) -> bool {
    m.notify_props
        .as_ref()
        .and_then(|p| p.mark_unread.as_deref())
        == Some("mention")
}

/// The person's channel memberships (which hold the read counts) in these teams, by channel id; direct
/// and group messages come with every team. A person in no team has only direct and group messages,
/// read from the list of all their memberships.
pub async fn memberships(
    cx: &Ctx,
    team_ids: &[String],
) -> Result<HashMap<String, types::ChannelMember>, ToolError> {
    let mut out = HashMap::new();
    if team_ids.is_empty() {
        let all = read_pages(|page, per_page| async move {
            cx.call(
                cx.api()
                    .get_channel_members_with_team_data_for_user()
                    .user_id("me")
                    .page(page)
                    .per_page(per_page)
                    .send(),
                "channel memberships of the user",
                "me",
            )
            .await
        })
        .await?;
        for m in all {
            if let Some(id) = m.channel_id.clone() {
                out.insert(
                    id,
                    types::ChannelMember {
                        channel_id: m.channel_id,
                        user_id: m.user_id,
                        msg_count: m.msg_count,
                        msg_count_root: m.msg_count_root,
                        mention_count: m.mention_count,
                        mention_count_root: m.mention_count_root,
                        last_viewed_at: m.last_viewed_at,
                        last_update_at: m.last_update_at,
                        roles: m.roles,
                        notify_props: m.notify_props,
                    },
                );
            }
        }
        return Ok(out);
    }
    for (i, t) in team_ids.iter().enumerate() {
        crate::mattermost::call::step(|| {
            format!(
                "reading your channel memberships in team {} of {}",
                i + 1,
                team_ids.len()
            )
        });
        let list = cx
            .call(
                cx.api()
                    .get_channel_members_for_user()
                    .user_id("me")
                    .team_id(t)
                    .send(),
                "channel memberships in the team",
                t,
            )
            .await?;
        for m in list {
            if let Some(id) = m.channel_id.clone() {
                out.insert(id, m);
            }
        }
    }
    Ok(out)
}

/// The read posts just before the first unread one (or the latest posts, when nothing is unread),
/// oldest first: at most [`CONTEXT`], none written after `viewed` (one request).
pub async fn read_before(
    cx: &Ctx,
    q: &Query,
    first_unread: Option<&Post>,
    viewed: i64,
) -> Result<Vec<Post>, ToolError> {
    let mode = match first_unread {
        Some(p) => Mode::Before(p.id().to_string()),
        None => Mode::Newest,
    };
    let mut posts: Vec<Post> = posts_by_time::fetch(cx, q, &mode, CONTEXT)
        .await?
        .into_iter()
        .filter(|p| p.created() <= viewed)
        .collect();
    posts.sort_by(|a, b| (a.created(), a.id()).cmp(&(b.created(), b.id())));
    Ok(posts)
}
