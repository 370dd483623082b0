//! The state of one instance: each person's limits are their own in this instance's memory (so N
//! instances let a person send N times the configured rate), tokens are checked by each instance,
//! and 2025-11-25 sessions are shared only through the session directory, when one is set.

use crate::confirm::SharedAnswers;
use crate::serve::limits::Over;
use crate::serve::people::{Key, Person};
use crate::serve::team_state::session_dir::DirStore;
use crate::serve::team_state::store::{CallSlot, Health, Known, TeamState, Verdict};
use rmcp::transport::streamable_http_server::session::SessionStore;
use std::sync::Arc;

/// This instance alone, with the session directory if one is set.
pub(crate) struct Local {
    dir: Option<Arc<DirStore>>,
}

impl Local {
    pub(crate) fn new(dir: Option<DirStore>) -> Local {
        Local {
            dir: dir.map(Arc::new),
        }
    }
}

/// A person's limits in this instance: one request from their bucket, and for a call a permit of
/// their semaphore.
pub(crate) fn admit_here(person: &Person, call: bool) -> Result<Option<CallSlot>, Over> {
    person.limits.take_request()?;
    if call {
        return Ok(Some(CallSlot::new(person.limits.take_call()?)));
    }
    Ok(None)
}

#[async_trait::async_trait]
impl TeamState for Local {
    async fn health(&self) -> Health {
        Health::Local
    }

    fn sessions(&self) -> Option<Arc<dyn SessionStore>> {
        self.dir
            .as_ref()
            .map(|d| d.clone() as Arc<dyn SessionStore>)
    }

    fn answers(&self) -> Option<Arc<dyn SharedAnswers>> {
        None
    }

    async fn record_owner(&self, session_id: &str, owner: Key) -> Result<(), String> {
        match &self.dir {
            Some(d) => d.record_owner(session_id, owner).await,
            None => Ok(()),
        }
    }

    async fn owner_of(&self, session_id: &str) -> Result<Option<String>, String> {
        match &self.dir {
            Some(d) => d.owner_of(session_id).await,
            None => Ok(None),
        }
    }

    async fn admit(&self, person: &Person, call: bool) -> Result<Option<CallSlot>, Over> {
        admit_here(person, call)
    }

    async fn verdict(&self, _person: Key) -> Option<Known> {
        None
    }

    async fn remember(&self, _person: Key, _verdict: Verdict) {}
}
