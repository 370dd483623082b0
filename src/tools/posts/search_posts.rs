//! `search_posts`: posts matching search terms, newest first, from Mattermost's capped search
//! (`paging::search_capped`): page 0 holds every match there is, or the newest 100 of a term group, and
//! the answer says how to reach older ones.

use crate::args::Limit;
use crate::calls::{Call, ME, MY_CHANNELS, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::PostFacts;
use crate::paging::search_capped::{self, Older, Search};
use crate::paging::whole_list::After;
use crate::paging::{Page, Strategy};
use crate::show::{self, PostItem};
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::search::{
    self, ASKED, ASKED_IN_TEAM, INCLUDE_ARCHIVED, MATCH_ANY, TERMS,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const TOOL: Tool = Tool {
    name: "search_posts",
    title: "Search posts",
    description: "Posts matching search terms in your channels (one team or all yours), newest first, each \
                  with its channel. Words match as full text (deploy finds deployed; stop words ignored; @name \
                  matches the word name). Mattermost answers at most the 100 newest matches per term group: \
                  then capped: true, and `older` gives terms that reach older ones.",
    toolset: Toolset::Posts,
    args: &[TERMS, super::TEAM, MATCH_ANY, INCLUDE_ARCHIVED],
    answer: Answer::List {
        strategy: Strategy::SearchCapped,
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
pub struct Found {
    /// Any post's permalink: this with `{id}` replaced by the post's id.
    pub permalink: String,
    /// When Mattermost's cap cut the matches: how to reach the older ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub older: Option<Older>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<PostItem, Found>, ToolError> {
    let args = &input.args;
    let after = input.position::<After>()?;
    let team = search::team(cx, args.team.as_deref()).await?;
    let terms = args.terms.trim();
    let s = Search {
        team_id: team.as_deref(),
        terms,
        any: args.match_any,
        archived: args.include_archived,
    };
    let found = search_capped::posts(cx, &s).await?;
    let oldest = found.items.iter().map(|p| p.created()).min();
    let capped = found.capped;
    let page = search::posts_page(cx, found.items, after, input.limit).await?;
    let older = oldest
        .filter(|_| capped)
        .map(|t| search_capped::older(terms, t, "posts"));
    Ok(page.capped(capped).with_extra(Found {
        permalink: show::permalink_pattern(cx.url()),
        older,
    }))
}
