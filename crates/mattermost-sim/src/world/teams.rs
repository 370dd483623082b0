//! Teams and team membership: creating a team with its default channels
//! (`App.CreateTeamWithUser`), archiving one, joining, the `team_admin` role, and leaving
//! (`App.LeaveTeam`: the team's channel memberships go and a leave message is posted).

use std::collections::HashSet;

use super::posting::props;
use super::{Team, TeamMember, World};

impl World {
    /// Create a team; `open` = anyone may join (type "O", allow_open_invite), else invite-only ("I").
    pub fn team(&mut self, name: &str, display_name: &str, open: bool) -> String {
        if let Some(id) = self.team_id(name) {
            return id;
        }
        let id = self.new_id();
        let at = self.tick();
        self.teams.push(Team {
            id: id.clone(),
            name: name.to_string(),
            display_name: display_name.to_string(),
            open,
            create_at: at,
            update_at: at,
            delete_at: 0,
        });
        id
    }

    /// Archive (soft-delete) a team.
    pub fn archive_team(&mut self, team_id: &str) {
        let at = self.tick();
        if let Some(t) = self.teams.iter_mut().find(|t| t.id == team_id) {
            t.delete_at = at;
            t.update_at = at;
        }
    }

    /// The id of the team with this URL name; `None` when there is none.
    pub fn team_id(&self, name: &str) -> Option<String> {
        self.teams
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.id.clone())
    }

    /// `App.CreateTeamWithUser` after the team row: its default channels `town-square` and
    /// `off-topic`, the creator as team admin and admin of both, "<user> joined the team."
    /// (`system_join_team`) in town-square and "<user> joined the channel." in off-topic.
    pub(crate) fn create_default_channels(&mut self, team_id: &str, creator: &str, now: i64) {
        self.add_to_team(team_id, creator);
        self.make_team_admin(team_id, creator);
        let name = self.username(creator);
        for (channel, display) in [("town-square", "Town Square"), ("off-topic", "Off-Topic")] {
            let id = self.push_new_channel(
                team_id,
                "O",
                channel.to_string(),
                display.to_string(),
                "",
                now,
            );
            self.save_channel_member(&id, creator, true, now);
            if channel == "town-square" {
                self.save_system_post(
                    &id,
                    creator,
                    now,
                    "system_join_team",
                    &format!("{name} joined the team."),
                    props(&[("username", &name)]),
                );
            } else {
                self.post_join_message(&id, creator, now);
            }
        }
    }
}

// ----- members -----------------------------------------------------------------------------------

impl World {
    /// Make the user a member of the team (by ids), or a member again after leaving; joining twice
    /// changes nothing.
    pub fn add_to_team(&mut self, team_id: &str, user_id: &str) {
        if let Some(m) = self
            .team_members
            .iter_mut()
            .find(|m| m.team_id == team_id && m.user_id == user_id)
        {
            m.delete_at = 0;
            return;
        }
        let at = self.tick();
        self.team_members.push(TeamMember {
            team_id: team_id.to_string(),
            user_id: user_id.to_string(),
            delete_at: 0,
            create_at: at,
        });
    }

    pub(crate) fn is_team_member(&self, team_id: &str, user_id: &str) -> bool {
        self.team_members
            .iter()
            .any(|m| m.team_id == team_id && m.user_id == user_id && m.delete_at == 0)
    }

    /// Give a user the `team_admin` role in a team (`delete_others_posts`, `remove_user_from_team`).
    pub fn make_team_admin(&mut self, team_id: &str, user_id: &str) {
        if !self.is_team_admin(team_id, user_id) {
            self.writes
                .team_admins
                .push((team_id.to_string(), user_id.to_string()));
        }
    }

    /// A team admin (`team_admin` role), see [`World::make_team_admin`].
    pub(crate) fn is_team_admin(&self, team_id: &str, user_id: &str) -> bool {
        self.writes
            .team_admins
            .iter()
            .any(|(t, u)| t == team_id && u == user_id)
    }
}

// ----- leaving -----------------------------------------------------------------------------------

impl World {
    /// Remove a user from a team: the membership row gets `delete_at` and, as `App.LeaveTeam`
    /// does, the user leaves every channel of the team, archived ones included (not DMs or GMs).
    pub fn remove_from_team(&mut self, team_id: &str, user_id: &str) {
        self.remove_team_channel_memberships(team_id, user_id);
        let at = self.tick();
        if let Some(m) = self
            .team_members
            .iter_mut()
            .find(|m| m.team_id == team_id && m.user_id == user_id)
        {
            m.delete_at = at;
        }
    }

    /// `App.LeaveTeam`: every channel membership of the team goes (archived channels included,
    /// not DMs/GMs; thread memberships stay); with join/leave messages on, "<user> left the team."
    /// (`system_leave_team`) or "<user> removed from the team." (`system_remove_from_team`), by
    /// the user, in the team's live `town-square` (none: 404 `app.channel.get_by_name.missing`
    /// and the team membership stays); then the team membership gets DeleteAt and the user's
    /// preferences whose category is the team id go.
    pub(crate) fn leave_team(
        &mut self,
        team_id: &str,
        user_id: &str,
        requestor: &str,
        now: i64,
    ) -> Result<(), ()> {
        self.remove_team_channel_memberships(team_id, user_id);
        if self.writes.default_channel_join_leave_messages {
            let town = self
                .channels
                .iter()
                .find(|c| c.team_id == team_id && c.name == "town-square" && c.delete_at == 0)
                .map(|c| c.id.clone())
                .ok_or(())?;
            let name = self.username(user_id);
            let (kind, text) = if requestor == user_id {
                ("system_leave_team", format!("{name} left the team."))
            } else {
                (
                    "system_remove_from_team",
                    format!("{name} removed from the team."),
                )
            };
            self.save_system_post(
                &town,
                user_id,
                now,
                kind,
                &text,
                props(&[("username", &name)]),
            );
        }
        if let Some(m) = self
            .team_members
            .iter_mut()
            .find(|m| m.team_id == team_id && m.user_id == user_id)
        {
            m.delete_at = now;
        }
        if let Some(u) = self.user_mut(user_id) {
            u.update_at = now;
        }
        self.writes
            .preferences
            .retain(|p| !(p.user_id == user_id && p.category == team_id));
        Ok(())
    }

    /// `SqlChannelStore.RemoveMember` for every channel of a team the user belongs to (archived
    /// ones included, not DMs or GMs), as `App.LeaveTeam` does; thread memberships stay.
    pub(crate) fn remove_team_channel_memberships(&mut self, team_id: &str, user_id: &str) {
        let team_channels: HashSet<String> = self
            .channels
            .iter()
            .filter(|c| c.team_id == team_id && !team_id.is_empty())
            .map(|c| c.id.clone())
            .collect();
        self.channel_members
            .retain(|m| !(m.user_id == user_id && team_channels.contains(&m.channel_id)));
    }
}
