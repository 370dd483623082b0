//! `pin_post`: pins a post to its channel, or unpins it with `pinned: false`, after the person
//! confirmed. A post already as asked is not sent for. Pinning is idempotent by nature, so it is sent
//! once more when the first request may not have arrived.

use super::common::{self, idempotent, place, snippet, write_failed, writes};
use crate::args::{Arg, Kind};
use crate::calls::{Call, MY_TEAMS, POST_CHANNEL_READ, POST_READ, Source, USERNAMES};
use crate::confirm::{self, Confirmed, Question};
use crate::context::Ctx;
use crate::mattermost::facts::PostFacts;
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "pin_post",
    title: "Pin or unpin a post",
    description: "Pins a post to its channel, or unpins it (pinned=false). Asks first.",
    toolset: Toolset::Writes,
    args: &[
        super::POST,
        Arg {
            name: "pinned",
            kind: Kind::Flag,
            required: false,
            about: "false unpins.",
            shapes: Some("chooses PinPost or UnpinPost"),
        },
    ],
    answer: Answer::One,
    hints: writes(true, true),
    asks: Asks::First("everyone in the channel sees its pinned posts"),
    calls: &[
        POST_READ,
        POST_CHANNEL_READ,
        USERNAMES,
        MY_TEAMS,
        Call {
            operation: "PinPost",
            params: &[("post_id", Source::Arg("post"))],
        },
        Call {
            operation: "UnpinPost",
            params: &[("post_id", Source::Arg("post"))],
        },
    ],
    code: crate::one!(run => Pinned),
};

#[derive(Deserialize)]
struct Args {
    post: String,
    pinned: Option<bool>,
}

/// A post pinned or unpinned.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Pinned {
    pub(crate) done: String,
    pub(crate) post_id: String,
    pub(crate) pinned: bool,
    /// false when it already was as asked: nothing was sent.
    pub(crate) changed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) confirmed: Option<Confirmed>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Pinned, Stop> {
    confirm::preflight(&input)?;
    let pin = input.args.pinned.unwrap_or(true);
    let post = common::read_post(cx, &input.args.post).await?;
    let id = post.id().to_string();
    let (verb, done) = if pin {
        ("Pin", "pinned")
    } else {
        ("Unpin", "unpinned")
    };
    if post.is_pinned.unwrap_or(false) == pin {
        return Ok(Pinned {
            done: format!("The post was already {done}; nothing was sent."),
            post_id: id,
            pinned: pin,
            changed: false,
            confirmed: None,
        });
    }
    let channel = common::read_channel(cx, post.channel()).await?;
    let where_ = place(cx, &channel).await?;
    let question = Question {
        action: format!("{verb} this post in {where_}"),
        text: format!(
            "{verb} this post in {where_}:\n\n\"{}\"\n\nEveryone in the channel sees its pinned posts.",
            snippet(post.message(), 200)
        ),
        binding: vec![id.clone(), pin.to_string()],
    };
    let cleared = confirm::ask(cx, &input, &question).await?;
    let sent = if pin {
        idempotent(cx, &cleared, || cx.api().pin_post().post_id(&id).send()).await
    } else {
        idempotent(cx, &cleared, || cx.api().unpin_post().post_id(&id).send()).await
    };
    sent.map_err(|e| write_failed(cx, e, "post", &id))?;
    Ok(Pinned {
        done: format!(
            "{} the post in {where_}.",
            if pin { "Pinned" } else { "Unpinned" }
        ),
        post_id: id,
        pinned: pin,
        changed: true,
        confirmed: Some(cleared.how()),
    })
}
