//! What a team's instances share, as one small trait: 2025-11-25 sessions and their owners, each
//! person's rate bucket and running calls, and what Mattermost said of each token lately. Two
//! implementations: [`crate::serve::team_state::local`] (this instance's memory, and the session
//! directory when one is configured) and [`crate::serve::team_state::redis_store`] (Redis, shared by
//! every instance). Persons are named by [`Key`] (the SHA-256 of their token) and sessions by the
//! SHA-256 of their id: neither a token nor a session id is ever stored.

use crate::confirm::SharedAnswers;
use crate::serve::limits::Over;
use crate::serve::people::{Key, Person};
use rmcp::transport::streamable_http_server::session::SessionStore;
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::time::Duration;

/// How long a 2025-11-25 session is kept in a shared store from its start: sessions their clients
/// forgot (rmcp removes a stored session only when the client ends it) are cleared after this.
pub(crate) const SESSION_KEPT_FOR: Duration = Duration::from_secs(24 * 3600);

/// The name a session is stored under: the SHA-256 of its id, in hex.
pub(crate) fn session_name(session_id: &str) -> String {
    crate::hex::hex(&Sha256::digest(session_id.as_bytes()))
}

/// A place for one running call, held until the call's response is sent; dropping it frees the
/// place (a permit of this instance, or the call's entry in the shared store).
pub(crate) struct CallSlot {
    _held: Box<dyn Send + Sync>,
}

impl CallSlot {
    pub(crate) fn new(held: impl Send + Sync + 'static) -> CallSlot {
        CallSlot {
            _held: Box::new(held),
        }
    }
}

/// What Mattermost said of a token (GET /users/me), shared for the token check interval.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Verdict {
    /// It accepted the token: whose it is (their user id and username, nothing else of theirs).
    Confirmed { user_id: String, username: String },
    /// It refused the token, with this error id.
    Refused { id: String },
}

/// A verdict and how long ago it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Known {
    pub(crate) verdict: Verdict,
    pub(crate) age: Duration,
}

/// How the store is, for `/readyz`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Health {
    /// Nothing is shared but through the session directory, if one is set: nothing to reach.
    Local,
    /// The shared store answers.
    Shared { store: String },
    /// The shared store does not answer; each instance limits by itself meanwhile.
    Unreachable { store: String, why: String },
}

/// The state a team's instances share.
#[async_trait::async_trait]
pub(crate) trait TeamState: Send + Sync {
    /// Whether the store answers.
    async fn health(&self) -> Health;

    /// rmcp's external session store (each session's `initialize` parameters), if sessions are
    /// shared.
    fn sessions(&self) -> Option<Arc<dyn SessionStore>>;

    /// Where 2026-07-28 answers are shared (the sealing key, the answers used already), if they are.
    fn answers(&self) -> Option<Arc<dyn SharedAnswers>>;

    /// Records that `owner` opened `session_id` (where other instances find it); an error says why
    /// it could not be.
    async fn record_owner(&self, session_id: &str, owner: Key) -> Result<(), String>;

    /// Whose `session_id` is, in hex ([`Key::hex`]): `Ok(None)` when no one is recorded, an error
    /// when the store cannot say.
    async fn owner_of(&self, session_id: &str) -> Result<Option<String>, String>;

    /// Counts one request of `person` against their rate and, for a call, takes a place among
    /// their running calls; refuses past either limit.
    async fn admit(&self, person: &Person, call: bool) -> Result<Option<CallSlot>, Over>;

    /// What Mattermost said of this token within the check interval, if another instance asked.
    async fn verdict(&self, person: Key) -> Option<Known>;

    /// Shares what Mattermost said of this token, for the check interval.
    async fn remember(&self, person: Key, verdict: Verdict);
}
