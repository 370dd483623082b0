//! What a tool's code works with: the Mattermost connection, the caches shared by all calls, and one
//! call's checked input.

use crate::args::Args;
use crate::error::ToolError;
use crate::mattermost::{Mattermost, MmError, send, types};
use crate::paging::{Page, cursor};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Mutex;

/// The most usernames kept for post summaries.
const USERNAME_CACHE: usize = 20_000;

pub struct Ctx {
    pub mm: Mattermost,
    usernames: Mutex<HashMap<String, String>>,
}

impl Ctx {
    pub fn new(mm: Mattermost) -> Ctx {
        Ctx {
            mm,
            usernames: Mutex::new(HashMap::new()),
        }
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
        let users: Vec<types::User> = send(self.mm.api.get_users_by_ids(None, &missing))
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
