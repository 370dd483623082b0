//! `search_users`: people matching a term, by username, paged after the last username shown.
//!
//! Mattermost matches each word of the term anywhere in the username, first and last name, nickname and
//! email, or as a whole user id (`store/sqlstore/user_store.go` generateSearchQuery: `LIKE %word%` on
//! each field; names and emails only where the privacy settings show them to the person), orders by
//! username, and answers at most 1000 people for one term (`UserSearchMaxLimit`; more is a 400). With
//! `in_channel_id` it searches the channel alone and ignores `team_id` (`app/user.go` SearchUsers), and
//! it needs read access to the channel (`api4/user.go` searchUsers), which only members have.
//!
//! The first page asks one person more than it shows, to know whether more follow; a later page asks
//! for Mattermost's 1000 and continues after the username of the cursor, in Mattermost's own order.

use crate::args::{Arg, Kind, Limit};
use crate::calls::{Call, Source};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::UserFacts;
use crate::mattermost::types;
use crate::paging::whole_list::{After, SortKey};
use crate::paging::{Page, Strategy};
use crate::resolve;
use crate::show::UserItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::channels::refused;
use serde::Deserialize;
use std::collections::HashSet;

/// Mattermost's most users for one search term (`UserSearchMaxLimit`).
const USER_SEARCH_CAP: i64 = 1000;

pub(crate) const TOOL: Tool = Tool {
    name: "search_users",
    title: "Search people",
    description: "People in whom each word of `term` appears anywhere in the username, first or last name, \
                  nickname or email (as shown to you), or is their id; `team` or `channel` (one you are in) \
                  narrows to members. At most 1000 (then capped).",
    toolset: Toolset::People,
    args: &[
        Arg {
            name: "term",
            kind: Kind::Text { max: 64 },
            required: true,
            about: "The words to find.",
            shapes: None,
        },
        Arg {
            name: "team",
            kind: Kind::Team,
            required: false,
            about: "Only this team's members (with `channel`: its team).",
            shapes: None,
        },
        Arg {
            name: "channel",
            kind: Kind::Channel,
            required: false,
            about: "Only this channel's members.",
            shapes: None,
        },
        Arg {
            name: "include_deactivated",
            kind: Kind::Flag,
            required: false,
            about: "Include deactivated people.",
            shapes: None,
        },
    ],
    answer: Answer::List {
        strategy: Strategy::WholeList,
        limit: Limit::new(20, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "SearchUsers",
            params: &[
                ("body.term", Source::Arg("term")),
                ("body.team_id", Source::Arg("team")),
                ("body.in_channel_id", Source::Arg("channel")),
                ("body.allow_inactive", Source::Arg("include_deactivated")),
                (
                    "body.limit",
                    Source::Paging(
                        "one more than the page on the first page, then Mattermost's cap of 1000 to continue after the last username",
                    ),
                ),
                (
                    "body.not_in_team_id",
                    Source::Omitted(
                        "finding people outside a team is not what a search by name is for",
                    ),
                ),
                (
                    "body.not_in_channel_id",
                    Source::Omitted(
                        "finding people outside a channel is not what a search by name is for",
                    ),
                ),
                (
                    "body.in_group_id",
                    Source::Omitted(
                        "groups need an Enterprise licence; a team or channel narrows instead",
                    ),
                ),
                (
                    "body.group_constrained",
                    Source::Omitted(
                        "groups need an Enterprise licence; not a filter a search by name needs",
                    ),
                ),
                (
                    "body.without_team",
                    Source::Omitted(
                        "people in no team are an administrator's question, not a reader's",
                    ),
                ),
            ],
        },
        Call {
            operation: "GetChannel",
            params: &[("channel_id", Source::Arg("channel"))],
        },
    ],
    code: crate::list!(run => UserItem),
};

#[derive(Deserialize)]
struct Args {
    term: String,
    team: Option<String>,
    channel: Option<String>,
    #[serde(default)]
    include_deactivated: bool,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<UserItem>, ToolError> {
    let args = &input.args;
    let term = args.term.trim().to_string();
    let in_channel = match &args.channel {
        Some(c) => Some((c, resolve::channel_id(cx, c, args.team.as_deref()).await?)),
        None => None,
    };
    // With a channel Mattermost searches the channel alone and ignores the team, yet still checks the
    // person may view that team: the team only narrowed the channel's name, so it is not sent.
    let team_id = match (&args.team, &in_channel) {
        (Some(t), None) => Some(resolve::team_id(cx, t).await?),
        _ => None,
    };
    let after = input.position::<After>()?;
    let limit = input.limit as usize;
    let ask = match after {
        None => (limit as i64 + 1).min(USER_SEARCH_CAP),
        Some(_) => USER_SEARCH_CAP,
    };
    let body = types::SearchUsersBody {
        term: term.clone(),
        limit: ask,
        allow_inactive: Some(args.include_deactivated),
        team_id,
        in_channel_id: in_channel.as_ref().map(|(_, id)| id.clone()),
        group_constrained: None,
        in_group_id: None,
        not_in_channel_id: None,
        not_in_team_id: None,
        without_team: None,
    };
    let found = match cx.send(cx.api().search_users().body(body).send()).await {
        Ok(found) => found.into_inner(),
        Err(e) => {
            return Err(match &in_channel {
                Some((reference, id)) => {
                    refused(cx, e, id, reference, "the search of its members").await
                }
                None => cx.fail(e, "user search", &term),
            });
        }
    };
    let complete = (found.len() as i64) < ask;
    let mut seen = HashSet::new();
    let listed: Vec<types::User> = found
        .into_iter()
        .filter(|u| seen.insert(u.id().to_string()))
        .collect();
    for u in &listed {
        cx.learn_user(u);
    }
    let start = after.as_ref().map_or(0, |a| resume_after(&listed, a));
    let end = (start + limit).min(listed.len());
    let shown = &listed[start.min(end)..end];
    let next = shown
        .last()
        .filter(|_| end < listed.len())
        .map(|u| After::new(&SortKey::Text(u.username().to_string()), u.id()));
    let mut page = Page::new(shown.iter().map(UserItem::of).collect()).continue_at(next);
    if complete {
        page = page.with_total(listed.len() as u64);
    }
    Ok(page.capped(ask == USER_SEARCH_CAP && !complete))
}

/// Where a page continues in a user search answer, which Mattermost orders by username (unique) in its
/// database's collation: after the user of the position, or, when that user is no longer in the answer,
/// at the first username that sorts after it (after its first characters, when the cursor holds only
/// those: people sharing them with the missing one may then be passed over).
fn resume_after(listed: &[types::User], after: &After) -> usize {
    if let Some(i) = listed.iter().position(|u| u.id() == after.id) {
        return i + 1;
    }
    let SortKey::Text(last) = &after.k else {
        return 0;
    };
    let key = |u: &types::User| -> String {
        if after.cut {
            u.username().chars().take(last.chars().count()).collect()
        } else {
            u.username().to_string()
        }
    };
    listed
        .iter()
        .position(|u| key(u).as_str() > last.as_str())
        .unwrap_or(listed.len())
}
