//! What a tool's code works with: the Mattermost connection, the caches shared by all calls, and one
//! call's checked input.

use crate::args::Args;
use crate::error::ToolError;
use crate::mattermost::{Mattermost, MmError, send, types};
use crate::paging::{Page, cursor};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most usernames kept for post summaries.
const USERNAME_CACHE: usize = 20_000;

/// How long the user's own channels and teams are reused for name lookups before they are read again.
const OWN_LISTS_FOR: Duration = Duration::from_secs(30);

type Timed<T> = Mutex<Option<(Instant, Arc<T>)>>;

pub struct Ctx {
    pub mm: Mattermost,
    usernames: Mutex<HashMap<String, String>>,
    me: tokio::sync::OnceCell<types::User>,
    my_channels: Timed<Vec<types::Channel>>,
    my_teams: Timed<Vec<types::Team>>,
    /// Ordered lists kept for their cursor chains (the "pages with ties" strategy).
    pub lists: crate::paging::pages_with_ties::ListCache,
}

fn fresh<T>(slot: &Timed<T>) -> Option<Arc<T>> {
    let guard = slot.lock().ok()?;
    guard
        .as_ref()
        .filter(|(at, _)| at.elapsed() < OWN_LISTS_FOR)
        .map(|(_, v)| v.clone())
}

fn keep<T>(slot: &Timed<T>, value: T) -> Arc<T> {
    let value = Arc::new(value);
    if let Ok(mut guard) = slot.lock() {
        *guard = Some((Instant::now(), value.clone()));
    }
    value
}

impl Ctx {
    pub fn new(mm: Mattermost) -> Ctx {
        Ctx {
            mm,
            usernames: Mutex::new(HashMap::new()),
            me: tokio::sync::OnceCell::new(),
            my_channels: Mutex::new(None),
            my_teams: Mutex::new(None),
            lists: crate::paging::pages_with_ties::ListCache::default(),
        }
    }

    /// The token's own user (read once per process).
    pub async fn me(&self) -> Result<&types::User, ToolError> {
        self.me
            .get_or_try_init(|| async {
                send(self.mm.api.get_user().user_id("me").send())
                    .await
                    .map(|u| u.into_inner())
                    .map_err(|e| self.fail(e, "user", "me"))
            })
            .await
    }

    /// The user's own channels in every team, direct and group messages and archived channels included
    /// (GetChannelsForUser, one request), reused for a few seconds.
    pub async fn my_channels(&self) -> Result<Arc<Vec<types::Channel>>, ToolError> {
        if let Some(v) = fresh(&self.my_channels) {
            return Ok(v);
        }
        let list = crate::mattermost::channels_for_user(&self.mm.api, Some(true))
            .await
            .map_err(|e| self.fail(e, "channels of the user", "me"))?;

        Ok(keep(&self.my_channels, list))
    }

    /// Forgets the user's own channels and teams, so the next lookup reads them again (a name that
    /// matched nothing in a reused list may be new). True when something was forgotten.
    pub fn forget_own_lists(&self) -> bool {
        let mut forgot = false;
        if let Ok(mut g) = self.my_channels.lock() {
            forgot |= g.take().is_some();
        }
        if let Ok(mut g) = self.my_teams.lock() {
            forgot |= g.take().is_some();
        }
        forgot
    }

    /// The user's teams (GetTeamsForUser, one request), reused for a few seconds.
    pub async fn my_teams(&self) -> Result<Arc<Vec<types::Team>>, ToolError> {
        if let Some(v) = fresh(&self.my_teams) {
            return Ok(v);
        }
        let list = send(self.mm.api.get_teams_for_user().user_id("me").send())
            .await
            .map_err(|e| self.fail(e, "teams of the user", "me"))?
            .into_inner();
        Ok(keep(&self.my_teams, list))
    }

    /// The tool error for a failed request about `what` named `value`.
    pub fn fail(&self, e: MmError, what: &str, value: &str) -> ToolError {
        e.about(what, value, &self.mm.url)
    }

    /// Usernames for user ids, from the cache or with one GetUsersByIds request for those not in it.
    /// An id Mattermost does not know stays out of the map (the summary then shows the id).
    pub async fn usernames(
        &self,
        ids: impl IntoIterator<Item = String>,
    ) -> Result<HashMap<String, String>, ToolError> {
        let mut wanted: Vec<String> = ids.into_iter().filter(|id| !id.is_empty()).collect();
        wanted.sort();
        wanted.dedup();
        let mut found = HashMap::new();
        let missing: Vec<String> = {
            let cache = self
                .usernames
                .lock()
                .map_err(|_| ToolError::new("internal", "username cache poisoned"))?;
            wanted
                .into_iter()
                .filter(|id| match cache.get(id) {
                    Some(name) => {
                        found.insert(id.clone(), name.clone());
                        false
                    }
                    None => true,
                })
                .collect()
        };
        if missing.is_empty() {
            return Ok(found);
        }
        let users: Vec<types::User> =
            send(self.mm.api.get_users_by_ids().body(missing.clone()).send())
                .await
                .map_err(|e| self.fail(e, "users", &missing.join(",")))?
                .into_inner();
        let mut cache = self
            .usernames
            .lock()
            .map_err(|_| ToolError::new("internal", "username cache poisoned"))?;
        if cache.len() + users.len() > USERNAME_CACHE {
            cache.clear();
        }
        for u in users {
            if let (Some(id), Some(name)) = (u.id, u.username) {
                cache.insert(id.clone(), name.clone());
                found.insert(id, name);
            }
        }
        Ok(found)
    }

    /// Remembers usernames learnt from another answer (a user list, say).
    pub fn learn_username(&self, id: &str, username: &str) {
        if let Ok(mut cache) = self.usernames.lock()
            && cache.len() < USERNAME_CACHE
        {
            cache.insert(id.to_string(), username.to_string());
        }
    }
}

/// One call's checked input.
#[derive(Debug, Default)]
pub struct Input {
    pub args: Args,
    /// The fingerprint of the arguments that chose the list (see `paging::cursor`).
    pub fingerprint: String,
    /// The page size, for list tools.
    pub limit: u32,
    /// The decoded position of the cursor, when one was given.
    pub position: Option<Value>,
}

impl Input {
    /// The cursor's position as the strategy's own type.
    pub fn position<P: DeserializeOwned>(&self, tool: &str) -> Result<Option<P>, ToolError> {
        match &self.position {
            None => Ok(None),
            Some(v) => cursor::position(v.clone())
                .map(Some)
                .map_err(|e| ToolError::new("bad_cursor", e.message(tool))),
        }
    }
}

/// What a tool answers.
#[derive(Debug)]
pub enum Output {
    /// One object (not a list).
    One(Value),
    /// A page of a list; the server wraps it in the envelope.
    Page(Page),
}
