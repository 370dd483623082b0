//! The listener: accepts connections (plain, or TLS with rustls), serves HTTP/1.1 and HTTP/2 with
//! hyper, and stops gracefully on SIGTERM or Ctrl-C: it accepts nothing new, lets the calls in
//! flight finish (up to `MATTERMOST_MCP_SHUTDOWN_SECS`), then ends the sessions and the connections.

use crate::serve::http::App;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
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
    tokio::pin!(stop);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(c) => c,
                Err(e) => {
                    crate::log::warn(&format!("a connection could not be accepted: {e}"));
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let _ = tcp.set_nodelay(true);
        let app2 = app.clone();
        let service = service_fn(move |req| {
            let app = app2.clone();
            async move { Ok::<_, Infallible>(app.handle(req, peer).await) }
        });
        match &tls {
            None => {
                let conn = builder.serve_connection_with_upgrades(TokioIo::new(tcp), service);
                let conn = graceful.watch(conn.into_owned());
                tokio::spawn(async move {
                    let _ = conn.await;
                });
            }
            Some(acceptor) => {
                let acceptor = acceptor.clone();
                let builder = builder.clone();
                let watcher = graceful.watcher();
                tokio::spawn(async move {
                    let stream =
                        match tokio::time::timeout(Duration::from_secs(10), acceptor.accept(tcp))
                            .await
                        {
                            Ok(Ok(s)) => s,
                            Ok(Err(e)) => {
                                crate::log::debug(&format!(
                                    "TLS handshake with {peer} failed: {e}"
                                ));
                                return;
                            }
                            Err(_) => return,
                        };
                    let conn =
                        builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
                    let _ = watcher.watch(conn.into_owned()).await;
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
