//! The state a team's instances share: 2025-11-25 sessions and their owners, each person's rate
//! bucket and running calls, and the verdicts of token checks — in Redis when
//! `MATTERMOST_MCP_REDIS_URL` is set ([`redis_store`]), else in this instance alone, with sessions
//! in the session directory when `MATTERMOST_MCP_SESSION_DIR` is set ([`local`],
//! [`session_dir`]). Both behind one trait ([`store::TeamState`]). Cursors need no shared state:
//! they carry everything they continue, and the person they were made for is checked from the
//! cursor itself.

pub(crate) mod local;
pub(crate) mod redis_store;
pub(crate) mod session_dir;
pub(crate) mod store;

use crate::serve::settings::HttpSettings;
use std::sync::Arc;
use std::time::Duration;
use store::TeamState;

/// The store the settings ask for.
pub(crate) fn open(
    settings: &HttpSettings,
    mattermost_url: &str,
    budget: Duration,
) -> Result<Arc<dyn TeamState>, String> {
    match (&settings.redis_url, &settings.session_dir) {
        (Some(_), Some(dir)) => Err(format!(
            "{} and {}={} are both set: sessions are shared through one of them. Unset {} (Redis holds the \
             sessions too), or unset {} to share them through the directory alone.",
            crate::config::REDIS_URL,
            crate::config::SESSION_DIR,
            dir.display(),
            crate::config::SESSION_DIR,
            crate::config::REDIS_URL
        )),
        (Some(url), None) => {
            let redis = redis_store::RedisState::open(
                url.expose(),
                mattermost_url,
                redis_store::Limits {
                    per_minute: settings.person_rate,
                    concurrency: settings.person_concurrency,
                    budget,
                    check_every: settings.token_check,
                },
            )?;
            crate::log::info(&format!(
                "sharing sessions, each person's limits and token checks with every instance in {}",
                redis.store()
            ));
            Ok(Arc::new(redis))
        }
        (None, dir) => {
            let dir = dir.clone().map(session_dir::DirStore::new).transpose()?;
            Ok(Arc::new(local::Local::new(dir)))
        }
    }
}
