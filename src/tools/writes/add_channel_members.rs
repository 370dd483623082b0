//! `add_channel_members`: adds up to 20 people to a channel, after the person confirmed whom (each by
//! username). The confirmation is bound to the resolved people; those already in the channel are
//! named and not sent for.

use super::common::{self, place, writes};
use crate::args::{Arg, Kind};
use crate::calls::{CHANNEL_READ, CHANNEL_STATS, Call, ME, MY_TEAMS, Source, USERNAMES};
use crate::confirm::{self, Confirmed, Question};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::{ChannelFacts, ChannelKind, UserFacts};
use crate::resolve;
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "add_channel_members",
    title: "Add people to a channel",
    description: "Adds up to 20 people to a channel. Asks first, naming them; those already in it are left alone.",
    toolset: Toolset::Writes,
    args: &[
        super::CHANNEL,
        Arg {
            name: "users",
            kind: Kind::Users { max: 20 },
            required: true,
            about: "1 to 20 usernames, ids or emails.",
            shapes: None,
        },
    ],
    answer: Answer::One,
    hints: writes(false, true),
    asks: Asks::First(
        "the people added see the channel and its history, and its members see them added",
    ),
    calls: &[
        CHANNEL_READ,
        CHANNEL_STATS,
        ME,
        MY_TEAMS,
        USERNAMES,
        Call {
            operation: "GetChannelMembersByIds",
            params: &[
                ("channel_id", Source::Arg("channel")),
                ("body", Source::Arg("users")),
            ],
        },
        Call {
            operation: "AddChannelMember",
            params: &[
                ("channel_id", Source::Arg("channel")),
                ("body.user_ids", Source::Arg("users")),
                (
                    "body.user_id",
                    Source::Omitted("user_ids is sent instead, so the answer is always an array"),
                ),
                (
                    "body.post_root_id",
                    Source::Omitted("members are added from no thread"),
                ),
            ],
        },
    ],
    code: crate::one!(run => Added),
};

#[derive(Deserialize)]
struct Args {
    channel: String,
    users: Vec<String>,
}

/// People added to a channel.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Added {
    pub(crate) done: String,
    pub(crate) channel_id: String,
    pub(crate) channel: String,
    /// Usernames added.
    pub(crate) added: Vec<String>,
    /// Usernames that were in the channel already (nothing sent for them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) already_members: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) confirmed: Option<Confirmed>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Added, Stop> {
    confirm::preflight(&input)?;
    let args = &input.args;
    let channel = common::channel(cx, &args.channel, None).await?;
    let id = channel.id().to_string();
    if channel.kind() == ChannelKind::Direct {
        return Err(ToolError::new(
            ErrorKind::Refused,
            "A direct message holds two people; nobody can be added. Use send_direct_message with several people \
             for a group message.",
        )
        .into());
    }
    if channel.archived() {
        return Err(ToolError::bad_argument(format!(
            "{} is archived: nobody can be added to it.",
            quote(&args.channel)
        ))
        .into());
    }
    let (found, missing) = resolve::users(cx, &args.users).await?;
    if !missing.is_empty() {
        let named: Vec<String> = missing
            .iter()
            .map(|(r, closest)| {
                if closest.is_empty() {
                    quote(r)
                } else {
                    format!("{} (closest: {})", quote(r), closest.join(", "))
                }
            })
            .collect();
        return Err(ToolError::bad_argument(format!(
            "Nobody is named {}. Nothing was sent. Fix the names, or call search_users.",
            named.join("; ")
        ))
        .into());
    }
    let mut people: Vec<(String, String)> = Vec::new();
    for (_, u) in &found {
        if !people.iter().any(|(i, _)| i == u.id()) {
            people.push((u.id().to_string(), u.username().to_string()));
        }
    }
    // Who of them is in the channel already: one request for all of them (Mattermost answers the
    // members among the ids it is given).
    let asked: Vec<String> = people.iter().map(|(i, _)| i.clone()).collect();
    let present: Vec<String> = cx
        .send(
            cx.api()
                .get_channel_members_by_ids()
                .channel_id(&id)
                .body(asked)
                .send(),
        )
        .await
        .map_err(|e| cx.fail(e, "channel", &id))?
        .into_inner()
        .into_iter()
        .filter_map(|m| m.user_id)
        .collect();
    let (already, to_add): (Vec<_>, Vec<_>) =
        people.into_iter().partition(|(i, _)| present.contains(i));
    let already: Vec<String> = already.into_iter().map(|(_, n)| n).collect();
    let where_ = place(cx, &channel).await?;
    if to_add.is_empty() {
        return Ok(Added {
            done: format!("Everyone named is in {where_} already; nothing was sent."),
            channel_id: id,
            channel: where_,
            added: Vec::new(),
            already_members: already,
            confirmed: None,
        });
    }
    let members = common::member_count(cx, &id).await?;
    let names: Vec<String> = to_add.iter().map(|(_, n)| format!("@{n}")).collect();
    let mut sorted_ids: Vec<String> = to_add.iter().map(|(i, _)| i.clone()).collect();
    sorted_ids.sort();
    let mut binding = vec![id.clone()];
    binding.extend(sorted_ids);
    let question = Question {
        action: format!("Add {} to {where_}", names.join(", ")),
        text: format!(
            "Add {} {} to {where_} ({members} members now). They will read its history, and its members see them \
             added.{}",
            names.len(),
            if names.len() == 1 { "person" } else { "people" },
            if already.is_empty() {
                format!("\n\n{}", names.join(", "))
            } else {
                format!(
                    "\n\n{}\n\nAlready in it (left alone): {}",
                    names.join(", "),
                    already
                        .iter()
                        .map(|n| format!("@{n}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ),
        binding,
    };
    let cleared = confirm::ask(cx, &input, &question).await?;
    let user_ids: Vec<String> = to_add.iter().map(|(i, _)| i.clone()).collect();
    let added = common::write(
        cx,
        &cleared,
        cx.api()
            .add_channel_member()
            .channel_id(&id)
            .body_map(|b| b.user_ids(Some(user_ids.clone())))
            .send(),
        "channel",
        &id,
    )
    .await?;
    let added_ids: Vec<String> = added.into_iter().filter_map(|m| m.user_id).collect();
    let added_names: Vec<String> = to_add
        .iter()
        .filter(|(i, _)| added_ids.contains(i))
        .map(|(_, n)| n.clone())
        .collect();
    Ok(Added {
        done: format!("Added {} to {where_}.", names.join(", ")),
        channel_id: id,
        channel: where_,
        added: added_names,
        already_members: already,
        confirmed: Some(cleared.how()),
    })
}
