//! `follow_thread`: follows the thread a post is in, or stops following it with `following: false`.
//! Only the person sees which threads they follow, so it never asks. Following is idempotent by
//! nature and sent once more when the first request may not have arrived.

use super::common::{self, idempotent, write_failed, writes};
use crate::args::{Arg, Kind};
use crate::calls::{Call, ME, MY_TEAMS, POST_CHANNEL_READ, POST_READ, Source};
use crate::confirm;
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::{ChannelFacts, PostFacts};
use crate::tool::{Answer, Asks, Input, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

const PARAMS: &[(&str, Source)] = &[
    (
        "user_id",
        Source::Fixed("the person's id", "the person's own threads"),
    ),
    (
        "team_id",
        Source::Fixed(
            "the channel's team, or the person's first team for a direct or group message",
            "threads are listed per team; a message's threads are in every team",
        ),
    ),
    ("thread_id", Source::Arg("post")),
];

pub(crate) const TOOL: Tool = Tool {
    name: "follow_thread",
    title: "Follow or unfollow a thread",
    description: "Follows the thread of any post in it, or unfollows it (following=false). Only you see it: never asks.",
    toolset: Toolset::Writes,
    args: &[
        super::POST,
        Arg {
            name: "following",
            kind: Kind::Flag,
            required: false,
            about: "false unfollows.",
            shapes: Some("chooses StartFollowingThread or StopFollowingThread"),
        },
    ],
    answer: Answer::One,
    hints: writes(true, true),
    asks: Asks::Never,
    calls: &[
        POST_READ,
        POST_CHANNEL_READ,
        ME,
        MY_TEAMS,
        Call {
            operation: "StartFollowingThread",
            params: PARAMS,
        },
        Call {
            operation: "StopFollowingThread",
            params: PARAMS,
        },
    ],
    code: crate::one!(run => Followed),
};

#[derive(Deserialize)]
struct Args {
    post: String,
    following: Option<bool>,
}

/// A thread followed or not.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Followed {
    pub(crate) done: String,
    /// The thread's root post.
    pub(crate) thread_id: String,
    pub(crate) following: bool,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Followed, ToolError> {
    let follow = input.args.following.unwrap_or(true);
    let post = common::read_post(cx, &input.args.post).await?;
    let root = post.root().unwrap_or(post.id()).to_string();
    let channel = common::read_channel(cx, post.channel()).await?;
    let team = if channel.team_id().is_empty() {
        cx.my_teams()
            .await?
            .first()
            .and_then(|t| t.id.clone())
            .unwrap_or_default()
    } else {
        channel.team_id().to_string()
    };
    let cleared = confirm::private(&input)?;
    let (me, _) = common::me(cx).await?;
    let sent = if follow {
        idempotent(cx, &cleared, || {
            cx.api()
                .start_following_thread()
                .user_id(&me)
                .team_id(&team)
                .thread_id(&root)
                .send()
        })
        .await
    } else {
        idempotent(cx, &cleared, || {
            cx.api()
                .stop_following_thread()
                .user_id(&me)
                .team_id(&team)
                .thread_id(&root)
                .send()
        })
        .await
    };
    sent.map_err(|e| write_failed(cx, e, "thread", &root))?;
    Ok(Followed {
        done: if follow {
            "Following the thread: its replies show in your followed threads.".into()
        } else {
            "No longer following the thread.".into()
        },
        thread_id: root,
        following: follow,
    })
}
