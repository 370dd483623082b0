//! A client of Mattermost's WebSocket (`/api/v4/websocket`), as the person whose token it holds.
//!
//! - The token goes in `Authorization: Bearer` on the upgrade, as Mattermost's Go client
//!   (`model.NewWebSocketClient4`) sends it: never in the URL, never logged.
//! - The first event is `hello` with a `connection_id`; each event carries `seq`, counted from 0 on
//!   that connection. The client expects each `seq` in turn; one that skips closes the socket and
//!   reconnects (as the web client does with code 4001), so the server sends the missing ones
//!   again.
//! - Reconnecting asks for `connection_id` and `sequence_number` (the next `seq` expected), as the
//!   web client (`platform/client/src/websocket.ts`) does. The server then either continues the
//!   connection, sending again what was missed and no `hello`, or — when it no longer has the
//!   connection or the missed events (a restart, away too long, more missed than its queues hold) —
//!   sends a `hello` with a new connection id: then [`Signal::Hello`] says `gap`, and the watcher
//!   fills the gap by reading.
//! - Between attempts it waits with exponential backoff and jitter ([`backoff`]); a `ping` action
//!   every [`PING_EVERY`] that goes unanswered until the next one counts as a dead socket. A token
//!   Mattermost refuses (401 on the upgrade) ends it ([`Signal::Refused`]).

use super::event::Frame;
use crate::config::Secret;
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc::UnboundedSender;
use tokio_rustls::rustls::{ClientConfig, pki_types::ServerName};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_util::sync::CancellationToken;

/// How often the client pings; a ping still unanswered at the next one ends the socket.
pub(crate) const PING_EVERY: Duration = Duration::from_secs(30);
/// The first wait before reconnecting, and the longest.
pub(crate) const BACKOFF_FIRST: Duration = Duration::from_millis(500);
pub(crate) const BACKOFF_MAX: Duration = Duration::from_secs(60);
/// How long an upgrade may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);

/// What the socket tells its watcher.
#[derive(Debug)]
pub(crate) enum Signal {
    /// A `hello`: the socket is open on a connection. `gap` when an earlier connection's id was
    /// not continued, so events in between may be lost.
    Hello { gap: bool },
    /// An event, in order.
    Event(Frame),
    /// The socket continued its connection after a reconnect (nothing lost).
    Resumed,
    /// Mattermost's clock minus ours, in milliseconds (from a `ping`'s answer).
    Clock(i64),
    /// The socket closed; reconnecting.
    Down,
    /// Mattermost refused the token (the reason is logged); the socket will not reconnect.
    Refused,
}

/// Where the socket connects, and the TLS it trusts (the system's roots and `MATTERMOST_CA_FILE`,
/// as the REST client).
pub(crate) struct Endpoint {
    url: url::Url,
    tls: Option<Arc<ClientConfig>>,
}

impl Endpoint {
    /// The WebSocket of the Mattermost at `root` (`https://chat.example.com`).
    pub(crate) fn new(root: &str, ca_file: Option<&std::path::Path>) -> Result<Endpoint, String> {
        let mut url = url::Url::parse(&format!("{root}/api/v4/websocket"))
            .map_err(|e| format!("the WebSocket address of {root} is not an address: {e}"))?;
        let tls = match url.scheme() {
            "https" => Some(Arc::new(tls_config(ca_file)?)),
            _ => None,
        };
        let scheme = if tls.is_some() { "wss" } else { "ws" };
        url.set_scheme(scheme)
            .map_err(|_| format!("{root} cannot take the {scheme} scheme"))?;
        Ok(Endpoint { url, tls })
    }

    /// The address, with the reconnection's query when there is one.
    fn address(&self, resume: Option<(&str, i64)>) -> url::Url {
        let mut url = self.url.clone();
        if let Some((id, seq)) = resume {
            url.query_pairs_mut()
                .append_pair("connection_id", id)
                .append_pair("sequence_number", &seq.to_string());
        }
        url
    }
}

fn tls_config(ca_file: Option<&std::path::Path>) -> Result<ClientConfig, String> {
    use rustls_pki_types::CertificateDer;
    use rustls_pki_types::pem::PemObject;
    let extra: Vec<CertificateDer<'static>> = match ca_file {
        None => Vec::new(),
        Some(path) => CertificateDer::pem_file_iter(path)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|e| {
                format!(
                    "{}={} cannot be read for the WebSocket: {e}",
                    crate::config::CA_FILE,
                    path.display()
                )
            })?,
    };
    let provider = mattermost_client::tls::provider();
    let verifier = rustls_platform_verifier::Verifier::new_with_extra_roots(
        extra,
        provider.clone(),
    )
    .map_err(|e| {
        format!("the system's certificate authorities cannot be loaded for the WebSocket: {e}")
    })?;
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS for the WebSocket: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_no_client_auth();
    Ok(config)
}

/// The wait before attempt `failures` (1 for the first retry): doubling from [`BACKOFF_FIRST`] up
/// to [`BACKOFF_MAX`], each drawn at random between half of it and all of it, so that many clients
/// cut off together do not come back together.
pub(crate) fn backoff(failures: u32, random: u32) -> Duration {
    let exp = failures.saturating_sub(1).min(16);
    let full = BACKOFF_FIRST.saturating_mul(1u32 << exp).min(BACKOFF_MAX);
    let half = full / 2;
    half + half.mul_f64(f64::from(random) / f64::from(u32::MAX))
}

fn random() -> u32 {
    let mut b = [0u8; 4];
    let _ = getrandom::fill(&mut b);
    u32::from_le_bytes(b)
}

/// Why a socket ended.
enum Ended {
    /// Lost or closed: reconnect.
    Lost,
    /// Stopped by the watcher.
    Stopped,
}

/// What the client keeps across reconnects.
#[derive(Default)]
struct Resume {
    connection_id: String,
    /// The next `seq` expected (`serverSequence`).
    next: i64,
}

/// Runs the socket until `stop`: connect, read, reconnect.
pub(crate) async fn run(
    endpoint: Arc<Endpoint>,
    token: Secret,
    signals: UnboundedSender<Signal>,
    stop: CancellationToken,
) {
    let mut resume = Resume::default();
    let mut failures: u32 = 0;
    loop {
        if stop.is_cancelled() {
            return;
        }
        let asked =
            (!resume.connection_id.is_empty()).then(|| (resume.connection_id.clone(), resume.next));
        let opened = tokio::select! {
            () = stop.cancelled() => return,
            o = tokio::time::timeout(CONNECT_TIMEOUT, connect(&endpoint, &token, asked.as_ref().map(|(i, s)| (i.as_str(), *s)))) => o,
        };
        match opened {
            Ok(Ok(stream)) => {
                failures = 0;
                match read(stream, &mut resume, asked.is_some(), &signals, &stop).await {
                    Ended::Stopped => return,
                    Ended::Lost => {
                        let _ = signals.send(Signal::Down);
                    }
                }
            }
            Ok(Err(Failed::Refused(why))) => {
                crate::log::warn(&format!(
                    "Mattermost refused the token on its WebSocket ({why}); watching stopped for this person"
                ));
                let _ = signals.send(Signal::Refused);
                return;
            }
            Ok(Err(Failed::Other(why))) => {
                crate::log::debug(&format!("the Mattermost WebSocket did not open: {why}"));
            }
            Err(_) => crate::log::debug("the Mattermost WebSocket did not open in time"),
        }
        failures += 1;
        let wait = backoff(failures, random());
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(wait) => {}
        }
    }
}

enum Failed {
    Refused(String),
    Other(String),
}

trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

type Stream = tokio_tungstenite::WebSocketStream<Box<dyn Io>>;

async fn connect(
    endpoint: &Endpoint,
    token: &Secret,
    resume: Option<(&str, i64)>,
) -> Result<Stream, Failed> {
    let url = endpoint.address(resume);
    let host = url.host_str().unwrap_or_default().to_string();
    let port = url.port_or_known_default().unwrap_or(80);
    let mut request = url
        .as_str()
        .into_client_request()
        .map_err(|e| Failed::Other(e.to_string()))?;
    let bearer = HeaderValue::from_str(&format!("Bearer {}", token.expose()))
        .map_err(|_| Failed::Refused("the token holds characters a header cannot carry".into()))?;
    request.headers_mut().insert("Authorization", bearer);
    request.headers_mut().insert(
        "User-Agent",
        HeaderValue::from_static(concat!("mattermost-mcp/", env!("CARGO_PKG_VERSION"))),
    );
    let tcp = tokio::net::TcpStream::connect((host.trim_matches(['[', ']']), port))
        .await
        .map_err(|e| Failed::Other(format!("{host}:{port}: {e}")))?;
    let _ = tcp.set_nodelay(true);
    let io: Box<dyn Io> = match &endpoint.tls {
        None => Box::new(tcp),
        Some(config) => {
            let name = ServerName::try_from(host.trim_matches(['[', ']']).to_string())
                .map_err(|e| Failed::Other(e.to_string()))?;
            let tls = tokio_rustls::TlsConnector::from(config.clone())
                .connect(name, tcp)
                .await
                .map_err(|e| Failed::Other(format!("TLS with {host}: {e}")))?;
            Box::new(tls)
        }
    };
    match tokio_tungstenite::client_async(request, io).await {
        Ok((stream, _)) => Ok(stream),
        Err(WsError::Http(response)) if response.status().as_u16() == 401 => {
            Err(Failed::Refused("401 on the upgrade".into()))
        }
        Err(WsError::Http(response)) => Err(Failed::Other(format!(
            "the upgrade was answered {}",
            response.status()
        ))),
        Err(e) => Err(Failed::Other(e.to_string())),
    }
}

/// Reads one socket until it ends; `resumed` when it asked to continue a connection.
async fn read(
    mut stream: Stream,
    resume: &mut Resume,
    resumed: bool,
    signals: &UnboundedSender<Signal>,
    stop: &CancellationToken,
) -> Ended {
    let mut ping_seq: i64 = 1;
    let mut awaiting_pong = false;
    let mut sent_at = std::time::Instant::now();
    // a first ping at once: its answer tells Mattermost's clock
    if send_ping(&mut stream, ping_seq).await.is_err() {
        return Ended::Lost;
    }
    awaiting_pong = !awaiting_pong;
    let mut told_resumed = !resumed;
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    loop {
        tokio::select! {
            () = stop.cancelled() => {
                let _ = stream.close(None).await;
                return Ended::Stopped;
            }
            _ = ticker.tick() => {
                if awaiting_pong {
                    crate::log::debug("the Mattermost WebSocket did not answer a ping: reconnecting");
                    return Ended::Lost;
                }
                ping_seq += 1;
                sent_at = std::time::Instant::now();
                if send_ping(&mut stream, ping_seq).await.is_err() {
                    return Ended::Lost;
                }
                awaiting_pong = true;
            }
            message = stream.next() => {
                let text = match message {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return Ended::Lost,
                    Some(Ok(_)) => continue,
                };
                let Ok(frame) = serde_json::from_str::<Frame>(text.as_str()) else {
                    continue;
                };
                if frame.seq_reply.is_some() {
                    awaiting_pong = false;
                    if let Some(server) = frame.data.get("server_time").and_then(serde_json::Value::as_i64) {
                        let local = crate::time::now_ms() - (sent_at.elapsed().as_millis() as i64) / 2;
                        let _ = signals.send(Signal::Clock(server - local));
                    }
                    continue;
                }
                let Some(seq) = frame.seq else { continue };
                if frame.event.as_deref() == Some("hello") {
                    let id = frame
                        .data
                        .get("connection_id")
                        .and_then(serde_json::Value::as_str)
                        .unwrap_or_default()
                        .to_string();
                    let gap = !resume.connection_id.is_empty() && resume.connection_id != id;
                    if gap || resume.connection_id.is_empty() {
                        resume.next = 0;
                    }
                    resume.connection_id = id;
                    told_resumed = true;
                    let _ = signals.send(Signal::Hello { gap });
                } else if !told_resumed {
                    told_resumed = true;
                    let _ = signals.send(Signal::Resumed);
                }
                if seq != resume.next {
                    crate::log::debug(&format!(
                        "the Mattermost WebSocket skipped from seq {} to {seq}: reconnecting to get the missed events",
                        resume.next
                    ));
                    return Ended::Lost;
                }
                resume.next = seq + 1;
                if frame.event.as_deref() != Some("hello") {
                    let _ = signals.send(Signal::Event(frame));
                }
            }
        }
    }
}

async fn send_ping(stream: &mut Stream, seq: i64) -> Result<(), WsError> {
    let ping = serde_json::json!({"action": "ping", "seq": seq});
    stream.send(Message::text(ping.to_string())).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter_up_to_its_cap() {
        assert_eq!(backoff(1, 0), Duration::from_millis(250));
        assert_eq!(backoff(1, u32::MAX), Duration::from_millis(500));
        assert_eq!(backoff(3, u32::MAX), Duration::from_secs(2));
        assert_eq!(backoff(30, u32::MAX), BACKOFF_MAX);
        assert!(backoff(30, 0) >= BACKOFF_MAX / 2);
        let mid = backoff(4, u32::MAX / 2);
        assert!(
            mid > Duration::from_secs(2) && mid < Duration::from_secs(4),
            "{mid:?}"
        );
    }

    #[test]
    fn the_address_carries_the_connection_to_continue_and_never_the_token() {
        let e = Endpoint::new("http://127.0.0.1:8065", None).expect("an endpoint");
        assert_eq!(
            e.address(None).as_str(),
            "ws://127.0.0.1:8065/api/v4/websocket"
        );
        assert_eq!(
            e.address(Some(("abc", 7))).as_str(),
            "ws://127.0.0.1:8065/api/v4/websocket?connection_id=abc&sequence_number=7"
        );
    }
}
