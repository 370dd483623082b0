//! The world's side of the write routes: the server state they need beyond the seeded data (the
//! pending-post-id cache of `app/post.go`, preferences, post reminders, team admins, read-only
//! channels, settings) and the store operations they share with the seeding methods, each doing
//! what the real store does (`SqlPostStore.Update`'s history row, the join/leave messages that do
//! not count as messages, `LeaveTeam`, `DeleteChannel`'s archive notice, ...).

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{PendingEntry, Post, World};

/// `app/post.go` `PendingPostIDsCacheSize`: an LRU of this many pending post ids.
pub(crate) const PENDING_POST_IDS_CACHE_SIZE: usize = 25_000;

/// The post types `model.Post.IsJoinLeaveMessage` names: saved without counting as messages.
const JOIN_LEAVE_TYPES: &[&str] = &[
    "system_join_leave",
    "system_add_remove",
    "system_join_channel",
    "system_leave_channel",
    "system_join_team",
    "system_leave_team",
    "system_add_to_channel",
    "system_remove_from_channel",
    "system_add_to_team",
    "system_remove_from_team",
];

/// `model.Post.IsJoinLeaveMessage`.
pub(crate) fn is_join_leave(kind: &str) -> bool {
    JOIN_LEAVE_TYPES.contains(&kind)
}

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

    /// Pin a post at `at_ms`, as `api4/post.go` `saveIsPinnedPost` does through `App.PatchPost`:
    /// `SqlPostStore.Update` gives the post that UpdateAt, inserts an edit-history row (the old
    /// version) and moves the channel's LastPostAt (and a reply's root UpdateAt) up to it.
    pub fn pin_at(&mut self, post_id: &str, at_ms: i64) {
        self.update_post_row(post_id, at_ms, |p| p.is_pinned = true);
    }

    /// Unpin a post at `at_ms` (the same store update as [`World::pin_at`]).
    pub fn unpin_at(&mut self, post_id: &str, at_ms: i64) {
        self.update_post_row(post_id, at_ms, |p| p.is_pinned = false);
    }
}

// ----- store operations shared by the routes and the seeding methods -------------------------------

impl World {
    /// `SqlPostStore.Update`: the post changed by `change` gets UpdateAt `at`; its old version is
    /// inserted as a history row (new id, `original_id`, `delete_at` = `update_at` = `at`); the
    /// channel's LastPostAt becomes `at` if lower; a reply's root gets UpdateAt `at` if lower.
    pub(crate) fn update_post_row(
        &mut self,
        post_id: &str,
        at: i64,
        change: impl FnOnce(&mut Post),
    ) -> Option<()> {
        let old = self.post_by_id(post_id)?.clone();
        let mut history = old.clone();
        history.id = self.new_id();
        history.original_id = old.id.clone();
        history.delete_at = at;
        history.update_at = at;
        self.insert_post(history);
        let p = self.post_mut(post_id)?;
        change(p);
        p.update_at = at;
        if let Some(c) = self.channel_mut(&old.channel_id)
            && c.last_post_at < at
        {
            c.last_post_at = at;
        }
        if !old.root_id.is_empty()
            && let Some(r) = self.post_mut(&old.root_id)
            && r.update_at < at
        {
            r.update_at = at;
        }
        Some(())
    }

    /// A message saved by `App.CreatePost` without the user-facing side effects (system
    /// messages): the channel's LastPostAt moves up; join/leave types do not count as messages
    /// (`SqlPostStore.SaveMultiple`). Saved through [`World::system_post`]; should that count a
    /// join/leave message, the count is taken back here, so the rule holds either way.
    pub(crate) fn save_system_post(
        &mut self,
        channel_id: &str,
        user_id: &str,
        at: i64,
        kind: &str,
        message: &str,
        props: Map<String, Value>,
    ) -> String {
        let counts = |w: &World| {
            w.channel_by_id(channel_id)
                .map(|c| (c.total_msg_count, c.total_msg_count_root))
                .unwrap_or((0, 0))
        };
        let before = counts(self);
        let id = self.system_post(channel_id, user_id, at, kind, message);
        if let Some(p) = self.post_mut(&id) {
            p.props = props;
        }
        let after = counts(self);
        if is_join_leave(kind)
            && let Some(c) = self.channel_mut(channel_id)
        {
            c.total_msg_count -= after.0 - before.0;
            c.total_msg_count_root -= after.1 - before.1;
        }
        id
    }

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

    // ----- the pending-post-id cache (`Server.seenPendingPostIdsCache`) ---------------------------

    /// `seenPendingPostIdsCache.Get`: the post id stored for a pending post id ("" while the
    /// first request saves), or None when it is unknown or expired.
    pub(crate) fn pending_get(&mut self, pending_id: &str, now: i64) -> Option<String> {
        self.writes.pending_uses += 1;
        let uses = self.writes.pending_uses;
        match self.writes.pending.get_mut(pending_id) {
            Some(e) if e.expires_at > now => {
                e.last_used = uses;
                Some(e.post_id.clone())
            }
            Some(_) => {
                self.writes.pending.remove(pending_id);
                None
            }
            None => None,
        }
    }

    /// `seenPendingPostIdsCache.SetWithExpiry(pendingId, postId, pendingPostIDsCacheTTL)`; the
    /// least recently used entry goes when the cache is full.
    pub(crate) fn pending_set(&mut self, pending_id: &str, post_id: &str, now: i64) {
        self.writes.pending_uses += 1;
        let entry = PendingEntry {
            post_id: post_id.to_string(),
            expires_at: now.saturating_add(self.writes.pending_ttl_ms),
            last_used: self.writes.pending_uses,
        };
        self.writes.pending.insert(pending_id.to_string(), entry);
        if self.writes.pending.len() > PENDING_POST_IDS_CACHE_SIZE
            && let Some(oldest) = self
                .writes
                .pending
                .iter()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(k, _)| k.clone())
        {
            self.writes.pending.remove(&oldest);
        }
    }

    /// A new id from the world's generator (for rows the routes build themselves).
    pub(crate) fn fresh_id(&mut self) -> String {
        self.new_id()
    }

    /// `seenPendingPostIdsCache.Remove` (a create that failed after registering its id).
    pub(crate) fn pending_remove(&mut self, pending_id: &str) {
        self.writes.pending.remove(pending_id);
    }
}
