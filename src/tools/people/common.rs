//! What the people tools share, and the member lists of the teams and channels tools: the `users`
//! argument (up to 100 people by any reference), the answer of a tool bounded by the names it was
//! given (the people found, and for each name nobody has the closest usernames), people read by id
//! 200 to a request, and the members of a team or channel keyed for a kept list.

use crate::args::{Arg, Kind};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::UserFacts;
use crate::mattermost::types;
use crate::resolve;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::HashSet;

/// The most people one call of get_users or get_status names.
pub(crate) const MAX_PEOPLE: usize = 100;

/// The people get_users and get_status read.
pub(crate) const USERS: Arg = Arg {
    name: "users",
    kind: Kind::Users { max: MAX_PEOPLE },
    required: true,
    about: "Up to 100 people, in any mix of usernames (alice or @alice), user ids and emails.",
    shapes: None,
};

/// A name nobody has, with the usernames closest to it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct NotFound {
    pub(crate) reference: String,
    pub(crate) closest: Vec<String>,
}

/// The answer of a tool bounded by the names it was given: one item per person found, in the order
/// first named, and the names nobody has.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Named<I> {
    pub(crate) items: Vec<I>,
    pub(crate) returned: usize,
    pub(crate) not_found: Vec<NotFound>,
}

impl<I> Named<I> {
    pub(crate) fn new(items: Vec<I>, not_found: Vec<NotFound>) -> Named<I> {
        Named {
            returned: items.len(),
            items,
            not_found,
        }
    }
}

/// The people `references` name, each once in the order first named, and for each name nobody has the
/// closest usernames. Fails only when nobody at all is found, listing every name with its closest.
pub(crate) async fn people_named(
    cx: &Ctx,
    references: &[String],
) -> Result<(Vec<types::User>, Vec<NotFound>), ToolError> {
    let (found, missing) = resolve::users(cx, references).await?;
    let not_found: Vec<NotFound> = missing
        .into_iter()
        .map(|(reference, closest)| NotFound { reference, closest })
        .collect();
    if found.is_empty() {
        let each: Vec<String> = not_found
            .iter()
            .map(|n| match n.closest.is_empty() {
                true => quote(&n.reference),
                false => format!(
                    "{} (closest: {})",
                    quote(&n.reference),
                    n.closest.join(", ")
                ),
            })
            .collect();
        return Err(ToolError::new(
            ErrorKind::NotFound,
            format!(
                "Nobody is named {}. Give usernames, user ids or emails; call search_users to find people by \
                 part of a name.",
                each.join(", ")
            ),
        )
        .with("not_found", serde_json::json!(not_found)));
    }
    let first_named = |r: &str| references.iter().position(|x| x == r).unwrap_or(usize::MAX);
    let mut ordered = found;
    ordered.sort_by_key(|(r, _)| first_named(r));
    let mut seen = HashSet::new();
    let people = ordered
        .into_iter()
        .map(|(_, u)| u)
        .filter(|u| seen.insert(u.id().to_string()))
        .collect();
    Ok((people, not_found))
}
