//! Followed threads: the threads a person follows, newest reply first (notes §4).
//!
//! `GET /users/{id}/teams/{team}/threads` documents `page`, but the router never reads it: every page
//! number returns the first page again. It pages through the undocumented `before` and `after` (a
//! thread id; declared in `overrides/parameters/`), which compare the threads' `LastReplyAt` strictly
//! with that thread's, with no tiebreak: `before` newest first, `after` oldest first (not reversed).
//! A walk that ended a Mattermost page inside a millisecond would lose the rest of it, so, as for posts
//! ([`super::posts_by_time`]), a full page is cut before its last millisecond and the walk goes on
//! from the last thread kept, which reads that millisecond whole; a page that is one millisecond
//! throughout is read whole through `after` from the newest thread older than it (the one way to ask
//! for "that millisecond"; a page of 200 is one only when 200 threads or more share the millisecond, so
//! the two reads, one newest first and one oldest first, are joined). Whether the walk reached every
//! thread is checked against the `total` Mattermost counts with the first page: a millisecond that
//! still came short is reported.
//!
//! Threads of direct and group messages appear under every team, so the first team is read with them
//! and every other with `excludeDirect=true`: each thread comes once.
//!
//! `LastReplyAt` moves whenever someone replies, and a thread then jumps to the top: a walk spread over
//! the pages a model asks for would lose a thread that jumped from below its position to above it, or
//! show one twice. So the list is read whole, ordered by (last reply, id), and kept per cursor chain as
//! in [`super::pages_with_ties`]: later pages cost no request, and every thread followed when the list
//! was read appears exactly once. A cursor that outlives the kept list reads it again and continues
//! after its (last reply, id).

use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::{Maybe, types::UserThread};

/// Mattermost's largest page.
pub(crate) const PER_PAGE: usize = 200;
/// The most requests one read of one team's threads may take (about 20,000 threads).
pub(crate) const MAX_REQUESTS: usize = 110;

/// Which followed threads one request reads.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    pub(crate) team_id: String,
    /// Leave out direct and group message threads (they were read under another team).
    pub(crate) exclude_direct: bool,
    /// Only threads with unread replies.
    pub(crate) unread: bool,
}

/// The sources that read every followed thread of these teams once: direct and group threads with the
/// first team only.
pub(crate) fn sources(team_ids: &[String], unread: bool) -> Vec<Source> {
    team_ids
        .iter()
        .enumerate()
        .map(|(i, t)| Source {
            team_id: t.clone(),
            exclude_direct: i > 0,
            unread,
        })
        .collect()
}

/// Every thread read, and the millisecond that could not be read whole, if one.
#[derive(Debug, Default)]
pub(crate) struct Read {
    pub(crate) threads: Vec<UserThread>,
    pub(crate) incomplete_millisecond: Option<i64>,
}

#[derive(Debug, Clone, Copy)]
enum From<'a> {
    Newest,
    Before(&'a str),
    After(&'a str),
}

/// The time a thread was last replied to.
pub(crate) fn last_reply(t: &UserThread) -> i64 {
    t.last_reply_at.unwrap_or(0)
}

fn id(t: &UserThread) -> &str {
    t.id.as_deref().unwrap_or("")
}

/// One request: the threads, and how many Mattermost counts in all.
async fn fetch(
    cx: &Ctx,
    s: &Source,
    from: From<'_>,
) -> Result<(Vec<UserThread>, Option<i64>), ToolError> {
    let (before, after) = match from {
        From::Newest => (None, None),
        From::Before(id) => (Some(id), None),
        From::After(id) => (None, Some(id)),
    };
    let answer = cx
        .send(
            cx.api()
                .get_user_threads()
                .user_id("me")
                .team_id(&s.team_id)
                .maybe(after, |b, v| b.after(v))
                .maybe(before, |b, v| b.before(v))
                .maybe(s.exclude_direct.then_some(true), |b, v| b.exclude_direct(v))
                .per_page(PER_PAGE as i64)
                .maybe(s.unread.then_some(true), |b, v| b.unread(v))
                .send(),
        )
        .await
        .map_err(|e| cx.fail(e, "followed threads of team", &s.team_id))?
        .into_inner();
    Ok((answer.threads.unwrap_or_default(), answer.total))
}

/// What to do with a page of `before` (newest first).
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// A short page: the end.
    End,
    /// Keep the first `keep` threads and read on before the last of them.
    Cut { keep: usize },
    /// The page is one millisecond throughout.
    Overflow { ms: i64 },
}

fn step(page: &[UserThread]) -> Step {
    if page.len() < PER_PAGE {
        return Step::End;
    }
    let last_ms = page.last().map(last_reply).unwrap_or(0);
    let keep = page.iter().take_while(|t| last_reply(t) != last_ms).count();
    if keep == 0 {
        Step::Overflow { ms: last_ms }
    } else {
        Step::Cut { keep }
    }
}

/// Every followed thread of one source, each once (newest reply first as read).
pub(crate) async fn read_source(cx: &Ctx, s: &Source) -> Result<Read, ToolError> {
    let mut out = Read::default();
    let mut anchor: Option<String> = None;
    let mut pending: Option<Vec<UserThread>> = None;
    let mut total = None;
    let mut overflow = None;
    let mut requests = 0usize;
    loop {
        if requests >= MAX_REQUESTS {
            return Err(too_many());
        }
        let page = match pending.take() {
            Some(p) => p,
            None => {
                requests += 1;
                let from = anchor.as_deref().map_or(From::Newest, From::Before);
                let (threads, counted) = fetch(cx, s, from).await?;
                total = total.or(counted);
                threads
            }
        };
        match step(&page) {
            Step::End => {
                out.threads.extend(page);
                break;
            }
            Step::Cut { keep } => {
                anchor = Some(id(&page[keep - 1]).to_string());
                out.threads.extend(page.into_iter().take(keep));
                crate::mattermost::call::step(|| {
                    format!(
                        "read {} followed threads of a team; reading on",
                        out.threads.len()
                    )
                });
            }
            Step::Overflow { ms } => {
                requests += 2;
                overflow = Some(ms);
                let (older, group) = read_millisecond(cx, s, &page, ms).await?;
                out.threads.extend(page);
                out.threads.extend(group);
                if older.is_empty() {
                    break;
                }
                pending = Some(older);
            }
        }
    }
    dedup(&mut out.threads);
    let short = total.is_some_and(|t| (out.threads.len() as i64) < t);
    out.incomplete_millisecond = overflow.filter(|_| short);
    Ok(out)
}

/// For a page that is one millisecond `ms` throughout: the threads older than it (the walk's next
/// page), and the threads of that millisecond read oldest first from the newest older thread.
async fn read_millisecond(
    cx: &Ctx,
    s: &Source,
    page: &[UserThread],
    ms: i64,
) -> Result<(Vec<UserThread>, Vec<UserThread>), ToolError> {
    let first = page.first().map(id).unwrap_or_default();
    let (older, _) = fetch(cx, s, From::Before(first)).await?;
    let group = match older.first() {
        Some(y) => fetch(cx, s, From::After(id(y))).await?.0,
        None => Vec::new(),
    };
    let group = group.into_iter().filter(|t| last_reply(t) == ms).collect();
    Ok((older, group))
}

/// Every followed thread of all the sources, each once.
pub(crate) async fn read_all(cx: &Ctx, sources: &[Source]) -> Result<Read, ToolError> {
    let mut all = Read::default();
    for (i, s) in sources.iter().enumerate() {
        if sources.len() > 1 {
            crate::mattermost::call::step(|| {
                format!(
                    "reading the followed threads of team {} of {} ({} threads so far)",
                    i + 1,
                    sources.len(),
                    all.threads.len()
                )
            });
        }
        let read = read_source(cx, s).await?;
        all.threads.extend(read.threads);
        all.incomplete_millisecond = all.incomplete_millisecond.or(read.incomplete_millisecond);
    }
    dedup(&mut all.threads);
    Ok(all)
}

fn dedup(threads: &mut Vec<UserThread>) {
    let mut seen = std::collections::HashSet::new();
    threads.retain(|t| seen.insert(id(t).to_string()));
}

fn too_many() -> ToolError {
    ToolError::new(
        ErrorKind::TooMany,
        format!(
            "More threads are followed in one team than one call reads ({} requests of {PER_PAGE}). Pass \
             unread_only: true, or stop following old threads in Mattermost.",
            MAX_REQUESTS
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thread(id: &str, t: i64) -> UserThread {
        UserThread {
            id: Some(id.into()),
            last_reply_at: Some(t),
            ..UserThread::default()
        }
    }

    fn full(times: impl Fn(usize) -> i64) -> Vec<UserThread> {
        (0..PER_PAGE)
            .map(|i| thread(&format!("t{i}"), times(i)))
            .collect()
    }

    #[test]
    fn a_short_page_is_the_end() {
        assert_eq!(step(&[thread("a", 5)]), Step::End);
    }

    #[test]
    fn a_full_page_is_cut_before_its_last_millisecond() {
        // 199 distinct milliseconds, then the last two threads share one.
        let page = full(|i| 10_000 - i.min(198) as i64);
        assert_eq!(step(&page), Step::Cut { keep: 198 });
    }

    #[test]
    fn a_page_of_one_millisecond_overflows() {
        assert_eq!(step(&full(|_| 7)), Step::Overflow { ms: 7 });
    }

    #[test]
    fn direct_threads_come_with_the_first_team_only() {
        let s = sources(&["a".into(), "b".into(), "c".into()], true);
        let excluded: Vec<bool> = s.iter().map(|s| s.exclude_direct).collect();
        assert_eq!(excluded, [false, true, true]);
        assert!(s.iter().all(|s| s.unread));
    }
}
