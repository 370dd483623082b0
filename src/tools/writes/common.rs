//! What the writing tools share: the person, the post or channel a write acts on and how it is named
//! in a question, how many people a channel holds, the rule that only the person's own posts are
//! edited or deleted, and the one retry an idempotent write may get.

use crate::confirm::{Cleared, Confirmed};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::{ChannelFacts, ChannelKind, PostFacts, TeamFacts};
use crate::mattermost::{MmError, types};
use crate::resolve;
use crate::tool::Hints;
use progenitor_client::ResponseValue;
use schemars::JsonSchema;
use serde::Serialize;
use std::time::Duration;

/// The hints of a tool that writes to this one Mattermost.
pub(crate) const fn writes(destructive: bool, idempotent: bool) -> Hints {
    Hints {
        read_only: false,
        destructive,
        idempotent,
        open_world: false,
    }
}

/// The person: their id and username.
pub(crate) async fn me(cx: &Ctx) -> Result<(String, String), ToolError> {
    let u = cx.me().await?;
    Ok((
        u.id.clone().unwrap_or_default(),
        u.username.clone().unwrap_or_default(),
    ))
}

/// The post `reference` (an id or a permalink) names, read now.
pub(crate) async fn read_post(cx: &Ctx, reference: &str) -> Result<types::Post, ToolError> {
    let id = resolve::post_id(reference)?;
    cx.call(cx.api().get_post().post_id(&id).send(), "post", reference)
        .await
}

/// A channel, read now.
pub(crate) async fn read_channel(cx: &Ctx, id: &str) -> Result<types::Channel, ToolError> {
    cx.call(cx.api().get_channel().channel_id(id).send(), "channel", id)
        .await
}

/// A channel `reference` names, read whole (resolution reads it only for names).
pub(crate) async fn channel(
    cx: &Ctx,
    reference: &str,
    team: Option<&str>,
) -> Result<types::Channel, ToolError> {
    let r = resolve::channel(cx, reference, team).await?;
    match r.channel {
        Some(c) => Ok(c),
        None => read_channel(cx, &r.id).await,
    }
}

/// How many people a channel holds.
pub(crate) async fn member_count(cx: &Ctx, channel_id: &str) -> Result<i64, ToolError> {
    let stats = cx
        .call(
            cx.api().get_channel_stats().channel_id(channel_id).send(),
            "channel",
            channel_id,
        )
        .await?;
    Ok(stats.member_count.unwrap_or(0))
}

/// How a channel is named in a question and an answer: `~town-square (Town Square, team Engineering)`,
/// `your direct message with @bob`, `the group message with @a, @b`.
pub(crate) async fn place(cx: &Ctx, c: &types::Channel) -> Result<String, ToolError> {
    let me = cx.my_id().await?;
    match c.kind() {
        ChannelKind::Direct => {
            let other = c.other_person(&me).unwrap_or("").to_string();
            if other == me {
                return Ok("your direct message with yourself".into());
            }
            let names = cx.usernames([other.clone()]).await?;
            Ok(format!(
                "your direct message with @{}",
                names.get(&other).cloned().unwrap_or(other)
            ))
        }
        ChannelKind::Group => Ok(format!("the group message {}", quote(c.display_name()))),
        _ => {
            let teams = cx.my_teams().await?;
            let team = teams
                .iter()
                .find(|t| t.id() == c.team_id())
                .map(|t| t.display_name().to_string())
                .unwrap_or_else(|| c.team_id().to_string());
            let private = if c.kind() == ChannelKind::Private {
                "private channel "
            } else {
                ""
            };
            Ok(format!(
                "{private}~{} ({}, team {team})",
                c.name(),
                c.display_name()
            ))
        }
    }
}

/// Text cut to `max` characters, with `…` when cut.
pub(crate) fn snippet(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out
}

/// Only the person's own posts are edited or deleted, whatever their token may do.
pub(crate) fn own_post(tool: &str, post: &types::Post, me: &str) -> Result<(), ToolError> {
    if post.author() != me {
        return Err(ToolError::new(
            ErrorKind::Refused,
            format!(
                "`{tool}` changes only your own posts, and post {} was written by someone else. This holds even when \
                 your account may change others' posts (an administrator's): ask its author instead.",
                quote(post.id())
            ),
        ));
    }
    if let Some(kind) = post.kind().filter(|k| k.starts_with("system_")) {
        return Err(ToolError::new(
            ErrorKind::Refused,
            format!(
                "Post {} is a system message ({kind}), which cannot be changed.",
                quote(post.id())
            ),
        ));
    }
    Ok(())
}

/// Sends a write that is idempotent by nature (pin, save, follow, removing a reaction) and sends it
/// once more when the first may not have arrived. Other writes are never retried this way.
pub(crate) async fn idempotent<T, F, Fut>(
    cx: &Ctx,
    _cleared: &Cleared,
    send_once: F,
) -> Result<T, MmError>
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<ResponseValue<T>, progenitor_client::Error<types::AppError>>>,
{
    match cx.send(send_once()).await {
        Err(e) if e.may_not_have_arrived() => {
            tokio::time::sleep(Duration::from_millis(300)).await;
            cx.send(send_once()).await.map(ResponseValue::into_inner)
        }
        other => other.map(ResponseValue::into_inner),
    }
}

/// Sends a write once (never retried blindly) and reads its answer; a failure says whether the write
/// may have happened.
pub(crate) async fn write<T>(
    cx: &Ctx,
    _cleared: &Cleared,
    request: impl Future<Output = Result<ResponseValue<T>, progenitor_client::Error<types::AppError>>>,
    what: &str,
    value: &str,
) -> Result<T, ToolError> {
    cx.send(request)
        .await
        .map(ResponseValue::into_inner)
        .map_err(|e| write_failed(cx, e, what, value))
}

/// A write's failure as a tool error about `what` named `value`, saying whether anything may have
/// been changed.
pub(crate) fn write_failed(cx: &Ctx, e: MmError, what: &str, value: &str) -> ToolError {
    let unsure = e.may_not_have_arrived();
    let mut err = cx.fail(e, what, value);
    if unsure {
        err.message.push_str(
            " The request may or may not have reached Mattermost: read it back before trying again.",
        );
    }
    err
}

/// A channel joined or left.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Membership {
    pub(crate) done: String,
    pub(crate) channel_id: String,
    pub(crate) channel: String,
    /// Its members now (you included when you are in it).
    pub(crate) members: i64,
    /// false when it already was as asked: nothing was sent.
    pub(crate) changed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) confirmed: Option<Confirmed>,
}
