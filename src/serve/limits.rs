//! Each person's limits over HTTP: how many calls they may have running at once (a semaphore whose
//! permit lives as long as the call's response), and how many requests they may send a minute (a
//! bucket refilled evenly). Both answer how long to wait when they refuse.

use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Why a request was refused, and after how many seconds it may be sent again.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Over {
    /// Too many calls of this person are running.
    Concurrency { limit: usize },
    /// This person sent too many requests this minute.
    Rate { per_minute: u32, retry_after: u64 },
}

impl Over {
    /// Seconds after which the request may be sent again.
    pub(crate) fn retry_after(&self) -> u64 {
        match self {
            Over::Concurrency { .. } => 1,
            Over::Rate { retry_after, .. } => *retry_after,
        }
    }

    /// What the person reads.
    pub(crate) fn message(&self) -> String {
        match self {
            Over::Concurrency { limit } => format!(
                "You already have {limit} calls running on this server, the most one person may \
                 (MATTERMOST_MCP_PERSON_CONCURRENCY). Wait for one to finish, then send this again."
            ),
            Over::Rate {
                per_minute,
                retry_after,
            } => format!(
                "You sent more than {per_minute} requests this minute, the most one person may \
                 (MATTERMOST_MCP_PERSON_RATE). Send this again in {retry_after} s."
            ),
        }
    }
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// One person's limits.
pub(crate) struct PersonLimits {
    calls: Arc<Semaphore>,
    concurrency: usize,
    per_minute: u32,
    bucket: Mutex<Bucket>,
}

impl PersonLimits {
    pub(crate) fn new(concurrency: usize, per_minute: u32) -> PersonLimits {
        PersonLimits {
            calls: Arc::new(Semaphore::new(concurrency.max(1))),
            concurrency: concurrency.max(1),
            per_minute: per_minute.max(1),
            bucket: Mutex::new(Bucket {
                tokens: f64::from(per_minute.max(1)),
                at: Instant::now(),
            }),
        }
    }

    /// Takes one request from the bucket.
    pub(crate) fn take_request(&self) -> Result<(), Over> {
        let per_minute = f64::from(self.per_minute);
        let per_second = per_minute / 60.0;
        let Ok(mut b) = self.bucket.lock() else {
            return Ok(());
        };
        let now = Instant::now();
        let refill = now.duration_since(b.at).as_secs_f64() * per_second;
        b.tokens = (b.tokens + refill).min(per_minute);
        b.at = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            let wait = Duration::from_secs_f64((1.0 - b.tokens) / per_second);
            Err(Over::Rate {
                per_minute: self.per_minute,
                retry_after: wait.as_secs().max(1) + u64::from(wait.subsec_nanos() > 0),
            })
        }
    }

    /// A place for one running call, held until the call's response is done.
    pub(crate) fn take_call(&self) -> Result<OwnedSemaphorePermit, Over> {
        self.calls
            .clone()
            .try_acquire_owned()
            .map_err(|_| Over::Concurrency {
                limit: self.concurrency,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_refuses_past_its_rate_and_says_when() {
        let l = PersonLimits::new(2, 3);
        for _ in 0..3 {
            assert_eq!(l.take_request(), Ok(()));
        }
        match l.take_request() {
            Err(Over::Rate { retry_after, .. }) => assert!((1..=21).contains(&retry_after)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn calls_are_limited_while_their_permits_live() {
        let l = PersonLimits::new(2, 100);
        let a = l.take_call().expect("first");
        let _b = l.take_call().expect("second");
        assert!(matches!(l.take_call(), Err(Over::Concurrency { limit: 2 })));
        drop(a);
        assert!(l.take_call().is_ok());
    }
}
