//! `list_team_channels`: a team's public channels, joined or not, by display name then id. Mattermost
//! pages them by display name alone, which channels share, so the list is read whole once per cursor
//! chain and kept (`paging::pages_with_ties`, `paging::straddling_ties`).

use super::common::{TEAM_CHANNEL_PAGES, team_channels};
use crate::calls::Call;
use crate::context::Ctx;
use crate::error::ToolError;
use crate::paging::{Page, Strategy};
use crate::show::ChannelItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::args::{LISTS, ONE_TEAM as TEAM};
use serde::Deserialize;

pub(crate) const TOOL: Tool = Tool {
    name: "list_team_channels",
    title: "A team's public channels",
    description: "A team's public channels, joined or not, by display name; archived ones are in \
                  list_archived_channels. Read whole once per cursor chain.",
    toolset: Toolset::Channels,
    args: &[TEAM],
    answer: Answer::List {
        strategy: Strategy::PagesWithTies,
        limit: LISTS,
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[Call {
        operation: "GetPublicChannelsForTeam",
        params: &TEAM_CHANNEL_PAGES,
    }],
    code: crate::list!(run => ChannelItem),
};

#[derive(Deserialize)]
struct Args {
    team: String,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<ChannelItem>, ToolError> {
    team_channels(cx, &input, &input.args.team, false).await
}
