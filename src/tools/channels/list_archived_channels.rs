//! `list_archived_channels`: a team's archived channels, by display name then id, read whole once per
//! cursor chain and kept as `list_team_channels` is. Mattermost lists the archived public channels and
//! the archived private ones the person was in; to a system admin it lists every archived channel of
//! the team and the archived direct and group messages (api4/channel.go getDeletedChannelsForTeam).

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
    name: "list_archived_channels",
    title: "A team's archived channels",
    description: "A team's archived channels by display name: public ones and private ones you were in (all, \
                  for a system admin). Read whole once per cursor chain.",
    toolset: Toolset::Channels,
    args: &[TEAM],
    answer: Answer::List {
        strategy: Strategy::PagesWithTies,
        limit: LISTS,
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[Call {
        operation: "GetDeletedChannelsForTeam",
        params: &TEAM_CHANNEL_PAGES,
    }],
    code: crate::list!(run => ChannelItem),
};

#[derive(Deserialize)]
struct Args {
    team: String,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<ChannelItem>, ToolError> {
    team_channels(cx, &input, &input.args.team, true).await
}
