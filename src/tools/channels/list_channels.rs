//! `list_channels`: the channels the person is in, most recently active first, each with its unread
//! posts and mentions. The list and the unread counts are read whole once per cursor chain and kept
//! (`paging::recently_active`), so the pages are one picture while people post.

use super::common::{direct_names, my_item, team_names};
use crate::args::{Arg, Kind};
use crate::calls::{Call, ME, MY_TEAMS, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::ChannelFacts;
use crate::mattermost::types;
use crate::paging::whole_list::{After, Keyed};
use crate::paging::{Page, Strategy, recently_active};
use crate::resolve;
use crate::show::{ChannelItem, unread_posts};
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::args::LISTS;
use crate::tools::shared::unread::memberships;
use serde::Deserialize;

pub const TOOL: Tool = Tool {
    name: "list_channels",
    title: "Your channels",
    description: "The channels you are in (direct and group messages too, archived ones not), most recently \
                  active first, with post count, last post time, unread posts and mentions; a direct message \
                  is named @username. Read whole once per cursor chain.",
    toolset: Toolset::Channels,
    args: &[
        Arg {
            name: "team",
            kind: Kind::Team,
            required: false,
            about: "Only this team's channels (and your direct and group messages).",
            shapes: Some("keeps the team's channels and the direct and group messages"),
        },
        Arg {
            name: "unread_only",
            kind: Kind::Flag,
            required: false,
            about: "Only channels with unread posts or mentions.",
            shapes: Some("keeps only channels with unread posts or mentions"),
        },
    ],
    answer: Answer::List {
        strategy: Strategy::RecentlyActive,
        limit: LISTS,
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetChannelsForUser",
            params: &[
                (
                    "user_id",
                    Source::Fixed("me", "the token user's own channels"),
                ),
                (
                    "include_deleted",
                    Source::Omitted(
                        "archived channels and those of archived teams are left out: this is the list of where to read; list_archived_channels has the archived ones",
                    ),
                ),
                (
                    "last_delete_at",
                    Source::Omitted("archived channels are left out altogether"),
                ),
            ],
        },
        Call {
            operation: "GetChannelMembersForUser",
            params: &[
                (
                    "user_id",
                    Source::Fixed(
                        "me",
                        "the token user's own memberships hold the unread counts",
                    ),
                ),
                (
                    "team_id",
                    Source::Paging("the team given, or each of the user's teams in turn"),
                ),
            ],
        },
        Call {
            operation: "GetChannelMembersWithTeamDataForUser",
            params: &[
                (
                    "user_id",
                    Source::Fixed(
                        "me",
                        "a user in no team still has direct messages, whose memberships only this list gives",
                    ),
                ),
                (
                    "page",
                    Source::Paging("each page from 0 until a short one, for a user in no team"),
                ),
                ("per_page", Source::Paging("200, Mattermost's largest page")),
            ],
        },
        MY_TEAMS,
        ME,
        USERNAMES,
    ],
    code: crate::list!(run => ChannelItem),
};

#[derive(Deserialize)]
struct Args {
    team: Option<String>,
    #[serde(default)]
    unread_only: bool,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<ChannelItem>, ToolError> {
    let after = input.position::<After>()?;
    let team = input.args.team.as_deref();
    let unread_only = input.args.unread_only;
    let (items, next, total) = recently_active::page(
        &cx.lists,
        &input.list_key(),
        after,
        input.limit as usize,
        || my_channels(cx, team, unread_only),
    )
    .await?;
    Ok(Page::new(items).continue_at(next).with_total(total as u64))
}

/// The person's live channels (of one team and no team, when `team` is given), keyed by last post.
async fn my_channels(
    cx: &Ctx,
    team: Option<&str>,
    unread_only: bool,
) -> Result<Vec<Keyed<ChannelItem>>, ToolError> {
    let team_id = match team {
        Some(t) => Some(resolve::team_id(cx, t).await?),
        None => None,
    };
    // Read afresh (not the person's channels kept for name lookups): this list is the picture of now.
    let channels = cx.read_my_channels(None).await?;
    let teams = team_names(cx).await?;
    let read_teams: Vec<String> = match &team_id {
        Some(t) => vec![t.clone()],
        None => teams.keys().cloned().collect(),
    };
    let members = memberships(cx, &read_teams).await?;
    let live: Vec<&types::Channel> = channels
        .iter()
        .filter(|c| !c.archived())
        .filter(|c| {
            let t = c.team_id();
            team_id
                .as_deref()
                .is_none_or(|want| t == want || t.is_empty())
        })
        .filter(|c| !unread_only || members.get(c.id()).is_some_and(|m| has_unread(c, m)))
        .collect();
    let (me, usernames) = direct_names(cx, &live).await?;
    Ok(live
        .into_iter()
        .map(|c| {
            let item = my_item(c, &teams, &me, &usernames, members.get(c.id()));
            Keyed::new(recently_active::key(c.last_post_at), c.id(), item)
        })
        .collect())
}

fn has_unread(c: &types::Channel, m: &types::ChannelMember) -> bool {
    unread_posts(c, m) > 0 || m.mention_count.unwrap_or(0) > 0
}
