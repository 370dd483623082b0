//! Serving MCP: over stdio for the one person whose token is in the environment ([`stdio`]), or over
//! Streamable HTTP for a whole team, each request as the person whose bearer token it carries
//! ([`http`]). This module wires the HTTP server together: the shared Mattermost connection, the
//! registry of persons, rmcp's Streamable HTTP service (2025-11-25 sessions and stateless
//! 2026-07-28), and the listener.

pub mod auth;
pub(crate) mod body;
pub mod card;
pub mod conns;
pub mod http;
pub mod inflight;
pub mod limits;
pub(crate) mod lines;
pub mod listen;
pub mod oauth;
pub mod people;
pub mod refusals;
pub mod reply;
pub mod session_caps;
pub mod sessions;
pub mod settings;
pub mod stdio;
pub mod team_state;
pub mod tls;

use crate::config::Config;
use crate::inventory::Offer;
use crate::server::{People, Server};
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use settings::HttpSettings;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How often the registry of persons is swept of the idle.
const SWEEP_EVERY: Duration = Duration::from_secs(30);

/// Builds the HTTP application (everything but the listener).
pub fn app(
    config: &Config,
    settings: HttpSettings,
    offer: Offer,
    page_size: usize,
    sessions: CancellationToken,
) -> Result<Arc<http::App>, String> {
    app_watching(config, settings, offer, page_size, sessions).map(|(app, _)| app)
}

/// Builds the HTTP application, with the watchers of its persons (closed at SIGTERM).
pub fn app_watching(
    config: &Config,
    settings: HttpSettings,
    offer: Offer,
    page_size: usize,
    sessions: CancellationToken,
) -> Result<(Arc<http::App>, Arc<crate::live::Live>), String> {
    let mm = Arc::new(config.connect()?);
    let live = crate::live::Live::new(
        &config.url,
        config.ca_file.as_deref(),
        settings.watch,
        config.budget,
    )?;
    let forget = live.clone();
    let registry = Arc::new(
        people::Registry::new(people::Bounds {
            cap: settings.max_people,
            idle: settings.person_idle,
            max_age: people::MAX_AGE,
            cache_bytes: settings.cache_bytes,
        })
        // a person forgotten stops watching: their socket closes, their subscriptions end
        .on_forget(Box::new(move |key| forget.forget(&key.bytes()))),
    );
    // One server shared by every session (rmcp serves `Arc<Server>` as a handler), so a request
    // costs no rebuilding of the tool list.
    let server = Arc::new(
        Server::new(People::PerRequest, offer, page_size, config.budget).with_live(live.clone()),
    );
    let mut mcp_config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .disable_allowed_origins()
        .with_json_response(true)
        .with_max_request_body_bytes(settings.max_body_bytes)
        .with_legacy_session_mode(!settings.stateless)
        .with_cancellation_token(sessions);
    let shared = team_state::open(&settings, &mm.url, config.budget)?;
    let store = shared.sessions();
    mcp_config.session_store = store.clone();
    let card = card::Published::new(&card::Card::new(
        &settings.public_url,
        server.get_info().capabilities,
        &server.supported_protocol_versions(),
    ));
    let manager = Arc::new(LocalSessionManager::default());
    let mcp = StreamableHttpService::new(move || Ok(server.clone()), manager.clone(), mcp_config);
    let auth = auth::Auth {
        registry: registry.clone(),
        mm: mm.clone(),
        check_every: settings.token_check,
        timeout: config.timeout,
        resource_metadata: settings.resource_metadata_url(),
        concurrency: settings.person_concurrency,
        rate: settings.person_rate,
        refusals: refusals::Refusals::new(settings.token_check, refusals::KEPT),
        shared,
    };
    let app = Arc::new(http::App::new(
        settings,
        auth,
        mcp,
        (manager, store),
        mm,
        card,
    ));
    let sweeper = Arc::downgrade(&registry);
    let sessions_of = Arc::downgrade(&app);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(SWEEP_EVERY).await;
            match (sweeper.upgrade(), sessions_of.upgrade()) {
                (Some(r), Some(app)) => {
                    r.sweep();
                    app.sweep_sessions().await;
                }
                _ => break,
            }
        }
    });
    Ok((app, live))
}

/// Serves MCP over HTTP until SIGTERM.
pub async fn run_http(
    config: Config,
    settings: HttpSettings,
    offer: Offer,
    page_size: usize,
    token_set: bool,
) -> ExitCode {
    crate::error::tokens_come_from_requests();
    if token_set {
        crate::log::warn(&format!(
            "{} is set but not used: over HTTP each request brings its person's token (Authorization: Bearer). \
             Unset it to keep it out of this service's environment.",
            crate::config::TOKEN
        ));
    }
    let tls = match settings.tls.as_ref().map(tls::acceptor).transpose() {
        Ok(t) => t,
        Err(message) => {
            crate::log::error(&message);
            return ExitCode::from(2);
        }
    };
    if tls.is_none() && !settings.addr.ip().is_loopback() {
        crate::log::warn(&format!(
            "listening on {} without TLS: put a proxy that terminates TLS in front (see the README's Deployment), \
             or give --tls-cert and --tls-key; tokens must not cross a network in the clear.",
            settings.addr
        ));
    }
    let addr = settings.addr;
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            crate::log::error(&format!(
                "cannot listen on {addr}: {e}. Choose another port, or stop what listens there."
            ));
            return ExitCode::from(1);
        }
    };
    let settings = match listener.local_addr() {
        Ok(bound) => settings.bound_to(bound),
        Err(_) => settings,
    };
    let sessions = CancellationToken::new();
    let (app, live) = match app_watching(&config, settings, offer, page_size, sessions.clone()) {
        Ok(a) => a,
        Err(message) => {
            crate::log::error(&message);
            return ExitCode::from(2);
        }
    };
    if let Some(answers) = app.auth.shared.answers()
        && let Err(why) = crate::confirm::share_answers(answers).await
    {
        crate::log::warn(&format!(
            "the key 2026-07-28 confirmations are sealed with could not be shared ({why}): a question asked \
             on this instance can be answered only on it until it restarts with Redis answering."
        ));
    }
    let bound = app.settings.addr;
    crate::log::info(&format!(
        "serving MCP over HTTP on {bound} (clients connect to {}), for {} — each request as the person whose \
         token it carries",
        app.settings.endpoint(),
        config.url
    ));
    // SIGTERM first ends every watch (Mattermost sockets closed with a close frame, listen streams
    // answered their final result), then the listener drains the calls in flight.
    let stop = async move {
        listen::stop_signal().await;
        live.shutdown();
    };
    listen::serve(app, listener, tls, sessions, stop).await;
    ExitCode::SUCCESS
}
