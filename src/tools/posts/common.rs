//! What the post tools share: showing a page of posts (authors' usernames in one lookup, reactions,
//! the channel each is in), the channel or teams a tool reads, the fields a page of posts carries
//! besides its items, and reading Mattermost's answers that mean "empty" or "turned off".

use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::MmError;
use crate::paging::Page;
use crate::paging::posts_by_time::Posts;
use crate::resolve;
use crate::show::{self, PostItem};
use crate::time::rfc3339;
use crate::tools::shared::posts::post_items;
use schemars::JsonSchema;
use serde::Serialize;

/// The channel a channel tool reads, from its `channel` and `team` arguments.
pub(crate) async fn channel_of(
    cx: &Ctx,
    channel: &str,
    team: Option<&str>,
) -> Result<String, ToolError> {
    resolve::channel_id(cx, channel, team).await
}

/// The teams a tool reads: the one given, or all of the person's.
pub(crate) async fn teams_of(cx: &Ctx, team: Option<&str>) -> Result<Vec<String>, ToolError> {
    match team {
        Some(t) => Ok(vec![resolve::team_id(cx, t).await?]),
        None => Ok(cx
            .my_teams()
            .await?
            .iter()
            .filter_map(|t| t.id.clone())
            .collect()),
    }
}

/// A millisecond Mattermost holds more posts or threads in than it can be asked for.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Incomplete {
    pub(crate) time: String,
    pub(crate) note: String,
}

/// The note for a millisecond that holds 200 `what` or more.
pub(crate) fn incomplete(ms: i64, what: &str) -> Incomplete {
    Incomplete {
        time: rfc3339(ms),
        note: format!(
            "Mattermost holds 200 {what} or more in this one millisecond and can only be asked for 200 of them; \
             the others cannot be read in order. Search (search_posts) can still find them."
        ),
    }
}

/// What a page of one channel's posts carries besides its items.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ChannelPosts {
    pub(crate) channel_id: String,
    /// Any post's permalink: this with `{id}` replaced by the post's id.
    pub(crate) permalink: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) incomplete_millisecond: Option<Incomplete>,
}

impl ChannelPosts {
    pub(crate) fn of(cx: &Ctx, channel_id: &str, posts: &Posts) -> ChannelPosts {
        ChannelPosts {
            channel_id: channel_id.to_string(),
            permalink: show::permalink_pattern(cx.url()),
            incomplete_millisecond: posts
                .incomplete_millisecond
                .map(|ms| incomplete(ms, "posts")),
        }
    }
}

/// What a page of one channel's posts carries besides its items, when the list is read whole (no
/// millisecond can be left incomplete).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct InChannel {
    pub(crate) channel_id: String,
    /// Any post's permalink: this with `{id}` replaced by the post's id.
    pub(crate) permalink: String,
}

impl InChannel {
    pub(crate) fn of(cx: &Ctx, channel_id: &str) -> InChannel {
        InChannel {
            channel_id: channel_id.to_string(),
            permalink: show::permalink_pattern(cx.url()),
        }
    }
}

/// What a page of posts from many channels carries besides its items.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ManyPosts {
    /// Any post's permalink: this with `{id}` replaced by the post's id.
    pub(crate) permalink: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) incomplete_millisecond: Option<Incomplete>,
}

impl ManyPosts {
    pub(crate) fn of(cx: &Ctx, incomplete_ms: Option<i64>, what: &str) -> ManyPosts {
        ManyPosts {
            permalink: show::permalink_pattern(cx.url()),
            incomplete_millisecond: incomplete_ms.map(|ms| incomplete(ms, what)),
        }
    }
}

/// A page of one channel's posts, with where the next starts.
pub(crate) async fn channel_page(
    cx: &Ctx,
    posts: Posts,
    channel_id: &str,
) -> Result<Page<PostItem, ChannelPosts>, ToolError> {
    let items = post_items(cx, &posts.posts, Some(show::MESSAGE_CUT)).await?;
    let extra = ChannelPosts::of(cx, channel_id, &posts);
    Ok(Page::new(items).continue_at(posts.next).with_extra(extra))
}

/// The error for a failed request about `what` named `value`; a 501 (an administrator turned the
/// feature off) says which `feature` is off and which `setting` turns it on.
pub(crate) fn failed_or_disabled(
    cx: &Ctx,
    e: MmError,
    what: &str,
    value: &str,
    feature: &str,
    setting: &str,
) -> ToolError {
    if e.status() == Some(501) {
        ToolError::new(
            ErrorKind::Disabled,
            format!(
                "{feature} are turned off on this Mattermost ({setting}), so there are none to list. Ask its \
                 administrator to turn them on."
            ),
        )
    } else {
        cx.fail(e, what, value)
    }
}
