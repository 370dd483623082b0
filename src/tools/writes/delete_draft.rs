//! `delete_draft`: deletes the person's draft in a channel, or in a thread with `root`. Only they see
//! it, so it never asks; the answer gives the deleted text back. No draft: nothing is sent.

use super::common::{self, place, write_failed, writes};
use super::drafts::{DRAFTS, draft_in, root_in};
use crate::calls::{CHANNEL_READ, Call, ME, MY_TEAMS, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::ChannelFacts;
use crate::tool::{Answer, Asks, Input, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "delete_draft",
    title: "Delete a draft",
    description: "Deletes your draft in a channel (or `root`'s thread) and gives its text back. Never asks.",
    toolset: Toolset::Writes,
    args: &[super::CHANNEL, super::ROOT],
    answer: Answer::One,
    hints: writes(true, true),
    asks: Asks::Never,
    calls: &[
        CHANNEL_READ,
        ME,
        MY_TEAMS,
        USERNAMES,
        DRAFTS,
        Call {
            operation: "GetPost",
            params: &[
                ("post_id", Source::Arg("root")),
                (
                    "include_deleted",
                    Source::Omitted("a deleted post has no thread"),
                ),
            ],
        },
        Call {
            operation: "DeleteDraft",
            params: &[
                (
                    "user_id",
                    Source::Fixed("the person's id", "the person's own draft"),
                ),
                ("channel_id", Source::Arg("channel")),
            ],
        },
        Call {
            operation: "DeleteDraftForThread",
            params: &[
                (
                    "user_id",
                    Source::Fixed("the person's id", "the person's own draft"),
                ),
                ("channel_id", Source::Arg("channel")),
                ("thread_id", Source::Arg("root")),
            ],
        },
    ],
    code: crate::one!(run => DraftDeleted),
};

#[derive(Deserialize)]
struct Args {
    channel: String,
    root: Option<String>,
}

/// A draft deleted.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct DraftDeleted {
    pub(crate) done: String,
    pub(crate) channel_id: String,
    pub(crate) channel: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) root_id: Option<String>,
    /// false when there was no draft: nothing was sent.
    pub(crate) deleted: bool,
    /// The deleted draft's text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<DraftDeleted, ToolError> {
    let args = &input.args;
    let channel = common::channel(cx, &args.channel, None).await?;
    let root = match &args.root {
        Some(r) => Some(root_in(cx, r, &channel).await?),
        None => None,
    };
    let where_ = place(cx, &channel).await?;
    let Some(draft) = draft_in(cx, &channel, root.as_deref()).await? else {
        return Ok(DraftDeleted {
            done: format!("You have no draft in {where_}; nothing was sent."),
            channel_id: channel.id().to_string(),
            channel: where_,
            root_id: root,
            deleted: false,
            message: None,
        });
    };
    let (me, _) = common::me(cx).await?;
    let sent = match &root {
        Some(r) => {
            cx.send(
                cx.api()
                    .delete_draft_for_thread()
                    .user_id(&me)
                    .channel_id(channel.id())
                    .thread_id(r)
                    .send(),
            )
            .await
        }
        None => {
            cx.send(
                cx.api()
                    .delete_draft()
                    .user_id(&me)
                    .channel_id(channel.id())
                    .send(),
            )
            .await
        }
    };
    sent.map_err(|e| write_failed(cx, e, "channel", channel.id()))?;
    Ok(DraftDeleted {
        done: format!("Deleted your draft in {where_}."),
        channel_id: channel.id().to_string(),
        channel: where_,
        root_id: root,
        deleted: true,
        message: draft.message,
    })
}
