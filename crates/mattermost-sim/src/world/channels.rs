//! Channels and memberships as the write routes change them, with the system messages the server
//! posts: creating a team channel (`App.CreateChannelWithUser`), a DM
//! (`SqlChannelStore.CreateDirectChannel`) or a GM (`App.createGroupChannel`); joining
//! (`postJoinChannelMessage`), being added (`PostAddToChannelMessage`), leaving or being removed
//! (`App.RemoveUserFromChannel`), and leaving a team (`App.LeaveTeam`).

use super::posting::props;
use super::{Channel, World};
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
        id
    }

    /// `postJoinChannelMessage`: "<username> joined the channel." (`system_join_channel`).
    pub(crate) fn post_join_message(&mut self, channel_id: &str, user_id: &str, now: i64) {
        let name = self.username(user_id);
        self.save_system_post(
            channel_id,
            user_id,
            now,
            "system_join_channel",
            &format!("{name} joined the channel."),
            props(&[("username", &name)]),
        );
    }

    /// `App.AddChannelMember` for `user_id`: the membership, then `postJoinChannelMessage` when
    /// the user added themselves, else `PostAddToChannelMessage` by the requestor ("<added>
    /// added to the channel by <requestor>.", `system_add_to_channel`).
    pub(crate) fn add_member_with_message(
        &mut self,
        channel_id: &str,
        user_id: &str,
        requestor: &str,
        now: i64,
    ) {
        self.save_channel_member(channel_id, user_id, false, now);
        if requestor.is_empty() || requestor == user_id {
            self.post_join_message(channel_id, user_id, now);
            return;
        }
        let (added, by) = (self.username(user_id), self.username(requestor));
        self.save_system_post(
            channel_id,
            requestor,
            now,
            "system_add_to_channel",
            &format!("{added} added to the channel by {by}."),
            props(&[
                ("userId", requestor),
                ("username", &by),
                ("addedUserId", user_id),
                ("addedUsername", &added),
            ]),
        );
    }

    /// `App.RemoveUserFromChannel`: the membership and the user's memberships of the channel's
    /// threads go ([`World::leave`]), then "@<user> left the channel." (`system_leave_channel`,
    /// by the user) or "@<user> removed from the channel." (`system_remove_from_channel`, by the
    /// remover).
    pub(crate) fn remove_member_with_message(
        &mut self,
        channel_id: &str,
        user_id: &str,
        remover: &str,
        now: i64,
    ) {
        self.leave(channel_id, user_id);
        let name = self.username(user_id);
        if remover == user_id {
            self.save_system_post(
                channel_id,
                user_id,
                now,
                "system_leave_channel",
                &format!("@{name} left the channel."),
                props(&[("username", &name)]),
            );
        } else {
            self.save_system_post(
                channel_id,
                remover,
                now,
                "system_remove_from_channel",
                &format!("@{name} removed from the channel."),
                props(&[("removedUserId", user_id), ("removedUsername", &name)]),
            );
        }
    }

    /// `App.UpdateThreadFollowForUserFromChannelAdd`: the added user follows the thread, which
    /// counts as read up to just before its root (`LastViewed = root.CreateAt - 1`).
    pub(crate) fn follow_from_channel_add(&mut self, user_id: &str, root_id: &str, now: i64) {
        self.maintain_thread_membership(user_id, root_id, true, false, now);
        let root_at = self.post_by_id(root_id).map(|p| p.create_at).unwrap_or(0);
        let m = self.membership_mut(user_id, root_id);
        m.last_viewed = root_at - 1;
    }
}
