//! The state a team's instances share in Redis (`MATTERMOST_MCP_REDIS_URL`). Every key is under
//! `mattermost-mcp:<12 hex digits of the SHA-256 of the Mattermost URL>:`, so deployments for
//! different Mattermost servers can share one Redis, and every key expires:
//!
//! | key | holds | expires |
//! |---|---|---|
//! | `session:<sha256 of the session id>` | the session's `initialize` parameters (rmcp's [`SessionState`]) | 24 h after the session opened |
//! | `owner:<sha256 of the session id>` | the SHA-256 of the opener's token | 24 h after the session opened |
//! | `rate:<sha256 of the token>` | the person's bucket: tokens left, when last taken | once the bucket would be full again (at most 61 s) |
//! | `calls:<sha256 of the token>` | the person's running calls, each scored by when it is forgotten | the call budget + 30 s after the last call began |
//! | `verdict:<sha256 of the token>` | what Mattermost said of the token: whose it is (user id, username), or its refusal | the token check interval |
//! | `answer:<nonce>` | that a 2026-07-28 confirmation's answer was used | 10 minutes (as long as the question is good) |
//! | `sealing-key` | the key every instance seals 2026-07-28 questions with (made by the first instance) | never (a server's key, no person's) |
//!
//! When Redis does not answer (within 1 s), each instance falls back to what it does alone: its own
//! limits per person, its own token checks with Mattermost (never trusting a token it could not
//! check), and only the sessions it holds. It warns once when Redis goes away and once when it is
//! back, tries Redis again at most once a second meanwhile, and `/readyz` says so.

use crate::confirm::SharedAnswers;
use crate::serve::limits::Over;
use crate::serve::people::{Key, Person};
use crate::serve::team_state::local::admit_here;
use crate::serve::team_state::store::{
    CallSlot, Health, Known, SESSION_KEPT_FOR, TeamState, Verdict, session_name,
};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use rmcp::transport::streamable_http_server::session::{
    SessionState, SessionStore, SessionStoreError,
};
use sha2::{Digest, Sha256};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one Redis command may take before Redis counts as gone.
const ANSWER_WITHIN: Duration = Duration::from_secs(1);
/// After Redis failed, how long the server does without it before trying again.
const TRY_AGAIN_AFTER: Duration = Duration::from_secs(1);
/// How much longer than the call budget a call's place is held if its instance never frees it
/// (the instance stopped mid-call).
const CALL_HELD_BEYOND_BUDGET: Duration = Duration::from_secs(30);

/// What the limits are.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub(crate) per_minute: u32,
    pub(crate) concurrency: usize,
    /// The longest a call may run (`MATTERMOST_CALL_BUDGET_SECS`).
    pub(crate) budget: Duration,
    /// How long a token's verdict is trusted (`MATTERMOST_MCP_TOKEN_CHECK_SECS`).
    pub(crate) check_every: Duration,
}

/// Since when Redis has not answered, and why.
#[derive(Default)]
struct Outage {
    since: Option<Instant>,
    why: String,
    next_try: Option<Instant>,
}

struct Inner {
    /// Where Redis is, without any password: `redis 127.0.0.1:6379 db 0`.
    store: String,
    conn: ConnectionManager,
    prefix: String,
    limits: Limits,
    admit: redis::Script,
    outage: Mutex<Outage>,
    /// This instance's random tag and a counter: the ids of its calls' places.
    instance: String,
    calls: AtomicU64,
}

/// The team's state in Redis.
pub(crate) struct RedisState(Arc<Inner>);

/// rmcp's external session store in Redis.
pub(crate) struct RedisSessions(Arc<Inner>);

/// 2026-07-28 answers shared in Redis.
pub(crate) struct RedisAnswers(Arc<Inner>);

/// The URL with its password replaced, to quote in an error.
pub(crate) fn redacted(url: &str) -> String {
    match url::Url::parse(url.trim()) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("REDACTED"));
            u.to_string()
        }
        Ok(u) => u.to_string(),
        Err(_) => "(not a URL)".to_string(),
    }
}

impl RedisState {
    /// Prepares the connection (made on first use, so a Redis that is down at start only means
    /// each instance works alone until it answers). An address that is not one stops the server.
    pub(crate) fn open(
        url: &str,
        mattermost_url: &str,
        limits: Limits,
    ) -> Result<RedisState, String> {
        let refused = |why: String| {
            format!(
                "{}={:?} is not accepted: {why}. Give redis://[:PASSWORD@]HOST[:PORT][/DB], e.g. \
                 redis://127.0.0.1:6379/0, or redis+unix:///run/redis/redis.sock (TLS to Redis is not built in: \
                 reach a remote Redis through a tunnel such as stunnel or spiped).",
                crate::config::REDIS_URL,
                redacted(url)
            )
        };
        let client = redis::Client::open(url.trim()).map_err(|e| refused(e.to_string()))?;
        let info = client.get_connection_info();
        let store = format!("redis {} db {}", info.addr(), info.redis_settings().db());
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(ANSWER_WITHIN))
            .set_response_timeout(Some(ANSWER_WITHIN))
            .set_number_of_retries(1)
            .set_min_delay(Duration::from_millis(50));
        let conn = ConnectionManager::new_lazy_with_config(client, config)
            .map_err(|e| refused(e.to_string()))?;
        let namespace = crate::hex::hex(&Sha256::digest(mattermost_url.as_bytes())[..6]);
        let mut tag = [0u8; 8];
        getrandom::fill(&mut tag).map_err(|e| format!("no randomness from the system: {e}"))?;
        Ok(RedisState(Arc::new(Inner {
            store,
            conn,
            prefix: format!("mattermost-mcp:{namespace}:"),
            limits,
            admit: redis::Script::new(include_str!("admit.lua")),
            outage: Mutex::new(Outage::default()),
            instance: crate::hex::hex(&tag),
            calls: AtomicU64::new(0),
        })))
    }

    /// Where Redis is, without any password.
    pub(crate) fn store(&self) -> &str {
        &self.0.store
    }
}

impl Inner {
    fn key(&self, kind: &str, name: &str) -> String {
        format!("{}{kind}:{name}", self.prefix)
    }

    /// Why Redis is being done without, while it is.
    fn resting(&self) -> Option<String> {
        let o = self.outage.lock().ok()?;
        o.next_try
            .filter(|t| Instant::now() < *t)
            .map(|_| o.why.clone())
    }

    fn failed(&self, what: &str, why: String) -> String {
        let why = format!("{what}: {why}");
        if let Ok(mut o) = self.outage.lock() {
            if o.since.is_none() {
                o.since = Some(Instant::now());
                crate::log::warn(&format!(
                    "{} does not answer ({why}). Until it does, each instance limits each person by itself (across \
                     N instances a person may send N times {}), checks tokens with Mattermost itself, and continues \
                     only the 2025-11-25 sessions it holds; /readyz says so. Trying again every {} s.",
                    self.store,
                    crate::config::PERSON_RATE,
                    TRY_AGAIN_AFTER.as_secs()
                ));
            }
            o.why = why.clone();
            o.next_try = Some(Instant::now() + TRY_AGAIN_AFTER);
        }
        why
    }

    fn answered(&self) {
        if let Ok(mut o) = self.outage.lock()
            && let Some(since) = o.since.take()
        {
            o.next_try = None;
            crate::log::info(&format!(
                "{} answers again after {} s: limits, token checks and sessions are shared again.",
                self.store,
                since.elapsed().as_secs()
            ));
        }
    }

    /// Runs one Redis operation, unless Redis is being done without; its failure starts (or
    /// prolongs) an outage.
    async fn run<T>(
        &self,
        what: &str,
        op: impl Future<Output = redis::RedisResult<T>>,
    ) -> Result<T, String> {
        if let Some(why) = self.resting() {
            return Err(why);
        }
        match tokio::time::timeout(ANSWER_WITHIN, op).await {
            Ok(Ok(v)) => {
                self.answered();
                Ok(v)
            }
            Ok(Err(e)) => Err(self.failed(what, e.to_string())),
            Err(_) => Err(self.failed(
                what,
                format!("no answer within {} s", ANSWER_WITHIN.as_secs()),
            )),
        }
    }
}

/// A running call's place in Redis; dropping it frees the place (or, if Redis is gone by then,
/// the place is forgotten when its time is up).
struct SharedCall {
    inner: Arc<Inner>,
    key: String,
    id: String,
}

impl Drop for SharedCall {
    fn drop(&mut self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let (inner, key, id) = (
            self.inner.clone(),
            std::mem::take(&mut self.key),
            std::mem::take(&mut self.id),
        );
        runtime.spawn(async move {
            let mut c = inner.conn.clone();
            let _ = inner
                .run(
                    "freeing a call's place",
                    redis::cmd("ZREM")
                        .arg(&key)
                        .arg(&id)
                        .query_async::<i64>(&mut c),
                )
                .await;
        });
    }
}

#[async_trait::async_trait]
impl TeamState for RedisState {
    async fn health(&self) -> Health {
        let inner = &self.0;
        let mut c = inner.conn.clone();
        match inner
            .run("PING", redis::cmd("PING").query_async::<String>(&mut c))
            .await
        {
            Ok(_) => Health::Shared {
                store: inner.store.clone(),
            },
            Err(why) => Health::Unreachable {
                store: inner.store.clone(),
                why,
            },
        }
    }

    fn sessions(&self) -> Option<Arc<dyn SessionStore>> {
        Some(Arc::new(RedisSessions(self.0.clone())))
    }

    fn answers(&self) -> Option<Arc<dyn SharedAnswers>> {
        Some(Arc::new(RedisAnswers(self.0.clone())))
    }

    async fn record_owner(&self, session_id: &str, owner: Key) -> Result<(), String> {
        let inner = &self.0;
        let mut c = inner.conn.clone();
        inner
            .run(
                "recording a session's owner",
                redis::cmd("SET")
                    .arg(inner.key("owner", &session_name(session_id)))
                    .arg(owner.hex())
                    .arg("EX")
                    .arg(SESSION_KEPT_FOR.as_secs())
                    .query_async::<()>(&mut c),
            )
            .await
    }

    async fn owner_of(&self, session_id: &str) -> Result<Option<String>, String> {
        let inner = &self.0;
        let mut c = inner.conn.clone();
        inner
            .run(
                "reading a session's owner",
                redis::cmd("GET")
                    .arg(inner.key("owner", &session_name(session_id)))
                    .query_async::<Option<String>>(&mut c),
            )
            .await
    }

    async fn admit(&self, person: &Person, call: bool) -> Result<Option<CallSlot>, Over> {
        let inner = &self.0;
        let l = inner.limits;
        let hold = l.budget + CALL_HELD_BEYOND_BUDGET;
        let id = format!(
            "{}-{}",
            inner.instance,
            inner.calls.fetch_add(1, Ordering::Relaxed)
        );
        let calls_key = inner.key("calls", &person.key.hex());
        let mut c = inner.conn.clone();
        let mut invocation = inner.admit.key(inner.key("rate", &person.key.hex()));
        invocation
            .key(&calls_key)
            .arg(l.per_minute.max(1))
            .arg(u8::from(call))
            .arg(l.concurrency.max(1))
            .arg(hold.as_millis() as u64)
            .arg(&id);
        let answer = inner
            .run(
                "counting a request",
                invocation.invoke_async::<(i64, i64)>(&mut c),
            )
            .await;
        match answer {
            Ok((0, _)) => Ok(call.then(|| {
                CallSlot::new(SharedCall {
                    inner: inner.clone(),
                    key: calls_key,
                    id,
                })
            })),
            Ok((1, wait_ms)) => {
                let wait = u64::try_from(wait_ms).unwrap_or(1000);
                Err(Over::Rate {
                    per_minute: l.per_minute,
                    retry_after: wait.div_ceil(1000).max(1),
                })
            }
            Ok((2, _)) => Err(Over::Concurrency {
                limit: l.concurrency,
            }),
            Ok((code, _)) => {
                let _ = inner.failed("counting a request", format!("unknown answer {code}"));
                admit_here(person, call)
            }
            Err(_) => admit_here(person, call),
        }
    }

    async fn verdict(&self, person: Key) -> Option<Known> {
        let inner = &self.0;
        let key = inner.key("verdict", &person.hex());
        let mut c = inner.conn.clone();
        let (stored, ttl_ms) = inner
            .run(
                "reading a token's verdict",
                redis::pipe()
                    .get(&key)
                    .pttl(&key)
                    .query_async::<(Option<String>, i64)>(&mut c),
            )
            .await
            .ok()?;
        let verdict: Verdict = serde_json::from_str(&stored?).ok()?;
        let left = Duration::from_millis(u64::try_from(ttl_ms).ok()?);
        Some(Known {
            verdict,
            age: inner.limits.check_every.saturating_sub(left),
        })
    }

    async fn remember(&self, person: Key, verdict: Verdict) {
        let inner = &self.0;
        let Ok(stored) = serde_json::to_string(&verdict) else {
            return;
        };
        let mut c = inner.conn.clone();
        let _ = inner
            .run(
                "sharing a token's verdict",
                redis::cmd("SET")
                    .arg(inner.key("verdict", &person.hex()))
                    .arg(stored)
                    .arg("PX")
                    .arg(inner.limits.check_every.as_millis().max(1) as u64)
                    .query_async::<()>(&mut c),
            )
            .await;
    }
}

#[async_trait::async_trait]
impl SessionStore for RedisSessions {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let inner = &self.0;
        let mut c = inner.conn.clone();
        // Redis gone: the session is unknown here (404), and the client starts a new one.
        let Ok(stored) = inner
            .run(
                "reading a session",
                redis::cmd("GET")
                    .arg(inner.key("session", &session_name(session_id)))
                    .query_async::<Option<String>>(&mut c),
            )
            .await
        else {
            return Ok(None);
        };
        match stored {
            Some(text) => Ok(Some(serde_json::from_str(&text)?)),
            None => Ok(None),
        }
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let inner = &self.0;
        let mut c = inner.conn.clone();
        inner
            .run(
                "recording a session",
                redis::cmd("SET")
                    .arg(inner.key("session", &session_name(session_id)))
                    .arg(serde_json::to_string(state)?)
                    .arg("EX")
                    .arg(SESSION_KEPT_FOR.as_secs())
                    .query_async::<()>(&mut c),
            )
            .await
            .map_err(|why| why.into())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        let inner = &self.0;
        let name = session_name(session_id);
        let mut c = inner.conn.clone();
        inner
            .run(
                "removing a session",
                redis::cmd("DEL")
                    .arg(inner.key("session", &name))
                    .arg(inner.key("owner", &name))
                    .query_async::<i64>(&mut c),
            )
            .await
            .map(|_| ())
            .map_err(|why| why.into())
    }
}

#[async_trait::async_trait]
impl SharedAnswers for RedisAnswers {
    async fn sealing_key(&self) -> Result<[u8; 32], String> {
        let inner = &self.0;
        let key = format!("{}sealing-key", inner.prefix);
        let mut fresh = [0u8; 32];
        getrandom::fill(&mut fresh).map_err(|e| format!("no randomness from the system: {e}"))?;
        let hex = crate::hex::hex(&fresh);
        let mut c = inner.conn.clone();
        // The first instance's key stays; every instance reads the one that stayed.
        let (_, kept) = inner
            .run(
                "sharing the sealing key",
                redis::pipe()
                    .cmd("SET")
                    .arg(&key)
                    .arg(&hex)
                    .arg("NX")
                    .cmd("GET")
                    .arg(&key)
                    .query_async::<(Option<String>, String)>(&mut c),
            )
            .await?;
        let bytes: Vec<u8> = (0..kept.len())
            .step_by(2)
            .filter_map(|i| {
                kept.get(i..i + 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
            })
            .collect();
        <[u8; 32]>::try_from(bytes)
            .map_err(|_| format!("{key} in Redis does not hold a key of 32 bytes in hex"))
    }

    async fn use_once(&self, nonce: &str, ttl: Duration) -> Result<bool, String> {
        let inner = &self.0;
        let mut c = inner.conn.clone();
        let set = inner
            .run(
                "recording a used answer",
                redis::cmd("SET")
                    .arg(inner.key("answer", nonce))
                    .arg(1)
                    .arg("NX")
                    .arg("PX")
                    .arg(ttl.as_millis().max(1) as u64)
                    .query_async::<Option<String>>(&mut c),
            )
            .await?;
        Ok(set.is_some())
    }
}
