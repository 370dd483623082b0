//! How many 2025-11-25 sessions are open, by person, and which to end to stay within the caps:
//! `MATTERMOST_MCP_PERSON_SESSIONS` for one person (their least recently used session ends when they
//! open one more) and `MATTERMOST_MCP_MAX_SESSIONS` in all (the least recently used session of the
//! person holding the most ends), so no person's sessions take another's room. The caller ends what
//! this names (`crate::serve::http::App::end_sessions`); sessions rmcp ended by itself (idle past its
//! keep-alive) are forgotten by [`SessionCaps::keep_only`].

use crate::serve::people::Key;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// The caps.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Caps {
    pub(crate) per_person: usize,
    pub(crate) total: usize,
}

struct Open {
    person: Key,
    used: Instant,
}

/// The sessions open in this instance, by id.
pub(crate) struct SessionCaps {
    caps: Caps,
    open: Mutex<HashMap<String, Open>>,
}

impl SessionCaps {
    pub(crate) fn new(caps: Caps) -> SessionCaps {
        SessionCaps {
            caps,
            open: Mutex::new(HashMap::new()),
        }
    }

    /// `person` opened `id` (or it was restored here and used): the sessions to end now to stay within
    /// the caps, never `id` itself.
    pub(crate) fn opened(&self, id: &str, person: Key) -> Vec<String> {
        let Ok(mut open) = self.open.lock() else {
            return Vec::new();
        };
        open.insert(
            id.to_string(),
            Open {
                person,
                used: Instant::now(),
            },
        );
        let mut end = Vec::new();
        let lru_of = |open: &HashMap<String, Open>, who: Key| {
            open.iter()
                .filter(|(sid, o)| o.person == who && sid.as_str() != id)
                .min_by_key(|(_, o)| o.used)
                .map(|(sid, _)| sid.clone())
        };
        while open.values().filter(|o| o.person == person).count() > self.caps.per_person {
            let Some(victim) = lru_of(&open, person) else {
                break;
            };
            open.remove(&victim);
            end.push(victim);
        }
        while open.len() > self.caps.total {
            let mut counts: HashMap<Key, usize> = HashMap::new();
            for o in open.values() {
                *counts.entry(o.person).or_insert(0) += 1;
            }
            let Some(crowded) = counts.into_iter().max_by_key(|(_, n)| *n).map(|(k, _)| k) else {
                break;
            };
            let Some(victim) = lru_of(&open, crowded) else {
                break;
            };
            open.remove(&victim);
            end.push(victim);
        }
        end
    }

    /// A request used `id`: true when it was known here (else the caller counts it with
    /// [`SessionCaps::opened`]).
    pub(crate) fn used(&self, id: &str) -> bool {
        self.open
            .lock()
            .ok()
            .and_then(|mut open| open.get_mut(id).map(|o| o.used = Instant::now()))
            .is_some()
    }

    /// The client ended `id`.
    pub(crate) fn ended(&self, id: &str) {
        if let Ok(mut open) = self.open.lock() {
            open.remove(id);
        }
    }

    /// Forgets the sessions `alive` says are gone (rmcp ended them); returns them.
    pub(crate) fn keep_only(&self, alive: impl Fn(&str) -> bool) -> Vec<String> {
        let Ok(mut open) = self.open.lock() else {
            return Vec::new();
        };
        let gone: Vec<String> = open.keys().filter(|id| !alive(id)).cloned().collect();
        for id in &gone {
            open.remove(id);
        }
        gone
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.open.lock().map(|o| o.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_person_past_their_cap_loses_their_oldest_and_nobody_elses() {
        let caps = SessionCaps::new(Caps {
            per_person: 2,
            total: 100,
        });
        let (a, b) = (Key::of("a"), Key::of("b"));
        assert!(caps.opened("b1", b).is_empty());
        assert!(caps.opened("a1", a).is_empty());
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(caps.opened("a2", a).is_empty());
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert_eq!(caps.opened("a3", a), vec!["a1".to_string()]);
        assert_eq!(caps.len(), 3);
    }

    #[test]
    fn past_the_total_the_person_holding_the_most_gives_way() {
        let caps = SessionCaps::new(Caps {
            per_person: 10,
            total: 3,
        });
        let (a, b) = (Key::of("a"), Key::of("b"));
        caps.opened("a1", a);
        std::thread::sleep(std::time::Duration::from_millis(2));
        caps.opened("a2", a);
        caps.opened("a3", a);
        assert_eq!(caps.opened("b1", b), vec!["a1".to_string()]);
        assert_eq!(caps.keep_only(|id| id != "b1"), vec!["b1".to_string()]);
        assert_eq!(caps.len(), 2);
    }
}
