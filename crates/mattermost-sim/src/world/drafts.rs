//! Drafts (`Drafts` rows): one per user, channel and thread.

use super::{Draft, World};

impl World {
    /// Create or replace the draft of a user in a channel (or a thread of it).
    pub fn draft(
        &mut self,
        user_id: &str,
        channel_id: &str,
        root_id: Option<&str>,
        message: &str,
        at_ms: i64,
    ) {
        let root = root_id.unwrap_or("").to_string();
        if let Some(d) = self
            .drafts
            .iter_mut()
            .find(|d| d.user_id == user_id && d.channel_id == channel_id && d.root_id == root)
        {
            d.message = message.to_string();
            d.update_at = at_ms;
            return;
        }
        self.drafts.push(Draft {
            user_id: user_id.to_string(),
            channel_id: channel_id.to_string(),
            root_id: root,
            message: message.to_string(),
            create_at: at_ms,
            update_at: at_ms,
        });
    }
}
