//! The wall clock in Unix milliseconds, with which the real server stamps `CreateAt`, `UpdateAt`
//! and the rest of what a request stores.

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, in milliseconds since the Unix epoch (`model.GetMillis`).
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
