//! `get_users`: up to 100 people by username, id or email, each once in the order first named; the
//! names nobody has come back with the closest usernames. Bounded by its input, so it has no cursor.

use super::common::{MAX_PEOPLE, Named, USERS, people_named};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::show::UserItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use serde::Deserialize;

pub(crate) const TOOL: Tool = Tool {
    name: "get_users",
    title: "Look people up",
    description: "Up to 100 people by username, id or email, each once in the order given. Names nobody has \
                  are in not_found with the closest usernames.",
    toolset: Toolset::People,
    args: &[USERS],
    answer: Answer::Bounded {
        max: MAX_PEOPLE,
        reason: "one person per name given, at most 100 names",
    },
    hints: READS,
    asks: Asks::Never,
    // Every request is one of resolving `users` (crate::calls::USER_CALLS).
    calls: &[],
    code: crate::one!(run => Named<UserItem>),
};

#[derive(Deserialize)]
struct Args {
    users: Vec<String>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Named<UserItem>, ToolError> {
    let (people, not_found) = people_named(cx, &input.args.users).await?;
    Ok(Named::new(
        people.iter().map(UserItem::of).collect(),
        not_found,
    ))
}
