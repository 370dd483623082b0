//! The HTTP application: routing, the Host and Origin checks, the person of each `/mcp` request
//! (see [`crate::serve::auth`]), their limits, their session's owner, their body checked as JSON-RPC
//! ([`crate::serve::body`]), the access log, and the endpoints beside MCP: `/healthz` (alive),
//! `/readyz` (Mattermost answers) and the protected resource metadata (RFC 9728).

use crate::mattermost::Mattermost;
use crate::serve::auth::Auth;
use crate::serve::body::{self, Checked};
use crate::serve::card;
use crate::serve::inflight::{Held, InFlight};
use crate::serve::oauth;
use crate::serve::reply::{self, Body};
use crate::serve::session_caps::{Caps, SessionCaps};
use crate::serve::sessions::Owners;
use crate::serve::settings::{HttpSettings, Origin};
use crate::serve::team_state::store::Health;
use crate::server::Server;
use http::{HeaderMap, Method, Request, Response, StatusCode, header};
use http_body_util::BodyExt;
use progenitor_client::ClientInfo;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::{SessionManager, SessionStore};
use serde_json::json;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The session header of 2025-11-25.
const SESSION: &str = "mcp-session-id";
/// How long an answer of `/readyz` is reused.
const READY_FOR: Duration = Duration::from_secs(2);

/// The HTTP application.
pub(crate) struct App {
    pub(crate) settings: HttpSettings,
    pub(crate) auth: Auth,
    pub(crate) mcp: StreamableHttpService<Arc<Server>, LocalSessionManager>,
    pub(crate) owners: Owners,
    /// The sessions open here, within their caps.
    pub(crate) session_caps: SessionCaps,
    /// rmcp's sessions of this instance, to end those past the caps.
    pub(crate) session_manager: Arc<LocalSessionManager>,
    /// The sessions' shared store (the session directory, or Redis), when there is one.
    pub(crate) session_store: Option<Arc<dyn SessionStore>>,
    pub(crate) inflight: Arc<InFlight>,
    pub(crate) mm: Arc<Mattermost>,
    /// The server card and its icon (`crate::serve::card`).
    pub(crate) card: card::Published,
    ready: Mutex<Option<(Instant, Result<(), String>)>>,
}

/// The host name of a request (from `Host`, or the URI's authority over HTTP/2), lower-case, without
/// the port or IPv6 brackets.
fn host_of<B>(req: &Request<B>) -> Option<String> {
    let raw = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| req.uri().authority().map(|a| a.to_string()))?;
    let raw = raw.trim().to_ascii_lowercase();
    let host = if let Some(rest) = raw.strip_prefix('[') {
        rest.split(']').next().unwrap_or("").to_string()
    } else {
        raw.rsplit_once(':')
            .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
            .map(|(h, _)| h.to_string())
            .unwrap_or(raw)
    };
    (!host.is_empty()).then_some(host)
}

impl App {
    pub(crate) fn new(
        settings: HttpSettings,
        auth: Auth,
        mcp: StreamableHttpService<Arc<Server>, LocalSessionManager>,
        sessions: (Arc<LocalSessionManager>, Option<Arc<dyn SessionStore>>),
        mm: Arc<Mattermost>,
        card: card::Published,
    ) -> App {
        let owners = Owners::new(auth.shared.clone());
        let session_caps = SessionCaps::new(Caps {
            per_person: settings.person_sessions,
            total: settings.max_sessions,
        });
        App {
            settings,
            auth,
            mcp,
            owners,
            session_caps,
            session_manager: sessions.0,
            session_store: sessions.1,
            inflight: Arc::new(InFlight::default()),
            mm,
            card,
            ready: Mutex::new(None),
        }
    }

    /// Ends sessions this server decided to end (past their caps, or their owner unrecorded): rmcp's
    /// worker and its memory here, the shared directory's files (so no instance restores them), and
    /// their owner.
    pub(crate) async fn end_sessions(&self, ids: &[String]) {
        for id in ids {
            let sid: rmcp::transport::common::server_side_http::SessionId = id.as_str().into();
            if let Err(e) = self.session_manager.close_session(&sid).await {
                crate::log::debug(&format!(
                    "a session past its cap did not close cleanly: {e}"
                ));
            }
            if let Some(store) = &self.session_store
                && let Err(e) = store.delete(id).await
            {
                crate::log::warn(&format!("a session's files could not be removed: {e}"));
            }
            self.owners.unbind(id);
            self.session_caps.ended(id);
        }
    }

    /// Forgets the sessions rmcp ended by itself (idle past its keep-alive): their caps' places and
    /// their owners.
    pub(crate) async fn sweep_sessions(&self) {
        let live: std::collections::HashSet<String> = self
            .session_manager
            .sessions
            .read()
            .await
            .keys()
            .map(|k| k.to_string())
            .collect();
        for id in self.session_caps.keep_only(|id| live.contains(id)) {
            self.owners.unbind(&id);
        }
    }

    /// Refuses a request whose `Host` or `Origin` is not allowed (DNS rebinding, other sites' pages).
    fn check_host_and_origin<B>(&self, req: &Request<B>) -> Result<(), Box<Response<Body>>> {
        let host = host_of(req);
        if !host
            .as_ref()
            .is_some_and(|h| self.settings.hosts.contains(h))
        {
            return Err(Box::new(reply::error(
                StatusCode::FORBIDDEN,
                "host_not_allowed",
                &format!(
                    "This server answers requests for {} only, and this one is for {}. Reach it at {}, or add \
                     the address you use to MATTERMOST_MCP_PUBLIC_URL or MATTERMOST_MCP_ALLOWED_ORIGINS.",
                    self.settings.hosts.join(", "),
                    host.as_deref()
                        .map_or("no host".to_string(), |h| format!("{h:?}")),
                    self.settings.public_url
                ),
            )));
        }
        if let Some(origin) = req.headers().get(header::ORIGIN) {
            let text = origin.to_str().unwrap_or("");
            let allowed = Origin::parse(text).is_some_and(|o| self.settings.origins.contains(&o));
            if !allowed {
                let listed: Vec<String> = self
                    .settings
                    .origins
                    .iter()
                    .map(|o| format!("{}://{}:{}", o.scheme, o.host, o.port))
                    .collect();
                return Err(Box::new(reply::error(
                    StatusCode::FORBIDDEN,
                    "origin_not_allowed",
                    &format!(
                        "Requests from the web origin {text:?} are not allowed here; the allowed origins are {}. \
                         The server's administrator can add it to MATTERMOST_MCP_ALLOWED_ORIGINS.",
                        listed.join(", ")
                    ),
                )));
            }
        }
        Ok(())
    }

    /// Whether Mattermost answers its ping (GET /api/v4/system/ping, no token), reused briefly.
    async fn mattermost_ready(&self) -> Result<(), String> {
        if let Ok(g) = self.ready.lock()
            && let Some((at, r)) = g.as_ref()
            && at.elapsed() < READY_FOR
        {
            return r.clone();
        }
        let url = format!("{}/api/v4/system/ping", self.mm.url);
        let r = match self
            .mm
            .api()
            .client()
            .get(&url)
            .timeout(Duration::from_secs(5))
            .send()
            .await
        {
            Ok(resp) if resp.status().is_success() => Ok(()),
            Ok(resp) => Err(format!("{url} answered {}", resp.status())),
            Err(e) => Err(format!(
                "{url} did not answer ({})",
                if e.is_timeout() {
                    "timed out"
                } else {
                    "could not connect"
                }
            )),
        };
        if let Ok(mut g) = self.ready.lock() {
            *g = Some((Instant::now(), r.clone()));
        }
        r
    }

    /// `/readyz`: 503 while Mattermost does not answer its ping; 200 otherwise, `"degraded"` while
    /// the team's shared state (Redis) does not answer, as each instance then serves alone (an
    /// orchestrator that took every instance out for it would stop a service that still works).
    async fn readyz(&self) -> Response<Body> {
        // Anyone may ask, so the answer names nothing of the configuration (no address of
        // Mattermost or of the shared store); the log says why.
        let shared = self.auth.shared.health().await;
        if let Err(why) = self.mattermost_ready().await {
            crate::log::warn(&format!("not ready: {why}"));
            return reply::with_header(
                reply::error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "mattermost_unreachable",
                    "Mattermost does not answer its ping; calls would fail until it does. The server's log \
                     says why.",
                ),
                header::RETRY_AFTER,
                "5",
            );
        }
        match shared {
            Health::Local => reply::json(StatusCode::OK, &json!({"status": "ready"})),
            Health::Shared { .. } => reply::json(
                StatusCode::OK,
                &json!({"status": "ready", "shared_state": {"shared": true}}),
            ),
            Health::Unreachable { store, why } => {
                crate::log::warn(&format!(
                    "the shared state ({store}) does not answer: {why}"
                ));
                reply::json(
                    StatusCode::OK,
                    &json!({
                        "status": "degraded",
                        "shared_state": {
                            "shared": false,
                            "unreachable": "the shared store does not answer; the server's log says why",
                            "meanwhile": "each instance limits each person by itself, checks tokens with Mattermost \
                                          itself, and continues only the 2025-11-25 sessions it holds",
                        },
                    }),
                )
            }
        }
    }

    /// Answers one request.
    pub(crate) async fn handle<B>(&self, req: Request<B>, peer: SocketAddr) -> Response<Body>
    where
        B: hyper::body::Body<Data = bytes::Bytes> + Send + 'static,
        B::Error: std::fmt::Display,
    {
        let started = Instant::now();
        let (method, path) = (req.method().clone(), req.uri().path().to_string());
        let http1 = req.version() < http::Version::HTTP_2;
        let with_body = !hyper::body::Body::is_end_stream(req.body());
        let mut who = String::from("-");
        let mut response = self.route(req, &mut who).await;
        if http1 && with_body && response.status().as_u16() >= 400 {
            // A refused request's body may be left unread: the connection cannot carry another
            // request, and says so (hyper closes it after this answer).
            response
                .headers_mut()
                .insert(header::CONNECTION, http::HeaderValue::from_static("close"));
        }
        if crate::log::info_enabled() {
            crate::log::info(&format!(
                "access {peer} {method} {path} {} {}ms {who}",
                response.status().as_u16(),
                started.elapsed().as_millis()
            ));
        }
        response
    }

    async fn route<B>(&self, req: Request<B>, who: &mut String) -> Response<Body>
    where
        B: hyper::body::Body<Data = bytes::Bytes> + Send + 'static,
        B::Error: std::fmt::Display,
    {
        let path = req.uri().path().to_string();
        // Public, for any origin (SEP-2127 asks for CORS `*`): before the Origin check.
        if let Some(r) = self.card.answer(req.method(), &path) {
            return r;
        }
        match (req.method(), path.as_str()) {
            (&Method::GET, "/healthz") => {
                return reply::json(StatusCode::OK, &json!({"status": "alive"}));
            }
            (&Method::GET, "/readyz") => return self.readyz().await,
            _ => {}
        }
        if let Err(refused) = self.check_host_and_origin(&req) {
            return *refused;
        }
        match path.as_str() {
            "/.well-known/oauth-protected-resource"
            | "/.well-known/oauth-protected-resource/mcp" => {
                if req.method() != Method::GET {
                    return reply::with_header(
                        reply::error(
                            StatusCode::METHOD_NOT_ALLOWED,
                            "method_not_allowed",
                            "Use GET.",
                        ),
                        header::ALLOW,
                        "GET",
                    );
                }
                reply::json(
                    StatusCode::OK,
                    &oauth::protected_resource(&self.settings.endpoint(), &self.mm.url),
                )
            }
            "/mcp" => self.mcp(req, who).await,
            _ => reply::error(
                StatusCode::NOT_FOUND,
                "not_found",
                &format!(
                    "There is nothing at {path:?}. MCP is served at {}; /healthz and /readyz report health.",
                    self.settings.endpoint()
                ),
            ),
        }
    }

    async fn mcp<B>(&self, mut req: Request<B>, who: &mut String) -> Response<Body>
    where
        B: hyper::body::Body<Data = bytes::Bytes> + Send + 'static,
        B::Error: std::fmt::Display,
    {
        let person = match self.auth.person(req.headers()).await {
            Ok(p) => p,
            Err(refused) => return *refused,
        };
        if crate::log::info_enabled() {
            *who = format!("person={} @{}", person.key.short(), person.username);
        }
        let too_many = |over: crate::serve::limits::Over| {
            reply::with_header(
                reply::error(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too_many_requests",
                    &over.message(),
                ),
                header::RETRY_AFTER,
                &over.retry_after().to_string(),
            )
        };
        let is_call = req.method() == Method::POST;
        let permit = match self.auth.shared.admit(&person, is_call).await {
            Ok(slot) => slot,
            Err(over) => return too_many(over),
        };
        let session = session_of(req.headers());
        if let Some(s) = &session
            && !self.owners.allows(s, person.key).await
        {
            return reply::error(
                StatusCode::NOT_FOUND,
                "session_not_found",
                "Not Found: Session not found. Start a new session (initialize again).",
            );
        }
        let is_delete = req.method() == Method::DELETE;
        let mark = is_call.then(|| self.inflight.start());
        req.extensions_mut().insert(person.ctx.clone());
        let response = match body::check(
            req,
            self.settings.max_body_bytes,
            self.settings.body_timeout,
        )
        .await
        {
            Ok(Checked::Untouched(req)) => self.mcp.handle(req).await,
            Ok(Checked::Read(req, read)) => body::explained(self.mcp.handle(req).await, &read),
            Err(refused) => *refused,
        };
        match (&session, session_of(response.headers())) {
            (None, Some(opened)) => {
                self.owners.bind(&opened, person.key).await;
                let past_caps = self.session_caps.opened(&opened, person.key);
                self.end_sessions(&past_caps).await;
            }
            (Some(s), _) if is_delete && response.status().is_success() => {
                self.owners.unbind(s);
                self.session_caps.ended(s);
            }
            (Some(s), _) if response.status().is_success() && !self.session_caps.used(s) => {
                // A session restored here from the shared directory counts here from now on.
                let past_caps = self.session_caps.opened(s, person.key);
                self.end_sessions(&past_caps).await;
            }
            _ => {}
        }
        let (mut parts, body) = response.into_parts();
        if is_delete && parts.status == StatusCode::ACCEPTED {
            // The session is ended: nothing more will come, which clients read as 200 or 204.
            parts.status = StatusCode::NO_CONTENT;
        }
        Response::from_parts(
            parts,
            Held {
                inner: body,
                permit,
                mark,
            }
            .boxed(),
        )
    }
}

fn session_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get(SESSION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}
