//! Channel and team membership: join or add (`api4/channel.go` `addChannelMember` →
//! `App.AddChannelMember`), leave or remove (`removeChannelMember` → `App.RemoveUserFromChannel`)
//! and leave a team (`api4/team.go` `removeTeamMember` → `App.RemoveUserFromTeam` →
//! `App.LeaveTeam`).

use serde_json::Value;

use super::decode::first_value;
use super::replies::{app_error, created, invalid, missing_account, status_ok};
use crate::clock::now_ms;
use crate::ids::is_valid_id;
use crate::render;
use crate::reply::{AppError, HResult};
use crate::routes::{Ctx, team_not_found};
use crate::world::ChannelMember;
use crate::world::perms::Perm;

/// `api4/channel.go` `maxListSize`.
const MAX_LIST_SIZE: usize = 1000;

/// `ChannelMember.SanitizeForCurrentUser`: another user's read times are hidden (-1).
fn member_json(m: &ChannelMember, viewer: &str) -> Value {
    let mut v = render::channel_member(m);
    if m.user_id != viewer
        && let Some(o) = v.as_object_mut()
    {
        o.insert("last_viewed_at".into(), Value::from(-1));
        o.insert("last_update_at".into(), Value::from(-1));
    }
    v
}

fn no_member() -> AppError {
    app_error(
        404,
        "app.channel.get_member.missing.app_error",
        "No channel member found for that user ID and channel ID.",
    )
}

/// `App.AddChannelMember` for one user (the caller checked the permissions and that the user is
/// not a member yet).
fn add_one(
    ctx: &mut Ctx,
    channel_id: &str,
    team_id: &str,
    user_id: &str,
    root: &str,
) -> Result<ChannelMember, AppError> {
    let user = ctx
        .w
        .user_by_id(user_id)
        .cloned()
        .ok_or_else(missing_account)?;
    if user.delete_at > 0 {
        return Err(app_error(
            403,
            "app.channel.add_member.deleted_user.app_error",
            "Unable to add the user as a member of the channel.",
        ));
    }
    let tm = ctx
        .w
        .team_members
        .iter()
        .find(|m| m.team_id == team_id && m.user_id == user_id)
        .cloned()
        .ok_or_else(|| {
            app_error(
                404,
                "app.team.get_member.missing.app_error",
                "No team member found for that user ID and team ID.",
            )
        })?;
    if tm.delete_at > 0 {
        return Err(app_error(
            400,
            "api.channel.add_user.to.channel.failed.deleted.app_error",
            "Failed to add user to channel because they have been removed from the team.",
        ));
    }
    let now = now_ms();
    let me = ctx.me.clone();
    ctx.w.add_member_with_message(channel_id, user_id, &me, now);
    if !root.is_empty() {
        ctx.w.follow_from_channel_add(user_id, root, now);
    }
    ctx.w
        .member(channel_id, user_id)
        .cloned()
        .ok_or_else(no_member)
}

/// POST /api/v4/channels/{channel_id}/members — `api4/channel.go` `addChannelMember`. The body is
/// `{user_id}` or `{user_ids: [...]}` (at most 1000; an invalid id → 400), with an optional
/// `post_root_id` (a post of this channel, 400/404 otherwise; the added users then follow that
/// thread). A DM or GM → 400 `api.channel.add_user_to_channel.type.app_error`. Public channel:
/// joining oneself needs `join_public_channels` (team members have it), adding others
/// `manage_public_channel_members` (channel members have it); private:
/// `manage_private_channel_members` (channel members) → 403. Per user: already a member → kept as
/// is; unknown → 404; deactivated → 403; not in the channel's team → 404
/// `app.team.get_member.missing.app_error`, removed from it → 400. Joining oneself posts
/// "<user> joined the channel." (`system_join_channel`), adding another "<user> added to the
/// channel by <me>." (`system_add_to_channel`). The last error is answered only when nobody was
/// added. 201 with the member (`user_id` sent and one member) or the list; other users' read
/// times are -1.
pub(crate) fn add_channel_member(ctx: &mut Ctx) -> HResult {
    let cid = ctx.require_id("channel_id")?;
    let props = match first_value(ctx.body) {
        Some(Value::Object(m)) => m,
        _ => Default::default(),
    };
    let mut user_ids: Vec<String> = Vec::new();
    if let Some(Value::Array(items)) = props.get("user_ids") {
        if items.len() > MAX_LIST_SIZE {
            return Err(invalid("user_ids"));
        }
        for item in items {
            match item.as_str() {
                Some(u) if is_valid_id(u) => user_ids.push(u.to_string()),
                _ => return Err(invalid("user_id in user_ids")),
            }
        }
    } else {
        match props.get("user_id").and_then(Value::as_str) {
            Some(u) if is_valid_id(u) => user_ids.push(u.to_string()),
            _ => return Err(invalid("user_id or user_ids")),
        }
    }
    let mut root = String::new();
    if let Some(Value::String(r)) = props.get("post_root_id")
        && !r.is_empty()
    {
        if !is_valid_id(r) {
            return Err(invalid("post_root_id"));
        }
        let post = ctx.live_post(r)?;
        if post.channel_id != cid {
            return Err(invalid("post_root_id"));
        }
        root = r.clone();
    }
    let channel = ctx.channel(&cid)?;
    if channel.kind == "D" || channel.kind == "G" {
        return Err(app_error(
            400,
            "api.channel.add_user_to_channel.type.app_error",
            "Can not add user to this channel type.",
        ));
    }
    let me = ctx.me.clone();
    let open = channel.kind == "O";
    let can_add_self = open
        && ctx
            .w
            .has_team_permission(&me, &channel.team_id, Perm::JoinPublicChannels);
    let can_add_others = open
        && ctx
            .w
            .has_channel_permission(&me, &cid, Perm::ManagePublicChannelMembers)
            .0;
    if channel.kind == "P"
        && !ctx
            .w
            .has_channel_permission(&me, &cid, Perm::ManagePrivateChannelMembers)
            .0
    {
        return Err(AppError::permission());
    }
    let mut last_error = None;
    let mut members: Vec<ChannelMember> = Vec::new();
    for uid in &user_ids {
        let existing = ctx.w.member(&cid, uid).cloned();
        if open {
            let is_self = *uid == me;
            if is_self && existing.is_some() {
                members.extend(existing);
                continue;
            } else if (is_self && !can_add_self) || (!is_self && !can_add_others) {
                last_error = Some(AppError::permission());
                continue;
            }
        }
        if let Some(m) = existing {
            members.push(m);
            continue;
        }
        match add_one(ctx, &cid, &channel.team_id, uid, &root) {
            Ok(m) => members.push(m),
            Err(e) => last_error = Some(e),
        }
    }
    if let Some(e) = last_error
        && members.is_empty()
    {
        return Err(e);
    }
    let single = props.get("user_id").and_then(Value::as_str);
    if single.is_some() && members.len() == 1 && Some(members[0].user_id.as_str()) == single {
        return Ok(created(&member_json(&members[0], &me)));
    }
    let list: Vec<Value> = members.iter().map(|m| member_json(m, &me)).collect();
    Ok(created(&Value::Array(list)))
}

/// DELETE /api/v4/channels/{channel_id}/members/{user_id} — `api4/channel.go`
/// `removeChannelMember` → `App.RemoveUserFromChannel`: unknown channel or user → 404; a DM or GM
/// → 400 `api.channel.remove_channel_member.type.app_error`; removing another user needs
/// `manage_public_channel_members` / `manage_private_channel_members` (403); `town-square` → 400
/// `api.channel.remove.default.app_error`; not a member → 404
/// `app.channel.get_member.missing.app_error`. The membership and the user's thread
/// memberships of the channel go, then "@<user> left the channel." (`system_leave_channel`) or
/// "@<user> removed from the channel." (`system_remove_from_channel`, by the remover), archived
/// channels included. `{"status":"OK"}`.
pub(crate) fn remove_channel_member(ctx: &mut Ctx) -> HResult {
    let cid = ctx.require_id("channel_id")?;
    let uid = ctx.require_id("user_id")?;
    let channel = ctx.channel(&cid)?;
    if ctx.w.user_by_id(&uid).is_none() {
        return Err(missing_account());
    }
    if channel.kind != "O" && channel.kind != "P" {
        return Err(app_error(
            400,
            "api.channel.remove_channel_member.type.app_error",
            "Unable to remove user from a channel.",
        ));
    }
    let me = ctx.me.clone();
    if uid != me {
        let perm = if channel.kind == "O" {
            Perm::ManagePublicChannelMembers
        } else {
            Perm::ManagePrivateChannelMembers
        };
        if !ctx.w.has_channel_permission(&me, &cid, perm).0 {
            return Err(AppError::permission());
        }
    }
    if channel.name == "town-square" {
        return Err(app_error(
            400,
            "api.channel.remove.default.app_error",
            "Unable to remove user from the default channel town-square.",
        ));
    }
    if ctx.w.member(&cid, &uid).is_none() {
        return Err(no_member());
    }
    ctx.w.remove_member_with_message(&cid, &uid, &me, now_ms());
    Ok(status_ok())
}

/// DELETE /api/v4/teams/{team_id}/members/{user_id} — `api4/team.go` `removeTeamMember` →
/// `App.RemoveUserFromTeam` → `App.LeaveTeam`: another user needs `remove_user_from_team` (team
/// and system admins; 403); unknown team or user → 404; never a member → 400
/// `api.team.remove_user_from_team.missing.app_error`. The user leaves every channel of the team
/// (archived ones included, not DMs/GMs), "<user> left the team." / "<user> removed from the
/// team." is posted in `town-square` (404 `app.channel.get_by_name.missing.app_error` when the
/// team has none, after the channels were left), and the team membership gets DeleteAt.
/// `{"status":"OK"}`.
pub(crate) fn remove_team_member(ctx: &mut Ctx) -> HResult {
    let tid = ctx.require_id("team_id")?;
    let uid = ctx.require_id("user_id")?;
    let me = ctx.me.clone();
    if me != uid
        && !ctx
            .w
            .has_team_permission(&me, &tid, Perm::RemoveUserFromTeam)
    {
        return Err(AppError::permission());
    }
    if !ctx.w.teams.iter().any(|t| t.id == tid) {
        return Err(team_not_found());
    }
    if ctx.w.user_by_id(&uid).is_none() {
        return Err(missing_account());
    }
    if !ctx
        .w
        .team_members
        .iter()
        .any(|m| m.team_id == tid && m.user_id == uid)
    {
        return Err(app_error(
            400,
            "api.team.remove_user_from_team.missing.app_error",
            "The user does not appear to be part of this team.",
        ));
    }
    ctx.w.leave_team(&tid, &uid, &me, now_ms()).map_err(|_| {
        app_error(
            404,
            "app.channel.get_by_name.missing.app_error",
            "Channel does not exist.",
        )
    })?;
    Ok(status_ok())
}
