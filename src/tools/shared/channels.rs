//! The errors for a channel or team Mattermost refuses (a private channel, a team or channel the person
//! is not a member of), told apart from one that does not exist, and a channel's label in a message.

use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::{ChannelFacts, ChannelKind, TeamFacts};
use crate::mattermost::{MmError, types};

/// The next step for a channel that cannot be read.
const FIND_A_CHANNEL: &str =
    "Call list_channels for your channels, or search_channels to find one by part of its name.";

/// The error for a request about the team `reference` that Mattermost refused. Reading a team's
/// channels or members needs a team permission only its members hold (api4/channel.go
/// getPublicChannelsForTeam and getDeletedChannelsForTeam: `list_team_channels`; api4/team.go
/// getTeamMembers: `view_team`), and Mattermost answers 403 alike for an id that names no team; the team
/// itself is read to tell them apart (GetTeam, which resolving a team declares). `what` says what only
/// members may read.
pub(crate) async fn team_refused(cx: &Ctx, e: MmError, reference: &str, what: &str) -> ToolError {
    if e.status() != Some(403) {
        return cx.fail(e, "team", reference);
    }
    let shown = match crate::resolve::team_of(cx, reference).await {
        Ok(t) => format!("{} ({})", quote(t.name()), t.display_name()),
        Err(e) if e.kind == ErrorKind::Forbidden => quote(reference),
        Err(e) => return e,
    };
    ToolError::new(
        ErrorKind::NotMember,
        format!(
            "You are not a member of the team {shown}, and Mattermost shows {what} only to its members. \
             Call list_teams for your teams."
        ),
    )
    .with("team", serde_json::json!(reference))
}

/// The tool a non-member would need to read what only members may.
pub(crate) const JOIN: &str = "join_channel (a tool that writes, offered when writes are allowed)";

/// The error for a failed request about the channel `channel_id` (named `reference`) that needs the
/// `read_channel` permission. Only a channel's members (and system admins) hold it: team members get
/// `read_public_channel` instead, which these requests do not accept (api4/channel.go getChannelStats,
/// getChannelMembers and getChannelMember, api4/user.go searchUsers with `in_channel_id`, each through
/// SessionHasPermissionToChannel). Mattermost answers such a request 403 for an id that names no channel
/// too, so a 403 is told apart by reading the channel itself (GetChannel, which a team member may do
/// for a public channel): there, a non-member of a public channel gets `not_member` naming the tool
/// that would make them one (a channel among the person's own was refused for another reason, told as
/// Mattermost told it); `what` says what only members may read.
pub(crate) async fn refused(
    cx: &Ctx,
    e: MmError,
    channel_id: &str,
    reference: &str,
    what: &str,
) -> ToolError {
    if e.status() != Some(403) {
        return cx.fail(e, "channel", reference);
    }
    let c = match cx
        .send(cx.api().get_channel().channel_id(channel_id).send())
        .await
    {
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
pub(crate) fn channel_error(cx: &Ctx, e: MmError, reference: &str) -> ToolError {
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
pub(crate) fn label(c: &types::Channel) -> String {
    match c.kind() {
        ChannelKind::Public | ChannelKind::Private => format!("~{}", c.name()),
        _ if !c.display_name().is_empty() => c.display_name().to_string(),
        _ => format!("the conversation {}", c.id()),
    }
}

/// The `not_member` error for a channel the person can see but is not in.
pub(crate) fn not_member(c: &types::Channel, reference: &str, what: &str) -> ToolError {
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
