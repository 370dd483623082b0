//! The few writes the live tests seed their fixtures with, so that the live suite itself can be run
//! against the simulator: create a team, a channel and a post (an administrator may set `create_at`,
//! as `api4/post.go` `createPost` allows `manage_system`), and archive a team. Answers 201 with the
//! created object, as the real handlers do.

use super::Ctx;
use crate::http::{AppError, HResult, Reply};
use crate::render::{self, PostOpts};
use crate::world::ChannelKind;
use serde_json::Value;

fn body(ctx: &Ctx) -> Result<Value, AppError> {
    ctx.json_body()
        .filter(Value::is_object)
        .ok_or_else(|| AppError::invalid_param("body"))
}

fn text(b: &Value, name: &str) -> Result<String, AppError> {
    b.get(name)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .ok_or_else(|| AppError::invalid_param(name))
}

fn created(v: &Value) -> Reply {
    let mut r = Reply::json(v);
    r.status = 201;
    r
}

/// POST /api/v4/teams — `{name, display_name, type}`; the creator joins it.
pub(crate) fn create_team(ctx: &mut Ctx) -> HResult {
    let b = body(ctx)?;
    let (name, display) = (text(&b, "name")?, text(&b, "display_name")?);
    let open = b.get("type").and_then(Value::as_str) != Some("I");
    let id = ctx.w.team(&name, &display, open);
    let me = ctx.me.clone();
    ctx.w.add_to_team(&id, &me);
    let team = ctx
        .w
        .teams
        .iter()
        .find(|t| t.id == id)
        .ok_or_else(|| AppError::invalid_param("team"))?;
    Ok(created(&render::team(team)))
}

/// POST /api/v4/channels — `{team_id, name, display_name, type}`; the creator joins it.
pub(crate) fn create_channel(ctx: &mut Ctx) -> HResult {
    let b = body(ctx)?;
    let (team, name, display) = (
        text(&b, "team_id")?,
        text(&b, "name")?,
        text(&b, "display_name")?,
    );
    let kind = if b.get("type").and_then(Value::as_str) == Some("P") {
        ChannelKind::Private
    } else {
        ChannelKind::Public
    };
    let id = ctx.w.channel(&team, &name, &display, kind);
    let me = ctx.me.clone();
    ctx.w.join(&id, &me);
    let channel = ctx
        .w
        .channel_by_id(&id)
        .ok_or_else(|| AppError::invalid_param("channel"))?;
    Ok(created(&render::channel(channel)))
}

/// POST /api/v4/posts — `{channel_id, message, root_id?, create_at?}`.
pub(crate) fn create_post(ctx: &mut Ctx) -> HResult {
    let b = body(ctx)?;
    let (channel, message) = (text(&b, "channel_id")?, text(&b, "message")?);
    let asked = b
        .get("create_at")
        .and_then(Value::as_i64)
        .filter(|t| *t > 0);
    let at = match asked {
        Some(t) if ctx.is_admin() => t,
        _ => crate::http::now_ms(),
    };
    let me = ctx.me.clone();
    let id = match b
        .get("root_id")
        .and_then(Value::as_str)
        .filter(|r| !r.is_empty())
    {
        Some(root) => ctx.w.reply(root, &me, at, &message),
        None => ctx.w.post(&channel, &me, at, &message),
    };
    let post = ctx
        .w
        .post_by_id(&id)
        .ok_or_else(|| AppError::invalid_param("post"))?;
    Ok(created(&render::post(
        &*ctx.w,
        post,
        PostOpts {
            crt: false,
            extended: false,
            viewer: None,
        },
    )))
}

/// DELETE /api/v4/teams/{team_id} — archives the team (a system or team admin may).
pub(crate) fn archive_team(ctx: &mut Ctx) -> HResult {
    let team = ctx.require_id("team_id")?;
    if !ctx.is_admin() {
        return Err(AppError::new(
            403,
            "api.context.permissions.app_error",
            "You do not have the appropriate permissions.",
        ));
    }
    ctx.w.archive_team(&team);
    Ok(Reply::json(&serde_json::json!({"status": "OK"})))
}
