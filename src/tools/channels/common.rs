//! What the channel tools share: the sort key of a name, the person's channels shown as theirs (a
//! direct message named by the other person, the team's URL name, the unread counts), a page of a list
//! kept for its cursor chain, and the errors for a channel Mattermost refuses to a non-member or does
//! not have.

use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::ChannelFacts;
use crate::mattermost::types;
use crate::paging::Page;
use crate::paging::whole_list::Keyed;
use crate::show::ChannelItem;
use crate::tool::Input;
use std::collections::HashMap;

/// The ids and URL names of the person's teams.
pub(crate) async fn team_names(cx: &Ctx) -> Result<HashMap<String, String>, ToolError> {
    Ok(cx
        .my_teams()
        .await?
        .iter()
        .filter_map(|t| Some((t.id.clone()?, t.name.clone()?)))
        .collect())
}

/// The person's own id, and the usernames of the other people of these direct message channels.
pub(crate) async fn direct_names(
    cx: &Ctx,
    channels: &[&types::Channel],
) -> Result<(String, HashMap<String, String>), ToolError> {
    let me = cx.my_id().await?;
    let others: Vec<String> = channels
        .iter()
        .filter_map(|c| c.other_person(&me))
        .map(str::to_string)
        .collect();
    let names = if others.is_empty() {
        HashMap::new()
    } else {
        cx.usernames(others).await?
    };
    Ok((me, names))
}

/// A channel as one of the person's: named by the other person for a direct message, with its team's
/// URL name and, from the membership, the unread counts.
pub(crate) fn my_item(
    c: &types::Channel,
    teams: &HashMap<String, String>,
    me: &str,
    usernames: &HashMap<String, String>,
    member: Option<&types::ChannelMember>,
) -> ChannelItem {
    let team = teams.get(c.team_id()).map(String::as_str);
    let with = c
        .other_person(me)
        .and_then(|id| usernames.get(id))
        .map(String::as_str);
    ChannelItem::mine(c, team, with, member)
}

/// The paging parameters of a team's public and archived channel lists.
pub(crate) const TEAM_CHANNEL_PAGES: [(&str, crate::calls::Source); 3] = [
    ("team_id", crate::calls::Source::Arg("team")),
    (
        "page",
        crate::calls::Source::Paging("each page from 0 until a short one: the list is read whole"),
    ),
    (
        "per_page",
        crate::calls::Source::Paging("200, Mattermost's largest page"),
    ),
];

/// A page of a team's public channels, or of its archived ones: read whole once per cursor chain (200
/// a request, the runs of one display name that Mattermost's pages cut read again whole,
/// `paging::straddling_ties`) and kept.
pub(crate) async fn team_channels<A>(
    cx: &Ctx,
    input: &Input<A>,
    team: &str,
    archived: bool,
) -> Result<Page<ChannelItem>, ToolError> {
    crate::tools::shared::lists::kept_page(cx, input, || async move {
        let team_id = crate::resolve::team_id(cx, team).await?;
        let team_id = team_id.as_str();
        let channels = crate::paging::straddling_ties::read_all(
            |page, per_page| async move {
                let answer = if archived {
                    cx.send(
                        cx.api()
                            .get_deleted_channels_for_team()
                            .team_id(team_id)
                            .page(page)
                            .per_page(per_page)
                            .send(),
                    )
                    .await
                } else {
                    cx.send(
                        cx.api()
                            .get_public_channels_for_team()
                            .team_id(team_id)
                            .page(page)
                            .per_page(per_page)
                            .send(),
                    )
                    .await
                };
                match answer {
                    Ok(a) => Ok(a.into_inner()),
                    Err(e) => Err(crate::tools::shared::channels::team_refused(
                        cx,
                        e,
                        team,
                        "its channels",
                    )
                    .await),
                }
            },
            |c: &types::Channel| c.display_name().to_string(),
            |c: &types::Channel| c.id().to_string(),
        )
        .await?;
        Ok(channels
            .iter()
            .map(|c| {
                Keyed::new(
                    crate::tools::shared::lists::name_key(c.display_name()),
                    c.id(),
                    ChannelItem::of(c, None),
                )
            })
            .collect())
    })
    .await
}
