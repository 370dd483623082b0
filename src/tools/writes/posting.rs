//! Making a post, never twice, marked as written with an assistant.
//!
//! Every post carries a `pending_post_id` of its own (`<user id>:<32 random hex digits>`, unguessable,
//! at most 64 characters). Mattermost keeps the ids it saw for 30 seconds (`deduplicateCreatePost`):
//! the same id again answers the post it already made, and while the first request is still saving it
//! answers 500 `api.post.deduplicate_create_post.pending`. So after a cut connection, a timeout or a
//! proxy's 502-504 the request is sent again with the same id, and after the `pending` answer it waits
//! and asks again: at most one post is ever made.
//!
//! Every post carries `props.ai_generated_by` = the person's own user id. Mattermost accepts it because
//! it is the author (`FillInPostProps`) and adds `ai_generated_by_username`; with both set its web and
//! mobile apps show an AI indicator (a sparkle) beside the author's name, whose tooltip reads
//! "AI-generated".

use crate::confirm::Cleared;
use crate::confirm::{Confirmed, random_hex};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::{MmError, types};
use crate::show::permalink;
use schemars::JsonSchema;
use serde::Serialize;
use std::time::Duration;

/// The most times a post is sent (the first time and the retries).
const TRIES: u32 = 5;
/// The prop that marks a post as written with an assistant.
pub(crate) const AI_PROP: &str = "ai_generated_by";

/// What a message was: where it went and whom it reached.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct PostWritten {
    /// What was done, in a sentence.
    pub(crate) done: String,
    pub(crate) post_id: String,
    pub(crate) permalink: String,
    pub(crate) channel_id: String,
    /// The channel as the question named it.
    pub(crate) channel: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) root_id: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) file_ids: Vec<String>,
    /// The people in the channel besides you, who can read it.
    pub(crate) reached: i64,
    /// Whom its `@channel`, `@all` or `@here` notified.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) notified: Vec<String>,
    /// Marked as written with an AI assistant (`props.ai_generated_by`).
    pub(crate) marked_ai_generated: bool,
    pub(crate) confirmed: Confirmed,
    /// How many times it was sent again after a cut connection, a timeout or a save in progress (the
    /// same `pending_post_id` each time: one post).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) retries: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What to post.
pub(crate) struct Outgoing<'a> {
    pub(crate) channel_id: &'a str,
    pub(crate) message: &'a str,
    pub(crate) root_id: Option<&'a str>,
    pub(crate) file_ids: Vec<String>,
}

/// A made post and how many retries it took.
pub(crate) struct Made {
    pub(crate) post: types::Post,
    pub(crate) retries: u32,
}

/// The pending post id of a new post: the person's id, a colon and 128 random bits.
pub(crate) fn pending_post_id(me: &str) -> Result<String, ToolError> {
    Ok(format!("{me}:{}", random_hex(16)?))
}

/// Makes the post once, retrying with the same `pending_post_id` until Mattermost answers it.
pub(crate) async fn make(
    cx: &Ctx,
    _cleared: &Cleared,
    out: Outgoing<'_>,
) -> Result<Made, ToolError> {
    let me = cx.my_id().await?;
    let pending = pending_post_id(&me)?;
    let mut props = serde_json::Map::new();
    props.insert(AI_PROP.into(), serde_json::Value::String(me.clone()));
    let body = types::CreatePostBody {
        channel_id: out.channel_id.to_string(),
        message: out.message.to_string(),
        root_id: out.root_id.map(str::to_string),
        file_ids: (!out.file_ids.is_empty()).then(|| out.file_ids.clone()),
        props: Some(props),
        metadata: None,
        pending_post_id: Some(pending.clone()),
    };
    let mut retries = 0;
    let mut wait = Duration::from_millis(250);
    loop {
        let outcome = cx
            .send(cx.api().create_post().body(body.clone()).send())
            .await;
        let again = match &outcome {
            Ok(_) => false,
            Err(MmError::Api {
                status: 500, id, ..
            }) if id == "api.post.deduplicate_create_post.failed_to_get" => {
                return Err(ToolError::new(
                    ErrorKind::Changed,
                    "Mattermost made the post, and it has been deleted since (its de-duplication cannot find it): \
                     nothing more was posted. Read the channel before posting again.",
                ));
            }
            Err(MmError::Api {
                status: 500, id, ..
            }) => id == "api.post.deduplicate_create_post.pending",
            Err(e) => e.may_not_have_arrived(),
        };
        let out_of_time = crate::mattermost::call::current().is_some_and(|s| s.remaining() <= wait);
        if !again || retries + 1 >= TRIES || out_of_time {
            return match outcome {
                Ok(post) => Ok(Made {
                    post: post.into_inner(),
                    retries,
                }),
                Err(e) => {
                    let unsure = e.may_not_have_arrived()
                        || matches!(&e, MmError::Api { id, .. } if id == "api.post.deduplicate_create_post.pending");
                    let mut err = cx.fail(e, "channel", out.channel_id);
                    if unsure {
                        err.message.push_str(&format!(
                            " It was sent {} times with the same pending_post_id, so Mattermost made it at most once; \
                             read the channel before posting it again.",
                            retries + 1
                        ));
                    }
                    Err(err.with("retries", serde_json::json!(retries)))
                }
            };
        }
        if let Some(scope) = crate::mattermost::call::current() {
            scope.report(format!(
                "the post may not have arrived; sending it again with the same pending_post_id in {} ms",
                wait.as_millis()
            ));
        }
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(Duration::from_secs(4));
        retries += 1;
    }
}

/// The answer for a made post.
pub(crate) struct Reached {
    pub(crate) channel: String,
    pub(crate) reached: i64,
    pub(crate) notified: Vec<String>,
    pub(crate) confirmed: Confirmed,
}

impl PostWritten {
    pub(crate) fn of(cx: &Ctx, done: String, made: Made, reached: Reached) -> PostWritten {
        let p = made.post;
        let id = p.id.clone().unwrap_or_default();
        let marked = p
            .props
            .as_ref()
            .and_then(|m| m.get(AI_PROP))
            .and_then(serde_json::Value::as_str)
            .is_some_and(|s| !s.is_empty());
        PostWritten {
            done,
            permalink: permalink(cx.url(), &id),
            post_id: id,
            channel_id: p.channel_id.clone().unwrap_or_default(),
            channel: reached.channel,
            root_id: p.root_id.clone().filter(|r| !r.is_empty()),
            file_ids: p.file_ids.clone().unwrap_or_default(),
            reached: reached.reached,
            notified: reached.notified,
            marked_ai_generated: marked,
            confirmed: reached.confirmed,
            retries: made.retries,
        }
    }
}
