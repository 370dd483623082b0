//! Server settings the handlers consult (`ServiceSettings`, `FileSettings`, `TeamSettings`), turned
//! on and off by the seeding API.

use super::World;

impl World {
    /// `app/channel.go` `IsCRTEnabledForUser`: `disabled` off and `always_on` on for everyone;
    /// otherwise the user's `display_settings`/`collapsed_reply_threads` preference ("on" or not)
    /// decides, and without one the setting's default (`default_on` on, `default_off` off).
    pub(crate) fn is_crt_enabled_for(&self, user_id: &str) -> bool {
        match self.settings.collapsed_threads.as_str() {
            "disabled" => false,
            "always_on" => true,
            mode => self
                .preference(user_id, "display_settings", "collapsed_reply_threads")
                .map_or(mode == "default_on", |v| v == "on"),
        }
    }

    /// Answer as the release `version` (`10.11.3`, `12.0.0`): its `X-Version-Id` and client config,
    /// and, from 12.0, its handling of the identity props a person's post may not set.
    pub fn set_release(&mut self, version: &str) {
        self.settings.release = version.to_string();
    }

    /// The major version the server answers as.
    pub(crate) fn release_major(&self) -> u32 {
        self.settings
            .release
            .split('.')
            .next()
            .and_then(|m| m.parse().ok())
            .unwrap_or(0)
    }

    /// Turn `ServiceSettings.EnableOAuthServiceProvider` off or on (off: the OAuth metadata answers
    /// 501).
    pub fn set_oauth_service_provider(&mut self, on: bool) {
        self.settings.enable_oauth_service_provider = on;
    }

    /// Turn `ServiceSettings.EnableDynamicClientRegistration` on or off (on: the OAuth metadata names
    /// a registration endpoint).
    pub fn set_dynamic_client_registration(&mut self, on: bool) {
        self.settings.enable_dynamic_client_registration = on;
    }

    /// Turn `ServiceSettings.EnableCustomEmoji` off or on (off: `GET /emoji` answers 501).
    pub fn set_custom_emoji_enabled(&mut self, on: bool) {
        self.settings.enable_custom_emoji = on;
    }

    /// Set `ServiceSettings.CollapsedThreads` ("always_on", the default, "default_on",
    /// "default_off" or "disabled"); with the last two, viewing a channel marks its threads read
    /// whatever the client says, and replies mark the channel viewed for their poster.
    pub fn set_collapsed_threads(&mut self, mode: &str) {
        self.settings.collapsed_threads = mode.to_string();
    }

    /// Turn `ServiceSettings.AllowSyncedDrafts` off or on (off: drafts answer 501).
    pub fn set_synced_drafts_enabled(&mut self, on: bool) {
        self.settings.allow_synced_drafts = on;
    }

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
