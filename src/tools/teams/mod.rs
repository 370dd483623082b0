//! The teams tools: the person's teams, one team, a team's members.

pub mod get_team;
pub mod list_team_members;
pub mod list_teams;
