//! What the draft tools share: the drafts call, and the draft a channel or thread holds.

use super::common::{self};
use crate::calls::{Call, Source};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::{ChannelFacts, PostFacts};
use crate::mattermost::types;

/// The person's drafts in the channel's team (direct and group message drafts are in every team).
pub(crate) const DRAFTS: Call = Call {
    operation: "GetDrafts",
    params: &[
        (
            "user_id",
            Source::Fixed("the person's id", "the person's own drafts"),
        ),
        (
            "team_id",
            Source::Fixed(
                "the channel's team, or the person's first team for a direct or group message",
                "drafts are listed per team",
            ),
        ),
    ],
};

/// The person's draft in a channel (or a thread of it), if any.
pub(crate) async fn draft_in(
    cx: &Ctx,
    channel: &types::Channel,
    root: Option<&str>,
) -> Result<Option<types::GetDraftsResponseItem>, ToolError> {
    let team = if channel.team_id().is_empty() {
        cx.my_teams()
            .await?
            .first()
            .and_then(|t| t.id.clone())
            .unwrap_or_default()
    } else {
        channel.team_id().to_string()
    };
    let (me, _) = common::me(cx).await?;
    // No drafts is Go's nil slice, `null`: the `null_array_responses` repair reads it as `[]`.
    let drafts = cx
        .call(
            cx.api().get_drafts().user_id(&me).team_id(&team).send(),
            "drafts of team",
            &team,
        )
        .await?;
    Ok(drafts.into_iter().find(|d| {
        d.channel_id.as_deref() == Some(channel.id())
            && d.root_id.as_deref().filter(|r| !r.is_empty()) == root
    }))
}

/// The root of the thread `root` names, in `channel`.
pub(crate) async fn root_in(
    cx: &Ctx,
    root: &str,
    channel: &types::Channel,
) -> Result<String, ToolError> {
    let post = common::read_post(cx, root).await?;
    if post.channel() != channel.id() {
        return Err(ToolError::bad_argument(format!(
            "The post {} is in another channel: a thread's draft is in the thread's channel.",
            crate::error::quote(root)
        )));
    }
    Ok(post.root().unwrap_or(post.id()).to_string())
}
