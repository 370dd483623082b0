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
