//! The teams tools: the person's teams, one team, a team's members.

pub(crate) mod get_team;
pub(crate) mod list_team_members;
pub(crate) mod list_teams;
