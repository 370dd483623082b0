//! The world's side of the write routes: the server state they need beyond the seeded data (the
//! pending-post-id cache of `app/post.go`, preferences, post reminders, team admins, read-only
//! channels, settings) and the store operations they share with the seeding methods, each doing
//! what the real store does (`SqlPostStore.Update`'s history row, the join/leave messages that do
//! not count as messages, `LeaveTeam`, `DeleteChannel`'s archive notice, ...).

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
