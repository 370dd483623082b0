//! Teams: the user's teams, by id, by name, members, all teams (notes §9).

use serde_json::json;

use super::{Ctx, array, page_slice, team_not_found};
use crate::params::parse_bool;
use crate::render;
use crate::reply::{AppError, HResult, Reply};
use crate::world::{Team, TeamMember};

/// Open teams (AllowOpenInvite and type O, archived or not) are readable by anyone; invite-only
/// ones need membership (`PermissionViewTeam`).
fn readable(ctx: &Ctx, t: &Team) -> bool {
    t.open || ctx.w.can_view_team(&ctx.me, &t.id)
}

/// GET /api/v4/users/{user_id}/teams — every active membership in a non-deleted team, in no
/// particular order (the store has no ORDER BY).
// Mirrors server/channels/api4/team.go getTeamsForUser → app/team.go GetTeamsForUser →
// store/sqlstore/team_store.go GetTeamsByUserId
pub(crate) fn for_user(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    ctx.require_self_or_admin(&uid)?;
    let mut teams: Vec<Team> = ctx
        .w
        .teams
        .iter()
        .filter(|t| t.delete_at == 0 && ctx.w.is_team_member(&t.id, &uid))
        .cloned()
        .collect();
    // no ORDER BY in GetTeamsByUserId: rows in any order
    ctx.rng.shuffle(&mut teams);
    Ok(array(teams.iter().map(render::team).collect()))
}

/// GET /api/v4/users/{user_id}/teams/members
// Mirrors server/channels/api4/team.go getTeamMembersForUser → app/team.go GetTeamMembersForUser →
// store/sqlstore/team_store.go GetTeamsForUser
pub(crate) fn members_for_user(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    ctx.require_self_or_admin(&uid)?;
    let members: Vec<TeamMember> = ctx
        .w
        .team_members
        .iter()
        .filter(|m| m.user_id == uid && m.delete_at == 0)
        .cloned()
        .collect();
    Ok(array(
        members
            .iter()
            .map(|m| render::team_member(m, false))
            .collect(),
    ))
}

/// GET /api/v4/teams/{team_id}
// Mirrors server/channels/api4/team.go getTeam → app/team.go GetTeam →
// store/sqlstore/team_store.go Get
pub(crate) fn get(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("team_id")?;
    let t = ctx
        .w
        .teams
        .iter()
        .find(|t| t.id == id)
        .cloned()
        .ok_or_else(team_not_found)?;
    if !readable(ctx, &t) {
        return Err(AppError::permission());
    }
    Ok(Reply::json(&render::team(&t)))
}

/// GET /api/v4/teams/name/{team_name}
// Mirrors server/channels/api4/team.go getTeamByName → app/team.go GetTeamByName →
// store/sqlstore/team_store.go GetByName
pub(crate) fn by_name(ctx: &mut Ctx) -> HResult {
    let name = ctx.var("team_name");
    let t = ctx
        .w
        .teams
        .iter()
        .find(|t| t.name == name)
        .cloned()
        .ok_or_else(|| {
            AppError::not_found(
                "app.team.get_by_name.missing.app_error",
                "Unable to find the existing team.",
            )
        })?;
    if !readable(ctx, &t) {
        return Err(AppError::permission());
    }
    Ok(Reply::json(&render::team(&t)))
}

/// GET /api/v4/teams/{team_id}/members — OFFSET paging, `ORDER BY UserId` (or `Username` with
/// `sort=Username`); `exclude_deleted_users`.
// Mirrors server/channels/api4/team.go getTeamMembers → app/team.go GetTeamMembers →
// store/sqlstore/team_store.go GetMembers
pub(crate) fn members(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("team_id")?;
    if !ctx.w.can_view_team(&ctx.me, &id) {
        return Err(AppError::permission());
    }
    let exclude_deleted = parse_bool(ctx.q("exclude_deleted_users"));
    let mut members: Vec<TeamMember> = ctx
        .w
        .team_members
        .iter()
        .filter(|m| m.team_id == id && m.delete_at == 0)
        .filter(|m| {
            !exclude_deleted
                || ctx
                    .w
                    .user_by_id(&m.user_id)
                    .is_some_and(|u| u.delete_at == 0)
        })
        .cloned()
        .collect();
    match ctx.q("sort") {
        Some("Username") => members.sort_by_key(|m| {
            ctx.w
                .user_by_id(&m.user_id)
                .map(|u| u.username.clone())
                .unwrap_or_default()
        }),
        Some("") | None => members.sort_by(|a, b| a.user_id.cmp(&b.user_id)),
        // any other value: no ORDER BY and no error
        Some(_) => ctx.rng.shuffle(&mut members),
    }
    let page = page_slice(&members, ctx.paging.page, ctx.paging.per_page);
    Ok(array(
        page.iter().map(|m| render::team_member(m, false)).collect(),
    ))
}

/// GET /api/v4/teams — `ORDER BY DisplayName` only (ties in any order), OFFSET paging, archived
/// teams not filtered out; a regular user sees the open teams, an admin all of them.
// Mirrors server/channels/api4/team.go getAllTeams → app/team.go GetAllTeamsPage /
// GetAllTeamsPageWithCount → store/sqlstore/team_store.go GetAllPage
pub(crate) fn list(ctx: &mut Ctx) -> HResult {
    let admin = ctx.is_admin();
    let mut teams: Vec<Team> = ctx
        .w
        .teams
        .iter()
        .filter(|t| admin || t.open)
        .cloned()
        .collect();
    ctx.rng
        .sort_ties_shuffled(&mut teams, |t| t.display_name.clone());
    let total = teams.len();
    let page = page_slice(&teams, ctx.paging.page, ctx.paging.per_page);
    let items: Vec<_> = page.iter().map(render::team).collect();
    if parse_bool(ctx.q("include_total_count")) {
        return Ok(Reply::json(&json!({"teams": items, "total_count": total})));
    }
    Ok(array(items))
}
