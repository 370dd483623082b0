//! What the user-level write routes store: statuses (`app/platform/status.go` `SetStatusOnline`,
//! `SetStatusOffline`, `SetStatusAwayIfNeeded`, `SetStatusDoNotDisturbTimed`), custom statuses
//! (`User.Props["customStatus"]`, `app/status.go` `SetCustomStatus`), preferences
//! (`SqlPreferenceStore.Save` / `Delete`) and post reminders (`SqlPostStore.SetPostReminder`).

use super::{Preference, Reminder, Status, World};

/// `model.DNDExpiryInterval`: a DND end time is truncated to the minute.
const DND_EXPIRY_INTERVAL_SECS: i64 = 60;

impl World {
    fn status_mut(&mut self, user_id: &str) -> Option<&mut Status> {
        self.statuses.iter_mut().find(|s| s.user_id == user_id)
    }

    fn put_status(&mut self, status: Status) {
        match self.status_mut(&status.user_id) {
            Some(s) => *s = status,
            None => self.statuses.push(status),
        }
    }

    /// `SetStatusOnline(userID, manual)`: a status set by hand is kept unless `manual`; the new
    /// one is "online", not manual, active now.
    pub(crate) fn set_status_online(&mut self, user_id: &str, manual: bool, now: i64) {
        let mut s = match self.status_mut(user_id) {
            Some(s) if s.manual && !manual => return,
            Some(s) => s.clone(),
            None => Status {
                user_id: user_id.to_string(),
                status: String::new(),
                manual: false,
                last_activity_at: 0,
                dnd_end_time: 0,
                prev_status: String::new(),
            },
        };
        s.status = "online".into();
        s.manual = false;
        s.last_activity_at = now;
        self.put_status(s);
    }

    /// `SetStatusOffline(userID, manual=true, force=false)` → `_setStatusOfflineAndNotify`: a
    /// fresh "offline" status, manual, active now.
    pub(crate) fn set_status_offline(&mut self, user_id: &str, now: i64) {
        self.put_status(Status {
            user_id: user_id.to_string(),
            status: "offline".into(),
            manual: true,
            last_activity_at: now,
            dnd_end_time: 0,
            prev_status: String::new(),
        });
    }

    /// `SetStatusAwayIfNeeded(userID, manual=true)`: "away", manual; the rest of the status
    /// (activity time, DND end time) is kept; without a status, one that was never active.
    pub(crate) fn set_status_away(&mut self, user_id: &str) {
        let mut s = self.status_mut(user_id).cloned().unwrap_or(Status {
            user_id: user_id.to_string(),
            status: "offline".into(),
            manual: true,
            last_activity_at: 0,
            dnd_end_time: 0,
            prev_status: String::new(),
        });
        s.status = "away".into();
        s.manual = true;
        self.put_status(s);
    }

    /// `SetStatusDoNotDisturbTimed(userID, endtime)`: "dnd", manual, the previous status kept as
    /// `PrevStatus`, the end time (seconds) truncated to the minute.
    pub(crate) fn set_status_dnd(&mut self, user_id: &str, end_time_secs: i64) {
        let mut s = self.status_mut(user_id).cloned().unwrap_or(Status {
            user_id: user_id.to_string(),
            status: "offline".into(),
            manual: false,
            last_activity_at: 0,
            dnd_end_time: 0,
            prev_status: String::new(),
        });
        s.prev_status = s.status.clone();
        s.status = "dnd".into();
        s.manual = true;
        s.dnd_end_time = end_time_secs - end_time_secs.rem_euclid(DND_EXPIRY_INTERVAL_SECS);
        self.put_status(s);
    }

    /// `User.SetCustomStatus` / `ClearCustomStatus` (the JSON, or "" to clear) and
    /// `App.UpdateUser`'s new UpdateAt.
    pub(crate) fn set_custom_status_prop(&mut self, user_id: &str, json: &str, now: i64) {
        if let Some(u) = self.user_mut(user_id) {
            u.props.insert("customStatus".into(), json.to_string());
            u.update_at = now;
        }
    }

    /// `SqlPreferenceStore.Save`: an upsert per (user, category, name); `flagged_post` ones are the
    /// world's saved posts.
    pub(crate) fn save_preference(&mut self, p: Preference) {
        if p.category == "flagged_post" {
            self.save(&p.user_id, &p.name);
            return;
        }
        match self
            .writes
            .preferences
            .iter_mut()
            .find(|q| q.user_id == p.user_id && q.category == p.category && q.name == p.name)
        {
            Some(q) => q.value = p.value,
            None => self.writes.preferences.push(p),
        }
    }

    /// `SqlPreferenceStore.Delete(userID, category, name)`.
    pub(crate) fn delete_preference(&mut self, user_id: &str, category: &str, name: &str) {
        if category == "flagged_post" {
            self.unsave(user_id, name);
            return;
        }
        self.writes
            .preferences
            .retain(|q| !(q.user_id == user_id && q.category == category && q.name == name));
    }

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
}
