//! `list_drafts`: the person's unsent (synced) drafts, most recently changed first. Mattermost gives them
//! whole per team, ordered by a time that moves as the person types, so they are read whole once per
//! cursor chain and kept (`paging::pages_with_ties`).

use super::common::{failed_or_disabled, teams_of};
use crate::args::Limit;
use crate::calls::{Call, ME, MY_CHANNELS, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::types::GetDraftsResponseItem;
use crate::paging::whole_list::{After, Keyed, Order, SortKey};
use crate::paging::{Page, Strategy, pages_with_ties};
use crate::show::{DraftItem, draft_key};
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::posts::channel_labels;
use serde::Deserialize;

pub(crate) const TOOL: Tool = Tool {
    name: "list_drafts",
    title: "List drafts",
    description: "Your unsent (synced) drafts, most recently changed first, each with its channel and, for a \
                  reply, its thread's root. Read whole once per cursor chain, as the order moves while you \
                  type.",
    toolset: Toolset::Posts,
    args: &[super::TEAM],
    answer: Answer::List {
        strategy: Strategy::PagesWithTies,
        limit: Limit::new(30, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetDrafts",
            params: &[
                (
                    "user_id",
                    Source::Fixed(
                        "me",
                        "Mattermost answers the session user's drafts whatever the path says",
                    ),
                ),
                (
                    "team_id",
                    Source::Paging("the team given, or each of the user's teams in turn"),
                ),
            ],
        },
        MY_CHANNELS,
        ME,
        USERNAMES,
    ],
    code: crate::list!(run => DraftItem),
};

#[derive(Deserialize)]
struct Args {
    team: Option<String>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<DraftItem>, ToolError> {
    let after = input.position::<After>()?;
    let teams = teams_of(cx, input.args.team.as_deref()).await?;
    let (items, next, total) = pages_with_ties::page(
        &cx.lists,
        &input.list_key(),
        Order::Descending,
        after,
        input.limit as usize,
        || read_drafts(cx, &teams),
    )
    .await?;
    Ok(Page::new(items).continue_at(next).with_total(total as u64))
}

/// Every draft of the teams (direct and group message drafts come under each team; kept once), keyed by
/// when it last changed.
async fn read_drafts(cx: &Ctx, teams: &[String]) -> Result<Vec<Keyed<DraftItem>>, ToolError> {
    let mut drafts: Vec<GetDraftsResponseItem> = Vec::new();
    for team in teams {
        // A team without drafts is answered `null` (`api4/drafts.go` `getDrafts` encodes the nil slice
        // `store/sqlstore/draft_store.go` `GetDraftsForUser` scans no rows into): the
        // `null_array_responses` repair reads it as `[]`.
        let got = cx
            .send(cx.api().get_drafts().user_id("me").team_id(team).send())
            .await
            .map(progenitor_client::ResponseValue::into_inner)
            .map_err(|e| {
                failed_or_disabled(
                    cx,
                    e,
                    "drafts of team",
                    team,
                    "Synced drafts",
                    "ServiceSettings.AllowSyncedDrafts",
                )
            })?;
        drafts.extend(got.into_iter().filter(|d| d.delete_at.unwrap_or(0) == 0));
    }
    let labels = channel_labels(cx, drafts.iter().filter_map(|d| d.channel_id.as_deref())).await?;
    Ok(drafts
        .iter()
        .map(|d| {
            let label = d
                .channel_id
                .as_deref()
                .and_then(|c| labels.get(c))
                .map(String::as_str);
            Keyed::new(
                SortKey::Int(d.update_at.unwrap_or(0)),
                draft_key(d),
                DraftItem::of(d, label),
            )
        })
        .collect())
}
