//! Posts by time: a channel read back or forward from a post.
//!
//! Mattermost reads on from a post by its `create_at` alone, strictly (`<` going back, `>` going
//! forward), with no tiebreak. A page that ended inside a millisecond would lose the rest of that
//! millisecond, so a page that more follow ends on a whole millisecond: the tool asks for one post more
//! than the page holds and, when the last post asked for shares its millisecond with the one before it,
//! cuts that millisecond off the page (the next page starts with it). A millisecond with more posts than
//! the page holds is read whole with a second request of 200: the one way a page exceeds its limit.
//! Posts within a page are ordered by (create_at, id), oldest first, so the same arguments give the same
//! pages however Mattermost settled the ties.
//!
//! The cursor holds the direction, the millisecond the page ended on, and the id of a post of that
//! millisecond (the anchor Mattermost compares with).

use super::cursor::{self, Fields, Reader};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::{self, PostFacts};
use crate::mattermost::{Maybe, types::Post};

/// Mattermost's largest page.
pub(crate) const MAX_PER_PAGE: u32 = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Further back in time.
    Back,
    /// Further forward in time.
    Forward,
}

/// Where the next page starts: the posts strictly older (`Back`) or newer (`Forward`) than millisecond
/// `t`, which post `a` was written in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) d: Direction,
    pub(crate) t: i64,
    pub(crate) a: String,
}

impl cursor::Position for Position {
    fn write(&self, f: &mut Fields) {
        f.tag(match self.d {
            Direction::Back => 'b',
            Direction::Forward => 'f',
        })
        .num(self.t)
        .id(&self.a);
    }

    fn read(r: &mut Reader<'_>) -> Option<Position> {
        let d = match r.tag()? {
            'b' => Direction::Back,
            'f' => Direction::Forward,
            _ => return None,
        };
        Some(Position {
            d,
            t: r.num()?,
            a: r.id()?,
        })
    }
}

/// Which posts of which channel.
#[derive(Debug, Clone)]
pub(crate) struct Query {
    pub(crate) channel_id: String,
    /// Collapsed threads: roots only, with reply counts and participants.
    pub(crate) roots_only: bool,
}

/// Where a read starts.
#[derive(Debug, Clone)]
pub(crate) enum Start {
    /// The newest posts, then further back.
    Newest,
    /// The posts before this post, then further back.
    Before(String),
    /// The posts after this post, then further forward.
    After(String),
    /// Where a cursor says.
    At(Position),
}

/// One request's mode, as Mattermost's handler picks it.
#[derive(Debug, Clone)]
pub(crate) enum Mode {
    Newest,
    Before(String),
    After(String),
    Since(i64),
}

/// A page of posts, oldest first.
#[derive(Debug, Default)]
pub(crate) struct Posts {
    pub(crate) posts: Vec<Post>,
    pub(crate) next: Option<Position>,
    /// Set when one millisecond held 200 posts or more: Mattermost cannot be asked for the rest of it.
    pub(crate) incomplete_millisecond: Option<i64>,
}

/// One request. The posts come back in reading order: newest first for `Newest`, `Before` and `Since`,
/// oldest first for `After`. Only posts in `order` count (`posts` also holds thread posts around them).
pub(crate) async fn fetch(
    cx: &Ctx,
    q: &Query,
    mode: &Mode,
    per_page: u32,
) -> Result<Vec<Post>, ToolError> {
    let (before, after, since) = match mode {
        Mode::Newest => (None, None, None),
        Mode::Before(id) => (Some(id.as_str()), None, None),
        Mode::After(id) => (None, Some(id.as_str()), None),
        Mode::Since(t) => (None, None, Some(*t)),
    };
    let roots = q.roots_only.then_some(true);
    let list = cx
        .send(
            cx.api()
                .get_posts_for_channel()
                .channel_id(&q.channel_id)
                .maybe(after, |b, v| b.after(v))
                .maybe(before, |b, v| b.before(v))
                .maybe(roots, |b, v| b.collapsed_threads(v))
                .maybe(roots, |b, v| b.collapsed_threads_extended(v))
                .page(0)
                .per_page(i64::from(per_page.min(MAX_PER_PAGE)))
                .maybe(since, |b, v| b.since(v))
                .skip_fetch_threads(true)
                .send(),
        )
        .await
        .map_err(|e| cx.fail(e, "channel", &q.channel_id))?
        .into_inner();
    let mut out = facts::ordered(list);
    match mode {
        // Mattermost orders every PostList newest first; an after-read is taken oldest first.
        Mode::After(_) => out.sort_by_key(|p| p.created()),
        _ => out.sort_by_key(|p| std::cmp::Reverse(p.created())),
    }
    Ok(out)
}

/// Reads one page of at most `limit` posts (more only for a millisecond read whole).
pub(crate) async fn page(
    cx: &Ctx,
    q: &Query,
    start: Start,
    limit: u32,
) -> Result<Posts, ToolError> {
    let (direction, mode) = match start {
        Start::Newest => (Direction::Back, Mode::Newest),
        Start::Before(id) => (Direction::Back, Mode::Before(id)),
        Start::After(id) => (Direction::Forward, Mode::After(id)),
        Start::At(p) => match p.d {
            Direction::Back => (Direction::Back, Mode::Before(p.a)),
            Direction::Forward => (Direction::Forward, Mode::After(p.a)),
        },
    };
    let asked = (limit + 1).min(MAX_PER_PAGE);
    let fetched = fetch(cx, q, &mode, asked).await?;
    let mut result = cut_to_whole_milliseconds(fetched, asked as usize, direction);
    if result.overflow {
        // The page would be one millisecond with more posts than it holds: read that millisecond whole.
        let group_ms = result.group_ms;
        let whole = if asked < MAX_PER_PAGE {
            fetch(cx, q, &mode, MAX_PER_PAGE).await?
        } else {
            result.fetched
        };
        let fetched_len = whole.len();
        let group: Vec<Post> = whole
            .into_iter()
            .take_while(|p| p.created() == group_ms)
            .collect();
        let complete = group.len() < MAX_PER_PAGE as usize;
        // The end only when nothing came beyond the millisecond and the fetch was not full.
        let ends = complete && fetched_len == group.len();
        result = Cut {
            page: group,
            more: !ends,
            overflow: false,
            group_ms,
            fetched: Vec::new(),
            incomplete: (!complete).then_some(group_ms),
        };
    }
    let next = if result.more {
        result.page.last().map(|p| Position {
            d: direction,
            t: p.created(),
            a: p.id().to_string(),
        })
    } else {
        None
    };
    let mut posts = result.page;
    // A page read back comes newest first: turned around before the sort, which then finds it in order
    // but for ties (sorted as it came, every post was moved past every other, a post being ~700 bytes).
    if direction == Direction::Back {
        posts.reverse();
    }
    posts.sort_by(|a, b| (a.created(), a.id()).cmp(&(b.created(), b.id())));
    Ok(Posts {
        posts,
        next,
        incomplete_millisecond: result.incomplete,
    })
}

struct Cut {
    page: Vec<Post>,
    more: bool,
    /// The whole fetch was one millisecond: it must be read whole.
    overflow: bool,
    group_ms: i64,
    fetched: Vec<Post>,
    incomplete: Option<i64>,
}

/// Cuts a fetch (in reading order) to a page ending on a whole millisecond. `asked` is how many posts
/// were asked for: fewer back means the end of the channel.
fn cut_to_whole_milliseconds(fetched: Vec<Post>, asked: usize, _direction: Direction) -> Cut {
    if fetched.len() < asked {
        return Cut {
            page: fetched,
            more: false,
            overflow: false,
            group_ms: 0,
            fetched: Vec::new(),
            incomplete: None,
        };
    }
    // More may follow: the last millisecond fetched may go on beyond what was asked, so it is left to
    // the next page.
    let last_ms = fetched.last().map(|p| p.created()).unwrap_or(0);
    let keep = fetched
        .iter()
        .take_while(|p| p.created() != last_ms)
        .count();
    if keep == 0 {
        return Cut {
            page: Vec::new(),
            more: true,
            overflow: true,
            group_ms: last_ms,
            fetched,
            incomplete: None,
        };
    }
    let mut page = fetched;
    page.truncate(keep);
    Cut {
        page,
        more: true,
        overflow: false,
        group_ms: last_ms,
        fetched: Vec::new(),
        incomplete: None,
    }
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
    fn a_short_fetch_is_the_end() {
        let c = cut_to_whole_milliseconds(vec![post("a", 3), post("b", 2)], 3, Direction::Back);
        assert!(!c.more && !c.overflow);
        assert_eq!(c.page.len(), 2);
    }

    #[test]
    fn a_full_fetch_leaves_its_last_millisecond_to_the_next_page() {
        // asked 4 (limit 3 + 1): the 4th shares its millisecond with the 3rd, so both go.
        let c = cut_to_whole_milliseconds(
            vec![post("a", 9), post("b", 8), post("c", 7), post("d", 7)],
            4,
            Direction::Back,
        );
        assert!(c.more && !c.overflow);
        let ids: Vec<_> = c
            .page
            .iter()
            .map(|p| p.id.clone().unwrap_or_default())
            .collect();
        assert_eq!(ids, ["a", "b"]);
        // The 4th alone in its millisecond: the page is the first three.
        let c = cut_to_whole_milliseconds(
            vec![post("a", 9), post("b", 8), post("c", 7), post("d", 6)],
            4,
            Direction::Back,
        );
        assert_eq!(c.page.len(), 3);
    }

    #[test]
    fn a_fetch_of_one_millisecond_overflows() {
        let c = cut_to_whole_milliseconds(vec![post("a", 5), post("b", 5)], 2, Direction::Back);
        assert!(c.overflow && c.page.is_empty());
        assert_eq!(c.group_ms, 5);
    }
}
