//! `leave_channel`: leaves a channel the person is in, after they confirmed (the channel sees "<person>
//! left the channel"; a private channel is only rejoined when a member adds them back). A channel
//! they are not in is not sent for; the team's default channel and direct messages cannot be left.

use super::common::Membership;
use super::common::{self, place, writes};
use crate::calls::{CHANNEL_READ, CHANNEL_STATS, Call, ME, Source, USERNAMES};
use crate::confirm::{self, Question};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::{ChannelFacts, ChannelKind};
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use serde::Deserialize;

pub(crate) const TOOL: Tool = Tool {
    name: "leave_channel",
    title: "Leave a channel",
    description: "Leaves a channel (not town-square or a direct message). Asks first: members see you leave, and only a member can add you back to a private one.",
    toolset: Toolset::Writes,
    args: &[super::CHANNEL],
    answer: Answer::One,
    hints: writes(true, true),
    asks: Asks::First("the channel's members see that you left"),
    calls: &[
        CHANNEL_READ,
        CHANNEL_STATS,
        ME,
        USERNAMES,
        Call {
            operation: "RemoveUserFromChannel",
            params: &[
                ("channel_id", Source::Arg("channel")),
                (
                    "user_id",
                    Source::Fixed("the person's id", "only the person themself leaves"),
                ),
            ],
        },
    ],
    code: crate::one!(run => Membership),
};

#[derive(Deserialize)]
struct Args {
    channel: String,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Membership, Stop> {
    confirm::preflight(&input)?;
    let channel = common::channel(cx, &input.args.channel, None).await?;
    let id = channel.id().to_string();
    let where_ = place(cx, &channel).await?;
    if channel.kind() == ChannelKind::Direct {
        return Err(ToolError::new(
            ErrorKind::Refused,
            format!(
                "{} is a direct message: it cannot be left.",
                quote(&input.args.channel)
            ),
        )
        .into());
    }
    if channel.name() == "town-square" {
        return Err(ToolError::new(
            ErrorKind::Refused,
            "town-square is the team's default channel: Mattermost lets nobody leave it.",
        )
        .into());
    }
    let mine = cx.my_channels().await?;
    let members = common::member_count(cx, &id).await?;
    if !mine.iter().any(|c| c.id() == id) {
        return Ok(Membership {
            done: format!("You are not in {where_}; nothing was sent."),
            channel_id: id,
            channel: where_,
            members,
            changed: false,
            confirmed: None,
        });
    }
    let (me, username) = common::me(cx).await?;
    let private = if channel.kind() == ChannelKind::Private {
        " It is private: only a member can add you back."
    } else {
        ""
    };
    let question = Question {
        action: format!("Leave {where_}"),
        text: format!(
            "Leave {where_}. Its {} other members see \"@{username} left the channel.\"{private}",
            (members - 1).max(0)
        ),
        binding: vec![id.clone()],
    };
    let cleared = confirm::ask(cx, &input, &question).await?;
    common::write(
        cx,
        &cleared,
        cx.api()
            .remove_user_from_channel()
            .channel_id(&id)
            .user_id(&me)
            .send(),
        "channel",
        &id,
    )
    .await?;
    cx.forget_own_lists();
    Ok(Membership {
        done: format!("Left {where_}."),
        channel_id: id,
        channel: where_,
        members: (members - 1).max(0),
        changed: true,
        confirmed: Some(cleared.how()),
    })
}
