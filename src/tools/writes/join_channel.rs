//! `join_channel`: joins a public channel of one of the person's teams, after they confirmed (the
//! channel sees "<person> joined the channel"). A channel they are in already is not sent for.

use super::common::Membership;
use super::common::{self, place, writes};
use crate::calls::{CHANNEL_READ, CHANNEL_STATS, Call, ME, Source, USERNAMES};
use crate::confirm::{self, Question};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::{ChannelFacts, ChannelKind};
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use serde::Deserialize;

/// Joining: adding the person to the channel (`user_ids`, so the answer is always an array).
const JOIN: Call = Call {
    operation: "AddChannelMember",
    params: &[
        ("channel_id", Source::Arg("channel")),
        (
            "body.user_ids",
            Source::Fixed("[the person's id]", "joining is adding oneself"),
        ),
        (
            "body.user_id",
            Source::Omitted("user_ids is sent instead, so the answer is always an array"),
        ),
        (
            "body.post_root_id",
            Source::Omitted("members are added from no thread"),
        ),
    ],
};

pub(crate) const TOOL: Tool = Tool {
    name: "join_channel",
    title: "Join a channel",
    description: "Joins a public channel of your teams. Asks first: its members see you join.",
    toolset: Toolset::Writes,
    args: &[super::CHANNEL],
    answer: Answer::One,
    hints: writes(false, true),
    asks: Asks::First("the channel's members see that you joined"),
    calls: &[CHANNEL_READ, CHANNEL_STATS, JOIN, ME, USERNAMES],
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
    if channel.kind().is_message() || channel.kind() == ChannelKind::Private {
        let mine = cx.my_channels().await?;
        if mine.iter().any(|c| c.id() == id) {
            let members = common::member_count(cx, &id).await?;
            return Ok(Membership {
                done: format!("You are in {where_} already; nothing was sent."),
                channel_id: id,
                channel: where_,
                members,
                changed: false,
                confirmed: None,
            });
        }
        return Err(ToolError::new(
            ErrorKind::Refused,
            format!(
                "{} is a private channel or a message: it cannot be joined, only be added to by its members.",
                quote(&input.args.channel)
            ),
        )
        .into());
    }
    if channel.archived() {
        return Err(ToolError::bad_argument(format!(
            "{} is archived: it cannot be joined.",
            quote(&input.args.channel)
        ))
        .into());
    }
    let (me, username) = common::me(cx).await?;
    let mine = cx.my_channels().await?;
    if mine.iter().any(|c| c.id() == id) {
        let members = common::member_count(cx, &id).await?;
        return Ok(Membership {
            done: format!("You are in {where_} already; nothing was sent."),
            channel_id: id,
            channel: where_,
            members,
            changed: false,
            confirmed: None,
        });
    }
    let question = Question {
        action: format!("Join {where_}"),
        text: format!(
            "Join {where_} as @{username}. Its members see \"@{username} joined the channel.\", and you read its \
             history.",
        ),
        binding: vec![id.clone()],
    };
    let cleared = confirm::ask(cx, &input, &question).await?;
    common::write(
        cx,
        &cleared,
        cx.api()
            .add_channel_member()
            .channel_id(&id)
            .body_map(|b| b.user_ids(Some(vec![me.clone()])))
            .send(),
        "channel",
        &id,
    )
    .await?;
    cx.forget_own_lists();
    let members = common::member_count(cx, &id).await?;
    Ok(Membership {
        done: format!("Joined {where_}."),
        channel_id: id,
        channel: where_,
        members,
        changed: true,
        confirmed: Some(cleared.how()),
    })
}
