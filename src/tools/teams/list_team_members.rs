//! `list_team_members`: the people in a team, by username then id. Mattermost pages members by an
//! offset that skips and repeats people while the team changes, so the list is read whole (200 a
//! request, then the people 200 a request) once per cursor chain and kept (`paging::pages_with_ties`).

use crate::args::{Arg, Kind};
use crate::calls::{Call, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::paging::pages_with_ties::read_pages;
use crate::paging::{Page, Strategy};
use crate::resolve;
use crate::show::{UserItem, is_false};
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::args::{LISTS, ONE_TEAM as TEAM};
use crate::tools::shared::lists::kept_page;
use crate::tools::shared::people::members_keyed;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

pub(crate) const TOOL: Tool = Tool {
    name: "list_team_members",
    title: "A team's members",
    description: "A team's people by username, with team_admin; deactivated people only with \
                  include_deactivated. Read whole once per cursor chain.",
    toolset: Toolset::Teams,
    args: &[
        TEAM,
        Arg {
            name: "include_deactivated",
            kind: Kind::Flag,
            required: false,
            about: "Include deactivated people.",
            shapes: None,
        },
    ],
    answer: Answer::List {
        strategy: Strategy::PagesWithTies,
        limit: LISTS,
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetTeamMembers",
            params: &[
                ("team_id", Source::Arg("team")),
                (
                    "page",
                    Source::Paging("each page from 0 until a short one: the list is read whole"),
                ),
                ("per_page", Source::Paging("200, Mattermost's largest page")),
                (
                    "sort",
                    Source::Omitted(
                        "Mattermost's default order (by user id) is unique; the tool orders by username itself",
                    ),
                ),
                ("exclude_deleted_users", Source::Arg("include_deactivated")),
            ],
        },
        USERNAMES,
    ],
    code: crate::list!(run => TeamMember),
};

/// A member of a team.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct TeamMember {
    #[serde(flatten)]
    pub(crate) person: UserItem,
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) team_admin: bool,
}

#[derive(Deserialize)]
struct Args {
    team: String,
    #[serde(default)]
    include_deactivated: bool,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<TeamMember>, ToolError> {
    let team = input.args.team.as_str();
    let exclude_deactivated = !input.args.include_deactivated;
    kept_page(cx, &input, || async move {
        let team_id = resolve::team_id(cx, team).await?;
        let members = read_pages(|page, per_page| {
            let team_id = team_id.as_str();
            async move {
                match cx
                    .send(
                        cx.api()
                            .get_team_members()
                            .team_id(team_id)
                            .exclude_deleted_users(exclude_deactivated)
                            .page(page)
                            .per_page(per_page)
                            .send(),
                    )
                    .await
                {
                    Ok(a) => Ok(a.into_inner()),
                    Err(e) => Err(crate::tools::shared::channels::team_refused(
                        cx,
                        e,
                        team,
                        "its members",
                    )
                    .await),
                }
            }
        })
        .await?;
        let mut seen = HashSet::new();
        let list = members
            .into_iter()
            .filter_map(|m| m.user_id.map(|id| (id, m.scheme_admin == Some(true))))
            .filter(|(id, _)| seen.insert(id.clone()))
            .collect();
        members_keyed(cx, list, |person, team_admin| TeamMember {
            person,
            team_admin,
        })
        .await
    })
    .await
}
