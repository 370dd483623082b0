//! `search_files`: files attached to posts in the person's channels whose name or content matches
//! search terms, newest first, from Mattermost's capped search (`paging::search_capped`): one query of
//! at most 100 files, and the way to older ones when it was full.

use crate::args::{Arg, Kind, Limit};
use crate::calls::{Call, ME, MY_CHANNELS, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::FileFacts;
use crate::mattermost::types::FileInfo;
use crate::paging::search_capped::{self, Older, Search};
use crate::paging::whole_list::{self, After};
use crate::paging::{Page, Strategy};
use crate::show::FileItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::posts::channel_labels;
use crate::tools::shared::search::{self, ASKED, ASKED_IN_TEAM, INCLUDE_ARCHIVED, MATCH_ANY};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The terms of a file search.
const TERMS: Arg = Arg {
    name: "terms",
    kind: Kind::Text { max: 500 },
    required: true,
    about: "Words of the name or content (all, unless match_any), \"phrase\", prefix*, ext:pdf, from:user, \
            in:channel (across teams only in:@user or a group), before:/after:/on:YYYY-MM-DD (UTC); a leading - \
            excludes.",
    shapes: None,
};

pub const TOOL: Tool = Tool {
    name: "search_files",
    title: "Search files",
    description: "Files in your channels (one team or all yours) whose name or content matches search terms, \
                  newest first. Words match as full text. Mattermost \
                  answers at most the 100 newest matches: then capped: true, and `older` gives terms that \
                  reach older ones. read_file reads one.",
    toolset: Toolset::Files,
    args: &[TERMS, super::TEAM, MATCH_ANY, INCLUDE_ARCHIVED],
    answer: Answer::List {
        strategy: Strategy::SearchCapped,
        limit: Limit::new(20, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "SearchFiles",
            params: &ASKED_IN_TEAM,
        },
        Call {
            operation: "SearchFiles2",
            params: &ASKED,
        },
        USERNAMES,
        MY_CHANNELS,
        ME,
    ],
    code: crate::list!(run => FileItem, FilesFound),
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

/// What a page of matched files carries besides its items.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FilesFound {
    /// When Mattermost's cap cut the matches: how to reach the older ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub older: Option<Older>,
}

fn created(f: &FileInfo) -> i64 {
    f.create_at.unwrap_or(0)
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<FileItem, FilesFound>, ToolError> {
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
    let found = search_capped::files(cx, &s).await?;
    let sorted = search_capped::ordered(found.items, created, |f| f.id().to_string());
    let (shown, next) = whole_list::page(
        &sorted,
        search_capped::ORDER,
        after.as_ref(),
        input.limit as usize,
    );
    let authors: Vec<String> = shown.iter().filter_map(|f| f.user_id.clone()).collect();
    let names = cx.usernames(authors).await?;
    let labels = channel_labels(cx, shown.iter().filter_map(|f| f.channel_id.as_deref())).await?;
    let items = shown
        .iter()
        .map(|f| {
            let item = FileItem::of(f, &names, cx.url());
            match f.channel_id.as_deref() {
                Some(c) => item.in_channel(c, labels.get(c).map(String::as_str)),
                None => item,
            }
        })
        .collect();
    let older = sorted
        .last()
        .filter(|_| found.capped)
        .map(|oldest| search_capped::older(terms, created(&oldest.item), "files"));
    Ok(Page::new(items)
        .continue_at(next)
        .with_total(sorted.len() as u64)
        .capped(found.capped)
        .with_extra(FilesFound { older }))
}
