//! Channels: the user's channels, per team, memberships, by id, by name, public and archived per
//! team, search, members, member, stats, pinned posts, and the "view" route (notes §8, §9).

use serde_json::{Value, json};

use super::{Ctx, array, page_slice};
use crate::params::{atoi, parse_bool};
use crate::render::{self, PostListOut, PostOpts};
use crate::reply::{AppError, HResult, Reply};
use crate::world::{Channel, ChannelMember, Post};

fn in_live_team(ctx: &Ctx, c: &Channel) -> bool {
    c.team_id.is_empty()
        || ctx
            .w
            .teams
            .iter()
            .any(|t| t.id == c.team_id && t.delete_at == 0)
}

/// GET /api/v4/users/{user_id}/channels — the whole list as one array, `ORDER BY Id` (the server
/// reads in keyset batches of 100); page/per_page ignored. A user with no channels gets `[`
/// followed by an error JSON, with status 200.
// Mirrors server/channels/api4/channel.go getChannelsForUser → app/channel.go GetChannelsForUser →
// store/sqlstore/channel_store.go GetChannelsByUser
pub(crate) fn for_user(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    ctx.require_self_or_admin(&uid)?;
    let include_deleted = parse_bool(ctx.q("include_deleted"));
    let last_delete_at = ctx.q("last_delete_at").and_then(atoi).unwrap_or(0);
    if last_delete_at < 0 {
        return Err(AppError::invalid_url_param("last_delete_at"));
    }
    // last_delete_at is read only with include_deleted
    let with_deleted = include_deleted;
    let last_delete_at = if include_deleted { last_delete_at } else { 0 };
    let mut chans: Vec<Channel> = ctx
        .w
        .channels
        .iter()
        .filter(|c| ctx.w.member(&c.id, &uid).is_some())
        .filter(|c| with_deleted || (c.delete_at == 0 && in_live_team(ctx, c)))
        .filter(|c| last_delete_at == 0 || c.delete_at == 0 || c.delete_at >= last_delete_at)
        .cloned()
        .collect();
    chans.sort_by(|a, b| a.id.cmp(&b.id));
    if chans.is_empty() {
        let err = AppError::not_found(
            "app.channel.get_channels.not_found.app_error",
            "No channels were found.",
        );
        let mut body = b"[".to_vec();
        body.extend(serde_json::to_vec(&err.json(&ctx.request_id)).unwrap_or_default());
        body.push(b'\n');
        return Ok(Reply::raw(200, "application/json", body));
    }
    Ok(array(chans.iter().map(render::channel).collect()))
}

/// GET /api/v4/users/{user_id}/teams/{team_id}/channels — the whole list of the user's channels
/// in the team plus DMs/GMs, `ORDER BY DisplayName` (DMs have an empty display name), ETag;
/// an empty result is 404 `app.channel.get_channels.not_found.app_error`.
// Mirrors server/channels/api4/channel.go getChannelsForTeamForUser → app/channel.go
// GetChannelsForTeamForUser → store/sqlstore/channel_store.go GetChannels
pub(crate) fn for_team_for_user(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    let tid = ctx.require_id("team_id")?;
    if !ctx.w.can_view_team(&ctx.me, &tid) {
        return Err(AppError::permission());
    }
    ctx.require_self_or_admin(&uid)?;
    let include_deleted = parse_bool(ctx.q("include_deleted"));
    let last_delete_at = ctx.q("last_delete_at").and_then(atoi).unwrap_or(0);
    if last_delete_at < 0 {
        return Err(AppError::invalid_url_param("last_delete_at"));
    }
    let mut chans: Vec<Channel> = ctx
        .w
        .channels
        .iter()
        .filter(|c| {
            (c.team_id == tid || c.team_id.is_empty()) && ctx.w.member(&c.id, &uid).is_some()
        })
        .filter(|c| {
            include_deleted
                || c.delete_at == 0
                || (last_delete_at > 0 && c.delete_at >= last_delete_at)
        })
        .cloned()
        .collect();
    if chans.is_empty() {
        return Err(AppError::not_found(
            "app.channel.get_channels.not_found.app_error",
            "No channels were found.",
        ));
    }
    ctx.rng
        .sort_ties_shuffled(&mut chans, |c| c.display_name.clone());
    let max_update = chans.iter().map(|c| c.update_at).max().unwrap_or(0);
    let etag = render::etag(&[
        chans[0].id.clone(),
        max_update.to_string(),
        chans.len().to_string(),
    ]);
    if ctx.etag_matches(&etag) {
        return Ok(Reply::not_modified(&etag));
    }
    Ok(array(chans.iter().map(render::channel).collect()).header("ETag", &etag))
}

/// GET /api/v4/users/{user_id}/teams/{team_id}/channels/members — no ORDER BY.
// Mirrors server/channels/api4/channel.go getChannelMembersForTeamForUser → app/channel.go
// GetChannelMembersForUser → store/sqlstore/channel_store.go GetMembersForUser
pub(crate) fn members_for_team_for_user(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    let tid = ctx.require_id("team_id")?;
    if !ctx.w.can_view_team(&ctx.me, &tid) {
        return Err(AppError::permission());
    }
    ctx.require_self_or_admin(&uid)?;
    let mut members: Vec<ChannelMember> = ctx
        .w
        .channel_members
        .iter()
        .filter(|m| m.user_id == uid)
        .filter(|m| {
            ctx.w
                .channel_by_id(&m.channel_id)
                .is_some_and(|c| c.team_id == tid || c.team_id.is_empty())
        })
        .cloned()
        .collect();
    ctx.rng.shuffle(&mut members);
    Ok(array(members.iter().map(render::channel_member).collect()))
}

fn member_with_team(ctx: &Ctx, m: &ChannelMember) -> Value {
    let mut v = render::channel_member(m);
    let team = ctx
        .w
        .channel_by_id(&m.channel_id)
        .and_then(|c| ctx.w.teams.iter().find(|t| t.id == c.team_id));
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "team_display_name".into(),
            json!(team.map(|t| t.display_name.clone()).unwrap_or_default()),
        );
        o.insert(
            "team_name".into(),
            json!(team.map(|t| t.name.clone()).unwrap_or_default()),
        );
        o.insert(
            "team_update_at".into(),
            json!(team.map(|t| t.update_at).unwrap_or(0)),
        );
    }
    v
}

/// GET /api/v4/users/{user_id}/channel_members — `page=-1` streams every membership as NDJSON,
/// otherwise page/per_page by ChannelId.
// Mirrors server/channels/api4/user.go getChannelMembersForUser → app/channel.go
// GetChannelMembersWithTeamDataForUserWithPagination → store/sqlstore/channel_store.go
// GetMembersForUserWithCursorPagination / GetMembersForUserWithPagination
pub(crate) fn memberships_for_user(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    ctx.require_self_or_admin(&uid)?;
    let mut members: Vec<ChannelMember> = ctx
        .w
        .channel_members
        .iter()
        .filter(|m| m.user_id == uid)
        .cloned()
        .collect();
    members.sort_by(|a, b| a.channel_id.cmp(&b.channel_id));
    if ctx.paging.page == -1 {
        let mut body = Vec::new();
        for m in &members {
            body.extend(serde_json::to_vec(&member_with_team(ctx, m)).unwrap_or_default());
            body.push(b'\n');
        }
        return Ok(Reply::raw(200, "application/x-ndjson", body));
    }
    if ctx.paging.page < 0 {
        return Err(AppError::new(
            500,
            "app.channel.get_members.app_error",
            "Unable to get the channel members.",
        ));
    }
    let page = page_slice(&members, ctx.paging.page, ctx.paging.per_page);
    Ok(array(
        page.iter().map(|m| member_with_team(ctx, m)).collect(),
    ))
}

/// GET /api/v4/channels/{channel_id}
// Mirrors server/channels/api4/channel.go getChannel → app/channel.go GetChannel (then
// SessionHasPermissionToTeam read_public_channel or SessionHasPermissionToChannel read_channel)
pub(crate) fn get(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("channel_id")?;
    let c = ctx.readable_channel(&id)?;
    Ok(Reply::json(&render::channel(&c)))
}

fn channel_by_name(ctx: &Ctx, team_id: &str, name: &str) -> HResult {
    let include_deleted = parse_bool(ctx.q("include_deleted"));
    let missing = || {
        AppError::not_found(
            "app.channel.get_by_name.missing.app_error",
            "Unable to find the existing channel.",
        )
    };
    let c = ctx
        .w
        .channels
        .iter()
        .find(|c| {
            (c.team_id == team_id || c.team_id.is_empty())
                && c.name == name
                && (include_deleted || c.delete_at == 0)
        })
        .cloned()
        .ok_or_else(missing)?;
    if !ctx.w.can_read_channel(&ctx.me, &c) {
        // private channels the user cannot read answer "not found", public ones "forbidden"
        return Err(if c.kind == "O" {
            AppError::permission()
        } else {
            missing()
        });
    }
    Ok(Reply::json(&render::channel(&c)))
}

/// GET /api/v4/teams/{team_id}/channels/name/{channel_name} — archived channels only with
/// `include_deleted=true`.
// Mirrors server/channels/api4/channel.go getChannelByName → app/channel.go GetChannelByName →
// store/sqlstore/channel_store.go GetByName
pub(crate) fn by_name(ctx: &mut Ctx) -> HResult {
    let tid = ctx.require_id("team_id")?;
    let name = ctx.var("channel_name").to_lowercase();
    channel_by_name(ctx, &tid, &name)
}

/// GET /api/v4/teams/name/{team_name}/channels/name/{channel_name}
// Mirrors server/channels/api4/channel.go getChannelByNameForTeamName → app/channel.go
// GetChannelByNameForTeamName → store/sqlstore/channel_store.go GetByName
pub(crate) fn by_team_name_and_name(ctx: &mut Ctx) -> HResult {
    let tname = ctx.var("team_name").to_lowercase();
    let t = ctx
        .w
        .teams
        .iter()
        .find(|t| t.name == tname)
        .cloned()
        .ok_or_else(|| {
            AppError::not_found(
                "app.team.get_by_name.missing.app_error",
                "Unable to find the existing team.",
            )
        })?;
    let name = ctx.var("channel_name").to_lowercase();
    channel_by_name(ctx, &t.id, &name)
}

fn require_team_lister(ctx: &Ctx) -> Result<String, AppError> {
    let tid = ctx.require_id("team_id")?;
    if !ctx.w.teams.iter().any(|t| t.id == tid) && !ctx.is_admin() {
        return Err(AppError::permission());
    }
    if !ctx.w.can_view_team(&ctx.me, &tid) {
        return Err(AppError::permission());
    }
    Ok(tid)
}

/// GET /api/v4/teams/{team_id}/channels — non-archived public channels, `ORDER BY DisplayName`
/// only (display names tie, so ties come back in any order), OFFSET paging.
// Mirrors server/channels/api4/channel.go getPublicChannelsForTeam → app/channel.go
// GetPublicChannelsForTeam → store/sqlstore/channel_store.go GetPublicChannelsForTeam
pub(crate) fn public_for_team(ctx: &mut Ctx) -> HResult {
    let tid = require_team_lister(ctx)?;
    let mut chans: Vec<Channel> = ctx
        .w
        .channels
        .iter()
        .filter(|c| c.team_id == tid && c.kind == "O" && c.delete_at == 0)
        .cloned()
        .collect();
    ctx.rng
        .sort_ties_shuffled(&mut chans, |c| c.display_name.clone());
    let page = page_slice(&chans, ctx.paging.page, ctx.paging.per_page);
    Ok(array(page.iter().map(render::channel).collect()))
}

/// GET /api/v4/teams/{team_id}/channels/deleted — archived public channels and archived private
/// ones the user is a member of; for a system admin (`manage_system` skips the membership check)
/// every archived channel of the team or without a team (DMs and groups too). `ORDER BY
/// DisplayName`, OFFSET paging.
// Mirrors server/channels/api4/channel.go getDeletedChannelsForTeam → app/channel.go
// GetDeletedChannels → store/sqlstore/channel_store.go GetDeleted
pub(crate) fn deleted_for_team(ctx: &mut Ctx) -> HResult {
    let tid = require_team_lister(ctx)?;
    let me = ctx.me.clone();
    let admin = ctx.is_admin();
    let mut chans: Vec<Channel> = ctx
        .w
        .channels
        .iter()
        .filter(|c| (c.team_id == tid || c.team_id.is_empty()) && c.delete_at != 0)
        .filter(|c| admin || c.kind == "O" || (c.kind == "P" && ctx.w.member(&c.id, &me).is_some()))
        .cloned()
        .collect();
    ctx.rng
        .sort_ties_shuffled(&mut chans, |c| c.display_name.clone());
    let page = page_slice(&chans, ctx.paging.page, ctx.paging.per_page);
    Ok(array(page.iter().map(render::channel).collect()))
}

/// `SqlChannelStore.searchClause`: `LOWER(field) LIKE %term%` (the `*` escape character removed)
/// on Name, DisplayName or Purpose, OR `to_tsquery('word:* & word:* ...')` over the three joined
/// (`spaceFulltextSearchChars` as spaces, `|` removed).
fn channel_matches(c: &Channel, term: &str) -> bool {
    let like = term.replace('*', "").to_lowercase();
    if like.is_empty() {
        return true;
    }
    if [&c.name, &c.display_name, &c.purpose]
        .iter()
        .any(|f| f.to_lowercase().contains(&like))
    {
        return true;
    }
    let spaced: String = term
        .chars()
        .filter(|ch| *ch != '|')
        .map(|ch| {
            if "<>+-()~:*\"!@&".contains(ch) {
                ' '
            } else {
                ch
            }
        })
        .collect();
    let words: Vec<String> = spaced
        .split_whitespace()
        .map(|w| format!("{w}:*"))
        .collect();
    let text = format!("{} {} {}", c.name, c.display_name, c.purpose);
    match crate::fulltext::to_tsquery(&words.join(" & ")) {
        Ok(Some(q)) => crate::fulltext::matches(&crate::fulltext::to_tsvector(&text), &q),
        _ => false,
    }
}

/// POST /api/v4/teams/{team_id}/channels/search — body `{term}` (trimmed); public channels of the
/// team, archived ones included, `ORDER BY DisplayName LIMIT 100`; answers 200 (not 201). Without
/// list_team_channels (not a team member) the handler asks GetTeamMember, whose 404 is the answer.
// Mirrors server/channels/api4/channel.go searchChannelsForTeam → app/channel.go SearchChannels →
// store/sqlstore/channel_store.go SearchInTeam (searchClause)
pub(crate) fn search(ctx: &mut Ctx) -> HResult {
    let tid = ctx.require_id("team_id")?;
    let Some(body) = ctx.json_body().filter(|b| b.is_object()) else {
        return Err(AppError::invalid_param("channel_search"));
    };
    if !ctx.w.can_view_team(&ctx.me, &tid) {
        return Err(AppError::not_found(
            "app.team.get_member.missing.app_error",
            "No team member found for that user ID and team ID.",
        ));
    }
    let term = body
        .get("term")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .trim()
        .to_string();
    let mut chans: Vec<Channel> = ctx
        .w
        .channels
        .iter()
        .filter(|c| c.team_id == tid && c.kind == "O")
        .filter(|c| channel_matches(c, &term))
        .cloned()
        .collect();
    ctx.rng
        .sort_ties_shuffled(&mut chans, |c| c.display_name.clone());
    chans.truncate(100);
    Ok(array(chans.iter().map(render::channel).collect()))
}

/// GET /api/v4/channels/{channel_id}/members — no ORDER BY at all (rows in any order on every
/// request), OFFSET paging; `per_page=0` means every member.
// Mirrors server/channels/api4/channel.go getChannelMembers → app/channel.go GetChannelMembersPage
// → store/sqlstore/channel_store.go GetMembers
pub(crate) fn members(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("channel_id")?;
    ctx.require_channel_member_or_admin(&id)?;
    let mut members: Vec<ChannelMember> = ctx
        .w
        .channel_members
        .iter()
        .filter(|m| m.channel_id == id)
        .cloned()
        .collect();
    ctx.rng.shuffle(&mut members);
    let page = if ctx.paging.per_page == 0 {
        members
    } else {
        page_slice(&members, ctx.paging.page, ctx.paging.per_page)
    };
    let me = ctx.me.clone();
    Ok(array(
        page.iter()
            .map(|m| render::channel_member_for(m, &me))
            .collect(),
    ))
}

/// GET /api/v4/channels/{channel_id}/members/{user_id}
// Mirrors server/channels/api4/channel.go getChannelMember → app/channel.go GetChannelMember →
// store/sqlstore/channel_store.go GetMember
pub(crate) fn member(ctx: &mut Ctx) -> HResult {
    let cid = ctx.require_id("channel_id")?;
    let uid = ctx.require_id("user_id")?;
    ctx.require_channel_member_or_admin(&cid)?;
    let m = ctx.w.member(&cid, &uid).cloned().ok_or_else(|| {
        AppError::not_found(
            "app.channel.get_member.missing.app_error",
            "No channel member found for that user ID and channel ID.",
        )
    })?;
    Ok(Reply::json(&render::channel_member_for(&m, &ctx.me)))
}

/// POST /api/v4/channels/{channel_id}/members/ids — body: an array of user ids (sorted, duplicates
/// dropped); not an array of strings → 400 `api.payload.parse.error`, empty → 400 invalid
/// `user_ids`. Answers the members among them (`[]` when none: the store's list starts empty, so
/// never `null`); someone not in the channel is simply absent.
// Mirrors server/channels/api4/channel.go getChannelMembersByIds → app/channel.go
// GetChannelMembersByIds → store/sqlstore/channel_store.go GetMembersByIds
pub(crate) fn members_by_ids(ctx: &mut Ctx) -> HResult {
    let cid = ctx.require_id("channel_id")?;
    let parse_error = || {
        AppError::new(
            400,
            "api.payload.parse.error",
            "Failed to parse the payload.",
        )
    };
    let Some(Value::Array(items)) = ctx.json_body() else {
        return Err(parse_error());
    };
    let mut ids: Vec<String> = Vec::with_capacity(items.len());
    for item in &items {
        ids.push(item.as_str().ok_or_else(parse_error)?.to_string());
    }
    ids.sort();
    ids.dedup();
    if ids.is_empty() {
        return Err(AppError::invalid_param("user_ids"));
    }
    ctx.require_channel_member_or_admin(&cid)?;
    let me = ctx.me.clone();
    let found: Vec<Value> = ctx
        .w
        .channel_members
        .iter()
        .filter(|m| m.channel_id == cid && ids.binary_search(&m.user_id).is_ok())
        .map(|m| render::channel_member_for(m, &me))
        .collect();
    Ok(Reply::json(&Value::Array(found)))
}

/// GET /api/v4/channels/{channel_id}/stats — `member_count` counts active users only.
// Mirrors server/channels/api4/channel.go getChannelStats → app/channel.go GetChannelMemberCount,
// GetChannelGuestCount, GetChannelPinnedPostCount, GetChannelFileCount
pub(crate) fn stats(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("channel_id")?;
    ctx.require_channel_member_or_admin(&id)?;
    let member_count = ctx
        .w
        .channel_members
        .iter()
        .filter(|m| {
            m.channel_id == id
                && ctx
                    .w
                    .user_by_id(&m.user_id)
                    .is_some_and(|u| u.delete_at == 0)
        })
        .count();
    let pinned = ctx
        .w
        .posts
        .iter()
        .filter(|p| p.channel_id == id && p.is_pinned && p.delete_at == 0)
        .count();
    let files = ctx
        .w
        .files
        .iter()
        .filter(|f| f.channel_id == id && f.delete_at == 0)
        .count();
    Ok(Reply::json(&json!({
        "channel_id": id,
        "member_count": member_count,
        "guest_count": 0,
        "pinnedpost_count": pinned,
        "files_count": files
    })))
}

/// GET /api/v4/channels/{channel_id}/pinned — the whole list, `order` oldest first (CreateAt ASC).
// Mirrors server/channels/api4/channel.go getPinnedPosts → app/channel.go GetPinnedPosts →
// store/sqlstore/channel_store.go GetPinnedPosts
pub(crate) fn pinned(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("channel_id")?;
    ctx.readable_channel(&id)?;
    let mut posts: Vec<Post> = ctx
        .w
        .posts
        .iter()
        .filter(|p| p.channel_id == id && p.is_pinned && p.delete_at == 0)
        .cloned()
        .collect();
    ctx.rng.sort_ties_shuffled(&mut posts, |p| p.create_at);
    let list = PostListOut::new(posts.iter().map(|p| p.id.clone()).collect());
    Ok(Reply::json(&list.render(ctx.w, PostOpts::default())))
}

/// POST /api/v4/channels/members/{user_id}/view — body `{channel_id, prev_channel_id,
/// collapsed_threads_supported}`; both channels are viewed (MarkChannelsAsViewed: nothing changes
/// unless one has unread posts or mentions; a channel the user is not in is skipped, so an unknown
/// one answers 200 too) and the answer is `{status, last_viewed_at_times}` with
/// `max(LastPostAt, LastViewedAt)` per member channel. The user's status becomes online unless set
/// by hand (SetActiveChannel).
// Mirrors server/channels/api4/channel.go viewChannel → app/channel.go ViewChannel
// (SetActiveChannel, MarkChannelsAsViewed) → store/sqlstore/channel_store.go
// GetChannelsWithUnreadsAndWithMentions, UpdateLastViewedAt; thread_store.go
// MarkAllAsReadByChannels
pub(crate) fn view(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    ctx.require_self_or_admin(&uid)?;
    let Some(body) = ctx.json_body().filter(|b| b.is_object()) else {
        return Err(AppError::invalid_param("channel_view"));
    };
    let cid = body
        .get("channel_id")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string();
    let prev = body
        .get("prev_channel_id")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string();
    if !cid.is_empty() && !crate::ids::is_valid_id(&cid) {
        return Err(AppError::invalid_param("channel_view.channel_id"));
    }
    if !prev.is_empty() && !crate::ids::is_valid_id(&prev) {
        return Err(AppError::invalid_param("channel_view.prev_channel_id"));
    }
    let now = crate::clock::now_ms();
    ctx.w.set_active_channel(&uid, &cid, now);
    let ids: Vec<String> = [cid, prev].into_iter().filter(|c| !c.is_empty()).collect();
    // a client without collapsed reply threads (the field false or absent), or a user for whom the
    // server has them off, gets the viewed channels' threads marked read too
    let supported = body
        .get("collapsed_threads_supported")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let update_threads =
        ctx.w.settings.thread_auto_follow && (!supported || !ctx.w.is_crt_enabled_for(&uid));
    let mut times = serde_json::Map::new();
    for (id, t) in ctx
        .w
        .mark_channels_as_viewed(&uid, &ids, update_threads, now)
    {
        times.insert(id, json!(t));
    }
    Ok(Reply::json(
        &json!({"status": "OK", "last_viewed_at_times": times}),
    ))
}
