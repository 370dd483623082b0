//! `get_status`: the presence of up to 100 people (online, away, dnd, offline), in one status request.
//! Mattermost answers an id it holds no status for with a made-up offline status, which is shown as
//! offline with no last activity.

use super::common::{MAX_PEOPLE, Named, USERS, people_named};
use crate::calls::{Call, Source};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::UserFacts;
use crate::mattermost::types;
use crate::show::StatusItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use serde::Deserialize;
use std::collections::HashMap;

pub(crate) const TOOL: Tool = Tool {
    name: "get_status",
    title: "Who is online",
    description: "The presence of up to 100 people: online, away, dnd or offline, whether they set it, last \
                  activity, Do Not Disturb end and custom status. Unknown names are in not_found.",
    toolset: Toolset::People,
    args: &[USERS],
    answer: Answer::Bounded {
        max: MAX_PEOPLE,
        reason: "one status per person named, at most 100 names",
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[Call {
        operation: "GetUsersStatusesByIds",
        params: &[("body", Source::Arg("users"))],
    }],
    code: crate::one!(run => Named<StatusItem>),
};

#[derive(Deserialize)]
struct Args {
    users: Vec<String>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Named<StatusItem>, ToolError> {
    let (people, not_found) = people_named(cx, &input.args.users).await?;
    let ids: Vec<String> = people.iter().map(|u| u.id().to_string()).collect();
    let statuses = cx
        .call(
            cx.api()
                .get_users_statuses_by_ids()
                .body(ids.clone())
                .send(),
            "statuses of the users",
            &ids.join(","),
        )
        .await?;
    let by_user: HashMap<&str, &types::Status> = statuses
        .iter()
        .filter_map(|s| s.user_id.as_deref().map(|id| (id, s)))
        .collect();
    let items = people
        .iter()
        .map(|u| StatusItem::of(u, by_user.get(u.id()).copied()))
        .collect();
    Ok(Named::new(items, not_found))
}
