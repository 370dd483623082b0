//! `get_team`: one team by id, name or display name, and whether the person is a member.

use crate::calls::{Call, MY_TEAMS, Source};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::TeamFacts;
use crate::resolve;
use crate::show::TeamItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::args::ONE_TEAM as TEAM;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "get_team",
    title: "A team",
    description: "One team by id, name or display name, and whether you are a member. A team you are not in: \
                  by id or exact name, if Mattermost shows it to you.",
    toolset: Toolset::Teams,
    args: &[TEAM],
    answer: Answer::One,
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetTeam",
            params: &[("team_id", Source::Arg("team"))],
        },
        MY_TEAMS,
    ],
    code: crate::one!(run => TeamAnswer),
};

/// A team, and whether the person is in it.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct TeamAnswer {
    #[serde(flatten)]
    pub(crate) team: TeamItem,
    pub(crate) member: bool,
}

#[derive(Deserialize)]
struct Args {
    team: String,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<TeamAnswer, ToolError> {
    let t = resolve::team_of(cx, &input.args.team).await?;
    let member = cx
        .my_teams()
        .await?
        .iter()
        .any(|m| m.id() == t.id() && !t.id().is_empty());
    Ok(TeamAnswer {
        team: TeamItem::of(&t),
        member,
    })
}
