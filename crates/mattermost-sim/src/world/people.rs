//! People: users and bots (`SqlUserStore.Save`, `App.GetSystemBot`), their sessions (the tokens
//! `ParseAuthTokenFromRequest` looks up) and statuses (`app/platform/status.go` `SetStatusOnline`,
//! `SetStatusOffline`, `SetStatusAwayIfNeeded`, `SetStatusDoNotDisturbTimed`, `SetActiveChannel`),
//! custom statuses included (`User.Props["customStatus"]`, `app/status.go` `SetCustomStatus`).

use super::{Status, User, World};

/// `model.DNDExpiryInterval`: a DND end time is truncated to the minute.
const DND_EXPIRY_INTERVAL_SECS: i64 = 60;

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

const SURNAMES: &[&str] = &[
    "Lovelace", "Hopper", "Turing", "Knuth", "Liskov", "Ritchie", "Hamilton", "Dijkstra", "Kay",
    "Allen", "Thompson", "Goldberg", "Wirth", "Backus", "Perlman", "Cerf",
];

impl World {
    /// Create a user (or return the id of an existing one with that username). First name is the
    /// capitalised username, email `username@example.com`.
    pub fn user(&mut self, username: &str) -> String {
        if let Some(id) = self.user_id(username) {
            return id;
        }
        let id = self.new_id();
        let at = self.tick();
        let surname = SURNAMES[(self.rng.next_u64() % SURNAMES.len() as u64) as usize];
        self.users.push(User {
            id: id.clone(),
            username: username.to_string(),
            first_name: capitalize(username),
            last_name: surname.to_string(),
            nickname: String::new(),
            email: format!("{username}@example.com"),
            position: String::new(),
            roles: "system_user".to_string(),
            is_bot: false,
            bot_description: String::new(),
            create_at: at,
            update_at: at,
            delete_at: 0,
            last_activity_at: at,
            props: Default::default(),
            manual_timezone: String::new(),
            remote_id: String::new(),
        });
        let token = self.new_id();
        self.tokens.push((token, id.clone()));
        id
    }

    /// Create a bot account.
    pub fn bot(&mut self, username: &str) -> String {
        let id = self.user(username);
        if let Some(u) = self.user_mut(&id) {
            u.is_bot = true;
            u.first_name = String::new();
            u.last_name = String::new();
            u.email = format!("{username}@localhost");
            u.bot_description = format!("{username} bot");
        }
        id
    }

    /// Deactivate a user: `delete_at` set, sessions revoked (their token now gets 401).
    pub fn deactivate(&mut self, user_id: &str) {
        let at = self.tick();
        if let Some(u) = self.user_mut(user_id) {
            u.delete_at = at;
            u.update_at = at;
        }
    }

    /// Make a user a guest: the `system_guest` role in place of `system_user` (`model.User.IsGuest`).
    pub fn make_guest(&mut self, user_id: &str) {
        if let Some(u) = self.user_mut(user_id) {
            u.roles = "system_guest".to_string();
        }
    }

    /// Make a user one of another server's, met through a shared channel (`model.User.RemoteId`).
    pub fn make_remote(&mut self, user_id: &str, remote_id: &str) {
        if let Some(u) = self.user_mut(user_id) {
            u.remote_id = remote_id.to_string();
        }
    }

    /// Give a user the `system_admin` role (for `include_deleted` and other admin-only reads).
    pub fn make_admin(&mut self, user_id: &str) {
        if let Some(u) = self.user_mut(user_id) {
            u.roles = "system_admin system_user".to_string();
        }
    }

    /// `system-bot`, the author of messages no user wrote (created on first use, as
    /// `App.GetSystemBot` does).
    pub(crate) fn system_bot(&mut self) -> String {
        if let Some(id) = self.writes.system_bot.clone() {
            return id;
        }
        let id = self.bot("system-bot");
        if let Some(u) = self.user_mut(&id) {
            u.first_name = "System".to_string();
            u.bot_description = String::new();
        }
        self.writes.system_bot = Some(id.clone());
        id
    }

    /// Sets the user's time zone by hand (`Timezone{useAutomaticTimezone: "false", manualTimezone}`,
    /// as the web app's display settings save it through `PUT /users/{id}/patch`).
    pub fn set_timezone(&mut self, user_id: &str, zone: &str) {
        if let Some(u) = self.user_mut(user_id) {
            u.manual_timezone = zone.to_string();
        }
    }

    /// The id of the user with this username; `None` when there is none.
    pub fn user_id(&self, username: &str) -> Option<String> {
        self.users
            .iter()
            .find(|u| u.username == username)
            .map(|u| u.id.clone())
    }

    pub(crate) fn user_by_id(&self, id: &str) -> Option<&User> {
        self.users.iter().find(|u| u.id == id)
    }

    pub(super) fn user_mut(&mut self, id: &str) -> Option<&mut User> {
        self.users.iter_mut().find(|u| u.id == id)
    }

    /// The username of a user id ("" for an unknown one).
    pub(crate) fn username(&self, user_id: &str) -> String {
        self.user_by_id(user_id)
            .map(|u| u.username.clone())
            .unwrap_or_default()
    }
}

// ----- sessions ----------------------------------------------------------------------------------

impl World {
    /// The bearer token mapped to `username` (a token that maps to nobody if the user is unknown).
    pub fn token(&self, username: &str) -> String {
        self.user_id(username)
            .and_then(|id| {
                self.tokens
                    .iter()
                    .find(|(_, u)| *u == id)
                    .map(|(t, _)| t.clone())
            })
            .unwrap_or_else(|| format!("no-such-user-{username}"))
    }

    /// Gives a user a token of the test's choosing (a recognisable one, to look for leaks), in place of
    /// the one the world made.
    pub fn set_token(&mut self, username: &str, token: &str) {
        if let Some(id) = self.user_id(username) {
            self.tokens.retain(|(_, u)| *u != id);
            self.tokens.push((token.to_string(), id));
        }
    }

    /// Gives every user a new token from `fresh` (the demo makes them random, so no token of a demo
    /// that listens on a network can be read from this repository).
    pub fn replace_tokens(&mut self, mut fresh: impl FnMut() -> String) {
        for (token, _) in self.tokens.iter_mut() {
            *token = fresh();
        }
    }

    /// The user's current token now gets 401 `api.context.session_expired.app_error` (see
    /// [`crate::Sim::expire_token`] for a running simulator).
    pub fn expire_token(&mut self, username: &str) {
        let token = self.token(username);
        self.expired_tokens.insert(token);
    }

    /// The user a bearer token maps to, if the token is known and not expired and the user active.
    pub(crate) fn session_user(&self, token: &str) -> Option<String> {
        if self.expired_tokens.contains(token) {
            return None;
        }
        let (_, uid) = self.tokens.iter().find(|(t, _)| t == token)?;
        let u = self.user_by_id(uid)?;
        if u.delete_at != 0 {
            return None;
        }
        Some(uid.clone())
    }

    /// The username a token belongs to, expired or not (for the request log).
    pub(crate) fn token_username(&self, token: &str) -> Option<String> {
        let (_, uid) = self.tokens.iter().find(|(t, _)| t == token)?;
        self.user_by_id(uid).map(|u| u.username.clone())
    }
}

// ----- statuses ----------------------------------------------------------------------------------

impl World {
    /// Set a user's status ("online", "away", "dnd", "offline").
    pub fn set_status(&mut self, user_id: &str, status: &str) {
        let at = self.tick();
        if let Some(s) = self.statuses.iter_mut().find(|s| s.user_id == user_id) {
            s.status = status.to_string();
            s.manual = true;
            s.last_activity_at = at;
            return;
        }
        self.statuses.push(Status {
            user_id: user_id.to_string(),
            status: status.to_string(),
            manual: true,
            last_activity_at: at,
            dnd_end_time: 0,
            prev_status: String::new(),
        });
    }

    /// A user was last active at `at_ms`: their status's LastActivityAt and the user's own, as
    /// `App.SetStatusLastActivityAt` and `UpdateLastActivityAtIfNeeded` keep them (a user without a
    /// status gets an offline one).
    pub fn active_at(&mut self, user_id: &str, at_ms: i64) {
        if let Some(u) = self.user_mut(user_id) {
            u.last_activity_at = at_ms;
        }
        match self.status_mut(user_id) {
            Some(s) => s.last_activity_at = at_ms,
            None => self.statuses.push(Status {
                user_id: user_id.to_string(),
                status: "offline".to_string(),
                manual: false,
                last_activity_at: at_ms,
                dnd_end_time: 0,
                prev_status: String::new(),
            }),
        }
    }

    fn status_mut(&mut self, user_id: &str) -> Option<&mut Status> {
        self.statuses.iter_mut().find(|s| s.user_id == user_id)
    }

    fn put_status(&mut self, status: Status) {
        match self.status_mut(&status.user_id) {
            Some(s) => *s = status,
            None => self.statuses.push(status),
        }
    }

    /// `SetActiveChannel`: a status that was not set by hand becomes online (a missing one is
    /// created online).
    pub(crate) fn set_active_channel(&mut self, user_id: &str, channel_id: &str, now: i64) {
        if let Some(s) = self.statuses.iter_mut().find(|s| s.user_id == user_id) {
            if !s.manual && !channel_id.is_empty() {
                s.status = "online".to_string();
            }
            s.last_activity_at = now;
        } else {
            self.statuses.push(Status {
                user_id: user_id.to_string(),
                status: "online".to_string(),
                manual: false,
                last_activity_at: now,
                dnd_end_time: 0,
                prev_status: String::new(),
            });
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
}
