//! Since: the posts written at or after a time, oldest first.
//!
//! Mattermost's `since` read answers the posts *changed* after a time (`UpdateAt > since`), deleted ones
//! and edit-history rows included, capped at 1000 rows chosen arbitrarily, with no signal that the cap
//! was reached. Under the cap the answer holds every post written since the time (its `create_at` is
//! after it, so its `update_at` is too); the tool keeps those, drops deleted posts and history rows, and
//! pages forward from there with [`posts_by_time`]. At the cap the answer cannot be trusted, so the tool
//! reads back from the newest post instead, page by page on whole milliseconds, until it passes the
//! time. That walk is bounded ([`WALK_PAGES`] pages of 200); past it the call is refused with the way on.

use super::posts_by_time::{self, Direction, MAX_PER_PAGE, Mode, Position, Posts, Query, Start};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::types::Post;
use crate::time::rfc3339;

/// Mattermost's cap on a since read.
pub const SINCE_CAP: usize = 1000;
/// How many pages of 200 the walk back may take (10,000 posts).
pub const WALK_PAGES: usize = 50;

fn create_at(p: &Post) -> i64 {
    p.create_at.unwrap_or(0)
}

/// A post as a reader sees it: not deleted, not an edit-history row.
fn visible(p: &Post) -> bool {
    p.delete_at.unwrap_or(0) == 0 && p.original_id.as_deref().unwrap_or("").is_empty()
}

/// The first page of the posts written at or after `since` (milliseconds); later pages continue with
/// [`posts_by_time::page`] from the returned position. Returns the page and the number of posts the
/// whole answer (all pages) holds, when that was learnt.
pub async fn first_page(
    cx: &Ctx,
    q: &Query,
    since: i64,
    limit: u32,
) -> Result<(Posts, Option<u64>), ToolError> {
    let posts = all(cx, q, since).await?;
    let total = posts.len() as u64;
    Ok((take_first(posts, limit as usize), Some(total)))
}

/// Every post written at or after `since` (milliseconds), oldest first, in (time, id) order: one
/// request under Mattermost's cap, the walk back from the newest at it.
pub async fn all(cx: &Ctx, q: &Query, since: i64) -> Result<Vec<Post>, ToolError> {
    // `since` of 0 or less is no since read at all: Mattermost answers its newest page instead.
    let changed = if since > 1 {
        posts_by_time::fetch(cx, q, &Mode::Since(since - 1), MAX_PER_PAGE).await?
    } else {
        Vec::new()
    };
    let capped = since <= 1 || changed.len() >= SINCE_CAP;
    let mut posts: Vec<Post> = if capped {
        walk_back(cx, q, since).await?
    } else {
        changed
            .into_iter()
            .filter(|p| visible(p) && create_at(p) >= since)
            .collect()
    };
    if q.roots_only {
        posts.retain(|p| p.root_id.as_deref().unwrap_or("").is_empty());
    }
    posts.sort_by(|a, b| (create_at(a), &a.id).cmp(&(create_at(b), &b.id)));
    posts.dedup_by(|a, b| a.id == b.id);
    Ok(posts)
}

/// The oldest `limit` posts of `posts` (sorted oldest first), ending on a whole millisecond.
fn take_first(mut posts: Vec<Post>, limit: usize) -> Posts {
    if posts.len() <= limit {
        return Posts {
            posts,
            next: None,
            incomplete_millisecond: None,
        };
    }
    let boundary = create_at(&posts[limit]);
    let mut keep = posts[..limit]
        .iter()
        .take_while(|p| create_at(p) != boundary)
        .count();
    if keep == 0 {
        // The first millisecond holds more posts than the page: it is returned whole.
        keep = posts
            .iter()
            .take_while(|p| create_at(p) == boundary)
            .count();
    }
    let more = keep < posts.len();
    posts.truncate(keep);
    let next = if more {
        posts.last().map(|p| Position {
            d: Direction::Forward,
            t: create_at(p),
            a: p.id.clone().unwrap_or_default(),
        })
    } else {
        None
    };
    Posts {
        posts,
        next,
        incomplete_millisecond: None,
    }
}

/// Reads back from the newest post until a page passes `since`; returns the posts written at or after it.
async fn walk_back(cx: &Ctx, q: &Query, since: i64) -> Result<Vec<Post>, ToolError> {
    let mut found = Vec::new();
    let mut start = Start::Newest;
    for _ in 0..WALK_PAGES {
        let page = posts_by_time::page(cx, q, start, MAX_PER_PAGE - 1).await?;
        let passed = page.posts.first().is_some_and(|p| create_at(p) < since);
        found.extend(page.posts.into_iter().filter(|p| create_at(p) >= since));
        match page.next {
            Some(next) if !passed => start = Start::At(next),
            _ => return Ok(found),
        }
    }
    Err(ToolError::new(
        ErrorKind::TooMany,
        format!(
            "More than {} posts were written in this channel since {}; that is more than one call reads. Use a \
             later `since`, or read without `since` (newest first) and page back with next_cursor.",
            WALK_PAGES * (MAX_PER_PAGE as usize - 1),
            rfc3339(since)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(id: &str, t: i64) -> Post {
        Post {
            id: Some(id.into()),
            create_at: Some(t),
            ..Post::default()
        }
    }

    #[test]
    fn the_first_page_ends_on_a_whole_millisecond() {
        let posts = vec![post("a", 1), post("b", 2), post("c", 2), post("d", 3)];
        let p = take_first(posts, 2);
        assert_eq!(p.posts.len(), 1);
        assert_eq!(p.next.as_ref().map(|n| n.t), Some(1));
    }

    #[test]
    fn a_first_millisecond_larger_than_the_page_is_whole() {
        let posts = vec![post("a", 1), post("b", 1), post("c", 1), post("d", 3)];
        let p = take_first(posts, 2);
        assert_eq!(p.posts.len(), 3);
        assert_eq!(
            p.next.as_ref().map(|n| (n.t, n.d)),
            Some((1, Direction::Forward))
        );
    }

    #[test]
    fn history_rows_and_deleted_posts_are_not_visible() {
        let mut history = post("h", 5);
        history.original_id = Some("a".into());
        history.delete_at = Some(6);
        let mut deleted = post("d", 5);
        deleted.delete_at = Some(7);
        assert!(!visible(&history) && !visible(&deleted) && visible(&post("a", 5)));
    }
}
