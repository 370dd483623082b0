//! Every person's watcher in this process, found by the SHA-256 of their token (never the token):
//! at most [`WatchSettings::people`] persons watch at once (each with one Mattermost socket), each
//! at most [`WatchSettings::per_person`] resources. A person's watcher ends when the server forgets
//! the person ([`Live::forget`]: idle, past the bounds, or their token refused) and at shutdown
//! ([`Live::shutdown`]), closing their socket and ending their subscriptions.

use super::settings::WatchSettings;
use super::socket::Endpoint;
use super::watcher::Watcher;
use crate::context::Ctx;
use crate::mattermost::call::CallScope;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// The watchers of this process.
pub struct Live {
    endpoint: Arc<Endpoint>,
    settings: WatchSettings,
    budget: Duration,
    watchers: Mutex<HashMap<[u8; 32], Arc<Watcher>>>,
    shutdown: CancellationToken,
}

/// A person as a call sees them: the process's watchers and the person's context.
#[derive(Clone)]
pub struct Person {
    pub live: Arc<Live>,
    pub cx: Arc<Ctx>,
}

impl Person {
    /// The person's watcher (made when they first watch).
    pub async fn watcher(&self) -> Result<Arc<Watcher>, String> {
        self.live.watcher(&self.cx).await
    }
}

fn key(cx: &Ctx) -> [u8; 32] {
    Sha256::digest(cx.token().expose().as_bytes()).into()
}

impl Live {
    /// Watching the Mattermost at `url` (with `ca_file`'s authorities), within `settings`.
    pub fn new(
        url: &str,
        ca_file: Option<&std::path::Path>,
        settings: WatchSettings,
        budget: Duration,
    ) -> Result<Arc<Live>, String> {
        Ok(Arc::new(Live {
            endpoint: Arc::new(Endpoint::new(url, ca_file)?),
            settings,
            budget,
            watchers: Mutex::new(HashMap::new()),
            shutdown: CancellationToken::new(),
        }))
    }

    pub fn settings(&self) -> WatchSettings {
        self.settings
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], Arc<Watcher>>> {
        self.watchers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The watcher of the person of `cx`, made if they have none (then their user id is read once,
    /// unless already known). Refused past the bound of persons watching.
    pub async fn watcher(&self, cx: &Arc<Ctx>) -> Result<Arc<Watcher>, String> {
        let k = key(cx);
        {
            let mut map = self.map();
            map.retain(|_, w| !w.is_ended());
            if let Some(w) = map.get(&k) {
                return Ok(w.clone());
            }
            let watching = map.values().filter(|w| w.is_active()).count();
            if watching >= self.settings.people {
                return Err(format!(
                    "{watching} persons are watching already, the most this server allows ({}={}); try again \
                     later, or ask its operator to raise it.",
                    crate::config::MAX_WATCHERS,
                    self.settings.people
                ));
            }
        }
        if self.shutdown.is_cancelled() {
            return Err("The server is stopping; subscribe again on another instance.".into());
        }
        let scope = Arc::new(CallScope::new(
            "watch",
            cx.token().clone(),
            [crate::calls::ME.operation],
            self.budget,
        ));
        let me = scope.run(cx.my_id()).await.map_err(|e| {
            format!(
                "Who you are could not be read, so nothing is watched: {}",
                e.message
            )
        })?;
        let mut map = self.map();
        let w = map
            .entry(k)
            .or_insert_with(|| {
                Arc::new(Watcher::new(
                    cx.clone(),
                    me,
                    self.endpoint.clone(),
                    self.settings,
                    self.budget,
                    self.shutdown.child_token(),
                ))
            })
            .clone();
        Ok(w)
    }

    /// Ends the watcher of the person whose token hashes to `key` (the server forgot them).
    pub fn forget(&self, key: &[u8; 32]) {
        if let Some(w) = self.map().remove(key) {
            w.close();
        }
    }

    /// Ends every watcher: sockets closed with a close frame, subscriptions ended (SIGTERM).
    pub fn shutdown(&self) {
        self.shutdown.cancel();
        for w in self.map().drain().map(|(_, w)| w) {
            w.close();
        }
    }

    /// Whether the server is stopping.
    pub fn stopping(&self) -> &CancellationToken {
        &self.shutdown
    }

    /// How many persons watch now (a socket open or something watched).
    pub fn watching(&self) -> usize {
        self.map().values().filter(|w| w.is_active()).count()
    }
}
