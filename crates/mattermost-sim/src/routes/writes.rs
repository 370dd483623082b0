//! The write routes, each mirroring the `api4` handler and `App` function named in its docs, with
//! the real status codes, error ids, response shapes and side effects: posts (create with the
//! pending-post-id de-duplication, edit, delete, pin), reactions, saved posts and other
//! preferences, thread following, channel membership, channels (create, DM, GM, archive), team
//! membership, statuses, drafts, post reminders and file uploads. The submodules hold them by area;
//! this module keeps the team writes the live tests seed with and the helpers they all share.

mod channels;
mod decode;
mod drafts;
mod members;
mod posts;
mod prefs;
mod reactions;
mod uploads;
mod users;

pub(crate) use channels::{archive_channel, create_channel, create_direct, create_group};
pub(crate) use drafts::{delete_draft, upsert_draft};
pub(crate) use members::{add_channel_member, remove_channel_member, remove_team_member};
pub(crate) use posts::{
    create_post, delete_post, patch_post, pin_post, set_reminder, unpin_post, update_post,
};
pub(crate) use prefs::{delete_preferences, follow_thread, unfollow_thread, update_preferences};
pub(crate) use reactions::{delete_reaction, save_reaction};
pub(crate) use uploads::upload_files;
pub(crate) use users::{remove_custom_status, update_custom_status, update_status};

use serde_json::{Value, json};

use super::Ctx;
use crate::render;
use crate::reply::{AppError, HResult, Reply};

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

/// A 201 with a JSON body (`w.WriteHeader(http.StatusCreated)`).
pub(crate) fn created(v: &Value) -> Reply {
    let mut r = Reply::json(v);
    r.status = 201;
    r
}

/// `ReturnStatusOK`: `{"status":"OK"}`.
pub(crate) fn status_ok() -> Reply {
    Reply::json(&json!({"status": "OK"}))
}

/// `c.SetInvalidParam(name)` (`api.context.invalid_body_param.app_error`, 400).
pub(crate) fn invalid(name: &str) -> AppError {
    AppError::invalid_param(name)
}

/// An AppError with the given status, id and (English) message.
pub(crate) fn app_error(status: u16, id: &str, message: &str) -> AppError {
    AppError::new(status, id, message)
}

/// `api.context.invalid_param.app_error` ("Invalid {{.Name}} parameter.").
pub(crate) fn invalid_app_param(name: &str) -> AppError {
    AppError::new(
        400,
        "api.context.invalid_param.app_error",
        &format!("Invalid {name} parameter."),
    )
}

/// `App.GetUser` for an unknown id: 404 `app.user.missing_account.const`.
pub(crate) fn missing_account() -> AppError {
    super::user_not_found()
}

/// POST /api/v4/teams — `{name, display_name, type}` (`App.CreateTeamWithUser`): a new team gets
/// its default channels `town-square` and `off-topic`, and the creator joins the team (as team
/// admin) and both channels, with the join messages.
pub(crate) fn create_team(ctx: &mut Ctx) -> HResult {
    let b = body(ctx)?;
    let (name, display) = (text(&b, "name")?, text(&b, "display_name")?);
    let open = b.get("type").and_then(Value::as_str) != Some("I");
    let existed = ctx.w.team_id(&name).is_some();
    let id = ctx.w.team(&name, &display, open);
    let me = ctx.me.clone();
    if !existed {
        ctx.w
            .create_default_channels(&id, &me, crate::clock::now_ms());
    }
    ctx.w.add_to_team(&id, &me);
    let team = ctx
        .w
        .teams
        .iter()
        .find(|t| t.id == id)
        .ok_or_else(|| AppError::invalid_param("team"))?;
    Ok(created(&render::team(team)))
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
    Ok(status_ok())
}
