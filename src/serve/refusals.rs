//! Tokens Mattermost refused lately, by [`Key`] (the SHA-256 of the token, never the token itself).
//! A client that keeps sending a refused token, or a burst of requests with one, costs one
//! GET /users/me per token per check interval instead of one per request. Bounded in entries and age.

use crate::serve::people::Key;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most refused tokens remembered at once.
pub(crate) const KEPT: usize = 10_000;

/// Refused tokens and the error id Mattermost gave, each with when it was refused.
pub(crate) struct Refusals {
    seen: Mutex<HashMap<Key, (Instant, String)>>,
    keep_for: Duration,
    cap: usize,
}

impl Refusals {
    pub(crate) fn new(keep_for: Duration, cap: usize) -> Refusals {
        Refusals {
            seen: Mutex::new(HashMap::new()),
            keep_for,
            cap,
        }
    }

    /// Mattermost's error id if it refused this token within the interval.
    pub(crate) fn recent(&self, key: &Key) -> Option<String> {
        let seen = self.seen.lock().ok()?;
        let (at, id) = seen.get(key)?;
        (at.elapsed() < self.keep_for).then(|| id.clone())
    }

    /// Remembers a refusal; past the cap the expired go first, then the oldest.
    pub(crate) fn remember(&self, key: Key, id: &str) {
        let Ok(mut seen) = self.seen.lock() else {
            return;
        };
        if seen.len() >= self.cap {
            let keep_for = self.keep_for;
            seen.retain(|_, (at, _)| at.elapsed() < keep_for);
        }
        while seen.len() >= self.cap {
            let Some(oldest) = seen.iter().min_by_key(|(_, (at, _))| *at).map(|(k, _)| *k) else {
                break;
            };
            seen.remove(&oldest);
        }
        seen.insert(key, (Instant::now(), id.to_string()));
    }

    /// Forgets a token (Mattermost accepted it after all).
    pub(crate) fn forget(&self, key: &Key) {
        if let Ok(mut seen) = self.seen.lock() {
            seen.remove(key);
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.seen.lock().map(|s| s.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_kept_for_its_interval_and_the_count_stays_bounded() {
        let r = Refusals::new(Duration::from_millis(50), 3);
        r.remember(Key::of("a"), "api.context.session_expired.app_error");
        assert_eq!(
            r.recent(&Key::of("a")).as_deref(),
            Some("api.context.session_expired.app_error")
        );
        assert_eq!(r.recent(&Key::of("b")), None);
        for t in ["b", "c", "d", "e"] {
            r.remember(Key::of(t), "x");
        }
        assert_eq!(r.len(), 3);
        assert_eq!(r.recent(&Key::of("a")), None, "the oldest went first");
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(r.recent(&Key::of("e")), None, "expired");
        r.remember(Key::of("f"), "x");
        assert_eq!(r.len(), 1, "the expired are cleared before the oldest");
    }
}
