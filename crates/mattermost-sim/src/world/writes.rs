//! The world's side of the write routes: the server state they need beyond the seeded data (the
//! pending-post-id cache of `app/post.go`, preferences, post reminders, team admins, read-only
//! channels, settings) and the store operations they share with the seeding methods, each doing
//! what the real store does (`SqlPostStore.Update`'s history row, the join/leave messages that do
//! not count as messages, `LeaveTeam`, `DeleteChannel`'s archive notice, ...).

use std::collections::HashSet;

use super::World;

// ----- seeding API -------------------------------------------------------------------------------

impl World {
    /// `FileSettings.MaxFileSize` in bytes (default 100 MiB): larger uploads get 413.
    pub fn set_max_file_size(&mut self, bytes: i64) {
        self.writes.max_file_size = bytes;
    }

    /// `FileSettings.EnableFileAttachments` (default on): off, uploads get 403.
    pub fn set_file_attachments_enabled(&mut self, on: bool) {
        self.writes.enable_file_attachments = on;
    }

    /// `TeamSettings.EnableCustomUserStatuses` (default on): off, custom statuses get 501.
    pub fn set_custom_user_statuses_enabled(&mut self, on: bool) {
        self.writes.enable_custom_user_statuses = on;
    }

    /// How long a pending post id is remembered (the server's 30 s; shorter for tests).
    pub fn set_pending_post_id_ttl(&mut self, ttl: std::time::Duration) {
        self.writes.pending_ttl_ms = i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX);
    }
}

// ----- store operations shared by the routes and the seeding methods -------------------------------

impl World {
    /// `SqlThreadStore.DeleteMembershipsForChannel`: the user's memberships of threads (roots that
    /// have a Threads row, i.e. ever had a reply) in the channel.
    pub(crate) fn delete_thread_memberships_for_channel(
        &mut self,
        user_id: &str,
        channel_id: &str,
    ) {
        let threads: HashSet<String> = self
            .posts
            .iter()
            .filter(|p| {
                p.channel_id == channel_id && p.root_id.is_empty() && p.original_id.is_empty()
            })
            .filter(|p| self.thread_info(&p.id).is_some())
            .map(|p| p.id.clone())
            .collect();
        self.thread_memberships
            .retain(|m| !(m.user_id == user_id && threads.contains(&m.post_id)));
    }

    /// `SqlThreadStore.MaintainMembership`: follow or unfollow; `view` also marks it read now
    /// (`UpdateViewedTimestamp`). Nothing changes when the state is already right and `view` is
    /// false.
    pub(crate) fn maintain_thread_membership(
        &mut self,
        user_id: &str,
        root_id: &str,
        following: bool,
        view: bool,
        now: i64,
    ) {
        let exists = self.thread_membership(user_id, root_id).is_some();
        let m = self.membership_mut(user_id, root_id);
        if exists {
            let changes = m.following != following;
            if changes || view {
                m.following = following;
                if view {
                    m.last_viewed = now;
                    m.unread_mentions = 0;
                }
                m.last_updated = now;
            }
        } else {
            m.following = following;
            m.last_updated = now;
            if view {
                m.last_viewed = now;
            }
        }
    }
}
