//! What the search tools share (`search_posts`, `list_mentions`, `search_files`): their arguments, the
//! body every search sends with where each of its fields comes from, the lookups resolving the
//! modifiers of the terms may send, a page of the walk ([`crate::paging::search_windows`]) and what it
//! says of a day the cap cut.
//!
//! How Mattermost's database search matches, which the descriptions tell (`store/sqlstore/post_store.go`
//! `search`, `model/search_params.go` `ParseSearchParams`): words are Postgres full text
//! (`to_tsvector @@ to_tsquery`, English configuration), so a word finds its other forms and stop words
//! drop out; leading punctuation is stripped, so `@alice` searches the word `alice`; `-word` excludes
//! within its own group (words; hashtags); `-before:`, `-after:` and `-on:` exclude days; `from:` keeps
//! authors who are members of the team searched. `from:` and `in:` are resolved by the tools first
//! ([`super::search_terms`]).

use super::posts::post_items_in_channels;
use super::time_zone;
use crate::args::{Arg, Kind};
use crate::calls::Source;
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::types::Post;
use crate::paging::Page;
use crate::paging::search_windows::{self, Search, Walk, Walked};
use crate::show::PostItem;
use schemars::JsonSchema;
use serde::Serialize;

/// The terms of a post or file search.
pub(crate) const TERMS: Arg = Arg {
    name: "terms",
    kind: Kind::Text { max: 500 },
    required: true,
    about: "Words (all, unless match_any), \"phrase\", prefix*, #tag, from:person (team members), in:channel \
            (searches its team), before:/after:/on:YYYY-MM-DD (your time zone); - excludes.",
    shapes: None,
};

pub(crate) const MATCH_ANY: Arg = Arg {
    name: "match_any",
    kind: Kind::Flag,
    required: false,
    about: "true: any word matches.",
    shapes: None,
};

pub(crate) const INCLUDE_ARCHIVED: Arg = Arg {
    name: "include_archived",
    kind: Kind::Flag,
    required: false,
    about: "true: archived channels too.",
    shapes: None,
};

/// The body of a post or file search, with where its terms, its any-word flag and its archived flag
/// come from.
pub(crate) const fn body(
    terms: Source,
    any: Source,
    archived: Source,
) -> [(&'static str, Source); 6] {
    [
        ("body.terms", terms),
        ("body.is_or_search", any),
        (
            "body.time_zone_offset",
            Source::Paging(
                "the person's UTC offset when the walk began, as Mattermost's web app sends it: date terms and the walk's windows are the person's days",
            ),
        ),
        ("body.include_deleted_channels", archived),
        (
            "body.page",
            Source::Fixed(
                "0",
                "database search answers nothing for a page above 0 (notes §5); older matches are reached by the walk's date windows",
            ),
        ),
        (
            "body.per_page",
            Source::Fixed(
                "100",
                "database search ignores it and answers at most 100 per term group; Elasticsearch reads it, so both give the newest 100",
            ),
        ),
    ]
}

/// A search body with the team it searches in its path.
pub(crate) const fn in_team(b: [(&'static str, Source); 6]) -> [(&'static str, Source); 7] {
    [
        ("team_id", Source::Arg("team")),
        b[0],
        b[1],
        b[2],
        b[3],
        b[4],
        b[5],
    ]
}

/// The body of a search the model asked for: its terms, `match_any` and `include_archived`.
pub(crate) const ASKED: [(&str, Source); 6] = body(
    Source::Arg("terms"),
    Source::Arg("match_any"),
    Source::Arg("include_archived"),
);

/// The same, in one team.
pub(crate) const ASKED_IN_TEAM: [(&str, Source); 7] = in_team(ASKED);

/// The team a search is narrowed to, if one was given.
pub(crate) async fn team(cx: &Ctx, team: Option<&str>) -> Result<Option<String>, ToolError> {
    match team {
        Some(t) => Ok(Some(crate::resolve::team_id(cx, t).await?)),
        None => Ok(None),
    }
}

/// What a page says of the days on which alone more matched than Mattermost answers.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct CappedOn {
    /// Days cut to their newest 100 matches.
    pub(crate) days: Vec<String>,
    pub(crate) note: String,
}

fn offset_text(secs: i64) -> String {
    let sign = if secs < 0 { '-' } else { '+' };
    let m = secs.abs() / 60;
    format!("{sign}{:02}:{:02}", m / 60, m % 60)
}

/// What a page says of its overfull days, if it has any.
pub(crate) fn capped_on(days: &[i64], zone_secs: i64, what: &str) -> Option<CappedOn> {
    if days.is_empty() {
        return None;
    }
    Some(CappedOn {
        days: days.iter().map(|d| search_windows::day_text(*d)).collect(),
        note: format!(
            "On each of these days (of your time zone, UTC{}) alone more {what} matched than Mattermost answers \
             (100): only that day's newest 100 are listed, and the list goes on with the day before. To reach the \
             rest, search that day (on:DAY) narrowed to fewer matches: more words, in:channel, from:person.",
            offset_text(zone_secs)
        ),
    })
}

/// One page of a search walk from the cursor's position, or from the start in the person's zone.
/// Returns the page's matches, where the next page starts, the overfull days and the zone.
pub(crate) async fn walk<T, F, Fut>(
    cx: &Ctx,
    key: &str,
    s: &Search,
    at: Option<Walk>,
    limit: u32,
    keep: &(dyn Fn(&T) -> bool + Sync),
    fetch: F,
) -> Result<(Walked<T>, i64), ToolError>
where
    T: search_windows::Match,
    F: FnMut(String, i64) -> Fut,
    Fut: Future<Output = Result<Vec<T>, ToolError>>,
{
    let resumed = at.is_some();
    let at = match at {
        Some(w) => w,
        None => Walk::start(s, time_zone::person_offset(cx).await?),
    };
    let zone = at.zone_secs;
    let walked =
        search_windows::page(&cx.lists, key, s, at, resumed, limit as usize, keep, fetch).await?;
    Ok((walked, zone))
}

/// One page of a post search walk: its matches newest first (ties by id), each with its channel, and
/// what it says of overfull days.
pub(crate) async fn walk_posts(
    cx: &Ctx,
    key: &str,
    s: &Search,
    at: Option<Walk>,
    limit: u32,
    keep: &(dyn Fn(&Post) -> bool + Sync),
) -> Result<(Page<PostItem>, Option<CappedOn>), ToolError> {
    let (walked, zone) = walk(cx, key, s, at, limit, keep, |terms, zone| {
        search_windows::posts(cx, s, terms, zone)
    })
    .await?;
    let items = post_items_in_channels(cx, &walked.items).await?;
    let capped = capped_on(&walked.overfull_days, zone, "posts");
    let mut page = Page::new(items)
        .continue_at(walked.next)
        .capped(capped.is_some());
    if let Some(t) = walked.total {
        page = page.with_total(t);
    }
    Ok((page, capped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_shown_as_hours_and_minutes() {
        assert_eq!(offset_text(0), "+00:00");
        assert_eq!(offset_text(20_700), "+05:45");
        assert_eq!(offset_text(-12_600), "-03:30");
    }
}
