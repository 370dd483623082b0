//! Routes no dedicated tool calls, served for the operation gateway: incoming and outgoing webhooks
//! (`api4/webhook.go`), bots (`api4/bot.go`), channel bookmarks (`api4/channel_bookmark.go`), sidebar
//! categories (`api4/channel_category.go`), preferences (`api4/preference.go`) and the server's limits
//! (`api4/limits.go`). Each handler names the function it mirrors; the permissions are those of the
//! default roles (`model.MakeDefaultRoles`): webhooks are managed by team admins (and system admins),
//! bots read by system admins.

use serde_json::{Value, json};

use super::{Ctx, array, page_slice};
use crate::reply::{AppError, HResult, Reply};
use crate::world::{Bookmark, IncomingHook, OutgoingHook};

fn incoming_json(h: &IncomingHook) -> Value {
    json!({
        "id": h.id, "create_at": h.create_at, "update_at": h.update_at, "delete_at": h.delete_at,
        "user_id": h.user_id, "channel_id": h.channel_id, "team_id": h.team_id,
        "display_name": h.display_name, "description": h.description, "username": "",
        "icon_url": "", "channel_locked": h.channel_locked
    })
}

fn outgoing_json(h: &OutgoingHook) -> Value {
    json!({
        "id": h.id, "token": "", "create_at": h.create_at, "update_at": h.update_at,
        "delete_at": h.delete_at, "creator_id": h.creator_id, "channel_id": h.channel_id,
        "team_id": h.team_id, "trigger_words": h.trigger_words, "trigger_when": 0,
        "callback_urls": h.callback_urls, "display_name": h.display_name, "description": "",
        "content_type": "application/x-www-form-urlencoded", "username": "", "icon_url": ""
    })
}

fn hook_not_found(kind: &str) -> AppError {
    AppError::not_found(
        &format!("app.webhooks.get_{kind}_webhook.app_error"),
        "Unable to get the webhook.",
    )
}

/// `SessionHasPermissionToTeam(manage_own_*_webhooks)`: a team admin of the team, or a system admin.
fn manages_hooks(ctx: &Ctx, team_id: &str) -> bool {
    ctx.is_admin() || ctx.w.is_team_admin(team_id, &ctx.me)
}

/// The teams whose hooks the session manages when no team is named (`SessionHasPermissionTo`: the
/// system-wide permission, which only a system admin has; a team admin is refused).
fn require_team_or_admin(ctx: &Ctx, team_id: Option<&str>) -> Result<(), AppError> {
    let allowed = match team_id {
        Some(t) => manages_hooks(ctx, t),
        None => ctx.is_admin(),
    };
    if allowed {
        Ok(())
    } else {
        Err(AppError::permission())
    }
}

/// GET /api/v4/hooks/incoming — `page`/`per_page` over the hooks by creation, a team's when
/// `team_id` is given.
// Mirrors server/channels/api4/webhook.go getIncomingHooks → App.GetIncomingWebhooksForTeamPageByUser /
// GetIncomingWebhooksPageByUser (SqlWebhookStore.GetIncomingListByUser has no ORDER BY; here the rows
// come in creation order)
pub(crate) fn incoming_hooks(ctx: &mut Ctx) -> HResult {
    let team = ctx
        .q("team_id")
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    require_team_or_admin(ctx, team.as_deref())?;
    let hooks: Vec<IncomingHook> = ctx
        .w
        .integrations
        .incoming
        .iter()
        .filter(|h| h.delete_at == 0 && team.as_ref().is_none_or(|t| *t == h.team_id))
        .cloned()
        .collect();
    let page = page_slice(&hooks, ctx.paging.page, ctx.paging.per_page);
    Ok(array(page.iter().map(incoming_json).collect()))
}

/// GET /api/v4/hooks/incoming/{hook_id}.
// Mirrors server/channels/api4/webhook.go getIncomingHook → App.GetIncomingWebhook
pub(crate) fn incoming_hook(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("hook_id")?;
    let hook = ctx
        .w
        .integrations
        .incoming
        .iter()
        .find(|h| h.id == id && h.delete_at == 0)
        .cloned()
        .ok_or_else(|| hook_not_found("incoming"))?;
    if !manages_hooks(ctx, &hook.team_id) {
        return Err(AppError::permission());
    }
    Ok(Reply::json(&incoming_json(&hook)))
}

/// POST /api/v4/hooks/incoming — `{channel_id, display_name?, description?}`; 201 with the hook.
// Mirrors server/channels/api4/webhook.go createIncomingHook → App.CreateIncomingWebhookForChannel
pub(crate) fn create_incoming_hook(ctx: &mut Ctx) -> HResult {
    let body = ctx
        .json_body()
        .filter(Value::is_object)
        .ok_or_else(|| AppError::invalid_param("incoming_webhook"))?;
    let text = |k: &str| {
        body.get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let channel = ctx.channel(&text("channel_id"))?;
    if !manages_hooks(ctx, &channel.team_id) {
        return Err(AppError::permission());
    }
    if !ctx.w.can_read_channel(&ctx.me, &channel) {
        return Err(AppError::permission());
    }
    let (id, at) = ctx.w.new_row();
    let hook = IncomingHook {
        id,
        create_at: at,
        update_at: at,
        delete_at: 0,
        user_id: ctx.me.clone(),
        channel_id: channel.id.clone(),
        team_id: channel.team_id.clone(),
        display_name: text("display_name"),
        description: text("description"),
        channel_locked: true,
    };
    ctx.w.integrations.incoming.push(hook.clone());
    let mut reply = Reply::json(&incoming_json(&hook));
    reply.status = 201;
    Ok(reply)
}

/// GET /api/v4/hooks/outgoing — `page`/`per_page`, a channel's or a team's when named.
// Mirrors server/channels/api4/webhook.go getOutgoingHooks → App.GetOutgoingWebhooksForChannelPageByUser /
// GetOutgoingWebhooksForTeamPageByUser / GetOutgoingWebhooksPageByUser
pub(crate) fn outgoing_hooks(ctx: &mut Ctx) -> HResult {
    let channel = ctx
        .q("channel_id")
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    let mut team = ctx
        .q("team_id")
        .filter(|t| !t.is_empty())
        .map(str::to_string);
    if let Some(c) = &channel {
        team = Some(ctx.channel(c)?.team_id);
    }
    require_team_or_admin(ctx, team.as_deref())?;
    let hooks: Vec<OutgoingHook> = ctx
        .w
        .integrations
        .outgoing
        .iter()
        .filter(|h| {
            h.delete_at == 0
                && team.as_ref().is_none_or(|t| *t == h.team_id)
                && channel.as_ref().is_none_or(|c| *c == h.channel_id)
        })
        .cloned()
        .collect();
    let page = page_slice(&hooks, ctx.paging.page, ctx.paging.per_page);
    Ok(array(page.iter().map(outgoing_json).collect()))
}

/// GET /api/v4/hooks/outgoing/{hook_id}.
// Mirrors server/channels/api4/webhook.go getOutgoingHook → App.GetOutgoingWebhook
pub(crate) fn outgoing_hook(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("hook_id")?;
    let hook = ctx
        .w
        .integrations
        .outgoing
        .iter()
        .find(|h| h.id == id && h.delete_at == 0)
        .cloned()
        .ok_or_else(|| hook_not_found("outgoing"))?;
    if !manages_hooks(ctx, &hook.team_id) {
        return Err(AppError::permission());
    }
    Ok(Reply::json(&outgoing_json(&hook)))
}

fn bot_json(ctx: &Ctx, u: &crate::world::User) -> Value {
    json!({
        "user_id": u.id, "username": u.username, "display_name": u.first_name,
        "description": u.bot_description, "owner_id": ctx.w.bot_owner(&u.id),
        "create_at": u.create_at, "update_at": u.update_at, "delete_at": u.delete_at
    })
}

/// GET /api/v4/bots — `page`/`per_page` over the bots by creation, then username; `read_others_bots`
/// (system admins) sees every bot, anyone else is refused (`read_bots` is no default role's but the
/// admins'); `only_orphaned`: the bots whose owner is deactivated.
// Mirrors server/channels/api4/bot.go getBots → App.GetBots (SqlBotStore.GetAll: ORDER BY b.CreateAt,
// u.Username)
pub(crate) fn bots(ctx: &mut Ctx) -> HResult {
    if !ctx.is_admin() {
        return Err(AppError::permission());
    }
    let include_deleted = ctx.q("include_deleted") == Some("true");
    let only_orphaned = ctx.q("only_orphaned") == Some("true");
    let mut bots: Vec<crate::world::User> = ctx
        .w
        .users
        .iter()
        .filter(|u| u.is_bot && (include_deleted || u.delete_at == 0))
        .filter(|u| {
            !only_orphaned
                || ctx
                    .w
                    .user_by_id(&ctx.w.bot_owner(&u.id))
                    .is_some_and(|o| o.delete_at != 0)
        })
        .cloned()
        .collect();
    bots.sort_by(|a, b| (a.create_at, &a.username).cmp(&(b.create_at, &b.username)));
    let page = page_slice(&bots, ctx.paging.page, ctx.paging.per_page);
    Ok(array(page.iter().map(|u| bot_json(ctx, u)).collect()))
}

/// GET /api/v4/bots/{bot_user_id} — a bot not readable is 404, as one that does not exist.
// Mirrors server/channels/api4/bot.go getBot → App.GetBot (model.MakeBotNotFoundError)
pub(crate) fn bot(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("bot_user_id")?;
    let include_deleted = ctx.q("include_deleted") == Some("true");
    let not_found = || {
        AppError::not_found(
            "store.sql_bot.get.missing.app_error",
            "Unable to find the existing bot.",
        )
    };
    let u = ctx
        .w
        .user_by_id(&id)
        .filter(|u| u.is_bot && (include_deleted || u.delete_at == 0))
        .cloned()
        .ok_or_else(not_found)?;
    if !ctx.is_admin() {
        return Err(not_found());
    }
    Ok(Reply::json(&bot_json(ctx, &u)))
}

fn bookmark_json(b: &Bookmark) -> Value {
    json!({
        "id": b.id, "create_at": b.create_at, "update_at": b.update_at, "delete_at": b.delete_at,
        "channel_id": b.channel_id, "owner_id": b.owner_id, "file_id": "",
        "display_name": b.display_name, "sort_order": b.sort_order, "link_url": b.link_url,
        "image_url": "", "emoji": "", "type": "link", "original_id": "", "parent_id": ""
    })
}

/// GET /api/v4/channels/{channel_id}/bookmarks — 501 without a licence; the channel's bookmarks by
/// sort order (those changed since `bookmarks_since`, deleted ones too, when it is given).
// Mirrors server/channels/api4/channel_bookmark.go listChannelBookmarksForChannel →
// App.GetChannelBookmarks (SqlChannelBookmarkStore.GetBookmarksForChannelSince: ORDER BY SortOrder)
pub(crate) fn bookmarks(ctx: &mut Ctx) -> HResult {
    if !ctx.w.integrations.licensed {
        return Err(AppError::new(
            501,
            "api.channel.bookmark.channel_bookmark.license.error",
            "Your license does not support channel bookmarks.",
        ));
    }
    let id = ctx.require_id("channel_id")?;
    ctx.readable_channel(&id)?;
    let since: i64 = ctx
        .q("bookmarks_since")
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut list: Vec<Bookmark> = ctx
        .w
        .integrations
        .bookmarks
        .iter()
        .filter(|b| b.channel_id == id)
        .filter(|b| {
            if since > 0 {
                b.update_at >= since
            } else {
                b.delete_at == 0
            }
        })
        .cloned()
        .collect();
    list.sort_by_key(|b| b.sort_order);
    Ok(array(list.iter().map(bookmark_json).collect()))
}

/// The person's three default categories in a team: favorites (none here), channels (their public and
/// private channels of the team, by display name) and direct messages (their direct and group
/// channels), with the ids `<type>_<user>_<team>` the server gives them.
fn categories(ctx: &Ctx, user_id: &str, team_id: &str) -> Vec<Value> {
    let mut channels: Vec<(String, String)> = Vec::new();
    let mut direct: Vec<(String, String)> = Vec::new();
    for c in &ctx.w.channels {
        if c.delete_at != 0 || ctx.w.member(&c.id, user_id).is_none() {
            continue;
        }
        match c.kind {
            "O" | "P" if c.team_id == team_id => {
                channels.push((c.display_name.to_lowercase(), c.id.clone()))
            }
            "D" | "G" => direct.push((c.display_name.to_lowercase(), c.id.clone())),
            _ => {}
        }
    }
    channels.sort();
    direct.sort();
    let ids = |v: &[(String, String)]| v.iter().map(|(_, id)| id.clone()).collect::<Vec<_>>();
    [
        ("favorites", "Favorites", Vec::new()),
        ("channels", "Channels", ids(&channels)),
        ("direct_messages", "Direct Messages", ids(&direct)),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, (kind, name, channel_ids))| {
        json!({
            "id": format!("{kind}_{user_id}_{team_id}"), "user_id": user_id, "team_id": team_id,
            "sort_order": (i as i64 + 1) * 10, "sorting": "", "type": kind, "display_name": name,
            "muted": false, "collapsed": false, "channel_ids": channel_ids
        })
    })
    .collect()
}

fn category_scope(ctx: &Ctx) -> Result<(String, String), AppError> {
    let user_id = ctx.require_id("user_id")?;
    let team_id = ctx.require_id("team_id")?;
    ctx.require_self_or_admin(&user_id)?;
    if !ctx.w.can_view_team(&ctx.me, &team_id) {
        return Err(AppError::permission());
    }
    Ok((user_id, team_id))
}

/// GET /api/v4/users/{user_id}/teams/{team_id}/channels/categories — one object,
/// `{categories, order}` (the spec says an array; see overrides/repairs).
// Mirrors server/channels/api4/channel_category.go getCategoriesForTeamForUser →
// App.GetSidebarCategoriesForTeamForUser (model.OrderedSidebarCategories)
pub(crate) fn sidebar_categories(ctx: &mut Ctx) -> HResult {
    let (user_id, team_id) = category_scope(ctx)?;
    let cats = categories(ctx, &user_id, &team_id);
    let order: Vec<Value> = cats.iter().map(|c| c["id"].clone()).collect();
    Ok(Reply::json(&json!({ "categories": cats, "order": order })))
}

/// GET /api/v4/users/{user_id}/teams/{team_id}/channels/categories/order — the category ids in order.
// Mirrors server/channels/api4/channel_category.go getCategoryOrderForTeamForUser →
// App.GetSidebarCategoryOrder
pub(crate) fn sidebar_category_order(ctx: &mut Ctx) -> HResult {
    let (user_id, team_id) = category_scope(ctx)?;
    let order: Vec<Value> = categories(ctx, &user_id, &team_id)
        .iter()
        .map(|c| c["id"].clone())
        .collect();
    Ok(array(order))
}

fn preference_json(p: &crate::world::Preference) -> Value {
    json!({ "user_id": p.user_id, "category": p.category, "name": p.name, "value": p.value })
}

/// A user's preferences, the saved posts among them (`flagged_post`, value "true").
fn preferences_of(ctx: &Ctx, user_id: &str) -> Vec<Value> {
    let mut out: Vec<Value> = ctx
        .w
        .writes
        .preferences
        .iter()
        .filter(|p| p.user_id == user_id)
        .map(preference_json)
        .collect();
    out.extend(ctx.w.flagged.iter().filter(|(u, _)| u == user_id).map(|(u, post)| {
        json!({ "user_id": u, "category": "flagged_post", "name": post, "value": "true" })
    }));
    out
}

/// GET /api/v4/users/{user_id}/preferences — all of a user's preferences (oneself, or an admin).
// Mirrors server/channels/api4/preference.go getPreferences → App.GetPreferencesForUser
pub(crate) fn preferences(ctx: &mut Ctx) -> HResult {
    let user_id = ctx.require_id("user_id")?;
    ctx.require_self_or_admin(&user_id)?;
    Ok(array(preferences_of(ctx, &user_id)))
}

/// GET /api/v4/users/{user_id}/preferences/{category} — one category's; none is 404.
// Mirrors server/channels/api4/preference.go getPreferencesByCategory →
// App.GetPreferenceByCategoryForUser (app.preference.get_category.app_error when empty)
pub(crate) fn preferences_by_category(ctx: &mut Ctx) -> HResult {
    let user_id = ctx.require_id("user_id")?;
    ctx.require_self_or_admin(&user_id)?;
    let category = ctx.var("category");
    let list: Vec<Value> = preferences_of(ctx, &user_id)
        .into_iter()
        .filter(|p| p["category"] == json!(category))
        .collect();
    if list.is_empty() {
        return Err(AppError::not_found(
            "app.preference.get_category.app_error",
            "Unable to find preference.",
        ));
    }
    Ok(array(list))
}

/// GET /api/v4/limits/server — one object; the user counts only for a system admin (zero for anyone
/// else).
// Mirrors server/channels/api4/limits.go getServerLimits → App.GetServerLimits (model.ServerLimits)
pub(crate) fn server_limits(ctx: &mut Ctx) -> HResult {
    let (max, active) = if ctx.is_admin() {
        let active = ctx
            .w
            .users
            .iter()
            .filter(|u| u.delete_at == 0 && !u.is_bot)
            .count() as i64;
        (10_000i64, active)
    } else {
        (0, 0)
    };
    Ok(Reply::json(&json!({
        "maxUsersLimit": max, "maxUsersHardLimit": max, "activeUserCount": active,
        "singleChannelGuestCount": 0, "singleChannelGuestLimit": 0,
        "lastAccessiblePostTime": 0, "postHistoryLimit": 0
    })))
}
