//! What the search tools share (`search_posts`, `list_mentions`, `search_files`): their arguments, the
//! body every search sends with where each of its fields comes from, the team a search is narrowed to,
//! and a page of matched posts.
//!
//! How Mattermost's database search matches, which the descriptions tell (`store/sqlstore/post_store.go`
//! `search`, `model/search_params.go` `ParseSearchParams`): words are Postgres full text
//! (`to_tsvector @@ to_tsquery`, English configuration), so a word finds its other forms and stop words
//! drop out; leading punctuation is stripped, so `@alice` searches the word `alice`; `-word` excludes
//! within its own group (words; hashtags); `-before:`, `-after:` and `-on:` exclude days; `in:` names
//! a channel of the team searched, and in a search of all teams only direct and group message names
//! resolve; `from:` keeps authors who are members of the team searched.

use super::posts::{newest_first, post_items_in_channels};
use crate::args::{Arg, Kind};
use crate::calls::Source;
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::types::Post;
use crate::paging::Page;
use crate::paging::search_capped;
use crate::paging::whole_list::{self, After};
use crate::resolve;
use crate::show::PostItem;

/// The terms of a post or file search.
pub const TERMS: Arg = Arg {
    name: "terms",
    kind: Kind::Text { max: 500 },
    required: true,
    about: "Words (all, unless match_any), \"phrase\", prefix*, #tag, from:user (team members), in:channel \
            (across teams only in:@user or a group), before:/after:/on:YYYY-MM-DD (UTC); a leading - excludes.",
    shapes: None,
};

pub const MATCH_ANY: Arg = Arg {
    name: "match_any",
    kind: Kind::Flag,
    required: false,
    about: "true: any word matches.",
    shapes: None,
};

pub const INCLUDE_ARCHIVED: Arg = Arg {
    name: "include_archived",
    kind: Kind::Flag,
    required: false,
    about: "true: archived channels too.",
    shapes: None,
};

/// The body of a post or file search, with where its terms, its any-word flag and its archived flag
/// come from.
pub const fn body(terms: Source, any: Source, archived: Source) -> [(&'static str, Source); 6] {
    [
        ("body.terms", terms),
        ("body.is_or_search", any),
        (
            "body.time_zone_offset",
            Source::Fixed(
                "0",
                "dates in the terms are days in UTC, as every time the tools show is",
            ),
        ),
        ("body.include_deleted_channels", archived),
        (
            "body.page",
            Source::Fixed(
                "0",
                "database search answers nothing for a page above 0 (notes §5); older matches are reached with date terms",
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
pub const fn in_team(b: [(&'static str, Source); 6]) -> [(&'static str, Source); 7] {
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
pub const ASKED: [(&str, Source); 6] = body(
    Source::Arg("terms"),
    Source::Arg("match_any"),
    Source::Arg("include_archived"),
);

/// The same, in one team.
pub const ASKED_IN_TEAM: [(&str, Source); 7] = in_team(ASKED);

/// The team a search is narrowed to, if one was given.
pub async fn team(cx: &Ctx, team: Option<&str>) -> Result<Option<String>, ToolError> {
    match team {
        Some(t) => Ok(Some(resolve::team_id(cx, t).await?)),
        None => Ok(None),
    }
}

/// One page of matched posts, newest first (ties by id), each with its channel, after `after`; its
/// total is the number of matches.
pub async fn posts_page(
    cx: &Ctx,
    posts: Vec<Post>,
    after: Option<After>,
    limit: u32,
) -> Result<Page<PostItem>, ToolError> {
    let sorted = newest_first(posts);
    let (shown, next) = whole_list::page(
        &sorted,
        search_capped::ORDER,
        after.as_ref(),
        limit as usize,
    );
    let items = post_items_in_channels(cx, &shown).await?;
    Ok(Page::new(items)
        .continue_at(next)
        .with_total(sorted.len() as u64))
}
