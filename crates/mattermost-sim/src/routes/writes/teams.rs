//! The team writes the live tests seed with: creating a team (with its default channels) and
//! archiving one.

use serde_json::Value;

use super::replies::{created, status_ok};
use crate::render;
use crate::reply::{AppError, HResult};
use crate::routes::Ctx;

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
