//! `search_files`: files attached to posts in the person's channels whose name or content matches
//! search terms, newest first, to the last match: the terms' `from:` and `in:` names are resolved
//! first (`tools::shared::search_terms`; `in:` a channel of a team searches that team), then
//! Mattermost's file search, one query of at most 100 files, is walked back by date windows
//! (`paging::search_windows`).

use crate::args::{Arg, Kind, Limit};
use crate::calls::{CHANNEL_CALLS, Call, ME, MY_CHANNELS, USER_CALLS, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::paging::search_windows::{self, Walk};
use crate::paging::{Page, Strategy};
use crate::show::FileItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::posts::channel_labels;
use crate::tools::shared::search::{
    self, ASKED, ASKED_IN_TEAM, CappedOn, INCLUDE_ARCHIVED, MATCH_ANY,
};
use crate::tools::shared::search_terms;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The terms of a file search.
const TERMS: Arg = Arg {
    name: "terms",
    kind: Kind::Text { max: 500 },
    required: true,
    about: "Full-text words of the name or content (all, unless match_any), \"phrase\", prefix*, ext:pdf, from:person, \
            in:channel (searches its team), before:/after:/on:YYYY-MM-DD (your time zone); - excludes.",
    shapes: None,
};

pub(crate) const TOOL: Tool = Tool {
    name: "search_files",
    title: "Search files",
    description: "Files in your channels (one team or all yours) whose name or content matches search terms, \
                  newest first; in:channel alone lists a channel's files. Read past Mattermost's cap of 100 by \
                  date windows, one request each; a day alone over 100 is cut to its newest (capped_on). \
                  read_file reads one.",
    toolset: Toolset::Files,
    args: &[TERMS, super::TEAM, MATCH_ANY, INCLUDE_ARCHIVED],
    answer: Answer::List {
        strategy: Strategy::SearchWindows,
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
        CHANNEL_CALLS[1],
        CHANNEL_CALLS[2],
        CHANNEL_CALLS[3],
        USER_CALLS[0],
        USER_CALLS[2],
        USER_CALLS[3],
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
pub(crate) struct FilesFound {
    /// When this page shows a day Mattermost's cap cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) capped_on: Option<CappedOn>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<FileItem, FilesFound>, ToolError> {
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
    let (walked, zone) = search::walk(
        cx,
        &input.list_key(),
        &s,
        at,
        input.limit,
        &|_| true,
        |terms, zone| search_windows::files(cx, &s, terms, zone),
    )
    .await?;
    let shown = &walked.items;
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
    let capped_on = search::capped_on(&walked.overfull_days, zone, "files");
    let mut page = Page::new(items)
        .continue_at(walked.next)
        .capped(capped_on.is_some());
    if let Some(t) = walked.total {
        page = page.with_total(t);
    }
    Ok(page.with_extra(FilesFound { capped_on }))
}
