//! `get_channel`: one channel by any name, whether the person is a member, and, for a member, the
//! unread posts, mentions and member count.
//!
//! A public channel the person has not joined is shown too. Mattermost lets a team member read the
//! channel itself (api4/channel.go getChannel: `read_public_channel` on the team), but not their own
//! membership, which does not exist, nor the counts: getChannelMember and getChannelStats both need
//! `read_channel`, which only members hold, and answer 403. So a 403 for the membership means "not a
//! member, and no counts"; a 404 means a member-less reader that may still read the counts (a system
//! admin).

use super::common::{direct_names, my_item, team_names};
use super::{CHANNEL, TEAM_OF_CHANNEL};
use crate::calls::{Call, ME, MY_TEAMS, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::resolve;
use crate::show::ChannelItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::channels::channel_error;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const TOOL: Tool = Tool {
    name: "get_channel",
    title: "A channel",
    description: "One channel by id, name, display name, @username, URL or post permalink, with its post count \
                  and last post time, and whether you are a member (false for a public channel not joined); a \
                  member also gets unread, mentions and member_count.",
    toolset: Toolset::Channels,
    args: &[CHANNEL, TEAM_OF_CHANNEL],
    answer: Answer::One,
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetChannel",
            params: &[("channel_id", Source::Arg("channel"))],
        },
        Call {
            operation: "GetChannelMember",
            params: &[
                ("channel_id", Source::Arg("channel")),
                (
                    "user_id",
                    Source::Fixed(
                        "me",
                        "the user's own membership: whether they are in the channel, and what is unread",
                    ),
                ),
            ],
        },
        Call {
            operation: "GetChannelStats",
            params: &[("channel_id", Source::Arg("channel"))],
        },
        MY_TEAMS,
        ME,
        USERNAMES,
    ],
    code: crate::one!(run => ChannelAnswer),
};

/// A channel, with how many active people are in it when the person may know.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChannelAnswer {
    #[serde(flatten)]
    pub channel: ChannelItem,
    /// Active people in the channel; only members (and admins) may read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member_count: Option<i64>,
}

#[derive(Deserialize)]
struct Args {
    channel: String,
    team: Option<String>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<ChannelAnswer, ToolError> {
    let reference = input.args.channel.as_str();
    let id = resolve::channel_id(cx, reference, input.args.team.as_deref()).await?;
    let c = cx
        .send(cx.api().get_channel().channel_id(&id).send())
        .await
        .map_err(|e| channel_error(cx, e, reference))?
        .into_inner();
    let (member, counts_readable) = match cx
        .send(
            cx.api()
                .get_channel_member()
                .channel_id(&id)
                .user_id("me")
                .send(),
        )
        .await
    {
        Ok(m) => (Some(m.into_inner()), true),
        // No `read_channel`: not a member, and the counts are closed too.
        Err(e) if e.status() == Some(403) => (None, false),
        // `read_channel` without a membership (a system admin): the counts are open.
        Err(e) if e.status() == Some(404) => (None, true),
        Err(e) => return Err(cx.fail(e, "channel", reference)),
    };
    let member_count = if counts_readable {
        let stats = cx
            .call(
                cx.api().get_channel_stats().channel_id(&id).send(),
                "channel",
                reference,
            )
            .await?;
        stats.member_count
    } else {
        None
    };
    let teams = team_names(cx).await?;
    let (me, usernames) = direct_names(cx, &[&c]).await?;
    let mut item = my_item(&c, &teams, &me, &usernames, member.as_ref());
    item.member = Some(member.is_some());
    Ok(ChannelAnswer {
        channel: item,
        member_count,
    })
}
