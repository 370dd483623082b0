//! Offset quirk: saved (flagged) posts, whose `page` is an offset in posts (notes §6).
//!
//! `GET /users/{id}/posts/flagged` passes `page` straight to SQL as `OFFSET page`, not multiplied by
//! `per_page`, in every version: `page=1&per_page=60` answers rows 2 to 61. It orders by `CreateAt DESC`
//! with no tiebreak, and after the LIMIT it drops posts of channels the person can no longer read, so a
//! page can come back short while more follow. So the read sends `page` = the rows it has read so far,
//! with `per_page` 200, and stops only on a page that comes back *empty*, not short; repeats are
//! removed by id. A full page is not trusted up to its last millisecond: the posts of that millisecond
//! may go on past the LIMIT in an order Mattermost settles anew on each request, so the next offset
//! starts at that millisecond and reads it whole (a millisecond that fills a page is reported, as it
//! cannot be read whole). 205 saved posts take three requests: offsets 0 (200 back), about 200 (the
//! rest) and 205 (empty).
//!
//! Later pages of the tool are served from the list as first read, kept per cursor chain (see
//! [`super::pages_with_ties`]), not by re-reading: an offset means nothing once a post is saved or
//! unsaved (every later offset shifts), so a page of the tool cannot be mapped to one request, and
//! reading the whole list again for every page would cost all its requests each time. A cursor that
//! outlives the kept list reads it again and continues after its (time, id), newest first.

use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::types::Post;

/// Mattermost's largest page.
pub(crate) const PER_PAGE: usize = 200;
/// The most requests one read may take (about 40,000 saved posts).
pub(crate) const MAX_REQUESTS: usize = 200;

/// Every saved post read, and the millisecond that could not be read whole, if one.
#[derive(Debug, Default)]
pub(crate) struct Read {
    pub(crate) posts: Vec<Post>,
    pub(crate) incomplete_millisecond: Option<i64>,
}

fn create_at(p: &Post) -> i64 {
    p.create_at.unwrap_or(0)
}

/// One request: the saved posts from row `offset`, newest first.
async fn fetch(cx: &Ctx, offset: usize) -> Result<Vec<Post>, ToolError> {
    let list = cx
        .send(
            cx.api()
                .get_flagged_posts_for_user()
                .user_id("me")
                .page(offset as i64)
                .per_page(PER_PAGE as i64)
                .send(),
        )
        .await
        .map_err(|e| cx.fail(e, "saved posts of the user", "me"))?
        .into_inner();
    let mut by_id = list.posts.unwrap_or_default();
    let mut posts: Vec<Post> = list
        .order
        .unwrap_or_default()
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect();
    posts.sort_by_key(|p| std::cmp::Reverse(create_at(p)));
    Ok(posts)
}

/// Where the next request starts after `got` (newest first) came back for `offset`, and the
/// millisecond of a page that was one millisecond throughout.
fn advance(offset: usize, got: &[Post]) -> (usize, Option<i64>) {
    if got.len() < PER_PAGE {
        return (offset + got.len(), None);
    }
    let last_ms = got.last().map(create_at).unwrap_or(0);
    let tail = got
        .iter()
        .rev()
        .take_while(|p| create_at(p) == last_ms)
        .count();
    if tail == got.len() {
        (offset + got.len(), Some(last_ms))
    } else {
        (offset + got.len() - tail, None)
    }
}

/// Every saved post, each once.
pub(crate) async fn read_all(cx: &Ctx) -> Result<Read, ToolError> {
    let mut out = Read::default();
    let mut seen = std::collections::HashSet::new();
    let mut offset = 0usize;
    for _ in 0..MAX_REQUESTS {
        let got = fetch(cx, offset).await?;
        if got.is_empty() {
            return Ok(out);
        }
        let (next, overflow) = advance(offset, &got);
        out.incomplete_millisecond = out.incomplete_millisecond.or(overflow);
        offset = next;
        out.posts.extend(
            got.into_iter()
                .filter(|p| seen.insert(p.id.clone().unwrap_or_default())),
        );
        crate::mattermost::call::step(|| {
            format!("read {} saved posts; reading on", out.posts.len())
        });
    }
    Err(ToolError::new(
        ErrorKind::TooMany,
        format!(
            "More posts are saved than one call reads ({MAX_REQUESTS} requests of {PER_PAGE}); unsave old ones \
             in Mattermost to list the rest."
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posts(times: &[i64]) -> Vec<Post> {
        times
            .iter()
            .enumerate()
            .map(|(i, t)| Post {
                id: Some(format!("p{i}")),
                create_at: Some(*t),
                ..Post::default()
            })
            .collect()
    }

    #[test]
    fn a_short_page_moves_on_by_what_came_back() {
        assert_eq!(advance(200, &posts(&[5, 4, 3])), (203, None));
        assert_eq!(advance(203, &[]), (203, None));
    }

    #[test]
    fn a_full_page_starts_the_next_at_its_last_millisecond() {
        let mut times: Vec<i64> = (0..PER_PAGE as i64).map(|i| 1000 - i).collect();
        let n = times.len();
        times[n - 1] = times[n - 3];
        times[n - 2] = times[n - 3];
        assert_eq!(advance(0, &posts(&times)), (PER_PAGE - 3, None));
    }

    #[test]
    fn a_full_page_of_one_millisecond_is_reported_and_passed() {
        let times = vec![9; PER_PAGE];
        assert_eq!(advance(400, &posts(&times)), (600, Some(9)));
    }
}
