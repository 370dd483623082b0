//! `search_channels`: channels matching a term, from Mattermost's search of each team's public channels
//! and the person's own channels (private ones and group messages, which that search never finds),
//! by display name then id; every page searches again and continues after the last channel shown
//! (`paging::whole_list`).
//!
//! Mattermost's search (`store/sqlstore/channel_store.go` SearchInTeam, searchClause) trims the term and
//! keeps a public channel, archived or not, whose name, display name or purpose contains the whole term
//! (`LIKE %term%`), or whose three fields together hold a word starting with each word of the term
//! (full text, `word:*`, stemmed), 100 at most by display name. Someone who is not in the team gets 404
//! (api4/channel.go searchChannelsForTeam asks for their team membership). The person's own channels
//! are matched here the same way, without the stemming.

use super::common::team_names;
use crate::args::{Arg, Kind};
use crate::calls::{Call, MY_CHANNELS, MY_TEAMS, Source};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::{ChannelFacts, ChannelKind, TeamFacts};
use crate::mattermost::types;
use crate::paging::whole_list::{self, After, Keyed, Order};
use crate::paging::{Page, Strategy};
use crate::resolve;
use crate::show::ChannelItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::args::LISTS;
use crate::tools::shared::lists::name_key;
use serde::Deserialize;
use std::collections::HashSet;

/// Mattermost's most public channels per team for one search term.
const CHANNEL_SEARCH_CAP: usize = 100;

pub(crate) const TOOL: Tool = Tool {
    name: "search_channels",
    title: "Search channels",
    description: "Channels whose name, display name or purpose contains `term`, or whose words start with its \
                  words: your teams' public channels (joined or not, archived too) and your own private and \
                  group channels, each with member. At most 100 public ones per team (then capped).",
    toolset: Toolset::Channels,
    args: &[
        Arg {
            name: "term",
            kind: Kind::Text { max: 64 },
            required: true,
            about: "The text to find.",
            shapes: None,
        },
        Arg {
            name: "team",
            kind: Kind::Team,
            required: false,
            about: "Only this team of yours.",
            shapes: Some("searches the one team instead of each of the user's teams"),
        },
    ],
    answer: Answer::List {
        strategy: Strategy::WholeList,
        limit: LISTS,
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "SearchChannels",
            params: &[
                (
                    "team_id",
                    Source::Paging("the team given, or each of the user's teams in turn"),
                ),
                ("body.term", Source::Arg("term")),
            ],
        },
        MY_CHANNELS,
        MY_TEAMS,
    ],
    code: crate::list!(run => ChannelItem),
};

#[derive(Deserialize)]
struct Args {
    term: String,
    team: Option<String>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<ChannelItem>, ToolError> {
    let after = input.position::<After>()?;
    let term = input.args.term.trim().to_string();
    let teams: Vec<types::Team> = match &input.args.team {
        Some(t) => vec![resolve::team_of(cx, t).await?],
        None => cx.my_teams().await?.to_vec(),
    };
    let mut found = Vec::new();
    let mut capped = false;
    let body = types::SearchChannelsBody { term: term.clone() };
    for t in &teams {
        let list = match cx
            .send(
                cx.api()
                    .search_channels()
                    .team_id(t.id())
                    .body(body.clone())
                    .send(),
            )
            .await
        {
            Ok(list) => list.into_inner(),
            Err(e) if e.status() == Some(404) => return Err(not_in_team(t)),
            Err(e) => return Err(cx.fail(e, "channel search in the team", t.name())),
        };
        capped |= list.len() >= CHANNEL_SEARCH_CAP;
        found.extend(list);
    }
    let mine = cx.my_channels().await?;
    let member_of: HashSet<&str> = mine.iter().map(|c| c.id()).collect();
    let in_teams: HashSet<&str> = teams.iter().map(|t| t.id()).collect();
    found.extend(
        mine.iter()
            .filter(|c| c.kind() != ChannelKind::Direct)
            .filter(|c| c.team_id().is_empty() || in_teams.contains(c.team_id()))
            .filter(|c| matches(c, &term))
            .cloned(),
    );
    let mut names = team_names(cx).await?;
    for t in &teams {
        names.insert(t.id().to_string(), t.name().to_string());
    }
    let keyed = found
        .iter()
        .map(|c| {
            let mut item = ChannelItem::of(c, names.get(c.team_id()).map(String::as_str));
            item.member = Some(member_of.contains(c.id()));
            Keyed::new(name_key(c.display_name()), c.id(), item)
        })
        .collect();
    let sorted = whole_list::sort(keyed, Order::Ascending);
    let (items, next) = whole_list::page(
        &sorted,
        Order::Ascending,
        after.as_ref(),
        input.limit as usize,
    );
    Ok(Page::new(items)
        .continue_at(next)
        .with_total(sorted.len() as u64)
        .capped(capped))
}

/// The error for a team the person is not in, whose channels Mattermost does not search for them.
fn not_in_team(t: &types::Team) -> ToolError {
    ToolError::new(
        ErrorKind::NotMember,
        format!(
            "You are not a member of the team {} ({}), and Mattermost searches only the channels of your own \
             teams. Leave out `team` to search all of yours (list_teams lists them), or list_team_channels \
             reads a team's public channels once you are in it.",
            quote(t.name()),
            t.display_name()
        ),
    )
    .with("team_id", serde_json::json!(t.id()))
}

/// Whether one of the person's own channels matches the term as Mattermost's channel search would: the
/// whole term (without `*`) inside its name, display name or purpose, or each word of the term (split
/// where Mattermost's full text splits) starting a word of the three.
fn matches(c: &types::Channel, term: &str) -> bool {
    let like = term.replace('*', "").to_lowercase();
    if like.is_empty() {
        return true;
    }
    let purpose = c.purpose.as_deref().unwrap_or("");
    let fields = [c.name(), c.display_name(), purpose];
    if fields.iter().any(|f| f.to_lowercase().contains(&like)) {
        return true;
    }
    let split = |s: &str| -> Vec<String> {
        s.to_lowercase()
            .split(|ch: char| !ch.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let words = split(&fields.join(" "));
    let wanted = split(term);
    !wanted.is_empty()
        && wanted
            .iter()
            .all(|w| words.iter().any(|x| x.starts_with(w.as_str())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(name: &str, display: &str, purpose: &str) -> types::Channel {
        types::Channel {
            name: Some(name.into()),
            display_name: Some(display.into()),
            purpose: Some(purpose.into()),
            ..types::Channel::default()
        }
    }

    #[test]
    fn a_channel_matches_by_part_of_a_field_or_by_the_starts_of_its_words() {
        let c = channel("eng-core", "Engineering", "team stuff");
        assert!(matches(&c, "neer"), "inside a field");
        assert!(
            matches(&c, "eng team"),
            "each word starts a word of the fields"
        );
        assert!(matches(&c, "Team Eng"), "in any order and case");
        assert!(!matches(&c, "eam eng"), "a word must start a word");
        assert!(!matches(&c, "eng ops"), "every word must match");
    }
}
