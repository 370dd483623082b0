//! Post reminders (`PostReminders` rows, `SqlPostStore.SetPostReminder`).

use super::{Reminder, World};

impl World {
    /// `SqlPostStore.SetPostReminder`: one reminder per (post, user), the target time replaced.
    pub(crate) fn set_reminder(&mut self, user_id: &str, post_id: &str, target_time: i64) {
        match self
            .writes
            .reminders
            .iter_mut()
            .find(|r| r.user_id == user_id && r.post_id == post_id)
        {
            Some(r) => r.target_time = target_time,
            None => self.writes.reminders.push(Reminder {
                user_id: user_id.to_string(),
                post_id: post_id.to_string(),
                target_time,
            }),
        }
    }

    /// The reminders a user has set (post id, `target_time` in seconds).
    pub fn reminders_of(&self, user_id: &str) -> Vec<(String, i64)> {
        self.writes
            .reminders
            .iter()
            .filter(|r| r.user_id == user_id)
            .map(|r| (r.post_id.clone(), r.target_time))
            .collect()
    }
}
