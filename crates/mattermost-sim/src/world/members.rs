//! Channel memberships: joining and leaving as the seeding API does it, and as the member routes
//! do with the system messages the server posts (`postJoinChannelMessage`,
//! `PostAddToChannelMessage`, `App.RemoveUserFromChannel`).

use super::Happened;
use super::posting::props;
use super::{ChannelMember, World};

impl World {
    /// Join a user to a channel (and to its team if needed). LastViewedAt starts at 0.
    pub fn join(&mut self, channel_id: &str, user_id: &str) {
        let team = self
            .channel_by_id(channel_id)
            .map(|c| c.team_id.clone())
            .unwrap_or_default();
        if !team.is_empty() && !self.is_team_member(&team, user_id) {
            self.add_to_team(&team, user_id);
        }
        let new = self.member(channel_id, user_id).is_none();
        self.add_channel_member(channel_id, user_id);
        if new {
            self.happened(Happened::UserAdded {
                channel_id: channel_id.to_string(),
                user_id: user_id.to_string(),
            });
        }
    }

    pub(super) fn add_channel_member(&mut self, channel_id: &str, user_id: &str) {
        if self.member(channel_id, user_id).is_some() {
            return;
        }
        self.channel_members.push(ChannelMember {
            channel_id: channel_id.to_string(),
            user_id: user_id.to_string(),
            last_viewed_at: 0,
            msg_count: 0,
            msg_count_root: 0,
            mention_count: 0,
            mention_count_root: 0,
            mark_unread: "all",
            last_update_at: 0,
            admin: false,
        });
    }

    /// Remove a user's channel membership (works for any channel type, DMs and groups included)
    /// and, as `App.removeUserFromChannel` does, their memberships of the channel's threads.
    pub fn leave(&mut self, channel_id: &str, user_id: &str) {
        self.channel_members
            .retain(|m| !(m.channel_id == channel_id && m.user_id == user_id));
        self.delete_thread_memberships_for_channel(user_id, channel_id);
    }

    /// Mute a channel for a member, as the client's "Mute channel" does (`PUT
    /// /channels/{id}/members/{user}/notify_props` with `mark_unread` = "mention",
    /// `App.UpdateChannelMemberNotifyProps`): its unread posts no longer bold it, its mentions still
    /// count.
    pub fn mute(&mut self, channel_id: &str, user_id: &str) {
        if let Some(m) = self.member_mut(channel_id, user_id) {
            m.mark_unread = "mention";
        }
    }

    pub(crate) fn member(&self, channel_id: &str, user_id: &str) -> Option<&ChannelMember> {
        self.channel_members
            .iter()
            .find(|m| m.channel_id == channel_id && m.user_id == user_id)
    }

    pub(super) fn member_mut(
        &mut self,
        channel_id: &str,
        user_id: &str,
    ) -> Option<&mut ChannelMember> {
        self.channel_members
            .iter_mut()
            .find(|m| m.channel_id == channel_id && m.user_id == user_id)
    }
}

// ----- the member routes -------------------------------------------------------------------------

impl World {
    /// `SqlChannelStore.SaveMember`: a new membership (LastViewedAt 0, counts 0, LastUpdateAt
    /// `at`); an existing one is returned as it is.
    pub(crate) fn save_channel_member(
        &mut self,
        channel_id: &str,
        user_id: &str,
        scheme_admin: bool,
        at: i64,
    ) -> ChannelMember {
        if let Some(m) = self.member(channel_id, user_id) {
            return m.clone();
        }
        self.add_channel_member(channel_id, user_id);
        if let Some(m) = self
            .channel_members
            .iter_mut()
            .find(|m| m.channel_id == channel_id && m.user_id == user_id)
        {
            m.last_update_at = at;
            m.admin = scheme_admin;
            return m.clone();
        }
        ChannelMember {
            channel_id: channel_id.to_string(),
            user_id: user_id.to_string(),
            last_viewed_at: 0,
            msg_count: 0,
            msg_count_root: 0,
            mention_count: 0,
            mention_count_root: 0,
            mark_unread: "all",
            last_update_at: at,
            admin: scheme_admin,
        }
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
        let new = self.member(channel_id, user_id).is_none();
        self.save_channel_member(channel_id, user_id, false, now);
        if new {
            self.happened(Happened::UserAdded {
                channel_id: channel_id.to_string(),
                user_id: user_id.to_string(),
            });
        }
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
}
