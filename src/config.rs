//! Configuration, from the environment only: where Mattermost is, the token, and the transport's
//! limits. The token is never a flag, never logged, never part of an error or a result.

use std::path::PathBuf;
use std::time::Duration;

pub const URL: &str = "MATTERMOST_URL";
pub const TOKEN: &str = "MATTERMOST_TOKEN";
pub const TIMEOUT: &str = "MATTERMOST_TIMEOUT_SECS";
pub const BUDGET: &str = "MATTERMOST_CALL_BUDGET_SECS";
pub const CA_FILE: &str = "MATTERMOST_CA_FILE";
pub const ALLOW_HTTP: &str = "MATTERMOST_ALLOW_HTTP";
pub const ALLOW_WRITES: &str = "MATTERMOST_ALLOW_WRITES";
pub const TOOLSETS: &str = "MATTERMOST_TOOLSETS";
pub const PUBLIC_URL: &str = "MATTERMOST_MCP_PUBLIC_URL";
pub const ALLOWED_ORIGINS: &str = "MATTERMOST_MCP_ALLOWED_ORIGINS";
pub const MAX_BODY_BYTES: &str = "MATTERMOST_MCP_MAX_BODY_BYTES";
pub const PERSON_CONCURRENCY: &str = "MATTERMOST_MCP_PERSON_CONCURRENCY";
pub const PERSON_RATE: &str = "MATTERMOST_MCP_PERSON_RATE";
pub const MAX_PEOPLE: &str = "MATTERMOST_MCP_MAX_PEOPLE";
pub const PERSON_IDLE: &str = "MATTERMOST_MCP_PERSON_IDLE_SECS";
pub const TOKEN_CHECK: &str = "MATTERMOST_MCP_TOKEN_CHECK_SECS";
pub const CACHE_BYTES: &str = "MATTERMOST_MCP_CACHE_BYTES";
pub const SESSION_DIR: &str = "MATTERMOST_MCP_SESSION_DIR";
pub const REDIS_URL: &str = "MATTERMOST_MCP_REDIS_URL";
pub const STATELESS: &str = "MATTERMOST_MCP_STATELESS";
pub const SHUTDOWN: &str = "MATTERMOST_MCP_SHUTDOWN_SECS";
pub const CONFIRM_WRITES: &str = "MATTERMOST_CONFIRM_WRITES";
pub const CONTENT: &str = "MATTERMOST_CONTENT";
pub const HEADER_TIMEOUT: &str = "MATTERMOST_MCP_HEADER_TIMEOUT_SECS";
pub const IDLE_TIMEOUT: &str = "MATTERMOST_MCP_IDLE_TIMEOUT_SECS";
pub const BODY_TIMEOUT: &str = "MATTERMOST_MCP_BODY_TIMEOUT_SECS";
pub const MAX_CONNECTIONS: &str = "MATTERMOST_MCP_MAX_CONNECTIONS";
pub const MAX_CONNECTIONS_PER_ADDRESS: &str = "MATTERMOST_MCP_MAX_CONNECTIONS_PER_ADDRESS";
pub const PERSON_SESSIONS: &str = "MATTERMOST_MCP_PERSON_SESSIONS";
pub const MAX_SESSIONS: &str = "MATTERMOST_MCP_MAX_SESSIONS";
pub const MAX_WATCHES: &str = "MATTERMOST_MCP_MAX_WATCHES";
pub const MAX_WATCHERS: &str = "MATTERMOST_MCP_MAX_WATCHERS";
pub const WATCH_IDLE: &str = "MATTERMOST_MCP_WATCH_IDLE_SECS";

/// Every variable the server reads, with its default and meaning (the README's configuration table).
pub const VARIABLES: &[(&str, &str, &str)] = &[
    (
        URL,
        "required",
        "The Mattermost server's address, e.g. https://chat.example.com (a trailing /api/v4 is dropped).",
    ),
    (
        TOKEN,
        "required",
        "A personal access token or a bot token. Never logged, never in a result. Over stdio only: `serve --http` takes each person's token from their requests and ignores this one.",
    ),
    (TIMEOUT, "30", "Seconds one Mattermost request may take."),
    (
        BUDGET,
        "120",
        "Seconds one tool call may take in all, retries and waits included.",
    ),
    (
        CA_FILE,
        "unset",
        "A PEM file of extra certificate authorities to trust, beside the system's.",
    ),
    (
        ALLOW_HTTP,
        "false",
        "true allows plain http:// to a host other than this machine (the token then crosses the network unencrypted).",
    ),
    (
        ALLOW_WRITES,
        "false",
        "true also offers the tools that change something in Mattermost (toolset writes); without it no tool that writes is listed or callable, whatever MATTERMOST_TOOLSETS says.",
    ),
    (
        CONFIRM_WRITES,
        "ask",
        "ask: every write others will see (a post, a message, an edit, a deletion, a reaction, a pin, a join or leave, members added, a channel created, a status) is first confirmed with the person through their MCP client; a client that cannot ask gets the write refused. never: nothing asks; set it only when the client shows its own approval for every tool call.",
    ),
    (
        CONTENT,
        "all",
        "all: every post's text, each post saying whose it is when it is not an ordinary member's (you, bot, webhook, app, guest, remote). trusted-only: the text of posts by guests, bots, webhooks, apps and users of other servers (shared channels) is withheld, each such post saying so and where to read it.",
    ),
    (
        TOOLSETS,
        "people,teams,channels,posts,files,writes",
        "The groups of tools listed, comma-separated, or all: people, teams, channels, posts, files, writes (still only with MATTERMOST_ALLOW_WRITES=true), api (the operation gateway). An unknown name stops the server at start.",
    ),
    (
        MAX_WATCHES,
        "50",
        "Resources one person may watch at once (subscriptions and wait_for_activity together); past it a subscription is refused naming this setting.",
    ),
    (
        WATCH_IDLE,
        "30",
        "Seconds a person's Mattermost WebSocket stays open after the last thing they watched ends (so back-to-back waits keep it); then it is closed.",
    ),
    (
        MAX_WATCHERS,
        "1000",
        "Persons who may watch at once, each with one Mattermost WebSocket (over stdio there is one); past it a subscription is refused naming this setting.",
    ),
    (
        PUBLIC_URL,
        "http://ADDR",
        "HTTP mode: the address clients reach this server at, e.g. https://mcp.example.com (behind a proxy, the proxy's). Names the resource in the OAuth metadata; its host is allowed in Host and its origin in Origin. Required when ADDR is not a loopback address.",
    ),
    (
        ALLOWED_ORIGINS,
        "the public URL's origin",
        "HTTP mode: further browser origins allowed to call, comma-separated, e.g. http://localhost:6274; their hosts are allowed in Host too. Any other Origin or Host is answered 403.",
    ),
    (
        MAX_BODY_BYTES,
        "1048576",
        "HTTP mode: the largest request body accepted; a larger one is answered 413.",
    ),
    (
        PERSON_CONCURRENCY,
        "8",
        "HTTP mode: calls one person may have running at once; past it, 429 with Retry-After.",
    ),
    (
        PERSON_RATE,
        "600",
        "HTTP mode: requests one person may send a minute (a bucket of that many, refilled evenly); past it, 429 with Retry-After.",
    ),
    (
        MAX_PEOPLE,
        "10000",
        "HTTP mode: persons kept in memory at once; past it the least recently seen is forgotten (their next request checks their token again).",
    ),
    (
        PERSON_IDLE,
        "900",
        "HTTP mode: seconds after which a person who sent nothing is forgotten, with everything kept for them.",
    ),
    (
        TOKEN_CHECK,
        "60",
        "HTTP mode: seconds a token checked with Mattermost (GET /users/me) is trusted before it is checked again.",
    ),
    (
        CACHE_BYTES,
        "268435456",
        "HTTP mode: the bytes all persons' caches may hold together; past it the least recently seen persons are forgotten.",
    ),
    (
        SESSION_DIR,
        "unset",
        "HTTP mode: a directory shared by every instance where 2025-11-25 sessions are recorded (their initialize parameters and the hash of their owner's token), so any instance continues any session. Unset: sessions live in the instance that made them (route sticky by person, or use stateless clients).",
    ),
    (
        REDIS_URL,
        "unset",
        "HTTP mode: a Redis every instance shares, e.g. redis://redis.internal:6379/0 (or redis+unix:///run/redis/redis.sock): 2025-11-25 sessions and their owners, each person's rate bucket and running calls, and the verdicts of token checks, all by SHA-256 and all expiring, so N instances enforce one person's limits once and any instance continues any session. When Redis does not answer, each instance limits by itself and checks tokens with Mattermost, and /readyz says so. Not with MATTERMOST_MCP_SESSION_DIR.",
    ),
    (
        STATELESS,
        "false",
        "HTTP mode: true serves 2025-11-25 clients without sessions too (each request alone; no server-to-client requests, so no confirmation by elicitation).",
    ),
    (
        SHUTDOWN,
        "30",
        "HTTP mode: seconds SIGTERM waits for calls in flight to finish before the server stops.",
    ),
    (
        HEADER_TIMEOUT,
        "10",
        "HTTP mode: seconds a connection may take to send a request's headers (from when it opens, or from its first byte after the last answer); then it is closed.",
    ),
    (
        IDLE_TIMEOUT,
        "60",
        "HTTP mode: seconds a kept-alive connection may stay open with no request in flight and nothing sent; then it is closed.",
    ),
    (
        BODY_TIMEOUT,
        "30",
        "HTTP mode: seconds a request's body may take to arrive in full; a slower one is answered 408 and its connection closed.",
    ),
    (
        MAX_CONNECTIONS,
        "1024",
        "HTTP mode: open connections in all (lowered to fit the process's file-descriptor limit, which the server raises at start where it can). Past it, the connection idle longest, of the address holding the most, is closed for the new one.",
    ),
    (
        MAX_CONNECTIONS_PER_ADDRESS,
        "256",
        "HTTP mode: open connections from one client address. Past it, that address's connection idle longest is closed for the new one, or the new one is refused when all are busy. Behind a proxy every connection comes from the proxy: raise it to the total.",
    ),
    (
        PERSON_SESSIONS,
        "32",
        "HTTP mode: 2025-11-25 sessions one person may hold open; opening one more ends their least recently used.",
    ),
    (
        MAX_SESSIONS,
        "4096",
        "HTTP mode: 2025-11-25 sessions open in all; past it, the least recently used session of the person holding the most is ended.",
    ),
];

/// Whether writes others will see are confirmed with the person first (`MATTERMOST_CONFIRM_WRITES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConfirmWrites {
    /// Ask through the MCP client (elicitation) before each such write; refuse when it cannot ask.
    #[default]
    Ask,
    /// Never ask: the client approves every tool call itself.
    Never,
}

impl ConfirmWrites {
    fn parse(value: Option<String>) -> Result<ConfirmWrites, String> {
        match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            None | Some("") | Some("ask") => Ok(ConfirmWrites::Ask),
            Some("never") => Ok(ConfirmWrites::Never),
            Some(v) => Err(format!(
                "{CONFIRM_WRITES}={v:?} is not accepted: use ask (the default: writes others will see are \
                 confirmed with you first) or never (your MCP client approves every tool call itself)."
            )),
        }
    }
}

/// Which posts' text tools show (`MATTERMOST_CONTENT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Content {
    /// Every post's text, each post saying whose it is.
    #[default]
    All,
    /// Only the text of posts by the person and by ordinary members; the others' text is withheld.
    TrustedOnly,
}

impl Content {
    fn parse(value: Option<String>) -> Result<Content, String> {
        match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            None | Some("") | Some("all") => Ok(Content::All),
            Some("trusted-only") => Ok(Content::TrustedOnly),
            Some(other) => Err(format!(
                "{CONTENT}={other:?} is not accepted: use all (every post's text, each post saying whose it is) \
                 or trusted-only (the text of guests', bots', webhooks', apps' and remote users' posts withheld)."
            )),
        }
    }
}

pub use mattermost_client::Secret;

#[derive(Debug, Clone)]
pub struct Config {
    /// The server root, without a trailing slash or `/api/v4`.
    pub url: String,
    pub token: Secret,
    pub timeout: Duration,
    pub budget: Duration,
    pub ca_file: Option<PathBuf>,
    /// Offer the tools that write.
    pub allow_writes: bool,
    /// `MATTERMOST_TOOLSETS` as given (checked by `crate::inventory::Offer`).
    pub toolsets: Option<String>,
    /// Whether writes others will see are confirmed with the person first.
    pub confirm_writes: ConfirmWrites,
    /// Which posts' text tools show.
    pub content: Content,
}

pub(crate) fn seconds(name: &str, value: Option<String>, default: u64) -> Result<Duration, String> {
    match value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
    {
        None => Ok(Duration::from_secs(default)),
        Some(v) => match v.parse::<u64>() {
            Ok(n) if (1..=3600).contains(&n) => Ok(Duration::from_secs(n)),
            _ => Err(format!(
                "{name}={v:?} is not accepted: give whole seconds from 1 to 3600 (default {default})."
            )),
        },
    }
}

pub(crate) fn boolean(name: &str, value: Option<String>) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        None | Some("") | Some("false") | Some("0") | Some("no") | Some("off") => Ok(false),
        Some("true") | Some("1") | Some("yes") | Some("on") => Ok(true),
        Some(v) => Err(format!("{name}={v:?} is not accepted: use true or false.")),
    }
}

fn is_loopback(host: &url::Host<&str>) -> bool {
    match host {
        url::Host::Domain(d) => d.eq_ignore_ascii_case("localhost"),
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => ip.is_loopback(),
    }
}

/// Checks and normalizes a Mattermost address.
pub fn normalize_url(raw: &str, allow_http: bool) -> Result<String, String> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err(format!(
            "{URL} is not set: give the address of your Mattermost server, e.g. {URL}=https://chat.example.com"
        ));
    }
    let url = reqwest::Url::parse(raw).map_err(|e| {
        format!("{URL}={raw:?} is not an address ({e}); give it with its scheme, e.g. https://chat.example.com")
    })?;
    let Some(host) = url.host() else {
        return Err(format!(
            "{URL}={raw:?} has no host; give e.g. https://chat.example.com"
        ));
    };
    match url.scheme() {
        "https" => {}
        "http" if allow_http || is_loopback(&host) => {}
        "http" => {
            return Err(format!(
                "{URL}={raw:?} is plain http to another machine, which would send the token unencrypted. Use \
                 https://, or set {ALLOW_HTTP}=true if you accept that risk."
            ));
        }
        other => {
            return Err(format!(
                "{URL}={raw:?} has the scheme {other:?}; use https:// (or http:// for this machine)"
            ));
        }
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!(
            "{URL}={raw:?} has a query or fragment; give only the server's address"
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!(
            "{URL} must not carry a user name or password; the token goes in {TOKEN}"
        ));
    }
    let mut s = url.as_str().trim_end_matches('/').to_string();
    if let Some(stripped) = s.strip_suffix("/api/v4") {
        s = stripped.to_string();
    }
    Ok(s)
}

impl Config {
    /// Reads the configuration through `get` (the process environment in production).
    pub fn from(get: impl Fn(&str) -> Option<String>) -> Result<Config, String> {
        Config::read(get, true)
    }

    /// Reads the configuration for HTTP mode, where each request brings its person's token: the
    /// token stays empty, whatever `MATTERMOST_TOKEN` says.
    pub fn for_http(get: impl Fn(&str) -> Option<String>) -> Result<Config, String> {
        Config::read(get, false)
    }

    fn read(get: impl Fn(&str) -> Option<String>, with_token: bool) -> Result<Config, String> {
        let allow_http = boolean(ALLOW_HTTP, get(ALLOW_HTTP))?;
        let url = normalize_url(&get(URL).unwrap_or_default(), allow_http)?;
        let token = if with_token {
            get(TOKEN).map(|t| t.trim().to_string()).unwrap_or_default()
        } else {
            String::new()
        };
        if with_token && token.is_empty() {
            return Err(format!(
                "{TOKEN} is not set: create a personal access token in Mattermost (Profile > Security > Personal \
                 Access Tokens) or use a bot's token, and set it in the MCP client's env for this server."
            ));
        }
        if token.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!(
                "{TOKEN} contains spaces or control characters; copy the token alone"
            ));
        }
        let ca_file = get(CA_FILE)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .map(PathBuf::from);
        Ok(Config {
            url,
            token: Secret::new(token),
            timeout: seconds(TIMEOUT, get(TIMEOUT), 30)?,
            budget: seconds(BUDGET, get(BUDGET), 120)?,
            ca_file,
            allow_writes: boolean(ALLOW_WRITES, get(ALLOW_WRITES))?,
            toolsets: get(TOOLSETS),
            confirm_writes: ConfirmWrites::parse(get(CONFIRM_WRITES))?,
            content: Content::parse(get(CONTENT))?,
        })
    }

    /// The connection to the configured Mattermost (one pool for every person); a CA file that cannot
    /// be used is named by its variable.
    pub fn connect(&self) -> Result<mattermost_client::Mattermost, String> {
        let options = mattermost_client::Options {
            url: self.url.clone(),
            timeout: self.timeout,
            ca_file: self.ca_file.clone(),
        };
        mattermost_client::Mattermost::connect(&options).map_err(|e| match e {
            mattermost_client::ConnectError::CaFile { .. } => format!("{CA_FILE}={e}"),
            other => other.to_string(),
        })
    }

    pub fn from_env() -> Result<Config, String> {
        Config::from(|name| std::env::var(name).ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_normalized_and_plain_http_only_to_loopback() {
        assert_eq!(
            normalize_url("https://chat.example.com/", false),
            Ok("https://chat.example.com".into())
        );
        assert_eq!(
            normalize_url("https://chat.example.com/api/v4", false),
            Ok("https://chat.example.com".into())
        );
        assert_eq!(
            normalize_url("http://127.0.0.1:8065", false),
            Ok("http://127.0.0.1:8065".into())
        );
        assert_eq!(
            normalize_url("http://localhost:8065", false),
            Ok("http://localhost:8065".into())
        );
        assert!(normalize_url("http://chat.example.com", false).is_err());
        assert_eq!(
            normalize_url("http://chat.example.com", true),
            Ok("http://chat.example.com".into())
        );
        assert!(normalize_url("ftp://x", true).is_err());
        assert!(normalize_url("https://x/?a=b", false).is_err());
        assert!(normalize_url("https://u:p@x", false).is_err());
    }

    #[test]
    fn confirm_writes_is_ask_unless_never_and_refuses_other_words() {
        assert_eq!(ConfirmWrites::parse(None), Ok(ConfirmWrites::Ask));
        assert_eq!(
            ConfirmWrites::parse(Some(" Never ".into())),
            Ok(ConfirmWrites::Never)
        );
        let e = ConfirmWrites::parse(Some("no".into())).unwrap_err();
        assert!(
            e.contains("\"no\"") && e.contains("ask") && e.contains("never"),
            "{e}"
        );
    }

    #[test]
    fn content_takes_all_or_trusted_only() {
        assert_eq!(Content::parse(None), Ok(Content::All));
        assert_eq!(
            Content::parse(Some(" Trusted-Only ".into())),
            Ok(Content::TrustedOnly)
        );
        let e = Content::parse(Some("members".into())).unwrap_err();
        assert!(
            e.contains("\"members\"") && e.contains("trusted-only"),
            "{e}"
        );
    }

    #[test]
    fn the_token_never_prints() {
        let config = Config::from(|k| match k {
            URL => Some("https://x".into()),
            TOKEN => Some("sekrit-token-123".into()),
            _ => None,
        })
        .expect("valid");
        assert!(!format!("{config:?}").contains("sekrit"));
    }
}
