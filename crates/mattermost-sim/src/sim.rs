//! `Sim`: a running simulator on 127.0.0.1 with its change handle, request log and fault controls.

use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::faults::{FaultRule, Faults};
use crate::http::{self, Shared, lock};
use crate::log::LoggedRequest;
use crate::world::World;

/// A running simulator. Dropping it stops accepting connections.
pub struct Sim {
    shared: Arc<Shared>,
    addr: SocketAddr,
    task: JoinHandle<()>,
}

impl Sim {
    /// Bind 127.0.0.1 on a random port and serve `world` on the current tokio runtime.
    pub async fn start(mut world: World) -> std::io::Result<Sim> {
        // What seeding recorded happened before any socket could hear of it.
        world.take_happenings();
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            world: Mutex::new(world),
            log: Mutex::new(Vec::new()),
            faults: Mutex::new(Faults::default()),
            counter: AtomicU64::new(0),
            addr,
            hub: Mutex::new(crate::hub::Hub::default()),
        });
        let task = tokio::spawn(http::serve(listener, shared.clone()));
        Ok(Sim { shared, addr, task })
    }

    /// Like [`Sim::start`], but on a runtime of its own in a background thread, so that it keeps
    /// answering while the caller blocks (e.g. waits on a child process with `std::process`, or
    /// runs on a current-thread runtime that is busy). Works outside any tokio runtime too.
    pub fn start_detached(world: World) -> std::io::Result<Sim> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("mattermost-sim".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                rt.block_on(async move {
                    match Sim::start(world).await {
                        Ok(sim) => {
                            let done = sim.task.abort_handle();
                            let _ = tx.send(Ok(sim));
                            // keep the runtime alive until the server task is aborted (Sim dropped)
                            while !done.is_finished() {
                                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(Err(e));
                        }
                    }
                });
            })?;
        rx.recv()
            .map_err(|_| std::io::Error::other("the simulator thread stopped"))?
    }

    /// The server root, e.g. `http://127.0.0.1:41234` (routes are under `/api/v4`).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The bearer token of a user of the world.
    pub fn token(&self, username: &str) -> String {
        lock(&self.shared.world).token(username)
    }

    /// Change the world while the server runs (the same lock the handlers take), e.g. to post,
    /// edit, delete, save, follow or mark read while a reader pages.
    pub fn with_world<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        let out = {
            let mut w = lock(&self.shared.world);
            f(&mut w)
        };
        http::publish(&self.shared);
        out
    }

    /// WebSocket fault: drops every open socket without a close frame, as a network cut does; the
    /// server keeps their connections, so a client reconnecting in time with its `connection_id`
    /// and sequence number gets what it missed. Returns how many sockets were open.
    pub fn drop_websockets(&self) -> usize {
        lock(&self.shared.hub).drop_sockets()
    }

    /// WebSocket fault: answers the next `n` upgrade requests 503, or (`all`) every one until
    /// called again with `all` false.
    pub fn refuse_websocket_upgrades(&self, n: u32, all: bool) {
        lock(&self.shared.hub).set_refuse(n, all);
    }

    /// WebSocket fault: a server restart — every socket dropped and every connection forgotten, so
    /// a client reconnecting gets a `hello` with a new connection id.
    pub fn restart_websockets(&self) {
        lock(&self.shared.hub).restart();
    }

    /// WebSocket fault: holds every event `delay` before it is delivered (`None` lifts it).
    pub fn delay_websocket_events(&self, delay: Option<std::time::Duration>) {
        lock(&self.shared.hub).set_delay(delay);
    }

    /// Lets `by` of simulated time pass for the hub: an inactive connection whose last activity is
    /// then older than the reaper's 5 minutes is forgotten (a client away too long gets a new id).
    pub fn advance_websocket_clock(&self, by: std::time::Duration) {
        lock(&self.shared.hub).advance(by);
    }

    /// The user ids of the sockets open now, one entry a socket.
    pub fn open_websockets(&self) -> Vec<String> {
        lock(&self.shared.hub).open_sockets()
    }

    /// Every WebSocket upgrade request so far (kept apart from [`Sim::log`]), its status 101 or the
    /// refusal's.
    pub fn websocket_upgrades(&self) -> Vec<LoggedRequest> {
        lock(&self.shared.hub).upgrades.clone()
    }

    /// Every connection id the hub handed out so far, oldest first.
    pub fn websocket_connection_ids(&self) -> Vec<String> {
        lock(&self.shared.hub).handed_out.clone()
    }

    /// The user id of a username.
    pub fn user_id(&self, username: &str) -> Option<String> {
        lock(&self.shared.world).user_id(username)
    }

    /// The simulator's clock: real time in milliseconds.
    pub fn now_ms(&self) -> i64 {
        crate::clock::now_ms()
    }

    /// Every request received so far, in arrival order.
    pub fn log(&self) -> Vec<LoggedRequest> {
        lock(&self.shared.log).clone()
    }

    /// Forget every request logged so far, so that a test counts only what follows.
    pub fn clear_log(&self) {
        lock(&self.shared.log).clear();
    }

    /// Add a fault rule (rules are tried in the order added).
    pub fn inject(&self, rule: FaultRule) {
        lock(&self.shared.faults).add(rule);
    }

    /// Remove every fault rule: requests are answered normally again.
    pub fn clear_faults(&self) {
        lock(&self.shared.faults).clear();
    }

    /// That user's token now gets 401 `api.context.session_expired.app_error`.
    pub fn expire_token(&self, username: &str) {
        lock(&self.shared.world).expire_token(username);
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        self.task.abort();
    }
}
