//! `save_post`: saves a post for the person (Mattermost's flagged posts), or unsaves it with
//! `saved: false`. Only the person sees their saved posts, so it never asks. The post is read first
//! (Mattermost saves any id it is given); saving is idempotent by nature and sent once more when the
//! first request may not have arrived.

use super::common::{self, idempotent, write_failed, writes};
use crate::args::{Arg, Kind};
use crate::calls::{Call, ME, POST_READ, Source};
use crate::confirm;
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::PostFacts;
use crate::mattermost::types;
use crate::tool::{Answer, Asks, Input, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "save_post",
    title: "Save or unsave a post",
    description: "Saves a post, or unsaves it (saved=false). Only you see it: never asks.",
    toolset: Toolset::Writes,
    args: &[
        super::POST,
        Arg {
            name: "saved",
            kind: Kind::Flag,
            required: false,
            about: "false unsaves.",
            shapes: Some("chooses UpdatePreferences or DeletePreferences"),
        },
    ],
    answer: Answer::One,
    hints: writes(true, true),
    asks: Asks::Never,
    calls: &[
        POST_READ,
        ME,
        Call {
            operation: "UpdatePreferences",
            params: &[
                (
                    "user_id",
                    Source::Fixed("the person's id", "the person's own preferences"),
                ),
                (
                    "body",
                    Source::Fixed(
                        "[{user_id, category: flagged_post, name: <post id>, value: true}]",
                        "a saved post is a flagged_post preference",
                    ),
                ),
            ],
        },
        Call {
            operation: "DeletePreferences",
            params: &[
                (
                    "user_id",
                    Source::Fixed("the person's id", "the person's own preferences"),
                ),
                (
                    "body",
                    Source::Fixed(
                        "[{user_id, category: flagged_post, name: <post id>, value: true}]",
                        "unsaving deletes the flagged_post preference",
                    ),
                ),
            ],
        },
    ],
    code: crate::one!(run => Saved),
};

#[derive(Deserialize)]
struct Args {
    post: String,
    saved: Option<bool>,
}

/// A post saved or unsaved.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Saved {
    pub(crate) done: String,
    pub(crate) post_id: String,
    pub(crate) saved: bool,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Saved, ToolError> {
    let save = input.args.saved.unwrap_or(true);
    let post = common::read_post(cx, &input.args.post).await?;
    let id = post.id().to_string();
    let cleared = confirm::private(&input)?;
    let (me, _) = common::me(cx).await?;
    let pref = || {
        vec![types::Preference {
            user_id: Some(me.clone()),
            category: Some("flagged_post".into()),
            name: Some(id.clone()),
            value: Some("true".into()),
        }]
    };
    let sent = if save {
        idempotent(cx, &cleared, || {
            cx.api()
                .update_preferences()
                .user_id(&me)
                .body(pref())
                .send()
        })
        .await
    } else {
        idempotent(cx, &cleared, || {
            cx.api()
                .delete_preferences()
                .user_id(&me)
                .body(pref())
                .send()
        })
        .await
    };
    sent.map_err(|e| write_failed(cx, e, "post", &id))?;
    Ok(Saved {
        done: if save {
            "Saved the post.".into()
        } else {
            "Removed the post from your saved posts.".into()
        },
        post_id: id,
        saved: save,
    })
}
