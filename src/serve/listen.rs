//! The listener: accepts connections (plain, or TLS with rustls) within their limits
//! ([`crate::serve::conns`]: header and idle timeouts, caps in all and per client address), serves
//! HTTP/1.1 and HTTP/2 with hyper, and stops gracefully on SIGTERM or Ctrl-C: it accepts nothing new,
//! lets the calls in flight finish (up to `MATTERMOST_MCP_SHUTDOWN_SECS`), then ends the sessions and
//! the connections.

use crate::serve::conns::{self, Conn, Conns, Limits, Running, Watched};
use crate::serve::http::App;
use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::{Frame, SizeHint};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::Mutex;
use std::task::{Context, Poll};
use std::time::Duration;
use std::time::Instant;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;

/// Resolves when the process is asked to stop.
pub async fn stop_signal() {
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = term => {}
        _ = tokio::signal::ctrl_c() => {}
    }
}

/// A response body that keeps its request counted as running on its connection until it is sent in
/// full (or dropped): an event stream keeps its connection from the idle timeout.
struct Counted {
    inner: crate::serve::reply::Body,
    _running: Running,
}

impl hyper::body::Body for Counted {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A warning logged at most once a second, with how many like it were not.
struct Throttled {
    last: Mutex<(Option<Instant>, u64)>,
}

impl Throttled {
    fn new() -> Throttled {
        Throttled {
            last: Mutex::new((None, 0)),
        }
    }

    fn warn(&self, message: &str) {
        let Ok(mut g) = self.last.lock() else { return };
        if g.0.is_some_and(|t| t.elapsed() < Duration::from_secs(1)) {
            g.1 += 1;
            return;
        }
        let skipped = std::mem::take(&mut g.1);
        g.0 = Some(Instant::now());
        drop(g);
        if skipped > 0 {
            crate::log::warn(&format!(
                "{message} ({skipped} more like it in the last second)"
            ));
        } else {
            crate::log::warn(message);
        }
    }
}

/// The connection limits of `app`'s settings, the total lowered to fit the file descriptors the
/// process may open (raised to its hard limit first, where it can).
pub fn limits_of(app: &App) -> Limits {
    let fds = conns::raise_fd_limit();
    let s = &app.settings;
    let total = conns::fit_to_fds(s.max_connections, fds);
    if total < s.max_connections {
        crate::log::warn(&format!(
            "at most {total} connections at once, not {} (MATTERMOST_MCP_MAX_CONNECTIONS): the process may open \
             {} files; raise its limit (systemd: LimitNOFILE=) to allow more",
            s.max_connections,
            fds.unwrap_or(0)
        ));
    }
    Limits {
        header: s.header_timeout,
        idle: s.idle_timeout,
        total,
        per_address: s.max_connections_per_address.min(total),
    }
}

/// Serves `app` on `listener` until `stop` resolves, then shuts down as described above.
pub async fn serve(
    app: Arc<App>,
    listener: TcpListener,
    tls: Option<TlsAcceptor>,
    sessions: CancellationToken,
    stop: impl std::future::Future<Output = ()>,
) {
    let graceful = GracefulShutdown::new();
    let builder = auto::Builder::new(TokioExecutor::new());
    let limits = limits_of(&app);
    let conns = Arc::new(Conns::new(limits));
    let accept_failed = Throttled::new();
    let refused = Throttled::new();
    tokio::pin!(stop);
    loop {
        // Shed connections still holding their descriptors: let them close before taking more.
        tokio::select! {
            _ = conns.room() => {}
            _ = &mut stop => break,
        }
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(c) => c,
                Err(e) => {
                    // Out of file descriptors: free one held by a connection doing nothing.
                    let freed = conns.shed_one();
                    accept_failed.warn(&format!(
                        "a connection could not be accepted: {e}{}",
                        if freed { "; closed the connection idle longest" } else { "" }
                    ));
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let conn: Arc<Conn> = match conns.admit(peer.ip()) {
            Ok(c) => c,
            Err(why) => {
                refused.warn(&format!(
                    "refused a connection from {}: {why:?} connections open, every one running a request",
                    peer.ip()
                ));
                drop(tcp);
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let app2 = app.clone();
        let counted = conn.clone();
        let service = service_fn(move |req: http::Request<hyper::body::Incoming>| {
            let app = app2.clone();
            let running = counted.begin(req.version() == http::Version::HTTP_2);
            async move {
                let response = app.handle(req, peer).await;
                let (parts, body) = response.into_parts();
                let body = Counted {
                    inner: body,
                    _running: running,
                }
                .boxed();
                Ok::<_, Infallible>(http::Response::from_parts(parts, body))
            }
        });
        let watched = Watched::new(tcp, conn.clone());
        let conns = conns.clone();
        match &tls {
            None => {
                let served = builder.serve_connection_with_upgrades(TokioIo::new(watched), service);
                let served = graceful.watch(served.into_owned());
                tokio::spawn(async move {
                    tokio::select! {
                        _ = served => {}
                        _ = conn.watch(limits) => {}
                    }
                    conns.closed(&conn);
                });
            }
            Some(acceptor) => {
                let acceptor = acceptor.clone();
                let builder = builder.clone();
                let watcher = graceful.watcher();
                tokio::spawn(async move {
                    let stream = match tokio::time::timeout(
                        Duration::from_secs(10),
                        acceptor.accept(watched),
                    )
                    .await
                    {
                        Ok(Ok(s)) => s,
                        Ok(Err(e)) => {
                            crate::log::debug(&format!("TLS handshake with {peer} failed: {e}"));
                            conns.closed(&conn);
                            return;
                        }
                        Err(_) => {
                            conns.closed(&conn);
                            return;
                        }
                    };
                    let served =
                        builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
                    tokio::select! {
                        _ = watcher.watch(served.into_owned()) => {}
                        _ = conn.watch(limits) => {}
                    }
                    conns.closed(&conn);
                });
            }
        }
    }
    drop(listener);
    let running = app.inflight.running();
    crate::log::info(&format!(
        "stopping: no new connections; waiting for {running} call(s) in flight (up to {} s)",
        app.settings.shutdown.as_secs()
    ));
    if !app.inflight.drained(app.settings.shutdown).await {
        crate::log::warn(&format!(
            "{} call(s) still running after {} s; stopping anyway",
            app.inflight.running(),
            app.settings.shutdown.as_secs()
        ));
    }
    sessions.cancel();
    if tokio::time::timeout(Duration::from_secs(5), graceful.shutdown())
        .await
        .is_err()
    {
        crate::log::warn("some connections did not close within 5 s; stopping anyway");
    }
    crate::log::info("stopped");
}
