//! `search_posts`: posts matching search terms, newest first, to the last match: the terms are read and
//! their `from:` and `in:` names resolved first (`tools::shared::search_terms`), then Mattermost's
//! search, capped at 100 a request, is walked back by date windows (`paging::search_windows`).

use crate::args::Limit;
use crate::calls::{CHANNEL_CALLS, Call, ME, MY_CHANNELS, USER_CALLS, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::paging::search_windows::Walk;
use crate::paging::{Page, Strategy};
use crate::show::{self, PostItem};
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::search::{
    self, ASKED, ASKED_IN_TEAM, CappedOn, INCLUDE_ARCHIVED, MATCH_ANY, TERMS,
};
use crate::tools::shared::search_terms;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "search_posts",
    title: "Search posts",
    description: "Posts matching search terms in your channels (one team or all yours), newest first, each \
                  with its channel. Words match as full text (deploy finds deployed; stop words ignored; @name \
                  matches the word name). Read past Mattermost's cap of 100 by date windows, one request each; a \
                  day alone over 100 is cut to its newest (capped_on; narrow with in:, from:).",
    toolset: Toolset::Posts,
    args: &[TERMS, super::TEAM, MATCH_ANY, INCLUDE_ARCHIVED],
    answer: Answer::List {
        strategy: Strategy::SearchWindows,
        limit: Limit::new(20, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "SearchPosts",
            params: &ASKED_IN_TEAM,
        },
        Call {
            operation: "SearchPostsInAllTeams",
            params: &ASKED,
        },
        USERNAMES,
        MY_CHANNELS,
        ME,
        CHANNEL_CALLS[1],
        CHANNEL_CALLS[2],
        CHANNEL_CALLS[3],
        USER_CALLS[0],
        USER_CALLS[2],
        USER_CALLS[3],
    ],
    code: crate::list!(run => PostItem, Found),
};

#[derive(Deserialize)]
struct Args {
    terms: String,
    team: Option<String>,
    #[serde(default)]
    match_any: bool,
    #[serde(default)]
    include_archived: bool,
}

/// What a page of matched posts carries besides its items.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Found {
    /// Any post's permalink: this with `{id}` replaced by the post's id.
    pub(crate) permalink: String,
    /// When this page shows a day Mattermost's cap cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) capped_on: Option<CappedOn>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<PostItem, Found>, ToolError> {
    let args = &input.args;
    let at = input.position::<Walk>()?;
    let s = search_terms::prepare(
        cx,
        &args.terms,
        args.team.as_deref(),
        args.match_any,
        args.include_archived,
    )
    .await?;
    let (page, capped_on) =
        search::walk_posts(cx, &input.list_key(), &s, at, input.limit, &|_| true).await?;
    Ok(page.with_extra(Found {
        permalink: show::permalink_pattern(cx.url()),
        capped_on,
    }))
}
