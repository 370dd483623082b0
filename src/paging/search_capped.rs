//! Search capped: post and file search, which Mattermost answers on one page with a cap (notes §5).
//!
//! With database search (no Elasticsearch), `page` > 0 answers nothing at once and `per_page` is
//! ignored: each term group (plain words; hashtags) runs one query `ORDER BY CreateAt DESC LIMIT 100`,
//! and the groups are merged and re-sorted without a tiebreak; file search runs one such query. So page
//! 0, asked with `per_page` 100 (which an Elasticsearch server reads as the page size), holds every
//! match there is, or the newest 100 of a group, and nothing older can be reached by paging. The
//! answer has no sign of the cap; the tool marks it `capped: true` when 100 or more matches came back,
//! and tells how to reach older ones: a `before:YYYY-MM-DD` term for the day after the oldest match
//! shown (that day is searched again, so repeats are to be expected). A day of more than 100 matches
//! cannot be listed whole.
//!
//! The answer is a whole list ([`super::whole_list`]): ordered newest first with the id as tiebreak,
//! read again for every page (one request), and continued after the last item's (time, id), so a match
//! that appears or goes between pages neither shifts nor repeats the others.

use super::whole_list::{Keyed, Order, SortKey, sort};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::types::{self, FileInfo, Post};
use schemars::JsonSchema;
use serde::Serialize;

/// Mattermost's cap on one term group of a database search.
pub const CAP: usize = 100;
/// The order of every search answer.
pub const ORDER: Order = Order::Descending;

/// What a search asks.
#[derive(Debug, Clone)]
pub struct Search<'a> {
    /// The team to search, or every team of the person.
    pub team_id: Option<&'a str>,
    pub terms: &'a str,
    /// Any term matches, not all.
    pub any: bool,
    /// Archived channels too.
    pub archived: bool,
}

/// A search's answer: its matches and whether Mattermost's cap cut them.
#[derive(Debug)]
pub struct Found<T> {
    pub items: Vec<T>,
    pub capped: bool,
}

fn found<T>(items: Vec<T>) -> Found<T> {
    let capped = items.len() >= CAP;
    Found { items, capped }
}

/// Post search (SearchPosts in a team, SearchPostsInAllTeams otherwise), page 0 only.
pub async fn posts(cx: &Ctx, s: &Search<'_>) -> Result<Found<Post>, ToolError> {
    let list = match s.team_id {
        Some(team) => {
            let body = types::SearchPostsBody {
                terms: s.terms.to_string(),
                is_or_search: s.any,
                time_zone_offset: 0,
                include_deleted_channels: Some(s.archived),
                page: 0,
                per_page: CAP as i64,
            };
            cx.send(cx.api().search_posts().team_id(team).body(body).send())
                .await
        }
        None => {
            let body = types::SearchPostsInAllTeamsBody {
                terms: s.terms.to_string(),
                is_or_search: s.any,
                time_zone_offset: Some(0),
                include_deleted_channels: Some(s.archived),
                page: Some(0),
                per_page: Some(CAP as i64),
            };
            cx.send(cx.api().search_posts_in_all_teams().body(body).send())
                .await
        }
    }
    .map_err(|e| cx.fail(e, "search terms", s.terms))?
    .into_inner();
    let mut by_id = list.posts.unwrap_or_default();
    let posts = list
        .order
        .unwrap_or_default()
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect();
    Ok(found(posts))
}

/// File search (SearchFiles in a team, SearchFiles2 otherwise), page 0 only.
pub async fn files(cx: &Ctx, s: &Search<'_>) -> Result<Found<FileInfo>, ToolError> {
    let list = match s.team_id {
        Some(team) => {
            let body = types::SearchFilesBody {
                terms: s.terms.to_string(),
                is_or_search: s.any,
                time_zone_offset: 0,
                include_deleted_channels: Some(s.archived),
                page: 0,
                per_page: CAP as i64,
            };
            cx.send(cx.api().search_files().team_id(team).body(body).send())
                .await
        }
        None => {
            let body = types::SearchFiles2Body {
                terms: s.terms.to_string(),
                is_or_search: s.any,
                time_zone_offset: 0,
                include_deleted_channels: Some(s.archived),
                page: 0,
                per_page: CAP as i64,
            };
            cx.send(cx.api().search_files2().body(body).send()).await
        }
    }
    .map_err(|e| cx.fail(e, "search terms", s.terms))?
    .into_inner();
    let mut by_id = list.file_infos.unwrap_or_default();
    let files = list
        .order
        .unwrap_or_default()
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect();
    Ok(found(files))
}

/// Matches in the search order: newest first, ties by id, each once.
pub fn ordered<T>(
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

/// The way to the matches older than a capped answer's oldest one.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Older {
    /// Search again with these terms to reach older matches.
    pub terms: String,
    pub note: String,
}

/// The way to the matches older than a capped answer's oldest one, as the answer's `older` shows it.
pub fn older(terms: &str, oldest_ms: i64, what: &str) -> Older {
    Older {
        terms: older_terms(terms, oldest_ms),
        note: format!(
            "Mattermost answers at most the 100 newest matching {what}. Search again with these terms to reach \
             older ones (the oldest day shown is searched again, so expect some repeats)."
        ),
    }
}

/// The day (`YYYY-MM-DD`, UTC) after a time: `before:` it reaches the matches older than that time,
/// and that time's day again.
pub fn day_after(ms: i64) -> String {
    let next_day = crate::time::rfc3339(ms + 86_400_000);
    next_day.get(..10).unwrap_or_default().to_string()
}

/// The terms that reach the matches older than the oldest one of a capped answer: the same terms with
/// `before:` the day after it (that day is searched again).
pub fn older_terms(terms: &str, oldest_ms: i64) -> String {
    let day = day_after(oldest_ms);
    let kept: Vec<&str> = terms
        .split_whitespace()
        .filter(|t| !t.to_ascii_lowercase().starts_with("before:"))
        .collect();
    format!("{} before:{day}", kept.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hundred_matches_are_capped() {
        assert!(found(vec![0; CAP]).capped);
        assert!(!found(vec![0; CAP - 1]).capped);
    }

    #[test]
    fn older_matches_are_reached_before_the_day_after_the_oldest() {
        // 2026-11-30T12:00:00Z
        let t = crate::time::parse("2026-11-30T12:00:00Z").unwrap_or(0);
        assert_eq!(
            older_terms("deploy before:2027-01-01 from:bob", t),
            "deploy from:bob before:2026-12-01"
        );
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
