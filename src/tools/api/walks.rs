//! How the gateway walks an operation's answer to its end, by how Mattermost pages it: a read answered
//! whole is read once, cut into pages and kept for the cursor chain ([`whole`]); a write is asked, sent
//! once and its answer paged from what was kept ([`write`]); a `page`/`per_page` list is walked by
//! offset, one or two Mattermost pages per call ([`by_offset`]); a `before`/`after` list by the id of
//! the last item shown ([`by_key`]).

use super::params::set;
use super::request::{Sending, question, send, shape};
use crate::confirm;
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::operations::{Entry, PagingKind, Params};
use crate::paging::Page;
use crate::paging::by_operation::{self, Position, Shaped};
use crate::tool::{Input, Stop};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// What is kept of an answer for its cursor chain.
struct Kept {
    shaped: Shaped,
    extra: Called,
}

/// A page of a shaped answer, with what the call says beside it.
pub(super) fn page_of(
    shaped: &Shaped,
    position: Option<&Position>,
    limit: usize,
    mut extra: Called,
) -> Page<Value, Called> {
    let cut = by_operation::page(shaped, position, limit);
    extra.part = cut.part;
    extra.answer = by_operation::kind_of(shaped).into();
    if let Shaped::List { meta, .. } = shaped
        && !meta.is_empty()
    {
        extra.meta = Some(meta.clone());
    }
    let total = match shaped {
        Shaped::List { items, .. } => Some(items.len() as u64),
        Shaped::Scalar(_) | Shaped::Empty => Some(cut.items.len() as u64),
        _ => None,
    };
    let mut page = Page::new(cut.items).continue_at(cut.next);
    if let Some(t) = total {
        page = page.with_total(t);
    }
    page.with_extra(extra)
}

pub(super) fn note(e: &Entry) -> Option<String> {
    match e.paging.kind {
        PagingKind::CursorField | PagingKind::Keyset | PagingKind::LimitOnly => {
            let mut s = super::how_paged(e);
            if let Some(n) = &e.paging.note {
                s.push_str(&format!(" {n}."));
            }
            Some(s)
        }
        _ => e.paging.note.clone(),
    }
}

/// A read answered whole: read once, cut into pages, kept for the cursor chain; read again when a
/// later page finds it no longer kept.
pub(super) async fn whole<A>(
    cx: &Ctx,
    input: &Input<A>,
    e: &Entry,
    params: &Params,
    position: Option<Position>,
) -> Result<Page<Value, Called>, ToolError> {
    let key = input.list_key();
    let kept = match position {
        Some(_) => cx.lists.get::<Kept>(&key),
        None => None,
    };
    let kept = match kept {
        Some(k) => k,
        None => {
            let (reply, request) =
                send(cx, e, params, by_operation::MAX_BYTES, Sending::Read).await?;
            let (shaped, status, content_type) = shape(e, reply);
            let kept = Arc::new(Kept {
                shaped,
                extra: Called {
                    request,
                    status,
                    content_type,
                    paging_note: note(e),
                    ..Called::default()
                },
            });
            let more = by_operation::page(&kept.shaped, position.as_ref(), input.limit as usize)
                .next
                .is_some();
            if more {
                cx.lists
                    .put(key, kept.clone(), by_operation::size_of(&kept.shaped));
            }
            kept
        }
    };
    Ok(page_of(
        &kept.shaped,
        position.as_ref(),
        input.limit as usize,
        kept.extra.clone(),
    ))
}

/// A write: asked, sent once, its answer paged (kept for the cursor chain, never sent for again).
pub(super) async fn write<A>(
    cx: &Ctx,
    input: &Input<A>,
    e: &'static Entry,
    params: &Params,
    position: Option<Position>,
) -> Result<Page<Value, Called>, Stop> {
    let key = input.list_key();
    if let Some(p) = position {
        let kept = cx.lists.get::<Kept>(&key).ok_or_else(|| {
            ToolError::new(
                ErrorKind::BadCursor,
                format!(
                    "The rest of the answer of this {} is no longer kept (answers are kept for ten minutes), and a \
                     write is never sent again to read it. Nothing was sent. Read what it changed with a reading \
                     operation instead.",
                    e.id
                ),
            )
        })?;
        return Ok(page_of(
            &kept.shaped,
            Some(&p),
            input.limit as usize,
            kept.extra.clone(),
        ));
    }
    confirm::preflight(input)?;
    let question = question(e, params)?;
    let cleared = confirm::ask(cx, input, &question).await?;
    let (reply, request) = send(
        cx,
        e,
        params,
        by_operation::MAX_BYTES,
        Sending::Write(&cleared),
    )
    .await?;
    let (shaped, status, content_type) = shape(e, reply);
    let kept = Arc::new(Kept {
        shaped,
        extra: Called {
            request,
            status,
            content_type,
            confirmed: Some(cleared.how()),
            ..Called::default()
        },
    });
    let page = page_of(&kept.shaped, None, input.limit as usize, kept.extra.clone());
    if page.next.is_some() {
        cx.lists
            .put(key, kept.clone(), by_operation::size_of(&kept.shaped));
    }
    Ok(page)
}

/// The names of an operation's page and page-size parameters (`page`, `per_page`, or in the body).
pub(super) fn page_names(e: &Entry) -> (Option<&str>, Option<&str>) {
    let find = |names: &[&str]| {
        e.paging
            .params
            .iter()
            .map(String::as_str)
            .find(|p| names.contains(&p.trim_start_matches("body.")))
    };
    (
        find(&["page"]),
        find(&["per_page", "perPage", "logs_per_page"]),
    )
}

pub(super) fn wrong_cursor(e: &Entry) -> ToolError {
    ToolError::new(
        ErrorKind::BadCursor,
        format!(
            "The cursor is not one of {}'s pages. Repeat the call without `cursor` to start from the first page.",
            e.id
        ),
    )
}

/// A list Mattermost pages by `page`/`per_page` (or an offset `page`), walked by offset in items: the
/// page of `limit` items at the cursor's offset, from one Mattermost page or two when the offset falls
/// inside one.
pub(super) async fn by_offset<A>(
    cx: &Ctx,
    input: &Input<A>,
    e: &Entry,
    params: &Params,
    position: Option<Position>,
) -> Result<Page<Value, Called>, ToolError> {
    let limit = i64::from(input.limit);
    let at = match position {
        None => 0,
        Some(Position::Offset { at }) => at,
        Some(_) => return Err(wrong_cursor(e)),
    };
    let (page_name, size_name) = page_names(e);
    let counts_items = e.paging.kind == PagingKind::Offset;
    let (first, skip) = if counts_items {
        (at, 0)
    } else {
        (at / limit, at % limit)
    };
    let fetches = if skip == 0 { 1 } else { 2 };
    let mut items = Vec::new();
    let mut meta = Map::new();
    let mut more = false;
    let mut extra = Called {
        paging_note: Some(format!(
            "Mattermost pages this list by offset ({}): while it changes, an item can be skipped or repeated \
             between pages.{}",
            e.paging.params.join(", "),
            e.paging
                .note
                .as_deref()
                .map(|n| format!(" {n}."))
                .unwrap_or_default()
        )),
        ..Called::default()
    };
    for k in 0..fetches {
        let mut p = params.clone();
        if let Some(name) = page_name {
            set(e, &mut p, name, first + k);
        }
        if let Some(name) = size_name {
            set(e, &mut p, name, limit);
        }
        let (reply, request) = send(cx, e, &p, by_operation::MAX_BYTES, Sending::Read).await?;
        let (shaped, status, _) = shape(e, reply);
        if k == 0 {
            extra.request = request;
            extra.status = status;
        }
        let Shaped::List {
            items: got,
            meta: m,
        } = shaped
        else {
            // Not a list after all: the answer as it is, on pages of its own.
            return Ok(page_of(&shaped, None, input.limit as usize, extra));
        };
        more = if counts_items {
            !got.is_empty()
        } else {
            got.len() as i64 >= limit
        };
        items.extend(got);
        if k == 0 {
            meta = m;
        }
        if !more {
            break;
        }
    }
    let available: Vec<Value> = items.into_iter().skip(skip as usize).collect();
    let shown = by_operation::take_items(&available, 0, input.limit as usize);
    let next = (more || shown.len() < available.len()) && !shown.is_empty();
    extra.answer = "list".into();
    if !meta.is_empty() {
        extra.meta = Some(meta);
    }
    let count = shown.len() as i64;
    Ok(Page::new(shown)
        .continue_at(next.then_some(Position::Offset { at: at + count }))
        .with_extra(extra))
}

/// A list Mattermost pages by `before`/`after` an item's id: back from the newest (or from a `before`
/// given), or forward from an `after` given, `limit` items a page, continued from the last item shown.
pub(super) async fn by_key<A>(
    cx: &Ctx,
    input: &Input<A>,
    e: &Entry,
    params: &Params,
    position: Option<Position>,
) -> Result<Page<Value, Called>, ToolError> {
    let given = |n: &str| params.get(n).is_some_and(|v| !v.is_null());
    let (back, from) = match position {
        None => (!given("after") || given("before"), None),
        Some(Position::Key { back, id }) => (back, Some(id)),
        Some(_) => return Err(wrong_cursor(e)),
    };
    let mut p = params.clone();
    if let Some(id) = &from {
        p.remove("before");
        p.remove("after");
        p.insert(if back { "before" } else { "after" }.into(), json!(id));
    }
    let (page_name, size_name) = page_names(e);
    if let Some(name) = page_name {
        set(e, &mut p, name, 0);
    }
    if let Some(name) = size_name {
        set(e, &mut p, name, i64::from(input.limit));
    }
    let (reply, request) = send(cx, e, &p, by_operation::MAX_BYTES, Sending::Read).await?;
    let (shaped, status, _) = shape(e, reply);
    let mut extra = Called {
        request,
        status,
        paging_note: Some(format!(
            "Paged by `{}`: each next page continues from the id of the last item shown.{}",
            if back { "before" } else { "after" },
            e.paging
                .note
                .as_deref()
                .map(|n| format!(" {n}."))
                .unwrap_or_default()
        )),
        ..Called::default()
    };
    let Shaped::List { items, meta } = shaped else {
        return Ok(page_of(&shaped, None, input.limit as usize, extra));
    };
    // Items come newest first; going forward, the oldest of them are the ones right after the key.
    let shown = if back {
        by_operation::take_items(&items, 0, input.limit as usize)
    } else {
        let mut reversed: Vec<Value> = items.iter().rev().cloned().collect();
        reversed = by_operation::take_items(&reversed, 0, input.limit as usize);
        reversed.reverse();
        reversed
    };
    let full = items.len() >= input.limit as usize || shown.len() < items.len();
    let edge = if back { shown.last() } else { shown.first() };
    let next = edge
        .and_then(|i| i.get("id").and_then(Value::as_str))
        .filter(|_| full)
        .map(|id| Position::Key {
            back,
            id: id.to_string(),
        });
    extra.answer = "list".into();
    if !meta.is_empty() {
        extra.meta = Some(meta);
    }
    Ok(Page::new(shown).continue_at(next).with_extra(extra))
}

/// What `call_operation` says beside the items.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub(super) struct Called {
    /// The request sent: method, path with its values, query.
    pub(crate) request: String,
    /// Mattermost's HTTP status (0 when the page came from the answer kept for the cursor chain).
    pub(crate) status: u16,
    /// What Mattermost answered: `list`, `object`, `scalar`, `text`, `bytes` or `empty`.
    pub(crate) answer: String,
    /// The other fields of the object that wrapped the list (`next_post_id`, `total_count`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) meta: Option<Map<String, Value>>,
    /// How Mattermost pages it, and what that means for the pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) paging_note: Option<String>,
    /// What this page holds of an object or bytes larger than a page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) part: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) content_type: Option<String>,
    /// A write: how it was cleared (`by_person`, or `not_asked` with MATTERMOST_CONFIRM_WRITES=never).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) confirmed: Option<confirm::Confirmed>,
}
