//! `save_draft`: puts a message in the person's message box of a channel or thread, as a draft they
//! send (or not) themselves. Only they see it, so it never asks; it is checked like a post (length,
//! credentials) and never replaces a different draft already there.

use super::common::{self, place, write_failed, writes};
use super::drafts::{DRAFTS, draft_in, root_in};
use crate::calls::{CHANNEL_READ, CLIENT_CONFIG, Call, ME, MY_TEAMS, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::facts::ChannelFacts;
use crate::mattermost::types;
use crate::tool::{Answer, Asks, Input, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "save_draft",
    title: "Save a draft",
    description: "Puts a draft in your message box of a channel (or of `root`'s thread). Only you see it: never asks. Checked like a post; never replaces a different draft.",
    toolset: Toolset::Writes,
    args: &[super::CHANNEL, super::MESSAGE, super::ROOT],
    answer: Answer::One,
    hints: writes(false, true),
    asks: Asks::Never,
    calls: &[
        CHANNEL_READ,
        CLIENT_CONFIG,
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
            operation: "UpsertDraft",
            params: &[
                (
                    "body.user_id",
                    Source::Fixed("the person's id", "the person's own draft"),
                ),
                ("body.channel_id", Source::Arg("channel")),
                ("body.root_id", Source::Arg("root")),
                ("body.message", Source::Arg("message")),
                (
                    "body.file_ids",
                    Source::Omitted("drafts take no files here"),
                ),
            ],
        },
    ],
    code: crate::one!(run => DraftSaved),
};

#[derive(Deserialize)]
struct Args {
    channel: String,
    message: String,
    root: Option<String>,
}

/// A draft saved.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct DraftSaved {
    pub(crate) done: String,
    pub(crate) channel_id: String,
    pub(crate) channel: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) root_id: Option<String>,
    /// false when the same draft was there already: nothing was sent.
    pub(crate) changed: bool,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<DraftSaved, ToolError> {
    let args = &input.args;
    let channel = common::channel(cx, &args.channel, None).await?;
    let root = match &args.root {
        Some(r) => Some(root_in(cx, r, &channel).await?),
        None => None,
    };
    let limits = super::checks::limits(cx).await?;
    super::checks::length(input.tool, &args.message, &limits)?;
    super::checks::no_credential(cx, input.tool, "message", &args.message)?;
    let where_ = place(cx, &channel).await?;
    if let Some(d) = draft_in(cx, &channel, root.as_deref()).await? {
        let existing = d.message.unwrap_or_default();
        if existing == args.message {
            return Ok(DraftSaved {
                done: format!("That draft is in {where_} already; nothing was sent."),
                channel_id: channel.id().to_string(),
                channel: where_,
                root_id: root,
                changed: false,
            });
        }
        if !existing.trim().is_empty() {
            return Err(ToolError::new(
                ErrorKind::Refused,
                format!(
                    "You have another draft in {where_}: \"{}\". It was left as it is: a draft is never replaced. \
                     Delete it with delete_draft first, or save a message that includes it.",
                    common::snippet(&existing, 200)
                ),
            ));
        }
    }
    let (me, _) = common::me(cx).await?;
    let body = types::UpsertDraftBody {
        user_id: Some(me),
        channel_id: channel.id().to_string(),
        root_id: root.clone(),
        message: args.message.clone(),
        file_ids: None,
    };
    cx.send(cx.api().upsert_draft().body(body).send())
        .await
        .map_err(|e| write_failed(cx, e, "channel", channel.id()))?;
    Ok(DraftSaved {
        done: format!("Saved the draft in your message box of {where_}."),
        channel_id: channel.id().to_string(),
        channel: where_,
        root_id: root,
        changed: true,
    })
}
