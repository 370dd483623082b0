//! The teams tools: the person's teams, one team, a team's members; and the `team` argument the tools
//! that read one team take.

pub mod get_team;
pub mod list_team_members;
pub mod list_teams;

use crate::args::{Arg, Kind};

/// The team a tool reads.
pub const TEAM: Arg = Arg {
    name: "team",
    kind: Kind::Team,
    required: true,
    about: "The team: id, name or display name.",
    shapes: None,
};

/// The page sizes of the team and channel lists.
pub const LISTS: crate::args::Limit = crate::args::Limit::new(50, 200);

/// The error for a request about the team `reference` that Mattermost refused. Reading a team's
/// channels or members needs a team permission only its members hold (api4/channel.go
/// getPublicChannelsForTeam and getDeletedChannelsForTeam: `list_team_channels`; api4/team.go
/// getTeamMembers: `view_team`), and Mattermost answers 403 alike for an id that names no team; the team
/// itself is read to tell them apart (GetTeam, which resolving a team declares). `what` says what only
/// members may read.
pub async fn refused(
    cx: &crate::context::Ctx,
    e: crate::mattermost::MmError,
    reference: &str,
    what: &str,
) -> crate::error::ToolError {
    use crate::error::{ErrorKind, ToolError, quote};
    use crate::mattermost::facts::TeamFacts;
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
