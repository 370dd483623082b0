//! The HTTP server's settings: the address from the command line, the rest from the environment
//! (`MATTERMOST_MCP_*`, see [`crate::config::VARIABLES`]), each checked at start with an error that
//! quotes the value, says what is accepted and how to fix it.

use crate::config::{self, boolean, seconds};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// Where the server listens when `--http` is given without an address.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// An origin: scheme, host and port (the default port of the scheme when not written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub scheme: String,
    pub host: String,
    pub port: u16,
}

impl Origin {
    /// Parses `scheme://host[:port]` (a trailing slash is fine; a path is not).
    pub fn parse(raw: &str) -> Option<Origin> {
        let url = url::Url::parse(raw.trim()).ok()?;
        if !matches!(url.scheme(), "http" | "https") || url.path().len() > 1 {
            return None;
        }
        if url.query().is_some() || url.fragment().is_some() || !url.username().is_empty() {
            return None;
        }
        Some(Origin {
            scheme: url.scheme().to_string(),
            host: url
                .host_str()?
                .trim_matches(['[', ']'])
                .to_ascii_lowercase(),
            port: url.port_or_known_default()?,
        })
    }
}

/// TLS for the listener.
#[derive(Clone, Debug)]
pub struct Tls {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// Everything the HTTP server needs besides the Mattermost configuration.
#[derive(Clone, Debug)]
pub struct HttpSettings {
    pub addr: SocketAddr,
    /// The address clients reach the server at, without a trailing slash.
    pub public_url: String,
    /// Origins allowed in `Origin`.
    pub origins: Vec<Origin>,
    /// Host names allowed in `Host`.
    pub hosts: Vec<String>,
    pub max_body_bytes: usize,
    pub person_concurrency: usize,
    pub person_rate: u32,
    pub max_people: usize,
    pub person_idle: Duration,
    pub token_check: Duration,
    pub cache_bytes: usize,
    pub session_dir: Option<PathBuf>,
    /// `MATTERMOST_MCP_REDIS_URL` (it may hold a password).
    pub redis_url: Option<config::Secret>,
    pub stateless: bool,
    pub shutdown: Duration,
    /// How long a request's headers, a kept-alive connection with nothing to do, and a request's body
    /// may take (`crate::serve::conns`, `crate::serve::body`).
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
    pub body_timeout: Duration,
    /// Open connections in all and from one client address.
    pub max_connections: usize,
    pub max_connections_per_address: usize,
    /// 2025-11-25 sessions one person may hold, and all may.
    pub person_sessions: usize,
    pub max_sessions: usize,
    pub tls: Option<Tls>,
    /// The bounds of watching (`crate::live`).
    pub watch: crate::live::WatchSettings,
    /// Whether the public URL was derived from the address (then it follows the bound port).
    derived: bool,
}

/// Parses the listening address: `HOST:PORT`, or a port alone (then on 127.0.0.1).
pub fn parse_addr(raw: &str) -> Result<SocketAddr, String> {
    let raw = raw.trim();
    if let Ok(port) = raw.trim_start_matches(':').parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    if let Some(port) = raw
        .strip_prefix("localhost:")
        .and_then(|p| p.parse::<u16>().ok())
    {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    raw.parse::<SocketAddr>().map_err(|_| {
        format!(
            "--http {raw:?} is not an address to listen on: give IP:PORT, e.g. 127.0.0.1:8080 (this machine \
             only) or 0.0.0.0:8080 (every interface, behind a TLS proxy), or a port alone."
        )
    })
}

fn count(
    name: &str,
    value: Option<String>,
    default: u64,
    range: (u64, u64),
) -> Result<u64, String> {
    match value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
    {
        None => Ok(default),
        Some(v) => match v.parse::<u64>() {
            Ok(n) if (range.0..=range.1).contains(&n) => Ok(n),
            _ => Err(format!(
                "{name}={v:?} is not accepted: give a whole number from {} to {} (default {default}).",
                range.0, range.1
            )),
        },
    }
}

impl HttpSettings {
    /// Reads the settings through `get` (the process environment in production).
    pub fn from(
        addr: SocketAddr,
        tls: Option<Tls>,
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<HttpSettings, String> {
        let scheme = if tls.is_some() { "https" } else { "http" };
        let loopback = addr.ip().is_loopback();
        let public_url = match get(config::PUBLIC_URL)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
        {
            Some(v) => {
                let url = url::Url::parse(&v).ok().filter(|u| {
                    matches!(u.scheme(), "http" | "https")
                        && u.host_str().is_some()
                        && u.query().is_none()
                        && u.fragment().is_none()
                        && u.username().is_empty()
                });
                match url {
                    Some(u) => u.as_str().trim_end_matches('/').to_string(),
                    None => {
                        return Err(format!(
                            "{}={v:?} is not accepted: give the address clients reach this server at, with its \
                             scheme and without a query, e.g. https://mcp.example.com",
                            config::PUBLIC_URL
                        ));
                    }
                }
            }
            None if loopback => format!("{scheme}://{addr}"),
            None => {
                return Err(format!(
                    "--http {addr} listens beyond this machine, so {} must say where clients reach it (e.g. \
                     https://mcp.example.com, the TLS proxy in front of it): it names the server in the OAuth \
                     metadata and in the Host and Origin checks.",
                    config::PUBLIC_URL
                ));
            }
        };
        let public = url::Url::parse(&public_url).map_err(|e| format!("{public_url}: {e}"))?;
        let mut origins = vec![Origin {
            scheme: public.scheme().to_string(),
            host: public
                .host_str()
                .unwrap_or("")
                .trim_matches(['[', ']'])
                .to_ascii_lowercase(),
            port: public.port_or_known_default().unwrap_or(80),
        }];
        for raw in get(config::ALLOWED_ORIGINS)
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            match Origin::parse(raw) {
                Some(o) => origins.push(o),
                None => {
                    return Err(format!(
                        "{} holds {raw:?}, which is not an origin: give scheme://host[:port] entries, comma-separated, \
                         e.g. https://chat.example.com,http://localhost:6274",
                        config::ALLOWED_ORIGINS
                    ));
                }
            }
        }
        let mut hosts: Vec<String> = origins.iter().map(|o| o.host.clone()).collect();
        if loopback {
            hosts.extend(["localhost", "127.0.0.1", "::1"].map(String::from));
        }
        hosts.push(addr.ip().to_string());
        hosts.sort();
        hosts.dedup();
        let session_dir = get(config::SESSION_DIR)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .map(PathBuf::from);
        Ok(HttpSettings {
            addr,
            public_url,
            origins,
            hosts,
            max_body_bytes: count(
                config::MAX_BODY_BYTES,
                get(config::MAX_BODY_BYTES),
                1 << 20,
                (1024, 64 << 20),
            )? as usize,
            person_concurrency: count(
                config::PERSON_CONCURRENCY,
                get(config::PERSON_CONCURRENCY),
                8,
                (1, 1000),
            )? as usize,
            person_rate: count(
                config::PERSON_RATE,
                get(config::PERSON_RATE),
                600,
                (1, 1_000_000),
            )? as u32,
            max_people: count(
                config::MAX_PEOPLE,
                get(config::MAX_PEOPLE),
                10_000,
                (1, 10_000_000),
            )? as usize,
            person_idle: seconds(config::PERSON_IDLE, get(config::PERSON_IDLE), 900)?,
            token_check: seconds(config::TOKEN_CHECK, get(config::TOKEN_CHECK), 60)?,
            cache_bytes: count(
                config::CACHE_BYTES,
                get(config::CACHE_BYTES),
                256 << 20,
                (1 << 20, 1 << 40),
            )? as usize,
            session_dir,
            redis_url: get(config::REDIS_URL)
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .map(config::Secret::new),
            stateless: boolean(config::STATELESS, get(config::STATELESS))?,
            watch: crate::live::WatchSettings::from(&get)?,
            shutdown: seconds(config::SHUTDOWN, get(config::SHUTDOWN), 30)?,
            header_timeout: seconds(config::HEADER_TIMEOUT, get(config::HEADER_TIMEOUT), 10)?,
            idle_timeout: seconds(config::IDLE_TIMEOUT, get(config::IDLE_TIMEOUT), 60)?,
            body_timeout: seconds(config::BODY_TIMEOUT, get(config::BODY_TIMEOUT), 30)?,
            max_connections: count(
                config::MAX_CONNECTIONS,
                get(config::MAX_CONNECTIONS),
                1024,
                (16, 1_000_000),
            )? as usize,
            max_connections_per_address: count(
                config::MAX_CONNECTIONS_PER_ADDRESS,
                get(config::MAX_CONNECTIONS_PER_ADDRESS),
                256,
                (1, 1_000_000),
            )? as usize,
            person_sessions: count(
                config::PERSON_SESSIONS,
                get(config::PERSON_SESSIONS),
                32,
                (1, 100_000),
            )? as usize,
            max_sessions: count(
                config::MAX_SESSIONS,
                get(config::MAX_SESSIONS),
                4096,
                (1, 1_000_000),
            )? as usize,
            tls,
            derived: loopback && get(config::PUBLIC_URL).is_none_or(|v| v.trim().is_empty()),
        })
    }

    /// The settings once the listener is bound to `bound` (port 0 gets a real port): a public URL
    /// derived from the address follows it.
    pub fn bound_to(mut self, bound: SocketAddr) -> HttpSettings {
        self.addr = bound;
        if self.derived {
            let scheme = if self.tls.is_some() { "https" } else { "http" };
            self.public_url = format!("{scheme}://{bound}");
            if let Some(first) = self.origins.first_mut() {
                first.port = bound.port();
            }
        }
        self
    }

    /// The MCP endpoint's address.
    pub fn endpoint(&self) -> String {
        format!("{}/mcp", self.public_url)
    }

    /// Where the protected resource metadata is.
    pub fn resource_metadata_url(&self) -> String {
        format!("{}/.well-known/oauth-protected-resource", self.public_url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn a_port_alone_listens_on_loopback() {
        assert_eq!(parse_addr("8080").ok(), "127.0.0.1:8080".parse().ok());
        assert_eq!(parse_addr(":9").ok(), "127.0.0.1:9".parse().ok());
        assert!(parse_addr("example.com:80").is_err());
    }

    #[test]
    fn beyond_loopback_the_public_url_is_required_and_names_the_allowed_host() {
        let addr = parse_addr("0.0.0.0:8080").expect("addr");
        assert!(HttpSettings::from(addr, None, env(&[])).is_err());
        let s = HttpSettings::from(
            addr,
            None,
            env(&[(config::PUBLIC_URL, "https://mcp.example.com/")]),
        )
        .expect("settings");
        assert_eq!(s.public_url, "https://mcp.example.com");
        assert!(s.hosts.contains(&"mcp.example.com".to_string()));
        assert!(!s.hosts.contains(&"localhost".to_string()));
        assert_eq!(
            s.origins[0],
            Origin::parse("https://mcp.example.com:443").expect("origin")
        );
    }

    #[test]
    fn a_bad_origin_is_quoted() {
        let addr = parse_addr("8080").expect("addr");
        let e = HttpSettings::from(
            addr,
            None,
            env(&[(config::ALLOWED_ORIGINS, "ftp://x, http://ok")]),
        )
        .expect_err("refused");
        assert!(e.contains("\"ftp://x\""), "{e}");
    }
}
