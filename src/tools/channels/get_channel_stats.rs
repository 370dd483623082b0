//! `get_channel_stats`: a channel's counts (members, guests, pinned posts, files). Mattermost gives them
//! only to the channel's members (api4/channel.go getChannelStats needs `read_channel`), so a public
//! channel the person has not joined is refused as `not_member`; no other operation of the API gives
//! these counts to a non-member.

use super::{CHANNEL, TEAM_OF_CHANNEL};
use crate::calls::{Call, Source};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::resolve;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::channels::refused;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "get_channel_stats",
    title: "A channel's counts",
    description: "Counts of a channel you are in: active members, guests, pinned posts and files.",
    toolset: Toolset::Channels,
    args: &[CHANNEL, TEAM_OF_CHANNEL],
    answer: Answer::One,
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetChannelStats",
            params: &[("channel_id", Source::Arg("channel"))],
        },
        Call {
            operation: "GetChannel",
            params: &[("channel_id", Source::Arg("channel"))],
        },
    ],
    code: crate::one!(run => ChannelStats),
};

/// A channel's counts.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct ChannelStats {
    pub(crate) channel_id: String,
    /// Active people only.
    pub(crate) member_count: i64,
    pub(crate) guest_count: i64,
    pub(crate) pinned_post_count: i64,
    pub(crate) file_count: i64,
}

#[derive(Deserialize)]
struct Args {
    channel: String,
    team: Option<String>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<ChannelStats, ToolError> {
    let reference = input.args.channel.as_str();
    let id = resolve::channel_id(cx, reference, input.args.team.as_deref()).await?;
    let s = match cx
        .send(cx.api().get_channel_stats().channel_id(&id).send())
        .await
    {
        Ok(s) => s.into_inner(),
        Err(e) => return Err(refused(cx, e, &id, reference, "its counts").await),
    };
    Ok(ChannelStats {
        channel_id: id,
        member_count: s.member_count.unwrap_or(0),
        guest_count: s.guest_count.unwrap_or(0),
        pinned_post_count: s.pinnedpost_count.unwrap_or(0),
        file_count: s.files_count.unwrap_or(0),
    })
}
