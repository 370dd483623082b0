//! `set_post_reminder`: Mattermost's "Remind me" on a post: at the time given, the system bot sends the
//! person a reminder about it. Only the person sees it, so it never asks. A later reminder for the same
//! post replaces the earlier one.

use super::common::{self, write_failed, writes};
use crate::args::{Arg, Kind};
use crate::calls::{Call, ME, POST_READ, Source};
use crate::context::Ctx;
use crate::error::{ToolError, quote};
use crate::mattermost::facts::PostFacts;
use crate::mattermost::types;
use crate::time::rfc3339;
use crate::tool::{Answer, Asks, Input, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "set_post_reminder",
    title: "Remind me about a post",
    description: "Has Mattermost remind you of a post at a time (it replaces an earlier reminder of that post). Never asks.",
    toolset: Toolset::Writes,
    args: &[
        super::POST,
        Arg {
            name: "at",
            kind: Kind::Time,
            required: true,
            about: "When (RFC 3339, a day or epoch ms), in the future.",
            shapes: None,
        },
    ],
    answer: Answer::One,
    hints: writes(true, true),
    asks: Asks::Never,
    calls: &[
        POST_READ,
        ME,
        Call {
            operation: "SetPostReminder",
            params: &[
                (
                    "user_id",
                    Source::Fixed("the person's id", "the person's own reminder"),
                ),
                ("post_id", Source::Arg("post")),
                ("body.target_time", Source::Arg("at")),
            ],
        },
    ],
    code: crate::one!(run => ReminderSet),
};

#[derive(Deserialize)]
struct Args {
    post: String,
    at: String,
}

/// A reminder set.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ReminderSet {
    pub(crate) done: String,
    pub(crate) post_id: String,
    /// When the reminder comes (whole seconds, as Mattermost keeps it).
    pub(crate) at: String,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<ReminderSet, ToolError> {
    let args = &input.args;
    let at = crate::time::parse(&args.at).unwrap_or(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    if at <= now {
        return Err(ToolError::bad_argument(format!(
            "`at` is {} ({}), which is not in the future. Give a later time.",
            quote(&args.at),
            rfc3339(at)
        )));
    }
    let post = common::read_post(cx, &args.post).await?;
    let (me, _) = common::me(cx).await?;
    let seconds = at / 1000;
    cx.send(
        cx.api()
            .set_post_reminder()
            .user_id(&me)
            .post_id(post.id())
            .body(types::SetPostReminderBody {
                target_time: seconds,
            })
            .send(),
    )
    .await
    .map_err(|e| write_failed(cx, e, "post", post.id()))?;
    Ok(ReminderSet {
        done: format!(
            "Mattermost will remind you of the post at {}.",
            rfc3339(seconds * 1000)
        ),
        post_id: post.id().to_string(),
        at: rfc3339(seconds * 1000),
    })
}
