//! Thread: a thread read whole, oldest first, from any post in it (notes §3).
//!
//! `GET /posts/{id}/thread` with `direction=down` is a true keyset: it orders by `(CreateAt, Id)` and
//! reads on from `fromCreateAt` + `fromPost` with the id as tiebreak, so replies sharing a millisecond
//! are neither lost nor repeated, as long as both are sent; the cursor holds both, with the root's id.
//! Its quirks, all handled here:
//! - `perPage` (camelCase) is read, `per_page` is not; above 200 is a 400, 0 means the whole thread
//!   with no LIMIT. The page asks for the tool's limit (at most 200): the keyset needs no extra post,
//!   and Mattermost's `has_next` (it reads one row more and drops it) says whether more follow.
//! - The requested post is always `order[0]`, and on the first page it also takes one LIMIT slot
//!   (the reply query matches the root too). On later pages, read from the root, `order[0]` is the
//!   root again: it is dropped as it lies before the cursor. When a reply was asked for, `order[0]`
//!   is that reply, wherever it sits in the thread: it is kept only if it falls inside the range the
//!   page covers, so it shows once, in its place.
//! - Deleted replies never come back.
//!
//! A position with no post id (`p` empty) reads the replies written strictly after its time alone
//! (`fromCreateAt` without `fromPost`, `CreateAt > t`): the unread replies of a thread last viewed at
//! `t`, which count the replies of that very millisecond as read, as Mattermost does.
//!
//! Without `direction` Mattermost has no ORDER BY at all; `skipFetchThreads` would drop the replies.

use super::cursor::{self, Fields, Reader};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::{Maybe, types::Post};

/// Mattermost's largest `perPage` for a thread (above it is a 400).
pub const MAX_PER_PAGE: u32 = 200;

/// Where the next page starts: the posts of root `r`'s thread after `(t, p)`, the creation time and id
/// of the last post shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub r: String,
    pub t: i64,
    pub p: String,
}

impl cursor::Position for Position {
    fn write(&self, f: &mut Fields) {
        f.id(&self.r).num(self.t).id(&self.p);
    }

    fn read(r: &mut Reader<'_>) -> Option<Position> {
        Some(Position {
            r: r.id()?,
            t: r.num()?,
            p: r.id()?,
        })
    }
}

/// A page of a thread, oldest first.
#[derive(Debug, Default)]
pub struct ThreadPage {
    pub root_id: String,
    pub posts: Vec<Post>,
    pub next: Option<Position>,
}

fn key(p: &Post) -> (i64, &str) {
    (p.create_at.unwrap_or(0), p.id.as_deref().unwrap_or(""))
}

/// One page: the first of the thread of `post_id` (any post in it) when `from` is `None`, else the
/// page after `from`. At most `limit` posts.
pub async fn page(
    cx: &Ctx,
    post_id: &str,
    from: Option<&Position>,
    limit: u32,
) -> Result<ThreadPage, ToolError> {
    let asked = from.map_or(post_id, |f| f.r.as_str());
    let per_page = i64::from(limit.clamp(1, MAX_PER_PAGE));
    let list = cx
        .send(
            cx.api()
                .get_post_thread()
                .post_id(asked)
                .direction("down")
                .maybe(from.map(|f| f.t), |b, t| b.from_create_at(t))
                .maybe(
                    from.map(|f| f.p.as_str()).filter(|p| !p.is_empty()),
                    |b, p| b.from_post(p),
                )
                .per_page(per_page)
                .send(),
        )
        .await
        .map_err(|e| cx.fail(e, "post", post_id))?
        .into_inner();
    let mut by_id = list.posts.unwrap_or_default();
    let order = list.order.unwrap_or_default();
    let in_order: Vec<Post> = order.iter().filter_map(|id| by_id.remove(id)).collect();
    let rows = in_order.len().saturating_sub(1) as i64;
    let has_next = list.has_next.unwrap_or(rows >= per_page);
    Ok(cut(in_order, from, has_next))
}

/// The page's posts in thread order: those after `from`, up to the last row Mattermost read when more
/// follow, each once; the requested post (`order[0]`) only where it falls in that range.
fn cut(in_order: Vec<Post>, from: Option<&Position>, has_next: bool) -> ThreadPage {
    let root_id = in_order
        .first()
        .map(|p| {
            p.root_id
                .clone()
                .filter(|r| !r.is_empty())
                .or_else(|| p.id.clone())
                .unwrap_or_default()
        })
        .unwrap_or_default();
    // The last row read: the latest of order[1..], or the requested post when it is the only one.
    let last_row = in_order
        .iter()
        .skip(1)
        .map(|p| (p.create_at.unwrap_or(0), p.id.clone().unwrap_or_default()))
        .max()
        .or_else(|| {
            in_order
                .first()
                .map(|p| (p.create_at.unwrap_or(0), p.id.clone().unwrap_or_default()))
        });
    let mut posts: Vec<Post> = in_order
        .into_iter()
        .filter(|p| from.is_none_or(|f| key(p) > (f.t, f.p.as_str())))
        .filter(|p| {
            !has_next
                || last_row
                    .as_ref()
                    .is_some_and(|(t, id)| key(p) <= (*t, id.as_str()))
        })
        .collect();
    posts.sort_by(|a, b| key(a).cmp(&key(b)));
    posts.dedup_by(|a, b| a.id == b.id);
    let next = if has_next {
        posts.last().map(|p| Position {
            r: root_id.clone(),
            t: p.create_at.unwrap_or(0),
            p: p.id.clone().unwrap_or_default(),
        })
    } else {
        None
    };
    ThreadPage {
        root_id,
        posts,
        next,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(id: &str, t: i64, root: &str) -> Post {
        Post {
            id: Some(id.into()),
            create_at: Some(t),
            root_id: Some(root.into()),
            ..Post::default()
        }
    }

    fn ids(p: &ThreadPage) -> Vec<&str> {
        p.posts
            .iter()
            .map(|p| p.id.as_deref().unwrap_or(""))
            .collect()
    }

    #[test]
    fn a_first_page_from_the_root_keeps_the_root_and_ends_on_the_last_row() {
        let page = cut(
            vec![post("r", 1, ""), post("a", 2, "r"), post("b", 2, "r")],
            None,
            true,
        );
        assert_eq!(ids(&page), ["r", "a", "b"]);
        assert_eq!(
            page.next,
            Some(Position {
                r: "r".into(),
                t: 2,
                p: "b".into()
            })
        );
    }

    #[test]
    fn a_later_page_drops_the_repeated_root() {
        let from = Position {
            r: "r".into(),
            t: 2,
            p: "b".into(),
        };
        let page = cut(
            vec![post("r", 1, ""), post("c", 2, "r"), post("d", 3, "r")],
            Some(&from),
            false,
        );
        assert_eq!(ids(&page), ["c", "d"]);
        assert!(page.next.is_none());
    }

    #[test]
    fn a_requested_reply_beyond_the_page_waits_for_its_own_page() {
        // Asked for reply "z" (time 9); the page read the root and "a" only.
        let page = cut(
            vec![post("z", 9, "r"), post("r", 1, ""), post("a", 2, "r")],
            None,
            true,
        );
        assert_eq!(ids(&page), ["r", "a"]);
        assert_eq!(page.root_id, "r");
        // Inside the range it is kept, once, in its place.
        let page = cut(
            vec![post("a", 2, "r"), post("r", 1, ""), post("b", 3, "r")],
            None,
            true,
        );
        assert_eq!(ids(&page), ["r", "a", "b"]);
    }

    #[test]
    fn a_page_of_one_from_the_root_moves_on_from_the_root() {
        let page = cut(vec![post("r", 1, "")], None, true);
        assert_eq!(ids(&page), ["r"]);
        assert_eq!(page.next.map(|n| n.p), Some("r".to_string()));
    }
}
