//! Followed threads (collapsed reply threads): the list and one thread (notes §4).

use std::cmp::Reverse;

use serde_json::{Value, json};

use super::Ctx;
use crate::params::{parse_bool, parse_uint};
use crate::render::{self, PostOpts};
use crate::reply::{AppError, HResult, Reply};
use crate::world::{ThreadInfo, ThreadMembership, World};

struct Row {
    m: ThreadMembership,
    info: ThreadInfo,
}

fn thread_json(w: &World, row: &Row, extended: bool, viewer: &str) -> Value {
    let participants: Vec<Value> = row
        .info
        .participants
        .iter()
        .map(|id| {
            if extended {
                w.user_by_id(id)
                    .map(|u| render::user(u, u.id == viewer))
                    .unwrap_or_else(|| render::bare_user(id))
            } else {
                render::bare_user(id)
            }
        })
        .collect();
    let unread_replies = w
        .posts
        .iter()
        .filter(|p| {
            p.root_id == row.m.post_id
                && p.delete_at == 0
                && p.original_id.is_empty()
                && p.create_at > row.m.last_viewed
        })
        .count();
    // GetThreadsForUser selects the post's columns only: no metadata, no reply count or
    // participants (not columns), and no PreparePostForClient
    let post = w
        .post_by_id(&row.m.post_id)
        .map(|p| {
            let mut v = render::post(w, p, PostOpts::default());
            if let Some(o) = v.as_object_mut() {
                o.remove("metadata");
                o.insert("reply_count".into(), json!(0));
                o.insert("participants".into(), Value::Null);
            }
            v
        })
        .unwrap_or(Value::Null);
    json!({
        "id": row.m.post_id,
        "reply_count": row.info.reply_count,
        "last_reply_at": row.info.last_reply_at,
        "last_viewed_at": row.m.last_viewed,
        "participants": participants,
        "post": post,
        "unread_replies": unread_replies,
        "unread_mentions": row.m.unread_mentions,
        "is_urgent": false,
        "delete_at": row.info.delete_at
    })
}

/// The followed threads of a user visible under a team: the team's channels and every DM/GM.
fn followed(w: &World, uid: &str, tid: &str, deleted: bool, exclude_direct: bool) -> Vec<Row> {
    w.thread_memberships
        .iter()
        .filter(|m| m.user_id == uid && m.following)
        .filter_map(|m| {
            let root = w.post_by_id(&m.post_id)?;
            let chan = w.channel_by_id(&root.channel_id)?;
            let team_ok = chan.team_id == tid || (chan.team_id.is_empty() && !exclude_direct);
            if !team_ok {
                return None;
            }
            let info = w.thread_info(&m.post_id)?;
            if !deleted && info.delete_at != 0 {
                return None;
            }
            Some(Row { m: m.clone(), info })
        })
        .collect()
}

/// GET /api/v4/users/{user_id}/teams/{team_id}/threads — `page` is never read; paging is by
/// `before`/`after` (strict, on LastReplyAt, no tiebreaker; `after` sorts ascending), LIMIT
/// per_page (0 → 30); `since` is inclusive; DM/GM threads appear under every team.
// Mirrors server/channels/api4/user.go getThreadsForUser → app/user.go GetThreadsForUser →
// store/sqlstore/thread_store.go GetThreadsForUser, GetTotalThreads, GetTotalUnreadThreads,
// GetTotalUnreadMentions
pub(crate) fn list(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    let tid = ctx.require_id("team_id")?;
    ctx.require_self_or_admin(&uid)?;
    if !ctx.w.can_view_team(&ctx.me, &tid) {
        return Err(AppError::permission());
    }
    let page_size = if ctx.paging.per_page == 0 {
        30
    } else {
        ctx.paging.per_page
    } as usize;
    let since = match ctx.q("since") {
        Some(s) if !s.is_empty() => {
            parse_uint(s).ok_or_else(|| AppError::invalid_param("since"))? as i64
        }
        _ => 0,
    };
    let before = ctx.q("before").unwrap_or("").to_string();
    let after = ctx.q("after").unwrap_or("").to_string();
    let totals_only = parse_bool(ctx.q("totalsOnly"));
    let threads_only = parse_bool(ctx.q("threadsOnly"));
    if !before.is_empty() && !after.is_empty() {
        return Err(AppError::new(
            400,
            "api.getThreadsForUser.bad_params",
            "Before and after parameters to getThreadsForUser are mutually exclusive",
        ));
    }
    if totals_only && threads_only {
        return Err(AppError::new(
            400,
            "api.getThreadsForUser.bad_only_params",
            "OnlyThreads and OnlyTotals parameters to getThreadsForUser are mutually exclusive",
        ));
    }
    let deleted = parse_bool(ctx.q("deleted"));
    let unread = parse_bool(ctx.q("unread"));
    let extended = parse_bool(ctx.q("extended"));
    let exclude_direct = parse_bool(ctx.q("excludeDirect"));

    let w: &World = ctx.w;
    let all = followed(w, &uid, &tid, deleted, exclude_direct);
    let unread_count = all
        .iter()
        .filter(|r| r.m.last_viewed < r.info.last_reply_at)
        .count();
    let mentions: i64 = all.iter().map(|r| r.m.unread_mentions).sum();
    let total = if unread { unread_count } else { all.len() };

    let mut threads: Vec<Value> = Vec::new();
    if !totals_only {
        let anchor_time = |id: &str| w.thread_info(id).map(|i| i.last_reply_at);
        let mut rows: Vec<Row> = all
            .into_iter()
            .filter(|r| since == 0 || r.m.last_updated >= since || r.info.last_reply_at >= since)
            .filter(|r| !unread || r.m.last_viewed < r.info.last_reply_at)
            .collect();
        if !before.is_empty() {
            let t = anchor_time(&before);
            rows.retain(|r| t.is_some_and(|t| r.info.last_reply_at < t));
        }
        if !after.is_empty() {
            let t = anchor_time(&after);
            rows.retain(|r| t.is_some_and(|t| r.info.last_reply_at > t));
            ctx.rng
                .sort_ties_shuffled(&mut rows, |r| r.info.last_reply_at);
        } else {
            ctx.rng
                .sort_ties_shuffled(&mut rows, |r| Reverse(r.info.last_reply_at));
        }
        rows.truncate(page_size);
        threads = rows
            .iter()
            .map(|r| thread_json(w, r, extended, &ctx.me))
            .collect();
    }
    let (t, tu, tm) = if threads_only {
        (0, 0, 0)
    } else {
        (total, unread_count, mentions)
    };
    Ok(Reply::json(&json!({
        "total": t,
        "total_unread_threads": tu,
        "total_unread_mentions": tm,
        "total_unread_urgent_mentions": 0,
        "threads": threads
    })))
}

/// GET /api/v4/users/{user_id}/teams/{team_id}/threads/{thread_id}
// Mirrors server/channels/api4/user.go getThreadForUser → app/user.go GetThreadForUser →
// store/sqlstore/thread_store.go GetThreadForUser
pub(crate) fn get(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    let tid = ctx.require_id("team_id")?;
    let thread_id = ctx.require_id("thread_id")?;
    ctx.require_self_or_admin(&uid)?;
    let _ = tid;
    let root = ctx
        .w
        .post_by_id(&thread_id)
        .cloned()
        .ok_or_else(AppError::permission)?;
    ctx.readable_channel(&root.channel_id)?;
    let extended = parse_bool(ctx.q("extended"));
    let not_found = || {
        AppError::not_found(
            "app.user.get_thread_membership_for_user.not_found",
            "Thread membership not found.",
        )
    };
    let m = ctx
        .w
        .thread_membership(&uid, &thread_id)
        .cloned()
        .ok_or_else(not_found)?;
    let info = ctx.w.thread_info(&thread_id).ok_or_else(not_found)?;
    Ok(Reply::json(&thread_json(
        ctx.w,
        &Row { m, info },
        extended,
        &ctx.me,
    )))
}
