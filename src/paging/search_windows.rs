//! Search windows: post and file search read to its end, past Mattermost's cap (notes §5).
//!
//! With database search (no Elasticsearch) Mattermost answers page 0 only (`page` > 0 answers nothing;
//! `SqlPostStore.SearchPostsForUser`), ignores `per_page`, and runs each term group (plain words;
//! hashtags) as one query `ORDER BY CreateAt DESC LIMIT 100` (`SqlPostStore.search`; file search is
//! one such query, `SqlFileInfoStore.Search`). What it does read are date terms: `before:D` keeps what
//! was written up to the end of the day before D, in the zone of `time_zone_offset`
//! (`model.SearchParams.GetBeforeDateMillis`, `GetEndOfDayMillis`). So a search is walked back by
//! **windows**, each one request:
//!
//! - The first window is the search as asked. An answer below the cap holds every match: the walk
//!   ends there, in one request.
//! - An answer at the cap holds the newest 100 (of a term group). Let `k` be the day (in the
//!   person's zone) of its 100th newest match: every match of a later day is in the answer, and
//!   those are shown. The next window is the same search with `before:` the day after `k`, so it
//!   holds day `k` again, whole or up to its own cap, and everything older.
//! - When all of an answer's newest 100 fall on one day, that day alone holds more matches than the
//!   cap: its newest 100 are shown, the page says `capped` with that day, and the next window ends
//!   the day before. This is the one place a match can be missed, and the answer says where.
//! - The walk ends when a window answers below the cap (it then held everything older), or when the
//!   next window would end before the first day the person's own date terms allow.
//!
//! Windows never overlap in what they show (each shows only days after its own cut), so each match
//! comes once; within and across windows the order is newest first with the id as tiebreak
//! ([`super::whole_list`]), and a page continues after the last item's (time, id), so matches that
//! appear or go between pages neither shift nor repeat the others. A page reads windows until it
//! holds `limit` matches or the walk ends, at most [`WINDOWS_PER_CALL`] requests; the window a page
//! ends in is kept for its cursor chain ([`KeptLists`], one per chain), so the next page of the same
//! window costs no request. The cursor carries the window (its last day), the zone's offset the walk
//! began with (so every window cuts days alike) and the last item's (time, id).

use super::cursor::{self, Fields, Reader};
use super::whole_list::{self, After, Keyed, Order, SortKey, sort};
use crate::context::{Ctx, KeptLists};
use crate::error::ToolError;
use crate::mattermost::facts::{FileFacts, PostFacts};
use crate::mattermost::types::{self, FileInfo, Post};
use std::sync::Arc;

/// Mattermost's cap on one term group of a database search.
pub(crate) const CAP: usize = 100;
/// The order of every search answer.
pub(crate) const ORDER: Order = Order::Descending;
/// The most windows (requests) one page reads.
pub(crate) const WINDOWS_PER_CALL: u32 = 10;
const DAY_MS: i64 = 86_400_000;

/// A match: when it was written and its id.
pub(crate) trait Match: Clone + Send + Sync + 'static {
    fn at(&self) -> i64;
    fn key_id(&self) -> String;
}

impl Match for Post {
    fn at(&self) -> i64 {
        self.created()
    }
    fn key_id(&self) -> String {
        PostFacts::id(self).to_string()
    }
}

impl Match for FileInfo {
    fn at(&self) -> i64 {
        self.create_at.unwrap_or(0)
    }
    fn key_id(&self) -> String {
        FileFacts::id(self).to_string()
    }
}

/// The day (days since 1970-01-01) a time falls on in a zone `zone_secs` east of UTC.
pub(crate) fn day_of(ms: i64, zone_secs: i64) -> i64 {
    (ms + zone_secs * 1000).div_euclid(DAY_MS)
}

/// A day as Mattermost's date terms write it: `YYYY-MM-DD`.
pub(crate) fn day_text(day: i64) -> String {
    crate::time::rfc3339(day * DAY_MS)
        .get(..10)
        .unwrap_or_default()
        .to_string()
}

/// What a search asks, its terms ready to send but for the window's `before:`.
#[derive(Debug, Clone)]
pub(crate) struct Search {
    /// The team to search, or every team of the person.
    pub(crate) team_id: Option<String>,
    /// The words of the terms as Mattermost splits them, without any `before:` (the walk adds its own).
    pub(crate) words: Vec<String>,
    /// Any term matches, not all.
    pub(crate) any: bool,
    /// Archived channels too.
    pub(crate) archived: bool,
    /// The last day the person's own terms allow (`before:`, `on:`), if they bound it.
    pub(crate) last_day: Option<i64>,
    /// The first day the person's own terms allow (`after:`, `on:`, `-before:`), if they bound it.
    pub(crate) first_day: Option<i64>,
}

impl Search {
    /// The terms of the window that ends on `last_day` (or the search as asked).
    pub(crate) fn terms(&self, last_day: Option<i64>) -> String {
        let mut words = self.words.clone();
        if let Some(day) = last_day {
            words.push(format!("before:{}", day_text(day + 1)));
        }
        words.join(" ")
    }
}

/// Where a walk is: the window it reads (its last day; `None` for the search as asked), the zone the
/// walk cuts days in, and the last match shown.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Walk {
    pub(crate) window: Option<i64>,
    pub(crate) zone_secs: i64,
    pub(crate) after: Option<After>,
}

impl Walk {
    /// The start of a walk of `s`, in a zone `zone_secs` east of UTC.
    pub(crate) fn start(s: &Search, zone_secs: i64) -> Walk {
        Walk {
            window: s.last_day,
            zone_secs,
            after: None,
        }
    }
}

impl cursor::Position for Walk {
    fn write(&self, f: &mut Fields) {
        match self.window {
            Some(d) => f.tag('w').num(d),
            None => f.tag('n'),
        };
        f.num(self.zone_secs);
        match &self.after {
            Some(After {
                k: SortKey::Int(t),
                id,
                ..
            }) => f.tag('i').num(*t).id(id),
            _ => f.tag('x'),
        };
    }

    fn read(r: &mut Reader<'_>) -> Option<Walk> {
        let window = match r.tag()? {
            'w' => Some(r.num()?),
            'n' => None,
            _ => return None,
        };
        let zone_secs = r.num()?;
        if zone_secs.abs() > 18 * 3600 {
            return None;
        }
        let after = match r.tag()? {
            'i' => Some(After::new(&SortKey::Int(r.num()?), &r.id()?)),
            'x' => None,
            _ => return None,
        };
        Some(Walk {
            window,
            zone_secs,
            after,
        })
    }
}

/// One window's answer as the walk uses it: the matches it holds whole (kept ones only, ordered), the
/// window after it, and the day that alone held more matches than the cap.
#[derive(Debug)]
pub(crate) struct Window<T> {
    pub(crate) last_day: Option<i64>,
    pub(crate) zone_secs: i64,
    pub(crate) matches: Vec<Keyed<T>>,
    /// The last day of the next window; `None` when the walk ends with this one.
    pub(crate) next: Option<i64>,
    pub(crate) overfull: Option<i64>,
    /// Every match of the search is in this window (its first window answered below the cap).
    pub(crate) whole: bool,
}

/// Cuts a window's answer: what it holds whole, where the next window ends, and whether one day was
/// too full (see the module's description).
pub(crate) fn cut<T: Match>(
    answer: Vec<T>,
    s: &Search,
    w: &Walk,
    keep: &(dyn Fn(&T) -> bool + Sync),
) -> Window<T> {
    let mut times: Vec<i64> = answer.iter().map(Match::at).collect();
    times.sort_unstable_by(|a, b| b.cmp(a));
    let zone = w.zone_secs;
    let capped = answer.len() >= CAP;
    let (shown_from, next, overfull) = if !capped {
        (None, None, None)
    } else {
        let k = day_of(times[CAP - 1], zone);
        if day_of(times[0], zone) > k {
            (Some(k + 1), Some(k), None)
        } else {
            (Some(k), Some(k - 1), Some(k))
        }
    };
    // Each window ends before the last (a server that read the window's end otherwise than the walk
    // cannot hold it on one window).
    let next = next
        .map(|n| match w.window {
            Some(e) if n >= e => e - 1,
            _ => n,
        })
        .filter(|n| s.first_day.is_none_or(|f| *n >= f));
    let keyed = answer
        .into_iter()
        .filter(|m| shown_from.is_none_or(|from| day_of(m.at(), zone) >= from))
        .filter(|m| overfull.is_none_or(|d| day_of(m.at(), zone) == d))
        .filter(|m| keep(m))
        .map(|m| Keyed::new(SortKey::Int(m.at()), m.key_id(), m))
        .collect();
    Window {
        last_day: w.window,
        zone_secs: zone,
        matches: sort(keyed, ORDER),
        next,
        overfull,
        whole: w.window == s.last_day && !capped,
    }
}

/// A page of a walk.
#[derive(Debug)]
pub(crate) struct Walked<T> {
    pub(crate) items: Vec<T>,
    pub(crate) next: Option<Walk>,
    /// The days (in the walk's zone) that alone held more matches than the cap, among the items shown.
    pub(crate) overfull_days: Vec<i64>,
    /// How many matches the search has, when its first window held them all.
    pub(crate) total: Option<u64>,
}

/// One page of the walk from `at`, reading windows with `fetch` (the terms of a window and the zone's
/// offset in seconds → Mattermost's answer) until the page holds `limit` matches, the walk ends, or
/// [`WINDOWS_PER_CALL`] windows were read. `keep` drops answers that are not matches (`list_mentions`
/// keeps true mentions only); the window a page ends in is kept under `key` for the next page of its
/// cursor chain (`resumed`: the page continues a cursor; a chain's first page reads afresh).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn page<T, F, Fut>(
    lists: &KeptLists,
    key: &str,
    s: &Search,
    at: Walk,
    resumed: bool,
    limit: usize,
    keep: &(dyn Fn(&T) -> bool + Sync),
    mut fetch: F,
) -> Result<Walked<T>, ToolError>
where
    T: Match,
    F: FnMut(String, i64) -> Fut,
    Fut: Future<Output = Result<Vec<T>, ToolError>>,
{
    let mut pos = at;
    let mut items: Vec<T> = Vec::new();
    let mut overfull_days = Vec::new();
    let mut total = None;
    let mut reads = 0;
    loop {
        let kept = lists
            .get::<Window<T>>(key)
            .filter(|_| resumed)
            .filter(|w| w.last_day == pos.window && w.zone_secs == pos.zone_secs);
        let window = match kept {
            Some(w) => w,
            None => {
                if reads == WINDOWS_PER_CALL {
                    return Ok(Walked {
                        items,
                        next: Some(pos),
                        overfull_days,
                        total,
                    });
                }
                reads += 1;
                let answer = fetch(s.terms(pos.window), pos.zone_secs).await?;
                let w = Arc::new(cut(answer, s, &pos, keep));
                let bytes = w.matches.len() * 2048 + 64;
                lists.put(key.to_string(), w.clone(), bytes);
                crate::mattermost::call::step(|| {
                    format!(
                        "searched {reads} window(s); {} matches on this page so far",
                        items.len()
                    )
                });
                w
            }
        };
        if window.whole {
            total = Some(window.matches.len() as u64);
        }
        let room = limit.saturating_sub(items.len());
        let (shown, more) = whole_list::page(&window.matches, ORDER, pos.after.as_ref(), room);
        if let Some(day) = window.overfull.filter(|_| !shown.is_empty()) {
            overfull_days.push(day);
        }
        if let Some(last) = shown.last() {
            pos.after = Some(After::new(&SortKey::Int(last.at()), &last.key_id()));
        }
        items.extend(shown);
        if more.is_some() {
            return Ok(Walked {
                items,
                next: Some(pos),
                overfull_days,
                total,
            });
        }
        match window.next {
            None => {
                return Ok(Walked {
                    items,
                    next: None,
                    overfull_days,
                    total,
                });
            }
            Some(next) => pos.window = Some(next),
        }
        if items.len() >= limit {
            return Ok(Walked {
                items,
                next: Some(pos),
                overfull_days,
                total,
            });
        }
    }
}

/// Post search (SearchPosts in a team, SearchPostsInAllTeams otherwise), page 0 only: one window.
pub(crate) async fn posts(
    cx: &Ctx,
    s: &Search,
    terms: String,
    zone_secs: i64,
) -> Result<Vec<Post>, ToolError> {
    let shown_terms = terms.clone();
    let list = match s.team_id.as_deref() {
        Some(team) => {
            let body = types::SearchPostsBody {
                terms,
                is_or_search: s.any,
                time_zone_offset: zone_secs,
                include_deleted_channels: Some(s.archived),
                page: 0,
                per_page: CAP as i64,
            };
            cx.send(cx.api().search_posts().team_id(team).body(body).send())
                .await
        }
        None => {
            let body = types::SearchPostsInAllTeamsBody {
                terms,
                is_or_search: s.any,
                time_zone_offset: Some(zone_secs),
                include_deleted_channels: Some(s.archived),
                page: Some(0),
                per_page: Some(CAP as i64),
            };
            cx.send(cx.api().search_posts_in_all_teams().body(body).send())
                .await
        }
    }
    .map_err(|e| cx.fail(e, "search terms", &shown_terms))?
    .into_inner();
    let mut by_id = list.posts.unwrap_or_default();
    Ok(list
        .order
        .unwrap_or_default()
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect())
}

/// File search (SearchFiles in a team, SearchFiles2 otherwise), page 0 only: one window.
pub(crate) async fn files(
    cx: &Ctx,
    s: &Search,
    terms: String,
    zone_secs: i64,
) -> Result<Vec<FileInfo>, ToolError> {
    let shown_terms = terms.clone();
    let list = match s.team_id.as_deref() {
        Some(team) => {
            let body = types::SearchFilesBody {
                terms,
                is_or_search: s.any,
                time_zone_offset: zone_secs,
                include_deleted_channels: Some(s.archived),
                page: 0,
                per_page: CAP as i64,
            };
            cx.send(cx.api().search_files().team_id(team).body(body).send())
                .await
        }
        None => {
            let body = types::SearchFiles2Body {
                terms,
                is_or_search: s.any,
                time_zone_offset: zone_secs,
                include_deleted_channels: Some(s.archived),
                page: 0,
                per_page: CAP as i64,
            };
            cx.send(cx.api().search_files2().body(body).send()).await
        }
    }
    .map_err(|e| cx.fail(e, "search terms", &shown_terms))?
    .into_inner();
    let mut by_id = list.file_infos.unwrap_or_default();
    Ok(list
        .order
        .unwrap_or_default()
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect())
}

/// Matches in the search order: newest first, ties by id, each once.
pub(crate) fn ordered<T>(
    items: Vec<T>,
    time: impl Fn(&T) -> i64,
    id: impl Fn(&T) -> String,
) -> Vec<Keyed<T>> {
    let keyed = items
        .into_iter()
        .map(|i| Keyed::new(SortKey::Int(time(&i)), id(&i), i))
        .collect();
    sort(keyed, ORDER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    struct M(i64, String);
    impl Match for M {
        fn at(&self) -> i64 {
            self.0
        }
        fn key_id(&self) -> String {
            self.1.clone()
        }
    }

    fn search() -> Search {
        Search {
            team_id: None,
            words: vec!["deploy".into()],
            any: false,
            archived: false,
            last_day: None,
            first_day: None,
        }
    }

    fn walk(window: Option<i64>) -> Walk {
        Walk {
            window,
            zone_secs: 0,
            after: None,
        }
    }

    /// `n` matches, one an hour back from the end of day `day`.
    fn hourly(day: i64, n: usize) -> Vec<M> {
        (0..n)
            .map(|i| {
                M(
                    day * DAY_MS + DAY_MS - 1 - i as i64 * 3_600_000,
                    format!("m{i}"),
                )
            })
            .collect()
    }

    #[test]
    fn an_answer_below_the_cap_is_the_whole_rest() {
        let w = cut(hourly(100, 99), &search(), &walk(None), &|_| true);
        assert_eq!((w.next, w.overfull, w.whole), (None, None, true));
        assert_eq!(w.matches.len(), 99);
    }

    #[test]
    fn a_capped_answer_shows_the_days_after_its_hundredth_match_and_goes_on_from_that_day() {
        // 100 an hour apart back from the end of day 100: 24 a day on days 100 to 97, the last four
        // (the 100th among them) on day 96.
        let w = cut(hourly(100, 100), &search(), &walk(Some(100)), &|_| true);
        assert_eq!(w.next, Some(96));
        assert_eq!(w.overfull, None);
        assert_eq!(w.matches.len(), 96, "days 100 to 97 are whole");
        assert!(!w.whole);
    }

    #[test]
    fn a_day_that_holds_the_whole_cap_is_overfull_and_the_next_window_ends_the_day_before() {
        let answer: Vec<M> = (0..100)
            .map(|i| M(50 * DAY_MS + 1000 + i, format!("m{i}")))
            .collect();
        let w = cut(answer, &search(), &walk(Some(50)), &|_| true);
        assert_eq!((w.next, w.overfull), (Some(49), Some(50)));
        assert_eq!(w.matches.len(), 100);
    }

    #[test]
    fn each_window_ends_before_the_last_whatever_the_answer() {
        // An answer past the window's end (a server reading the day otherwise) still moves on.
        let w = cut(hourly(100, 100), &search(), &walk(Some(96)), &|_| true);
        assert_eq!(w.next, Some(95));
    }

    #[test]
    fn the_walk_ends_before_the_first_day_the_terms_allow() {
        let s = Search {
            first_day: Some(97),
            ..search()
        };
        let w = cut(hourly(100, 100), &s, &walk(None), &|_| true);
        assert_eq!(w.next, None, "day 96 is before after:");
        let s = Search {
            first_day: Some(96),
            ..search()
        };
        assert_eq!(
            cut(hourly(100, 100), &s, &walk(None), &|_| true).next,
            Some(96)
        );
    }

    #[test]
    fn days_are_cut_in_the_zone_of_the_walk() {
        // 23:30 UTC on day 10 is day 11 an hour east of UTC.
        let t = 10 * DAY_MS + 23 * 3_600_000 + 1_800_000;
        assert_eq!(day_of(t, 0), 10);
        assert_eq!(day_of(t, 3600), 11);
        assert_eq!(day_of(-1, 0), -1);
        assert_eq!(day_text(0), "1970-01-01");
    }

    #[test]
    fn a_window_adds_its_before_term() {
        let s = search();
        assert_eq!(s.terms(None), "deploy");
        assert_eq!(s.terms(Some(0)), "deploy before:1970-01-02");
    }

    #[test]
    fn the_position_round_trips_through_a_short_cursor() {
        let b = cursor::Binding::new("search_posts", &serde_json::Map::new(), "person");
        for w in [
            Walk {
                window: Some(20_500),
                zone_secs: -34_200,
                after: Some(After::new(
                    &SortKey::Int(1_780_000_000_123),
                    "abcdefghijklmnopqrstuvwxyz",
                )),
            },
            walk(None),
        ] {
            let c = cursor::encode(&b, &cursor::fields_of(&w));
            assert!(c.len() <= cursor::MAX_LEN, "{c} is {} long", c.len());
            let back: Walk =
                cursor::position(&cursor::decode(&c, &b, &[]).expect("decodes")).expect("fits");
            assert_eq!(back, w);
        }
    }

    #[test]
    fn ties_are_ordered_by_id() {
        let o = ordered(
            vec![("b", 5), ("a", 5), ("c", 9)],
            |x| x.1,
            |x| x.0.to_string(),
        );
        let ids: Vec<&str> = o.iter().map(|k| k.id.as_str()).collect();
        assert_eq!(ids, ["c", "a", "b"]);
    }
}
