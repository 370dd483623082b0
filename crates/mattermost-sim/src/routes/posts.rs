//! Posts: channel posts in page/before/after/since modes, around the last unread, one post, by
//! ids, thread, edit history, reactions, saved (flagged) posts and drafts (notes §1, §2, §3, §6, §9).

use std::cmp::Reverse;

use serde_json::{Value, json};

use super::{Ctx, array, array_or_null, offset_slice, page_slice, post_not_found};
use crate::ids::is_valid_id;
use crate::params::{atoi, literal_true, parse_bool};
use crate::render::{self, PostListOut, PostOpts};
use crate::reply::{AppError, HResult, Reply};
use crate::rng::Rng;
use crate::world::{Post, World};

/// Posts of a channel as the store selects them: live only unless `include_deleted` (which also
/// brings back edit-history rows, as they are deleted rows of the same channel); roots only with CRT.
fn channel_rows<'a>(
    w: &'a World,
    channel_id: &str,
    include_deleted: bool,
    crt: bool,
) -> Vec<&'a Post> {
    w.posts
        .iter()
        .filter(|p| p.channel_id == channel_id)
        .filter(|p| include_deleted || p.delete_at == 0)
        .filter(|p| !crt || p.root_id.is_empty())
        .collect()
}

/// `getParentsPosts`: the roots of the replies in the window and, unless `skip_fetch_threads`,
/// every other reply of those threads (for `getPostsAround`, whose root ids hold every post of the
/// window, the replies of the window's roots too). They go into `posts` only.
fn parents(
    w: &World,
    window: &[&Post],
    skip_fetch_threads: bool,
    include_deleted: bool,
    window_roots: bool,
) -> Vec<String> {
    let mut roots: Vec<&str> = window
        .iter()
        .filter(|p| !p.root_id.is_empty())
        .map(|p| p.root_id.as_str())
        .collect();
    if window_roots && !skip_fetch_threads {
        roots.extend(window.iter().map(|p| p.id.as_str()));
    }
    roots.sort();
    roots.dedup();
    if roots.is_empty() {
        return Vec::new();
    }
    let mut extra: Vec<&Post> = w
        .posts
        .iter()
        .filter(|p| include_deleted || p.delete_at == 0)
        .filter(|p| p.original_id.is_empty() || include_deleted)
        .filter(|p| {
            roots.contains(&p.id.as_str())
                || (!skip_fetch_threads && roots.contains(&p.root_id.as_str()))
        })
        .collect();
    extra.sort_by_key(|p| p.create_at);
    extra.iter().map(|p| p.id.clone()).collect()
}

/// `GetPostIdAfterTime` / `GetPostIdBeforeTime`: strict comparison, live posts, LIMIT 1, no
/// tiebreaker (one of the posts of that millisecond, any one).
fn post_id_around_time(
    w: &World,
    rng: &mut Rng,
    channel_id: &str,
    time: i64,
    after: bool,
    crt: bool,
) -> String {
    let mut cands: Vec<&Post> = channel_rows(w, channel_id, false, crt)
        .into_iter()
        .filter(|p| {
            if after {
                p.create_at > time
            } else {
                p.create_at < time
            }
        })
        .collect();
    if after {
        rng.sort_ties_shuffled(&mut cands, |p| p.create_at);
    } else {
        rng.sort_ties_shuffled(&mut cands, |p| Reverse(p.create_at));
    }
    cands.first().map(|p| p.id.clone()).unwrap_or_default()
}

fn next_id_from_list(
    w: &World,
    rng: &mut Rng,
    channel_id: &str,
    order: &[String],
    crt: bool,
) -> String {
    match order.first().and_then(|id| w.post_by_id(id)) {
        Some(p) => post_id_around_time(w, rng, channel_id, p.create_at, true, crt),
        None => String::new(),
    }
}

fn prev_id_from_list(
    w: &World,
    rng: &mut Rng,
    channel_id: &str,
    order: &[String],
    crt: bool,
) -> String {
    match order.last().and_then(|id| w.post_by_id(id)) {
        Some(p) => post_id_around_time(w, rng, channel_id, p.create_at, false, crt),
        None => String::new(),
    }
}

/// `GetEtag`: `<version>.<max UpdateAt in the channel>`, the same for every page; a channel with
/// no posts fails the query and gets the current time instead, so its ETag changes on every call.
fn channel_etag(w: &World, channel_id: &str) -> String {
    let max = w
        .posts
        .iter()
        .filter(|p| p.channel_id == channel_id)
        .map(|p| p.update_at)
        .max()
        .unwrap_or_else(crate::clock::now_ms);
    render::etag(&[max.to_string()])
}

/// What a read of a channel's posts selects, whichever window of them it then takes: the channel,
/// `skipFetchThreads`, `collapsedThreads` (CRT) and `include_deleted`.
struct Selection<'a> {
    cid: &'a str,
    skip: bool,
    crt: bool,
    include_deleted: bool,
}

/// `GetPostsPage`: `ORDER BY CreateAt DESC` without tiebreaker, LIMIT per_page OFFSET page·per_page.
fn posts_page(w: &World, rng: &mut Rng, sel: &Selection, page: i64, per_page: i64) -> PostListOut {
    let Selection {
        cid,
        skip,
        crt,
        include_deleted,
    } = *sel;
    let mut rows = channel_rows(w, cid, include_deleted && !crt, crt);
    rng.sort_ties_shuffled(&mut rows, |p| Reverse(p.create_at));
    let window = page_slice(&rows, page, per_page);
    let mut list = PostListOut::new(window.iter().map(|p| p.id.clone()).collect());
    if !crt {
        list.extra = parents(w, &window, skip, include_deleted, false);
    }
    list
}

/// `getPostsAround`: strict `<` / `>` on the anchor's CreateAt (the anchor may be any post, even
/// deleted; an unknown one gives an empty page), OFFSET page·per_page, no tiebreaker; `order`
/// always newest first.
fn posts_around(
    w: &World,
    rng: &mut Rng,
    sel: &Selection,
    anchor: &str,
    before: bool,
    page: i64,
    per_page: i64,
) -> PostListOut {
    let Selection {
        cid,
        skip,
        crt,
        include_deleted,
    } = *sel;
    let Some(t) = w.post_by_id(anchor).map(|p| p.create_at) else {
        return PostListOut::new(Vec::new());
    };
    let mut rows: Vec<&Post> = channel_rows(w, cid, include_deleted, crt)
        .into_iter()
        .filter(|p| {
            if before {
                p.create_at < t
            } else {
                p.create_at > t
            }
        })
        .collect();
    if before {
        rng.sort_ties_shuffled(&mut rows, |p| Reverse(p.create_at));
    } else {
        rng.sort_ties_shuffled(&mut rows, |p| p.create_at);
    }
    let mut window = page_slice(&rows, page, per_page);
    if !before {
        window.reverse();
    }
    let mut list = PostListOut::new(window.iter().map(|p| p.id.clone()).collect());
    if !crt {
        list.extra = parents(w, &window, skip, include_deleted, true);
    }
    list
}

/// GET /api/v4/channels/{channel_id}/posts
// Mirrors server/channels/api4/post.go getPostsForChannel → app/post.go GetPostsPage,
// GetPostsBeforePost, GetPostsAfterPost, GetPostsSince, AddCursorIdsForPostList →
// store/sqlstore/post_store.go GetPosts, GetPostsBefore/After (getPostsAround), GetPostsSince,
// GetEtag
pub(crate) fn for_channel(ctx: &mut Ctx) -> HResult {
    let cid = ctx.require_id("channel_id")?;
    let after = ctx.q("after").unwrap_or("").to_string();
    if !after.is_empty() && !is_valid_id(&after) {
        return Err(AppError::invalid_param("after"));
    }
    let before = ctx.q("before").unwrap_or("").to_string();
    if !before.is_empty() && !is_valid_id(&before) {
        return Err(AppError::invalid_param("before"));
    }
    let since = match ctx.q("since") {
        Some(s) if !s.is_empty() => atoi(s).ok_or_else(|| AppError::invalid_param("since"))?,
        _ => 0,
    };
    let skip = parse_bool(ctx.q("skipFetchThreads"));
    let crt = parse_bool(ctx.q("collapsedThreads"));
    let extended = parse_bool(ctx.q("collapsedThreadsExtended"));
    let include_deleted = parse_bool(ctx.q("include_deleted"));
    if include_deleted && !ctx.is_admin() {
        return Err(AppError::permission());
    }
    ctx.readable_channel(&cid)?;
    let (page, per_page) = (ctx.paging.page, ctx.paging.per_page);
    let me = ctx.me.clone();
    let w: &World = ctx.w;
    let rng = &mut ctx.rng;
    let sel = Selection {
        cid: &cid,
        skip,
        crt,
        include_deleted,
    };
    let mut opts = PostOpts {
        crt,
        extended,
        viewer: Some(&me),
    };

    let mut etag = String::new();
    let mut list;
    if since > 0 {
        list = posts_since(w, rng, &cid, since, crt);
    } else {
        etag = channel_etag(w, &cid);
        if ctx
            .headers
            .iter()
            .any(|(k, v)| k == "if-none-match" && *v == etag)
        {
            return Ok(Reply::not_modified(&etag));
        }
        if !after.is_empty() {
            opts.extended = false;
            list = posts_around(w, rng, &sel, &after, false, page, per_page);
        } else if !before.is_empty() {
            list = posts_around(w, rng, &sel, &before, true, page, per_page);
        } else {
            list = posts_page(w, rng, &sel, page, per_page);
        }
    }

    // AddCursorIdsForPostList
    let (mut next_set, mut prev_set) = (false, false);
    let (mut next, mut prev) = (String::new(), String::new());
    if since > 0 {
        next_set = true;
        prev_set = true;
    } else if !after.is_empty() {
        if page == 0 {
            prev = after.clone();
            prev_set = true;
        }
        if (list.order.len() as i64) < per_page {
            next_set = true;
        }
    } else if !before.is_empty() {
        if page == 0 {
            next = before.clone();
            next_set = true;
        }
        if (list.order.len() as i64) < per_page {
            prev_set = true;
        }
    }
    if !next_set {
        next = next_id_from_list(w, rng, &cid, &list.order, crt);
    }
    if !prev_set {
        prev = prev_id_from_list(w, rng, &cid, &list.order, crt);
    }
    list.next_post_id = next;
    list.prev_post_id = prev;
    let mut reply = Reply::json(&list.render(w, opts));
    if !etag.is_empty() {
        reply = reply.header("ETag", &etag);
    }
    Ok(reply)
}

/// `GetPostsSince`: a CTE `UpdateAt > since LIMIT 1000` with no ORDER BY (so an arbitrary 1000),
/// no DeleteAt filter (deletions and edit-history rows come back), UNION the roots of those rows,
/// ordered CreateAt DESC; only rows with `UpdateAt > since` go into `order`. With CRT: roots only,
/// `ORDER BY CreateAt DESC LIMIT 1000`.
fn posts_since(w: &World, rng: &mut Rng, cid: &str, since: i64, crt: bool) -> PostListOut {
    let mut rows: Vec<&Post> = w
        .posts
        .iter()
        .filter(|p| p.channel_id == cid && p.update_at > since && (!crt || p.root_id.is_empty()))
        .collect();
    if crt {
        rng.sort_ties_shuffled(&mut rows, |p| Reverse(p.create_at));
        rows.truncate(1000);
    } else {
        rng.shuffle(&mut rows);
        rows.truncate(1000);
        let roots: Vec<String> = rows
            .iter()
            .filter(|p| !p.root_id.is_empty())
            .map(|p| p.root_id.clone())
            .collect();
        for p in w.posts.iter().filter(|p| roots.contains(&p.id)) {
            if !rows.iter().any(|r| r.id == p.id) {
                rows.push(p);
            }
        }
        rng.sort_ties_shuffled(&mut rows, |p| Reverse(p.create_at));
    }
    let order: Vec<String> = rows
        .iter()
        .filter(|p| p.update_at > since)
        .map(|p| p.id.clone())
        .collect();
    let mut list = PostListOut::new(order);
    list.extra = rows.iter().map(|p| p.id.clone()).collect();
    list
}

/// GET /api/v4/users/{user_id}/channels/{channel_id}/posts/unread
// Mirrors server/channels/api4/post.go getPostsForChannelAroundLastUnread → app/post.go
// GetPostsForChannelAroundLastUnread → store/sqlstore/post_store.go GetPostIdAfterTime,
// GetPostsBefore/After, GetPostThread
pub(crate) fn around_unread(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    let cid = ctx.require_id("channel_id")?;
    ctx.require_self_or_admin(&uid)?;
    ctx.readable_channel(&cid)?;
    if ctx.paging.limit_after == 0 {
        return Err(AppError::invalid_url_param("limit_after"));
    }
    let skip = literal_true(ctx.q("skipFetchThreads"));
    let crt = literal_true(ctx.q("collapsedThreads"));
    let extended = literal_true(ctx.q("collapsedThreadsExtended"));
    let (limit_before, limit_after) = (ctx.paging.limit_before, ctx.paging.limit_after);
    let me = ctx.me.clone();
    let last_viewed = match ctx.w.member(&cid, &uid) {
        Some(m) => m.last_viewed_at,
        None => {
            return Err(AppError::not_found(
                "app.channel.get_member.missing.app_error",
                "No channel member found for that user ID and channel ID.",
            ));
        }
    };
    let w: &World = ctx.w;
    let rng = &mut ctx.rng;
    let sel = Selection {
        cid: &cid,
        skip,
        crt,
        include_deleted: false,
    };
    let mut list = PostListOut::new(Vec::new());
    if last_viewed > 0 {
        let first = post_id_around_time(w, rng, &cid, last_viewed, true, crt);
        if !first.is_empty() {
            // the whole thread of the first unread post, into `posts` only
            let root = w
                .post_by_id(&first)
                .map(|p| {
                    if p.root_id.is_empty() {
                        p.id.clone()
                    } else {
                        p.root_id.clone()
                    }
                })
                .unwrap_or_default();
            let thread: Vec<String> = w
                .posts
                .iter()
                .filter(|p| p.delete_at == 0 && (p.id == root || p.root_id == root))
                .map(|p| p.id.clone())
                .collect();
            let before = posts_around(w, rng, &sel, &first, true, 0, limit_before);
            let after = posts_around(w, rng, &sel, &first, false, 0, limit_after - 1);
            let mut order = vec![first.clone()];
            order.extend(before.order.iter().cloned());
            order.extend(after.order.iter().cloned());
            let mut extra = thread;
            extra.extend(before.extra);
            extra.extend(after.extra);
            // SortByCreateAt: sort.Slice, not stable
            let mut posts: Vec<&Post> = order.iter().filter_map(|id| w.post_by_id(id)).collect();
            rng.sort_ties_shuffled(&mut posts, |p| Reverse(p.create_at));
            list = PostListOut::new(posts.iter().map(|p| p.id.clone()).collect());
            list.extra = extra;
        }
    }
    let mut etag = String::new();
    if list.order.is_empty() {
        etag = channel_etag(w, &cid);
        if ctx
            .headers
            .iter()
            .any(|(k, v)| k == "if-none-match" && *v == etag)
        {
            return Ok(Reply::not_modified(&etag));
        }
        list = posts_page(w, rng, &sel, 0, limit_before);
    }
    list.next_post_id = next_id_from_list(w, rng, &cid, &list.order, crt);
    list.prev_post_id = prev_id_from_list(w, rng, &cid, &list.order, crt);
    let mut reply = Reply::json(&list.render(
        w,
        PostOpts {
            crt,
            extended,
            viewer: Some(&me),
        },
    ));
    if !etag.is_empty() {
        reply = reply.header("ETag", &etag);
    }
    Ok(reply)
}

/// GET /api/v4/posts/{post_id} — `include_deleted` needs an admin; ETag `Etag(id, update_at)`.
// Mirrors server/channels/api4/post.go getPost → app/post.go GetPostIfAuthorized →
// store/sqlstore/post_store.go GetSingle
pub(crate) fn get(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("post_id")?;
    let include_deleted = parse_bool(ctx.q("include_deleted"));
    if include_deleted && !ctx.is_admin() {
        return Err(AppError::permission());
    }
    let p = match ctx.w.post_by_id(&id) {
        Some(p) if p.delete_at == 0 || include_deleted => p.clone(),
        _ => return Err(post_not_found()),
    };
    ctx.readable_channel(&p.channel_id)?;
    let etag = render::etag(&[p.id.clone(), p.update_at.to_string()]);
    if ctx.etag_matches(&etag) {
        return Ok(Reply::not_modified(&etag));
    }
    Ok(Reply::json(&render::post(ctx.w, &p, PostOpts::default())).header("ETag", &etag))
}

/// POST /api/v4/posts/ids — at most 1000 ids; posts of unreadable channels left out.
// Mirrors server/channels/api4/post.go getPostsByIds → app/post.go GetPostsByIds →
// store/sqlstore/post_store.go GetPostsByIds
pub(crate) fn by_ids(ctx: &mut Ctx) -> HResult {
    let parsed: Option<Vec<String>> =
        serde_json::from_slice::<Value>(ctx.body)
            .ok()
            .and_then(|v| {
                v.as_array().map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                })
            });
    let Some(ids) = parsed else {
        return Err(AppError::new(
            400,
            "api.payload.parse.error",
            "Failed to parse the payload.",
        ));
    };
    if ids.is_empty() {
        return Err(AppError::invalid_param("post_ids"));
    }
    if ids.len() > 1000 {
        return Err(AppError::new(
            400,
            "api.post.posts_by_ids.invalid_body.request_error",
            "The number of post ids is too large, the maximum is 1000.",
        ));
    }
    let mut posts: Vec<Post> = ctx
        .w
        .posts
        .iter()
        .filter(|p| p.delete_at == 0 && ids.contains(&p.id))
        .cloned()
        .collect();
    ctx.rng
        .sort_ties_shuffled(&mut posts, |p| Reverse(p.create_at));
    let out: Vec<Value> = posts
        .iter()
        .filter(|p| {
            ctx.w
                .channel_by_id(&p.channel_id)
                .is_some_and(|c| ctx.w.can_read_channel(&ctx.me, c))
        })
        .map(|p| render::post(ctx.w, p, PostOpts::default()))
        .collect();
    Ok(array(out).header("First-Inaccessible-Post-Time", "0"))
}

/// GET /api/v4/posts/{post_id}/thread — `perPage`, `fromPost`, `fromCreateAt`, `fromUpdateAt`,
/// `direction`, `updatesOnly` and the CRT flags (literal "true"), per notes §3.
// Mirrors server/channels/api4/post.go getPostThread → app/post.go GetPostThread →
// store/sqlstore/post_store.go Get (getPostWithCollapsedThreads)
pub(crate) fn thread(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("post_id")?;
    let per_page = match ctx.q("perPage") {
        Some(s) if !s.is_empty() => match atoi(s) {
            Some(n) if n <= 200 => n,
            _ => return Err(AppError::invalid_param("perPage")),
        },
        _ => 0,
    };
    let from_create_at = match ctx.q("fromCreateAt") {
        Some(s) if !s.is_empty() => {
            atoi(s).ok_or_else(|| AppError::invalid_param("fromCreateAt"))?
        }
        _ => 0,
    };
    let from_post = ctx.q("fromPost").unwrap_or("").to_string();
    if !from_post.is_empty() && from_create_at == 0 {
        return Err(AppError::invalid_param(
            "if fromPost is set, then fromCreateAt must also be set",
        ));
    }
    let from_update_at = match ctx.q("fromUpdateAt") {
        Some(s) if !s.is_empty() => {
            atoi(s).ok_or_else(|| AppError::invalid_param("fromUpdateAt"))?
        }
        _ => 0,
    };
    if from_update_at != 0 && from_create_at != 0 {
        return Err(AppError::invalid_param("fromUpdateAt"));
    }
    let updates_only = literal_true(ctx.q("updatesOnly"));
    if updates_only && from_update_at == 0 {
        return Err(AppError::invalid_param("fromUpdateAt"));
    }
    let direction = match ctx.q("direction") {
        None | Some("") => "",
        Some("up") => "up",
        Some("down") => "down",
        Some(_) => return Err(AppError::invalid_param("direction")),
    };
    if updates_only && direction == "up" {
        return Err(AppError::invalid_param("updatesOnly"));
    }
    let skip = literal_true(ctx.q("skipFetchThreads"));
    let crt = literal_true(ctx.q("collapsedThreads"));
    let extended = literal_true(ctx.q("collapsedThreadsExtended"));
    if per_page < -1 {
        // a negative LIMIT that overflowed to a huge uint64 makes the SQL fail
        return Err(AppError::new(
            500,
            "app.post.get.app_error",
            "Unable to get post.",
        ));
    }

    let post = ctx.live_post(&id)?;
    let root_id = if post.root_id.is_empty() {
        post.id.clone()
    } else {
        post.root_id.clone()
    };
    let w: &World = ctx.w;
    let rng = &mut ctx.rng;
    let crt_root = crt && post.root_id.is_empty();

    let mut order = vec![post.id.clone()];
    let mut has_next = false;
    let fetched = !skip || crt_root;
    if fetched {
        let mut rows: Vec<&Post> = w
            .posts
            .iter()
            .filter(|p| p.delete_at == 0)
            .filter(|p| {
                if crt_root {
                    p.root_id == root_id
                } else {
                    p.id == root_id || p.root_id == root_id
                }
            })
            .collect();
        let cursor_time = |p: &Post| {
            if from_update_at != 0 {
                p.update_at
            } else {
                p.create_at
            }
        };
        let from = if from_update_at != 0 {
            from_update_at
        } else {
            from_create_at
        };
        let down = direction == "down";
        if from != 0 {
            rows.retain(|p| {
                let t = cursor_time(p);
                if down {
                    t > from
                        || (!from_post.is_empty()
                            && t == from
                            && p.id.as_str() > from_post.as_str())
                } else {
                    t < from
                        || (!from_post.is_empty()
                            && t == from
                            && p.id.as_str() < from_post.as_str())
                }
            });
        }
        match direction {
            "down" => {
                rows.sort_by(|a, b| cursor_time(a).cmp(&cursor_time(b)).then(a.id.cmp(&b.id)))
            }
            "up" => rows.sort_by(|a, b| cursor_time(b).cmp(&cursor_time(a)).then(b.id.cmp(&a.id))),
            _ => rng.shuffle(&mut rows),
        }
        if per_page != 0 {
            let limit = (per_page + 1).max(0) as usize;
            rows.truncate(limit);
            if rows.len() == limit {
                has_next = true;
                rows.pop();
            }
        }
        order.extend(
            rows.iter()
                .filter(|p| p.id != post.id)
                .map(|p| p.id.clone()),
        );
    }
    let mut list = PostListOut::new(order);
    // SqlPostStore.Get sets HasNext only when it fetched the thread
    list.has_next = fetched.then_some(has_next);
    if let Some(c) = w.channel_by_id(&post.channel_id)
        && !w.can_read_channel(&ctx.me, c)
    {
        return Err(AppError::permission());
    }
    let etag = list.etag(w);
    if ctx
        .headers
        .iter()
        .any(|(k, v)| k == "if-none-match" && *v == etag)
    {
        return Ok(Reply::not_modified(&etag));
    }
    let me = ctx.me.clone();
    Ok(Reply::json(&list.render(
        w,
        PostOpts {
            crt,
            extended,
            viewer: Some(&me),
        },
    ))
    .header("ETag", &etag))
}

/// GET /api/v4/posts/{post_id}/edit_history — the author only; history rows `ORDER BY EditAt DESC`.
// Mirrors server/channels/api4/post.go getEditHistoryForPost → app/post.go GetEditHistoryForPost →
// store/sqlstore/post_store.go GetEditHistoryForPost
pub(crate) fn edit_history(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("post_id")?;
    let Ok(post) = ctx.live_post(&id) else {
        return Err(AppError::permission());
    };
    if post.user_id != ctx.me {
        return Err(AppError::permission());
    }
    let mut rows: Vec<Post> = ctx
        .w
        .posts
        .iter()
        .filter(|p| p.original_id == id)
        .cloned()
        .collect();
    if rows.is_empty() {
        return Err(AppError::not_found(
            "app.post.get_edit_history_for_post.app_error",
            "Unable to get post edit history.",
        ));
    }
    rows.sort_by_key(|p| Reverse(p.edit_at));
    Ok(array(
        rows.iter()
            .map(|p| render::post(ctx.w, p, PostOpts::default()))
            .collect(),
    ))
}

/// GET /api/v4/posts/{post_id}/reactions — the whole list, `ORDER BY CreateAt`.
// Mirrors server/channels/api4/reaction.go getReactions → app/reaction.go GetReactionsForPost →
// store/sqlstore/reaction_store.go GetForPost
pub(crate) fn reactions(ctx: &mut Ctx) -> HResult {
    let id = ctx.require_id("post_id")?;
    let Some(p) = ctx.w.post_by_id(&id).cloned() else {
        return Err(AppError::permission());
    };
    ctx.readable_channel(&p.channel_id)?;
    let mut rs: Vec<_> = ctx
        .w
        .reactions
        .iter()
        .filter(|r| r.post_id == id)
        .cloned()
        .collect();
    ctx.rng.sort_ties_shuffled(&mut rs, |r| r.create_at);
    // the store scans into a nil slice, which marshals as `null` when there are no rows
    Ok(array_or_null(rs.iter().map(render::reaction).collect()))
}

/// GET /api/v4/users/{user_id}/posts/flagged — `page` is passed as the SQL OFFSET (not
/// multiplied by per_page); the team filter lacks parentheses (`... AND TeamId = ? OR TeamId = ''`)
/// so DM/GM posts skip the membership test; unreadable posts are dropped after the LIMIT.
// Mirrors server/channels/api4/post.go getFlaggedPostsForUser → app/post.go GetFlaggedPostsForTeam
// / GetFlaggedPostsForChannel / GetFlaggedPosts → store/sqlstore/post_store.go getFlaggedPosts
pub(crate) fn flagged(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    ctx.require_self_or_admin(&uid)?;
    let channel_id = ctx.q("channel_id").unwrap_or("").to_string();
    let team_id = ctx.q("team_id").unwrap_or("").to_string();
    let (offset, limit) = (ctx.paging.page, ctx.paging.per_page);
    if offset < 0 {
        return Err(AppError::new(
            500,
            "app.post.get_flagged_posts.app_error",
            "Unable to get the flagged posts.",
        ));
    }
    let w: &World = ctx.w;
    let mut rows: Vec<&Post> = w
        .flagged
        .iter()
        .filter(|(u, _)| *u == uid)
        .filter_map(|(_, pid)| w.post_by_id(pid))
        .filter(|p| p.delete_at == 0)
        .filter(|p| channel_id.is_empty() || p.channel_id == channel_id)
        .filter(|p| {
            let is_member = w.member(&p.channel_id, &uid).is_some();
            let chan_team = w.channel_by_id(&p.channel_id).map(|c| c.team_id.clone());
            match (team_id.is_empty() || !channel_id.is_empty(), chan_team) {
                (_, None) => false,
                (true, Some(_)) => is_member,
                (false, Some(t)) => (is_member && t == team_id) || t.is_empty(),
            }
        })
        .collect();
    ctx.rng
        .sort_ties_shuffled(&mut rows, |p| Reverse(p.create_at));
    let window = offset_slice(&rows, offset, limit);
    let mut kept: Vec<&Post> = window
        .into_iter()
        .filter(|p| {
            w.channel_by_id(&p.channel_id)
                .is_some_and(|c| w.can_read_channel(&ctx.me, c))
        })
        .collect();
    ctx.rng
        .sort_ties_shuffled(&mut kept, |p| Reverse(p.create_at));
    let list = PostListOut::new(kept.iter().map(|p| p.id.clone()).collect());
    Ok(Reply::json(&list.render(w, PostOpts::default())))
}

/// GET /api/v4/users/{user_id}/teams/{team_id}/drafts — the session user's drafts (the path's
/// user id is not read), channels they are a member of in the team and DMs/GMs, `UpdateAt DESC`.
// Mirrors server/channels/api4/drafts.go getDrafts → app/draft.go GetDraftsForUser →
// store/sqlstore/draft_store.go GetDraftsForUser
pub(crate) fn drafts(ctx: &mut Ctx) -> HResult {
    if !ctx.w.settings.allow_synced_drafts {
        return Err(AppError::new(
            501,
            "api.drafts.disabled.app_error",
            "Drafts are disabled.",
        ));
    }
    let tid = ctx.var("team_id");
    if !ctx.w.can_view_team(&ctx.me, &tid) {
        return Err(AppError::permission());
    }
    let me = ctx.me.clone();
    let mut ds: Vec<_> = ctx
        .w
        .drafts
        .iter()
        .filter(|d| d.user_id == me && ctx.w.member(&d.channel_id, &me).is_some())
        .filter(|d| {
            ctx.w
                .channel_by_id(&d.channel_id)
                .is_some_and(|c| c.team_id == tid || c.team_id.is_empty())
        })
        .cloned()
        .collect();
    ctx.rng
        .sort_ties_shuffled(&mut ds, |d| Reverse(d.update_at));
    let out = ds
        .iter()
        .map(|d| {
            json!({
                "create_at": d.create_at, "update_at": d.update_at, "delete_at": 0, "user_id": d.user_id,
                "channel_id": d.channel_id, "root_id": d.root_id, "message": d.message, "props": {},
                "file_ids": []
            })
        })
        .collect();
    // a nil slice when the query finds no rows: the body is `null`
    Ok(array_or_null(out))
}
