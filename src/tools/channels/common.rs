//! What the channel tools share: the sort key of a name, the person's channels shown as theirs (a
//! direct message named by the other person, the team's URL name, the unread counts), a page of a list
//! kept for its cursor chain, and the errors for a channel Mattermost refuses to a non-member or does
//! not have.

use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::{ChannelFacts, ChannelKind};
use crate::mattermost::{MmError, send, types};
use crate::paging::Page;
use crate::paging::pages_with_ties;
use crate::paging::whole_list::{After, Keyed, Order, SortKey};
use crate::show::ChannelItem;
use crate::tool::Input;
use serde::Serialize;
use std::collections::HashMap;

/// The next step for a channel that cannot be read.
const FIND_A_CHANNEL: &str =
    "Call list_channels for your channels, or search_channels to find one by part of its name.";

/// The tool a non-member would need to read what only members may.
pub const JOIN: &str = "join_channel (a tool that writes, offered when writes are allowed)";

/// The sort key of a name: the name in lowercase, so that `alpha` and `Alpha` sit together.
pub fn name_key(name: &str) -> SortKey {
    SortKey::Text(name.to_lowercase())
}

/// The ids and URL names of the person's teams.
pub async fn team_names(cx: &Ctx) -> Result<HashMap<String, String>, ToolError> {
    Ok(cx
        .my_teams()
        .await?
        .iter()
        .filter_map(|t| Some((t.id.clone()?, t.name.clone()?)))
        .collect())
}

/// The person's own id, and the usernames of the other people of these direct message channels.
pub async fn direct_names(
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
pub fn my_item(
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

/// One page of a list read whole once per cursor chain and kept for it (`paging::pages_with_ties`), by
/// key ascending then id.
pub async fn kept_page<A, T, F, Fut>(
    cx: &Ctx,
    input: &Input<A>,
    read_whole: F,
) -> Result<Page<T>, ToolError>
where
    T: Clone + Serialize + Send + Sync + 'static,
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Vec<Keyed<T>>, ToolError>>,
{
    let after = input.position::<After>()?;
    let (items, next, total) = pages_with_ties::page(
        &cx.lists,
        &input.list_key(),
        Order::Ascending,
        after,
        input.limit as usize,
        read_whole,
    )
    .await?;
    Ok(Page::new(items).continue_at(next).with_total(total as u64))
}

/// The error for a failed request about the channel `channel_id` (named `reference`) that needs the
/// `read_channel` permission. Only a channel's members (and system admins) hold it: team members get
/// `read_public_channel` instead, which these requests do not accept (api4/channel.go getChannelStats,
/// getChannelMembers and getChannelMember, api4/user.go searchUsers with `in_channel_id`, each through
/// SessionHasPermissionToChannel). Mattermost answers such a request 403 for an id that names no channel
/// too, so a 403 is told apart by reading the channel itself (GetChannel, which a team member may do
/// for a public channel): there, a non-member of a public channel gets `not_member` naming the tool
/// that would make them one (a channel among the person's own was refused for another reason, told as
/// Mattermost told it); `what` says what only members may read.
pub async fn refused(
    cx: &Ctx,
    e: MmError,
    channel_id: &str,
    reference: &str,
    what: &str,
) -> ToolError {
    if e.status() != Some(403) {
        return cx.fail(e, "channel", reference);
    }
    let c = match send(cx.mm.api.get_channel().channel_id(channel_id).send()).await {
        Ok(c) => c.into_inner(),
        Err(e) => return channel_error(cx, e, reference),
    };
    // A channel of the person's own was refused for another reason: say what Mattermost said.
    let mine = cx
        .my_channels()
        .await
        .map(|m| m.iter().any(|m| m.id() == c.id()));
    match mine {
        Ok(false) => not_member(&c, reference, what),
        Ok(true) => cx.fail(e, "channel", reference),
        Err(other) => other,
    }
}

/// The error for a failed GetChannel: a channel Mattermost does not show the person (403: a private
/// channel they are not in, or any channel of a team they are not in; api4/channel.go getChannel), or
/// another failure (an id that names no channel is Mattermost's 404, told as such by `Ctx::fail`).
pub fn channel_error(cx: &Ctx, e: MmError, reference: &str) -> ToolError {
    match e.status() {
        Some(403) => ToolError::new(
            ErrorKind::Forbidden,
            format!(
                "Mattermost does not show you the channel {}: it is a private channel you are not a member of, \
                 or a channel of a team you are not in. Ask a member to add you. {FIND_A_CHANNEL}",
                quote(reference)
            ),
        )
        .with("channel", serde_json::json!(reference)),
        _ => cx.fail(e, "channel", reference),
    }
}

/// A channel as a message names it: `~name` for a team's channel, the display name of a direct or
/// group message (the channel's own, without looking the other person up).
pub fn label(c: &types::Channel) -> String {
    match c.kind() {
        ChannelKind::Public | ChannelKind::Private => format!("~{}", c.name()),
        _ if !c.display_name().is_empty() => c.display_name().to_string(),
        _ => format!("the conversation {}", c.id()),
    }
}

/// The `not_member` error for a channel the person can see but is not in.
pub fn not_member(c: &types::Channel, reference: &str, what: &str) -> ToolError {
    let label = label(c);
    let named = if reference.trim() == c.id() {
        format!("id {}", c.id())
    } else {
        format!("{}, id {}", quote(reference), c.id())
    };
    ToolError::new(
        ErrorKind::NotMember,
        format!(
            "You are not a member of {label} ({named}), and Mattermost gives {what} only to a channel's \
             members. To read it, join the channel first with {JOIN}, then call again; get_channel shows \
             the channel itself without joining."
        ),
    )
    .with("channel_id", serde_json::json!(c.id()))
}

/// The paging parameters of a team's public and archived channel lists.
pub const TEAM_CHANNEL_PAGES: [(&str, crate::calls::Source); 3] = [
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
pub async fn team_channels<A>(
    cx: &Ctx,
    input: &Input<A>,
    team: &str,
    archived: bool,
) -> Result<Page<ChannelItem>, ToolError> {
    kept_page(cx, input, || async move {
        let team_id = crate::resolve::team_id(cx, team).await?;
        let team_id = team_id.as_str();
        let channels = crate::paging::straddling_ties::read_all(
            |page, per_page| async move {
                let answer = if archived {
                    send(
                        cx.mm
                            .api
                            .get_deleted_channels_for_team()
                            .team_id(team_id)
                            .page(page)
                            .per_page(per_page)
                            .send(),
                    )
                    .await
                } else {
                    send(
                        cx.mm
                            .api
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
                    Err(e) => Err(crate::tools::teams::refused(cx, e, team, "its channels").await),
                }
            },
            |c: &types::Channel| c.display_name().to_string(),
            |c: &types::Channel| c.id().to_string(),
        )
        .await?;
        Ok(channels
            .iter()
            .map(|c| Keyed::new(name_key(c.display_name()), c.id(), ChannelItem::of(c, None)))
            .collect())
    })
    .await
}
