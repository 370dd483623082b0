//! 2025-11-25 sessions (`Mcp-Session-Id`) across requests and instances. Each session belongs to the
//! person who opened it: a request naming a session opened with another token is answered as if the
//! session did not exist, so nothing the server sends on a session (a question asked by elicitation,
//! say) can reach another person. The owners are recorded where the team's instances share state
//! ([`crate::serve::team_state`]: Redis, or the session directory), beside each session's
//! initialize parameters, so any instance continues any session; with neither, a session lives in
//! the instance that opened it. Sessions are named by the SHA-256 of their id; no token is kept.

use crate::serve::people::Key;
use crate::serve::team_state::store::{TeamState, session_name as name_of};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most session owners one instance remembers.
const OWNERS_KEPT: usize = 100_000;
/// How long an owner is remembered after it was last seen.
const OWNER_KEPT_FOR: Duration = Duration::from_secs(24 * 3600);

/// Who opened each session.
pub(crate) struct Owners {
    kept: Mutex<HashMap<String, (Key, Instant)>>,
    shared: Arc<dyn TeamState>,
}

impl Owners {
    pub(crate) fn new(shared: Arc<dyn TeamState>) -> Owners {
        Owners {
            kept: Mutex::new(HashMap::new()),
            shared,
        }
    }

    /// Records that `owner` opened `session_id`, here and where the instances share state. When the
    /// shared record cannot be written, the session lives on this instance only: the others cannot
    /// read its owner, so they refuse it (see [`Owners::allows`]).
    pub(crate) async fn bind(&self, session_id: &str, owner: Key) {
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() >= OWNERS_KEPT {
                kept.retain(|_, (_, at)| at.elapsed() < OWNER_KEPT_FOR);
            }
            if kept.len() >= OWNERS_KEPT
                && let Some(oldest) = kept
                    .iter()
                    .min_by_key(|(_, (_, at))| *at)
                    .map(|(k, _)| k.clone())
            {
                kept.remove(&oldest);
            }
            kept.insert(name_of(session_id), (owner, Instant::now()));
        }
        if let Err(e) = self.shared.record_owner(session_id, owner).await {
            crate::log::warn(&format!(
                "the owner of a session could not be recorded for the other instances, so it continues on \
                 this one only: {e}"
            ));
        }
    }

    /// Whether `person` may use `session_id`: only when they are known to have opened it. A session
    /// whose owner is not known (never recorded, or its record lost) is refused to everyone, its opener
    /// included: it is answered as a session that does not exist.
    pub(crate) async fn allows(&self, session_id: &str, person: Key) -> bool {
        let name = name_of(session_id);
        if let Ok(mut kept) = self.kept.lock()
            && let Some((owner, at)) = kept.get_mut(&name)
        {
            *at = Instant::now();
            return *owner == person;
        }
        match self.shared.owner_of(session_id).await {
            Ok(Some(owner)) => {
                let allowed = owner == person.hex();
                if allowed && let Ok(mut kept) = self.kept.lock() {
                    kept.insert(name, (person, Instant::now()));
                }
                allowed
            }
            // Not known to be anyone's: refused to everyone, as a session that does not exist.
            Ok(None) => false,
            // The record cannot be read: not known to be theirs, so not theirs.
            Err(e) => {
                crate::log::warn(&format!(
                    "the owner of a session could not be read, so it is refused: {e}"
                ));
                false
            }
        }
    }

    /// Forgets a session (the client ended it).
    pub(crate) fn unbind(&self, session_id: &str) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.remove(&name_of(session_id));
        }
    }
}
