//! Straddling ties: how a "pages with ties" list ([`super::pages_with_ties`]) is read whole when two of
//! Mattermost's pages may cut through a run of items that share the sort key.
//!
//! Mattermost pages these lists by OFFSET over `ORDER BY DisplayName` alone (notes §8 "GET
//! /api/v4/teams/{team_id}/channels": "Display names are not unique, so ties may change order between
//! pages"; §10 "OFFSET paging in general"). A run of equal display names that straddles the boundary
//! between page k and page k+1 is settled afresh by each request, so the two pages may show some of its
//! items twice and others never. Every page is read at 200; then, for each boundary, the run that
//! straddles it is found (the last key of page k is the first of page k+1). Its extent is known — it
//! starts where that key starts in page k and ends where it ends in page k+1 — so its size is known,
//! and when fewer distinct items of it were seen, the run is read again in one request whose page is
//! chosen to hold it whole (a `per_page` of at most 200 whose page covers the run's positions). A run
//! of more than 200 items, which no page holds, has its pages read again, a few times at most, until
//! every item of it was seen. A server that keeps ties in one order (or a list whose runs do not
//! straddle a boundary) costs nothing more than its pages: 1,000 items are 6 requests.

use super::pages_with_ties::{MAX_PAGES, PER_PAGE};
use crate::error::{ErrorKind, ToolError};
use std::collections::HashSet;

/// How many times the pages under a run longer than a page are read again.
const LONG_RUN_ROUNDS: usize = 4;

/// Reads every page of a `page`/`per_page` list ordered by `key` alone, and repairs the runs of one key
/// that straddle a page boundary. `fetch(page, per_page)` reads one page; `id` names an item. The items
/// come back in no particular order, each id at most once.
pub(crate) async fn read_all<T, F, Fut>(
    mut fetch: F,
    key: impl Fn(&T) -> String,
    id: impl Fn(&T) -> String,
) -> Result<Vec<T>, ToolError>
where
    F: FnMut(i64, i64) -> Fut,
    Fut: Future<Output = Result<Vec<T>, ToolError>>,
{
    let pages = read_pages(&mut fetch).await?;
    let keys: Vec<String> = pages.iter().flatten().map(&key).collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut all: Vec<T> = Vec::new();
    for item in pages.into_iter().flatten() {
        if seen.insert(id(&item)) {
            all.push(item);
        }
    }
    for run in straddling_runs(&keys) {
        let known = |all: &[T]| all.iter().filter(|i| key(i) == run.key).count();
        let mut rounds = 0;
        while known(&all) < run.len() && rounds < LONG_RUN_ROUNDS {
            let reads: Vec<(i64, i64)> = match covering_page(run.start, run.end) {
                Some(one) => vec![one],
                None => pages_under(run.start, run.end),
            };
            for (page, per_page) in reads {
                for item in fetch(page, per_page).await? {
                    if key(&item) == run.key && seen.insert(id(&item)) {
                        all.push(item);
                    }
                }
            }
            rounds += 1;
        }
    }
    Ok(all)
}

/// Every page, 200 at a time, until a page comes back short.
async fn read_pages<T, F, Fut>(fetch: &mut F) -> Result<Vec<Vec<T>>, ToolError>
where
    F: FnMut(i64, i64) -> Fut,
    Fut: Future<Output = Result<Vec<T>, ToolError>>,
{
    let mut pages = Vec::new();
    for page in 0..MAX_PAGES {
        let got = fetch(page, PER_PAGE).await?;
        let short = (got.len() as i64) < PER_PAGE;
        pages.push(got);
        if short {
            return Ok(pages);
        }
        crate::mattermost::call::step(|| {
            let items: usize = pages.iter().map(Vec::len).sum();
            format!("read {items} items in {} pages; reading on", page + 1)
        });
    }
    Err(ToolError::new(
        ErrorKind::TooMany,
        format!(
            "This list holds more than {} items, more than one call reads; narrow it down.",
            MAX_PAGES * PER_PAGE
        ),
    ))
}

/// A run of one key over the positions `start..end` of the list, as the pages showed it.
#[derive(Debug, PartialEq, Eq)]
struct Run {
    key: String,
    start: usize,
    end: usize,
}

impl Run {
    fn len(&self) -> usize {
        self.end - self.start
    }
}

/// The runs of one key that cross a page boundary, given the keys of all pages in order (each page but
/// the last holding 200).
fn straddling_runs(keys: &[String]) -> Vec<Run> {
    let per = PER_PAGE as usize;
    let mut runs: Vec<Run> = Vec::new();
    let mut boundary = per;
    while boundary < keys.len() {
        if keys[boundary - 1] == keys[boundary] {
            let k = &keys[boundary];
            let start = (0..boundary)
                .rev()
                .take_while(|i| keys[*i] == *k)
                .last()
                .unwrap_or(boundary);
            let end = (boundary..keys.len())
                .take_while(|i| keys[*i] == *k)
                .last()
                .map_or(boundary, |i| i + 1);
            if runs.last().is_none_or(|r| r.start != start) {
                runs.push(Run {
                    key: k.clone(),
                    start,
                    end,
                });
            }
        }
        boundary += per;
    }
    runs
}

/// A `(page, per_page)` whose page holds the positions `start..end` whole, if one of at most 200 does.
fn covering_page(start: usize, end: usize) -> Option<(i64, i64)> {
    let len = end - start;
    (len..=PER_PAGE as usize)
        .rev()
        .filter(|p| *p > 0)
        .find(|p| (start / p + 1) * p >= end)
        .map(|p| ((start / p) as i64, p as i64))
}

/// The pages of 200 under the positions `start..end`.
fn pages_under(start: usize, end: usize) -> Vec<(i64, i64)> {
    let per = PER_PAGE as usize;
    (start / per..=(end - 1) / per)
        .map(|p| (p as i64, PER_PAGE))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(runs: &[(&str, usize)]) -> Vec<String> {
        runs.iter()
            .flat_map(|(k, n)| std::iter::repeat_n(k.to_string(), *n))
            .collect()
    }

    #[test]
    fn finds_the_runs_that_cross_a_boundary_with_their_extent() {
        let k = keys(&[("a", 190), ("b", 30), ("c", 180), ("d", 250), ("e", 10)]);
        let runs = straddling_runs(&k);
        assert_eq!(
            runs,
            vec![
                Run {
                    key: "b".into(),
                    start: 190,
                    end: 220
                },
                Run {
                    key: "d".into(),
                    start: 400,
                    end: 650
                },
            ]
        );
        assert!(straddling_runs(&keys(&[("a", 200), ("b", 200), ("c", 5)])).is_empty());
    }

    #[test]
    fn a_covering_page_holds_the_run_whole() {
        for (start, end) in [(190, 220), (395, 405), (1990, 2010), (0, 200), (3, 150)] {
            let (page, per) = covering_page(start, end).expect("a page");
            let (page, per) = (page as usize, per as usize);
            assert!(per <= 200 && page * per <= start && (page + 1) * per >= end);
        }
        assert!(covering_page(10, 250).is_none(), "longer than a page");
        assert_eq!(pages_under(400, 650), vec![(2, 200), (3, 200)]);
    }
}
