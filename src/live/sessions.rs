//! The watches of each 2025-11-25 session (`resources/subscribe`): per session, the watch guards of
//! the URIs it subscribed to and the task that forwards their updates; a session whose last
//! subscription ends, or whose task ends, is forgotten with its watches.

use super::watcher::WatchGuard;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::task::AbortHandle;

/// One session's guards, by URI.
pub type Guards = Arc<Mutex<HashMap<String, WatchGuard>>>;

struct Session {
    guards: Guards,
    task: AbortHandle,
}

/// Every session's subscriptions.
#[derive(Default)]
pub struct Sessions {
    map: Mutex<HashMap<String, Session>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Locks one session's guards.
pub fn guards(g: &Guards) -> std::sync::MutexGuard<'_, HashMap<String, WatchGuard>> {
    lock(g)
}

impl Sessions {
    /// The guards of `session`; when it has none running, `start` starts its forwarding task.
    pub fn guards_or_start(
        &self,
        session: &str,
        start: impl FnOnce(Guards) -> AbortHandle,
    ) -> Guards {
        let mut map = lock(&self.map);
        if let Some(s) = map.get(session).filter(|s| !s.task.is_finished()) {
            return s.guards.clone();
        }
        let guards: Guards = Arc::default();
        let task = start(guards.clone());
        map.insert(
            session.to_string(),
            Session {
                guards: guards.clone(),
                task,
            },
        );
        guards
    }

    /// Ends the subscription of `session` to `uri`; with none left the session is forgotten.
    pub fn unwatch(&self, session: &str, uri: &str) {
        let mut map = lock(&self.map);
        let empty = match map.get(session) {
            Some(s) => {
                let mut g = lock(&s.guards);
                g.remove(uri);
                g.is_empty()
            }
            None => false,
        };
        if empty && let Some(s) = map.remove(session) {
            s.task.abort();
        }
    }

    /// Forgets `session` and its watches (its task ended).
    pub fn end(&self, session: &str) {
        lock(&self.map).remove(session);
    }
}
