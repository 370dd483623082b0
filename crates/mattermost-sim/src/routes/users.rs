//! Users: me/by id, by ids, by usernames, by email, search, list, autocomplete, statuses (notes §7, §9).

use serde_json::{Value, json};

use super::{Ctx, array, page_slice, user_not_found};
use crate::ids::is_valid_id;
use crate::params::{atoi, parse_bool};
use crate::render;
use crate::reply::{AppError, HResult, Reply};
use crate::world::User;

fn render_user(ctx: &Ctx, u: &User) -> Value {
    render::user(u, u.id == ctx.me)
}

/// GET /api/v4/users/{user_id} (`me` allowed).
// Mirrors server/channels/api4/user.go getUser → app/user.go GetUser →
// store/sqlstore/user_store.go Get
pub(crate) fn get(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("user_id")?;
    let u = ctx.w.user_by_id(&id).ok_or_else(user_not_found)?;
    let etag = render::etag(&[u.update_at.to_string(), (u.id == ctx.me).to_string()]);
    if ctx.etag_matches(&etag) {
        return Ok(Reply::not_modified(&etag));
    }
    Ok(Reply::json(&render_user(ctx, u)).header("ETag", &etag))
}

/// GET /api/v4/users/username/{username}
// Mirrors server/channels/api4/user.go getUserByUsername → app/user.go GetUserByUsername →
// store/sqlstore/user_store.go GetByUsername
pub(crate) fn by_username(ctx: &mut Ctx) -> HResult {
    let name = ctx.var("username");
    let u = ctx.w.users.iter().find(|u| u.username == name).ok_or_else(|| {
        AppError::not_found("app.user.get_by_username.app_error", "Unable to find an existing account matching your username for this team. This team may require an invite from the team owner to join.")
    })?;
    Ok(Reply::json(&render_user(ctx, u)))
}

/// GET /api/v4/users/email/{email}
// Mirrors server/channels/api4/user.go getUserByEmail → app/user.go GetUserByEmail →
// store/sqlstore/user_store.go GetByEmail
pub(crate) fn by_email(ctx: &mut Ctx) -> HResult {
    let email = ctx.var("email").to_lowercase();
    // web/context.go SanitizeEmail → SetInvalidURLParam when model.IsValidEmail fails
    let valid = email.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty() && !domain.is_empty() && !email.contains(char::is_whitespace)
    }) && !email.contains(['<', '>']);
    if !valid {
        return Err(AppError::invalid_url_param("email"));
    }
    let u = ctx
        .w
        .users
        .iter()
        .find(|u| u.email.to_lowercase() == email)
        .ok_or_else(user_not_found)?;
    Ok(Reply::json(&render_user(ctx, u)))
}

fn string_array(body: &[u8]) -> Option<Vec<String>> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let a = v.as_array()?;
    Some(
        a.iter()
            .filter_map(|x| x.as_str().map(|s| s.to_string()))
            .collect(),
    )
}

/// POST /api/v4/users/ids — unknown ids are left out; `ORDER BY Username`.
// Mirrors server/channels/api4/user.go getUsersByIds → app/user.go GetUsersByIds →
// store/sqlstore/user_store.go GetProfileByIds
pub(crate) fn by_ids(ctx: &mut Ctx) -> HResult {
    let ids = string_array(ctx.body).unwrap_or_default();
    if ids.is_empty() {
        return Err(AppError::invalid_param("user_ids"));
    }
    let since = ctx.q("since").and_then(atoi).unwrap_or(0);
    let mut users: Vec<&User> = ctx
        .w
        .users
        .iter()
        .filter(|u| ids.contains(&u.id) && (since == 0 || u.update_at > since))
        .collect();
    users.sort_by(|a, b| a.username.cmp(&b.username));
    Ok(array(users.iter().map(|u| render_user(ctx, u)).collect()))
}

/// POST /api/v4/users/usernames
// Mirrors server/channels/api4/user.go getUsersByNames → app/user.go GetUsersByUsernames →
// store/sqlstore/user_store.go GetProfilesByUsernames
pub(crate) fn by_usernames(ctx: &mut Ctx) -> HResult {
    let names = string_array(ctx.body).unwrap_or_default();
    if names.is_empty() {
        return Err(AppError::invalid_param("usernames"));
    }
    let mut users: Vec<&User> = ctx
        .w
        .users
        .iter()
        .filter(|u| names.contains(&u.username))
        .collect();
    users.sort_by(|a, b| a.username.cmp(&b.username));
    Ok(array(users.iter().map(|u| render_user(ctx, u)).collect()))
}

/// `user_store.go` performSearch → generateSearchQuery: the term loses its `*` (the LIKE escape
/// character), and every whitespace-separated word, leading `@` trimmed, must be a substring
/// (`LIKE '%word%'`, case-insensitive) of the username, first or last name, nickname or email (the
/// simulated server shows emails and full names), or equal the user id.
fn matches_term(u: &User, term: &str) -> bool {
    let term = term.replace('*', "").to_lowercase();
    term.split_whitespace().all(|w| {
        let w = w.trim_start_matches('@');
        u.id == w
            || [
                &u.username,
                &u.first_name,
                &u.last_name,
                &u.nickname,
                &u.email,
            ]
            .iter()
            .any(|f| f.to_lowercase().contains(w))
    })
}

fn in_channel(ctx: &Ctx, channel_id: &str, user_id: &str) -> bool {
    ctx.w.member(channel_id, user_id).is_some()
}

/// POST /api/v4/users/search — no paging; `limit` 0 → 100, negative or above 1000 → 400 (checked
/// after the permissions); `ORDER BY Username ASC LIMIT limit`; inactive users only with
/// `allow_inactive`. `in_channel_id`/`not_in_channel_id` need read_channel (channel membership) and
/// `team_id`/`not_in_team_id` view_team; one filter applies, in the order of `app/user.go`
/// SearchUsers: without_team, in_channel_id (team ignored), not_in_channel_id (within team_id),
/// not_in_team_id, else team_id (or everyone).
// Mirrors server/channels/api4/user.go searchUsers → app/user.go SearchUsers →
// store/sqlstore/user_store.go Search / SearchInChannel / SearchNotInChannel / SearchNotInTeam /
// SearchWithoutTeam (performSearch, generateSearchQuery)
pub(crate) fn search(ctx: &mut Ctx) -> HResult {
    let Some(body) = ctx.json_body().filter(|b| b.is_object()) else {
        return Err(AppError::invalid_param("props"));
    };
    let s = |k: &str| {
        body.get(k)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let b = |k: &str| body.get(k).and_then(|v| v.as_bool()).unwrap_or(false);
    let limit = match body.get("limit") {
        None | Some(Value::Null) => 0,
        Some(v) => match v.as_i64() {
            Some(n) => n,
            None => return Err(AppError::invalid_param("props")),
        },
    };
    let limit = if limit == 0 { 100 } else { limit };
    let term = s("term");
    if term.is_empty() {
        return Err(AppError::invalid_param("term"));
    }
    let team_id = s("team_id");
    let not_in_team = s("not_in_team_id");
    let in_channel_id = s("in_channel_id");
    let not_in_channel = s("not_in_channel_id");
    if !not_in_channel.is_empty() && team_id.is_empty() {
        return Err(AppError::invalid_param("team_id"));
    }
    for c in [&in_channel_id, &not_in_channel] {
        if !c.is_empty() {
            ctx.require_channel_member_or_admin(c)?;
        }
    }
    for t in [&team_id, &not_in_team] {
        if !t.is_empty() && !ctx.w.can_view_team(&ctx.me, t) {
            return Err(AppError::permission());
        }
    }
    if !(1..=1000).contains(&limit) {
        return Err(AppError::invalid_param("limit"));
    }
    let allow_inactive = b("allow_inactive");
    let without_team = b("without_team");
    let w = &*ctx.w;
    let in_scope = |u: &User| -> bool {
        if without_team {
            !w.team_members
                .iter()
                .any(|m| m.user_id == u.id && m.delete_at == 0)
        } else if !in_channel_id.is_empty() {
            w.member(&in_channel_id, &u.id).is_some()
        } else if !not_in_channel.is_empty() {
            w.is_team_member(&team_id, &u.id) && w.member(&not_in_channel, &u.id).is_none()
        } else if !not_in_team.is_empty() {
            !w.is_team_member(&not_in_team, &u.id)
        } else {
            team_id.is_empty() || w.is_team_member(&team_id, &u.id)
        }
    };
    let mut users: Vec<User> = w
        .users
        .iter()
        .filter(|u| matches_term(u, &term))
        .filter(|u| allow_inactive || u.delete_at == 0)
        .filter(|u| in_scope(u))
        .cloned()
        .collect();
    users.sort_by(|a, b| a.username.cmp(&b.username));
    users.truncate(limit as usize);
    Ok(array(users.iter().map(|u| render_user(ctx, u)).collect()))
}

/// GET /api/v4/users — `Username ASC` (or the sort asked for), OFFSET page·per_page.
/// `active=true&inactive=true` writes the list and then appends a 400 AppError to the same 200 body.
// Mirrors server/channels/api4/user.go getUsers → app/user.go GetUsersPage / GetUsersInTeamPage /
// GetUsersInChannelPage / ... → store/sqlstore/user_store.go GetAllProfiles / GetProfiles /
// GetProfilesInChannel / ...
pub(crate) fn list(ctx: &mut Ctx) -> HResult {
    let in_team = ctx.q("in_team").unwrap_or("").to_string();
    let not_in_team = ctx.q("not_in_team").unwrap_or("").to_string();
    let in_channel_id = ctx.q("in_channel").unwrap_or("").to_string();
    let not_in_channel = ctx.q("not_in_channel").unwrap_or("").to_string();
    let without_team = parse_bool(ctx.q("without_team"));
    let active = parse_bool(ctx.q("active"));
    let inactive = parse_bool(ctx.q("inactive"));
    let sort = ctx.q("sort").unwrap_or("").to_string();
    if !not_in_channel.is_empty() && in_team.is_empty() {
        return Err(AppError::invalid_param("team_id"));
    }
    for (name, v) in [
        ("in_team", &in_team),
        ("not_in_team", &not_in_team),
        ("in_channel", &in_channel_id),
        ("not_in_channel", &not_in_channel),
    ] {
        if !v.is_empty() && !is_valid_id(v) {
            return Err(AppError::invalid_param(name));
        }
    }
    let sort_ok = match sort.as_str() {
        "" => true,
        "last_activity_at" | "create_at" => {
            !in_team.is_empty() && in_channel_id.is_empty() && not_in_team.is_empty()
        }
        "status" | "admin" => !in_channel_id.is_empty(),
        "display_name" => false,
        _ => false,
    };
    if !sort_ok {
        return Err(AppError::invalid_url_param("sort"));
    }
    let mut users: Vec<User> = ctx
        .w
        .users
        .iter()
        .filter(|u| in_team.is_empty() || ctx.w.is_team_member(&in_team, &u.id))
        .filter(|u| not_in_team.is_empty() || !ctx.w.is_team_member(&not_in_team, &u.id))
        .filter(|u| in_channel_id.is_empty() || in_channel(ctx, &in_channel_id, &u.id))
        .filter(|u| not_in_channel.is_empty() || !in_channel(ctx, &not_in_channel, &u.id))
        .filter(|u| {
            !without_team
                || !ctx
                    .w
                    .team_members
                    .iter()
                    .any(|m| m.user_id == u.id && m.delete_at == 0)
        })
        .filter(|u| !active || inactive || u.delete_at == 0)
        .filter(|u| !inactive || active || u.delete_at != 0)
        .cloned()
        .collect();
    let status_rank = |id: &str| match ctx
        .w
        .statuses
        .iter()
        .find(|s| s.user_id == id)
        .map(|s| s.status.as_str())
    {
        Some("online") => 0,
        Some("away") => 1,
        Some("dnd") => 2,
        _ => 3,
    };
    match sort.as_str() {
        "last_activity_at" => users.sort_by(|a, b| {
            b.last_activity_at
                .cmp(&a.last_activity_at)
                .then(a.username.cmp(&b.username))
        }),
        "create_at" => users.sort_by(|a, b| {
            b.create_at
                .cmp(&a.create_at)
                .then(a.username.cmp(&b.username))
        }),
        "status" => users.sort_by(|a, b| {
            status_rank(&a.id)
                .cmp(&status_rank(&b.id))
                .then(a.username.cmp(&b.username))
        }),
        _ => users.sort_by(|a, b| a.username.cmp(&b.username)),
    }
    let page = page_slice(&users, ctx.paging.page, ctx.paging.per_page);
    let list = Value::Array(page.iter().map(|u| render_user(ctx, u)).collect());
    let mut reply = Reply::json(&list);
    if active && inactive {
        let err = AppError::invalid_param("active");
        let mut tail = serde_json::to_vec(&err.json(&ctx.request_id)).unwrap_or_default();
        tail.push(b'\n');
        reply.body.extend(tail);
    }
    Ok(reply)
}

/// GET /api/v4/users/autocomplete — `limit` missing → 100, above 1000 clamped, not an integer → 0;
/// `in_channel` without `in_team` → 500.
// Mirrors server/channels/api4/user.go autocompleteUsers → app/user.go AutocompleteUsersInChannel
// / AutocompleteUsersInTeam / SearchUsersInTeam → store/sqlstore/user_store.go
// AutocompleteUsersInChannel / Search (performSearch)
pub(crate) fn autocomplete(ctx: &mut Ctx) -> HResult {
    let in_team = ctx.q("in_team").unwrap_or("").to_string();
    let in_channel_id = ctx.q("in_channel").unwrap_or("").to_string();
    let name = ctx.q("name").unwrap_or("").to_string();
    let limit = match ctx.q("limit") {
        None => 100,
        Some(s) => atoi(s).unwrap_or(0).min(1000),
    };
    if !in_channel_id.is_empty() && in_team.is_empty() {
        return Err(AppError::new(
            500,
            "api.user.autocomplete_users.missing_team_id.app_error",
            "Team id parameter is required to autocomplete by channel.",
        ));
    }
    let matches = |u: &&User| u.delete_at == 0 && (name.is_empty() || matches_term(u, &name));
    let take = |mut v: Vec<&User>| -> Vec<Value> {
        v.sort_by(|a, b| a.username.cmp(&b.username));
        v.into_iter()
            .take(limit.max(0) as usize)
            .map(|u| render_user(ctx, u))
            .collect()
    };
    let out = if !in_channel_id.is_empty() {
        let inside: Vec<&User> = ctx
            .w
            .users
            .iter()
            .filter(matches)
            .filter(|u| in_channel(ctx, &in_channel_id, &u.id))
            .collect();
        let outside: Vec<&User> = ctx
            .w
            .users
            .iter()
            .filter(matches)
            .filter(|u| {
                !in_channel(ctx, &in_channel_id, &u.id) && ctx.w.is_team_member(&in_team, &u.id)
            })
            .collect();
        json!({"users": take(inside), "out_of_channel": take(outside)})
    } else if !in_team.is_empty() {
        let v: Vec<&User> = ctx
            .w
            .users
            .iter()
            .filter(matches)
            .filter(|u| ctx.w.is_team_member(&in_team, &u.id))
            .collect();
        json!({"users": take(v)})
    } else {
        let v: Vec<&User> = ctx.w.users.iter().filter(matches).collect();
        json!({"users": take(v)})
    };
    Ok(Reply::json(&out))
}

fn status_json(ctx: &Ctx, id: &str) -> Value {
    match ctx.w.statuses.iter().find(|s| s.user_id == id) {
        Some(s) => render::status(s),
        None => {
            json!({"user_id": id, "status": "offline", "manual": false, "last_activity_at": 0, "dnd_end_time": 0})
        }
    }
}

/// POST /api/v4/users/status/ids — empty array or an id that is not 26 characters → 400;
/// duplicates removed; unknown ids answered with synthetic `offline` statuses.
// Mirrors server/channels/api4/status.go getUserStatusesByIds → app/status.go GetUserStatusesByIds
// → store/sqlstore/status_store.go GetByIds
pub(crate) fn statuses_by_ids(ctx: &mut Ctx) -> HResult {
    let ids = string_array(ctx.body).unwrap_or_default();
    if ids.is_empty() || ids.iter().any(|i| i.len() != 26) {
        return Err(AppError::invalid_param("user_ids"));
    }
    let mut seen = Vec::<String>::new();
    for i in ids {
        if !seen.contains(&i) {
            seen.push(i);
        }
    }
    // cached (known) statuses first, then the rest
    let (known, unknown): (Vec<String>, Vec<String>) = seen
        .into_iter()
        .partition(|i| ctx.w.statuses.iter().any(|s| &s.user_id == i));
    let out: Vec<Value> = known
        .iter()
        .chain(unknown.iter())
        .map(|i| status_json(ctx, i))
        .collect();
    Ok(array(out))
}

/// GET /api/v4/users/{user_id}/status
// Mirrors server/channels/api4/status.go getUserStatus → app/status.go GetStatus →
// store/sqlstore/status_store.go Get
pub(crate) fn status(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("user_id")?;
    Ok(Reply::json(&status_json(ctx, &id)))
}
