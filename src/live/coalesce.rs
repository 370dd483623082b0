//! Coalescing: a burst of changes to one resource becomes at most one update per [`INTERVAL`] —
//! the first goes out at once, the rest of the burst waits and goes out as one update when the
//! interval since the last one has passed.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The shortest time between two updates of one resource.
pub const INTERVAL: Duration = Duration::from_secs(1);

/// What to do with a change of one resource now.
#[derive(Debug, PartialEq, Eq)]
pub enum Due {
    /// Send the update now.
    Now,
    /// An update is already waiting; this change joins it.
    Joined,
    /// Wait this long, then send one update for the burst.
    After(Duration),
}

/// When each resource was last updated and whether an update waits.
#[derive(Default)]
pub struct Coalescer {
    last: HashMap<String, (Instant, bool)>,
}

impl Coalescer {
    /// A change of `key` at `now`.
    pub fn change(&mut self, key: &str, now: Instant) -> Due {
        match self.last.get_mut(key) {
            None => {
                self.last.insert(key.to_string(), (now, false));
                Due::Now
            }
            Some((_, true)) => Due::Joined,
            Some((at, waiting)) => {
                let since = now.saturating_duration_since(*at);
                if since >= INTERVAL {
                    *at = now;
                    Due::Now
                } else {
                    *waiting = true;
                    Due::After(INTERVAL - since)
                }
            }
        }
    }

    /// The waiting update of `key` went out at `now`.
    pub fn sent(&mut self, key: &str, now: Instant) {
        self.last.insert(key.to_string(), (now, false));
    }

    /// Forgets resources not updated for a while (so the map stays small).
    pub fn prune(&mut self, now: Instant) {
        self.last.retain(|_, (at, waiting)| {
            *waiting || now.saturating_duration_since(*at) < INTERVAL * 10
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_gives_one_update_now_and_one_after_the_interval() {
        let mut c = Coalescer::default();
        let t0 = Instant::now();
        assert_eq!(c.change("a", t0), Due::Now);
        assert_eq!(
            c.change("a", t0 + Duration::from_millis(100)),
            Due::After(Duration::from_millis(900))
        );
        assert_eq!(c.change("a", t0 + Duration::from_millis(200)), Due::Joined);
        assert_eq!(c.change("b", t0 + Duration::from_millis(200)), Due::Now);
        c.sent("a", t0 + INTERVAL);
        assert_eq!(
            c.change("a", t0 + INTERVAL + Duration::from_millis(10)),
            Due::After(Duration::from_millis(990))
        );
        assert_eq!(c.change("b", t0 + Duration::from_secs(5)), Due::Now);
    }
}
