//! Channels: team channels, DMs and GMs as the seeding API makes them and as the create routes do
//! (`App.CreateChannelWithUser`, `SqlChannelStore.CreateDirectChannel`, `App.createGroupChannel`),
//! a read-only channel (a channel moderation), and archiving (`App.DeleteChannel` and its notice).

use serde_json::{Map, Value};

use super::{Channel, ChannelKind, Happened, World};
use crate::ids::group_name;

/// What a new team channel is made of (`model.Channel` from the request).
pub(crate) struct NewChannel {
    pub team_id: String,
    pub name: String,
    pub display_name: String,
    /// "O" or "P".
    pub kind: &'static str,
    pub header: String,
    pub purpose: String,
}

impl World {
    /// Create a public or private channel in a team.
    pub fn channel(
        &mut self,
        team_id: &str,
        name: &str,
        display_name: &str,
        kind: ChannelKind,
    ) -> String {
        if let Some(c) = self
            .channels
            .iter()
            .find(|c| c.team_id == team_id && c.name == name)
        {
            return c.id.clone();
        }
        let k = match kind {
            ChannelKind::Public => "O",
            ChannelKind::Private => "P",
        };
        self.push_channel(team_id, k, name.to_string(), display_name.to_string())
    }

    fn push_channel(
        &mut self,
        team_id: &str,
        kind: &'static str,
        name: String,
        display: String,
    ) -> String {
        let id = self.new_id();
        let at = self.tick();
        self.channels.push(Channel {
            id: id.clone(),
            team_id: team_id.to_string(),
            kind,
            name,
            display_name: display,
            header: String::new(),
            purpose: String::new(),
            creator_id: String::new(),
            create_at: at,
            update_at: at,
            delete_at: 0,
            last_post_at: at,
            last_root_post_at: at,
            total_msg_count: 0,
            total_msg_count_root: 0,
        });
        id
    }

    /// Set a channel's purpose (used by channel search, which matches Name, DisplayName or Purpose).
    pub fn set_purpose(&mut self, channel_id: &str, purpose: &str) {
        if let Some(c) = self.channel_mut(channel_id) {
            c.purpose = purpose.to_string();
        }
    }

    /// The direct-message channel of two users (created if needed). Its name is
    /// `<smaller id>__<larger id>` and, as in the real database, its display name is empty.
    pub fn direct(&mut self, a: &str, b: &str) -> String {
        let (x, y) = if a <= b { (a, b) } else { (b, a) };
        let name = format!("{x}__{y}");
        if let Some(c) = self.channels.iter().find(|c| c.name == name) {
            return c.id.clone();
        }
        let id = self.push_channel("", "D", name, String::new());
        self.add_channel_member(&id, a);
        if a != b {
            self.add_channel_member(&id, b);
        }
        self.happened(Happened::ChannelOpened {
            channel_id: id.clone(),
            group: false,
        });
        id
    }

    /// A group-message channel of 3 to 8 users (created if needed); display name is the
    /// comma-separated usernames.
    pub fn group(&mut self, members: &[&str]) -> String {
        let ids: Vec<String> = members.iter().map(|m| m.to_string()).collect();
        let name = group_name(&ids);
        if let Some(c) = self.channels.iter().find(|c| c.name == name) {
            return c.id.clone();
        }
        let mut names: Vec<String> = ids
            .iter()
            .filter_map(|i| self.user_by_id(i).map(|u| u.username.clone()))
            .collect();
        names.sort();
        let id = self.push_channel("", "G", name, names.join(", "));
        for m in &ids {
            self.add_channel_member(&id, m);
        }
        self.happened(Happened::ChannelOpened {
            channel_id: id.clone(),
            group: true,
        });
        id
    }

    /// The id of the channel with this URL name in the team with this URL name; `None` when either
    /// does not exist.
    pub fn channel_id(&self, team_name: &str, channel_name: &str) -> Option<String> {
        let team = self.team_id(team_name)?;
        self.channels
            .iter()
            .find(|c| c.team_id == team && c.name == channel_name)
            .map(|c| c.id.clone())
    }

    pub(crate) fn channel_by_id(&self, id: &str) -> Option<&Channel> {
        self.channels.iter().find(|c| c.id == id)
    }

    pub(super) fn channel_mut(&mut self, id: &str) -> Option<&mut Channel> {
        self.channels.iter_mut().find(|c| c.id == id)
    }
}

// ----- the create routes -------------------------------------------------------------------------

impl World {
    /// `SqlChannelStore.Save` of a channel made now (LastPostAt 0 until something is posted).
    pub(super) fn push_new_channel(
        &mut self,
        team_id: &str,
        kind: &'static str,
        name: String,
        display_name: String,
        creator_id: &str,
        now: i64,
    ) -> String {
        let id = self.new_id();
        self.channels.push(Channel {
            id: id.clone(),
            team_id: team_id.to_string(),
            kind,
            name,
            display_name,
            header: String::new(),
            purpose: String::new(),
            creator_id: creator_id.to_string(),
            create_at: now,
            update_at: now,
            delete_at: 0,
            last_post_at: 0,
            last_root_post_at: 0,
            total_msg_count: 0,
            total_msg_count_root: 0,
        });
        id
    }

    /// `App.CreateChannelWithUser`: the channel, its creator as a channel admin, then the
    /// creator's `system_join_channel` message.
    pub(crate) fn create_team_channel(&mut self, c: NewChannel, creator: &str, now: i64) -> String {
        let id = self.push_new_channel(&c.team_id, c.kind, c.name, c.display_name, creator, now);
        if let Some(ch) = self.channel_mut(&id) {
            ch.header = c.header;
            ch.purpose = c.purpose;
        }
        self.save_channel_member(&id, creator, true, now);
        self.post_join_message(&id, creator, now);
        id
    }

    /// The DM of two users made now (or the existing one): name `<smaller id>__<larger id>`, no
    /// display name, both members.
    pub(crate) fn create_direct_now(&mut self, a: &str, b: &str, now: i64) -> String {
        let (x, y) = if a <= b { (a, b) } else { (b, a) };
        let name = format!("{x}__{y}");
        if let Some(c) = self
            .channels
            .iter()
            .find(|c| c.name == name && c.kind == "D")
        {
            return c.id.clone();
        }
        let id = self.push_new_channel("", "D", name, String::new(), "", now);
        self.save_channel_member(&id, a, false, now);
        self.save_channel_member(&id, b, false, now);
        self.happened(Happened::ChannelOpened {
            channel_id: id.clone(),
            group: false,
        });
        id
    }

    /// `App.createGroupChannel` now (or the existing one): the group name of the member ids, the
    /// sorted usernames as display name, every member.
    pub(crate) fn create_group_now(&mut self, ids: &[String], now: i64) -> String {
        let name = group_name(ids);
        if let Some(c) = self
            .channels
            .iter()
            .find(|c| c.name == name && c.kind == "G")
        {
            return c.id.clone();
        }
        let mut names: Vec<String> = ids.iter().map(|i| self.username(i)).collect();
        names.sort();
        let mut display = names.join(", ");
        if display.chars().count() > 64 {
            display = display.chars().take(64).collect();
        }
        let id = self.push_new_channel("", "G", name, display, "", now);
        for m in ids {
            self.save_channel_member(&id, m, false, now);
        }
        self.happened(Happened::ChannelOpened {
            channel_id: id.clone(),
            group: true,
        });
        id
    }
}

// ----- moderation and archiving ------------------------------------------------------------------

impl World {
    /// Make a channel read-only: its members lose `create_post` (the channel moderation "Create
    /// Posts" off for members); channel, team and system admins still post. `false` lifts it.
    pub fn set_read_only(&mut self, channel_id: &str, read_only: bool) {
        if read_only {
            self.writes.read_only.insert(channel_id.to_string());
        } else {
            self.writes.read_only.remove(channel_id);
        }
    }

    /// Archive a channel (soft delete) the way `App.DeleteChannel` does without a user: the
    /// `system_channel_deleted` notice by `system-bot` first, then DeleteAt (see
    /// [`World::archive_by`]).
    pub fn archive(&mut self, channel_id: &str) {
        if self.channel_by_id(channel_id).is_none() {
            return;
        }
        let bot = self.system_bot();
        self.archive_by(channel_id, &bot);
    }

    /// Archive a channel as `user_id` does through `DELETE /channels/{id}` (`App.DeleteChannel`):
    /// first the `system_channel_deleted` post "<username> archived the channel." (it counts as a
    /// message and moves LastPostAt), then DeleteAt. An archived channel stays as it is.
    pub fn archive_by(&mut self, channel_id: &str, user_id: &str) {
        let Some((delete_at, last_post_at)) = self
            .channel_by_id(channel_id)
            .map(|c| (c.delete_at, c.last_post_at))
        else {
            return;
        };
        if delete_at != 0 {
            return;
        }
        let at = self.tick().max(last_post_at + 1);
        self.archive_at(channel_id, user_id, at);
    }

    /// `App.DeleteChannel` at `at`: the archive notice by `user_id`, then DeleteAt.
    pub(crate) fn archive_at(&mut self, channel_id: &str, user_id: &str, at: i64) {
        let username = self
            .user_by_id(user_id)
            .map(|u| u.username.clone())
            .unwrap_or_default();
        let mut props = Map::new();
        props.insert("username".into(), Value::String(username.clone()));
        self.save_system_post(
            channel_id,
            user_id,
            at,
            "system_channel_deleted",
            &format!("{username} archived the channel."),
            props,
        );
        if let Some(c) = self.channel_mut(channel_id) {
            c.delete_at = at;
            c.update_at = at;
        }
    }
}
