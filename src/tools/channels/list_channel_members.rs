//! `list_channel_members`: the people in a channel, by username then id. Mattermost gives channel
//! members in no order at all, so the list is read whole once per cursor chain (every member in one
//! request, `per_page=0`, on Mattermost 11.6; page by page on older servers) and kept
//! (`paging::pages_with_ties`). Only members may read it (api4/channel.go getChannelMembers needs
//! `read_channel`; a user search narrowed to the channel needs the same), so a public channel the
//! person has not joined is refused as `not_member`.

use super::{CHANNEL, TEAM_OF_CHANNEL};
use crate::calls::{Call, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::types;
use crate::paging::pages_with_ties::read_pages;
use crate::paging::{Page, Strategy};
use crate::resolve;
use crate::show::{UserItem, is_false};
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::args::LISTS;
use crate::tools::shared::channels::refused;
use crate::tools::shared::lists::kept_page;
use crate::tools::shared::people::members_keyed;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

pub(crate) const TOOL: Tool = Tool {
    name: "list_channel_members",
    title: "A channel's members",
    description: "The people of a channel you are in (Mattermost shows members only to members), by username, \
                  with channel_admin. Read whole once per cursor chain.",
    toolset: Toolset::Channels,
    args: &[CHANNEL, TEAM_OF_CHANNEL],
    answer: Answer::List {
        strategy: Strategy::PagesWithTies,
        limit: LISTS,
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetChannelMembers",
            params: &[
                ("channel_id", Source::Arg("channel")),
                (
                    "page",
                    Source::Paging(
                        "0; then each page until a short one, on a server older than 11.6 that answers per_page 0 with nothing",
                    ),
                ),
                (
                    "per_page",
                    Source::Paging(
                        "0, every member in one response (Mattermost 11.6), or 200 a page on older servers",
                    ),
                ),
            ],
        },
        Call {
            operation: "GetChannel",
            params: &[("channel_id", Source::Arg("channel"))],
        },
        USERNAMES,
    ],
    code: crate::list!(run => ChannelMember),
};

/// A member of a channel.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ChannelMember {
    #[serde(flatten)]
    pub(crate) person: UserItem,
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) channel_admin: bool,
}

#[derive(Deserialize)]
struct Args {
    channel: String,
    team: Option<String>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<ChannelMember>, ToolError> {
    let channel = input.args.channel.as_str();
    let team = input.args.team.as_deref();
    kept_page(cx, &input, || async move {
        let channel_id = resolve::channel_id(cx, channel, team).await?;
        let members = channel_members(cx, &channel_id, channel).await?;
        let mut seen = HashSet::new();
        let list = members
            .into_iter()
            .filter_map(|m| {
                let admin = m
                    .roles
                    .as_deref()
                    .is_some_and(|r| r.split_whitespace().any(|r| r == "channel_admin"));
                m.user_id.map(|id| (id, admin))
            })
            .filter(|(id, _)| seen.insert(id.clone()))
            .collect();
        members_keyed(cx, list, |person, channel_admin| ChannelMember {
            person,
            channel_admin,
        })
        .await
    })
    .await
}

/// Every member of a channel: in one response (`per_page=0`, Mattermost 11.6), or, when a server older
/// than 11.6 answers that with nothing, page by page.
async fn channel_members(
    cx: &Ctx,
    channel_id: &str,
    reference: &str,
) -> Result<Vec<types::ChannelMember>, ToolError> {
    let fetch = |page: i64, per_page: i64| async move {
        match cx
            .send(
                cx.api()
                    .get_channel_members()
                    .channel_id(channel_id)
                    .page(page)
                    .per_page(per_page)
                    .send(),
            )
            .await
        {
            Ok(a) => Ok(a.into_inner()),
            Err(e) => Err(refused(cx, e, channel_id, reference, "its member list").await),
        }
    };
    let all = fetch(0, 0).await?;
    if !all.is_empty() {
        return Ok(all);
    }
    read_pages(fetch).await
}
