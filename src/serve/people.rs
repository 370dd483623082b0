//! The persons an HTTP server knows: one context each ([`crate::context::Ctx`]: their own caches and
//! their token), found by the SHA-256 of the token (the token itself is never a key, and never
//! logged), with when Mattermost last confirmed the token and their limits. The registry is bounded:
//! at most `cap` persons, least recently seen first out; a person idle too long, or known longer than
//! [`MAX_AGE`], is forgotten; and when all persons' caches together pass `cache_bytes`, the least
//! recently seen are forgotten until they fit.

use crate::context::Ctx;
use crate::hex::hex;
use crate::serve::limits::PersonLimits;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one person's context lives at most, however busy they are: everything kept for them is
/// at most this old.
pub(crate) const MAX_AGE: Duration = Duration::from_secs(3600);

/// The SHA-256 of a token: how the server finds a person, and the only form of the token it prints
/// (the first 8 hex digits, in the access log).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key([u8; 32]);

impl Key {
    pub(crate) fn of(token: &str) -> Key {
        Key(Sha256::digest(token.as_bytes()).into())
    }

    /// The key in hex.
    pub(crate) fn hex(&self) -> String {
        hex(&self.0)
    }

    /// The digest itself.
    pub(crate) fn bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The first 8 hex digits: enough to tell persons apart in a log, useless to find the token.
    pub(crate) fn short(&self) -> String {
        hex(&self.0[..4])
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Key({})", self.short())
    }
}

/// One person the server knows.
pub(crate) struct Person {
    pub(crate) key: Key,
    pub(crate) ctx: Arc<Ctx>,
    pub(crate) limits: PersonLimits,
    /// When Mattermost last confirmed the token (held while it is being checked again, so one
    /// person's concurrent requests check it once).
    pub(crate) checked: tokio::sync::Mutex<Instant>,
    /// The person's username, for the access log.
    pub(crate) username: String,
    created: Instant,
    seen: Mutex<Instant>,
}

impl Person {
    pub(crate) fn new(key: Key, ctx: Arc<Ctx>, limits: PersonLimits, username: String) -> Person {
        let now = Instant::now();
        Person {
            key,
            ctx,
            limits,
            checked: tokio::sync::Mutex::new(now),
            username,
            created: now,
            seen: Mutex::new(now),
        }
    }

    fn seen(&self) -> Instant {
        self.seen.lock().map(|s| *s).unwrap_or(self.created)
    }

    fn touch(&self) {
        if let Ok(mut s) = self.seen.lock() {
            *s = Instant::now();
        }
    }
}

/// The bounds of a registry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    pub(crate) cap: usize,
    pub(crate) idle: Duration,
    pub(crate) max_age: Duration,
    pub(crate) cache_bytes: usize,
}

/// Told of each person the registry forgets (idle, past its bounds, or their token refused; not
/// a person renewed for age).
pub(crate) type OnForget = Box<dyn Fn(Key) + Send + Sync>;

/// The persons an HTTP server knows.
pub(crate) struct Registry {
    people: Mutex<HashMap<Key, Arc<Person>>>,
    bounds: Bounds,
    on_forget: Option<OnForget>,
}

impl Registry {
    pub(crate) fn new(bounds: Bounds) -> Registry {
        Registry {
            people: Mutex::new(HashMap::new()),
            bounds,
            on_forget: None,
        }
    }

    /// Calls `f` with each person forgotten.
    pub(crate) fn on_forget(mut self, f: OnForget) -> Registry {
        self.on_forget = Some(f);
        self
    }

    fn forgotten(&self, keys: impl IntoIterator<Item = Key>) {
        if let Some(f) = &self.on_forget {
            for k in keys {
                f(k);
            }
        }
    }

    /// The person with this key, if known and not too old; seeing them makes them recent.
    pub(crate) fn get(&self, key: &Key) -> Option<Arc<Person>> {
        let mut people = self.people.lock().ok()?;
        let found = people.get(key)?.clone();
        let idle = found.seen().elapsed() >= self.bounds.idle;
        if found.created.elapsed() >= self.bounds.max_age || idle {
            people.remove(key);
            drop(people);
            if idle {
                self.forgotten([*key]);
            }
            return None;
        }
        found.touch();
        Some(found)
    }

    /// Adds a person whose token was just confirmed (or returns the one another request added
    /// meanwhile), then keeps the registry within its bounds.
    pub(crate) fn insert(&self, person: Person) -> Arc<Person> {
        let added = {
            let Ok(mut people) = self.people.lock() else {
                return Arc::new(person);
            };
            people
                .entry(person.key)
                .or_insert_with(|| Arc::new(person))
                .clone()
        };
        self.sweep();
        added.touch();
        added
    }

    /// Forgets a person (their token was refused).
    pub(crate) fn forget(&self, key: &Key) {
        if let Ok(mut people) = self.people.lock() {
            people.remove(key);
        }
        self.forgotten([*key]);
    }

    /// Forgets the idle and the old, then the least recently seen past the count and byte bounds.
    pub(crate) fn sweep(&self) {
        let gone = self.sweep_keys();
        self.forgotten(gone);
    }

    /// Sweeps; the keys of the persons forgotten (not those renewed for age).
    fn sweep_keys(&self) -> Vec<Key> {
        let mut gone = Vec::new();
        let Ok(mut people) = self.people.lock() else {
            return gone;
        };
        let b = self.bounds;
        people.retain(|k, p| {
            let idle = p.seen().elapsed() >= b.idle;
            if idle {
                gone.push(*k);
            }
            p.created.elapsed() < b.max_age && !idle
        });
        let mut bytes: usize = people.values().map(|p| p.ctx.kept_bytes()).sum();
        if people.len() <= b.cap && bytes <= b.cache_bytes {
            return gone;
        }
        let mut by_age: Vec<(Instant, Key, usize)> = people
            .values()
            .map(|p| (p.seen(), p.key, p.ctx.kept_bytes()))
            .collect();
        by_age.sort_by_key(|(seen, _, _)| *seen);
        for (_, key, size) in by_age {
            if people.len() <= b.cap && bytes <= b.cache_bytes {
                break;
            }
            people.remove(&key);
            gone.push(key);
            bytes = bytes.saturating_sub(size);
        }
        gone
    }

    /// How many persons are known.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.people.lock().map(|p| p.len()).unwrap_or(0)
    }

    /// The bytes all persons' caches hold, estimated.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.people
            .lock()
            .map(|p| p.values().map(|p| p.ctx.kept_bytes()).sum())
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, Secret};

    fn ctx() -> Arc<Ctx> {
        let config = Config::from(|k| match k {
            "MATTERMOST_URL" => Some("http://127.0.0.1:9".into()),
            "MATTERMOST_TOKEN" => Some("unused".into()),
            _ => None,
        })
        .expect("config");
        let mm = Arc::new(config.connect().expect("a client"));
        Arc::new(Ctx::new(mm, Secret::new("unused".into())))
    }

    fn person(i: usize, bytes: usize) -> Person {
        let c = ctx();
        if bytes > 0 {
            c.lists.put("list".into(), Arc::new(vec![0u8]), bytes);
        }
        Person::new(
            Key::of(&format!("token-{i}")),
            c,
            PersonLimits::new(1, 60),
            format!("p{i}"),
        )
    }

    fn bounds(cap: usize, cache_bytes: usize) -> Bounds {
        Bounds {
            cap,
            idle: Duration::from_secs(3600),
            max_age: MAX_AGE,
            cache_bytes,
        }
    }

    #[test]
    fn past_the_byte_bound_the_least_recently_seen_are_forgotten() {
        let r = Registry::new(bounds(100, 3_000));
        for i in 0..3 {
            r.insert(person(i, 1_000));
            std::thread::sleep(Duration::from_millis(3));
        }
        assert_eq!(r.len(), 3);
        assert!(
            r.get(&Key::of("token-0")).is_some(),
            "seen again: now the most recent"
        );
        std::thread::sleep(Duration::from_millis(3));
        r.insert(person(3, 1_000));
        assert_eq!(r.len(), 3);
        assert!(r.bytes() <= 3_000);
        assert!(
            r.get(&Key::of("token-1")).is_none(),
            "the least recently seen went"
        );
        assert!(r.get(&Key::of("token-0")).is_some() && r.get(&Key::of("token-3")).is_some());
    }

    #[test]
    fn past_the_count_bound_the_least_recently_seen_is_forgotten() {
        let r = Registry::new(bounds(2, usize::MAX));
        for i in 0..5 {
            r.insert(person(i, 0));
            std::thread::sleep(Duration::from_millis(3));
        }
        assert_eq!(r.len(), 2);
        assert!(r.get(&Key::of("token-4")).is_some() && r.get(&Key::of("token-3")).is_some());
    }

    #[test]
    fn a_key_is_the_tokens_sha256_and_prints_only_its_start() {
        let k = Key::of("abc");
        assert_eq!(
            k.hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(format!("{k:?}"), "Key(ba7816bf)");
        assert_eq!(k.short(), "ba7816bf");
    }
}
