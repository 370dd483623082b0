//! One person's watcher: what they watch, their one Mattermost socket (open while something is
//! watched, closed [`super::WatchSettings::idle`] after the last watch ends), and the updates their
//! subscribers hear.
//!
//! - A watch is held by a [`WatchGuard`]; dropping the last guard of every watch starts the idle
//!   countdown that closes the socket.
//! - Each event the socket hears becomes updates of the watched URIs it changes (see
//!   [`super::event`]); an update carries the URI only, never content (that is read through
//!   `resources/read` or the tools, with their permission checks); a burst is coalesced to at most
//!   one update per URI per [`super::coalesce::INTERVAL`].
//! - On every `hello` (the socket's first, or a new connection id after a restart or a loss), the
//!   gap is filled by reading: for each watched channel (a thread counts as its channel) one
//!   `GetPostsForChannel?since=` from the newest time already known of it (the `since` mode of
//!   `paging::posts_by_time`), which finds what changed meanwhile, edits and deletions included;
//!   what others changed becomes updates. The inbox gets an update on every gap (what changed in
//!   the person's unread state across all their channels cannot be told by one read).

use super::coalesce::{Coalescer, Due};
use super::event::{self, Heard};
use super::settings::WatchSettings;
use super::socket::{self, Endpoint, Signal};
use super::uri::Watchable;
use crate::context::Ctx;
use crate::mattermost::call::CallScope;
use crate::paging::posts_by_time::{self, Mode, Query};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, watch};
use tokio_util::sync::CancellationToken;

/// What subscribers hear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Update {
    /// The resource at this URI changed.
    Resource(String),
    /// The person's list of channels changed.
    ListChanged,
}

/// One watched resource.
struct Watch {
    /// How many guards hold it.
    holders: usize,
    /// The channel it lives in (a channel's own id, a thread's channel; none for the inbox).
    channel: Option<String>,
    /// A thread's root post id.
    root: Option<String>,
    /// The newest time (Mattermost's clock, ms) known of its channel's posts: a gap is read from it.
    mark: i64,
}

#[derive(Default)]
struct State {
    watches: BTreeMap<Watchable, Watch>,
    /// The running socket, stopped by cancelling.
    socket: Option<CancellationToken>,
    /// The idle countdown, stopped by cancelling.
    idle: Option<CancellationToken>,
    coalescer: Coalescer,
    /// Mattermost's clock minus ours (ms).
    clock_offset: i64,
    /// Requests the gap fills made, for the report and tests.
    gap_requests: u64,
}

/// One person's watcher.
pub struct Watcher {
    cx: Arc<Ctx>,
    me: String,
    endpoint: Arc<Endpoint>,
    settings: WatchSettings,
    budget: Duration,
    state: Mutex<State>,
    updates: broadcast::Sender<Update>,
    /// Counts the socket's (re)connections: each `hello` or resumed connection adds one; 0 before
    /// the first.
    connected: watch::Sender<u64>,
    /// Whether the socket is up now.
    up: watch::Sender<bool>,
    /// Cancelled when the watcher ends for good (the person forgotten, their token refused, the
    /// server stopping).
    closed: CancellationToken,
}

/// Holds one watch; dropping it ends the watch.
pub struct WatchGuard {
    watcher: Arc<Watcher>,
    what: Watchable,
}

impl Drop for WatchGuard {
    fn drop(&mut self) {
        self.watcher.unwatch(&self.what);
    }
}

impl WatchGuard {
    pub fn what(&self) -> &Watchable {
        &self.what
    }
}

fn lock(m: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Watcher {
    pub(super) fn new(
        cx: Arc<Ctx>,
        me: String,
        endpoint: Arc<Endpoint>,
        settings: WatchSettings,
        budget: Duration,
        closed: CancellationToken,
    ) -> Watcher {
        Watcher {
            cx,
            me,
            endpoint,
            settings,
            budget,
            state: Mutex::new(State::default()),
            updates: broadcast::channel(256).0,
            connected: watch::channel(0).0,
            up: watch::channel(false).0,
            closed,
        }
    }

    /// The person's user id.
    pub fn me(&self) -> &str {
        &self.me
    }

    /// The person's context.
    pub fn cx(&self) -> &Arc<Ctx> {
        &self.cx
    }

    /// Updates from now on.
    pub fn updates(&self) -> broadcast::Receiver<Update> {
        self.updates.subscribe()
    }

    /// The socket's connection count (see [`Watcher`]).
    pub fn connections(&self) -> watch::Receiver<u64> {
        self.connected.subscribe()
    }

    /// Whether the socket is up now.
    pub fn is_up(&self) -> bool {
        *self.up.borrow()
    }

    /// Resolves when the watcher has ended for good.
    pub async fn ended(&self) {
        self.closed.cancelled().await
    }

    pub fn is_ended(&self) -> bool {
        self.closed.is_cancelled()
    }

    /// Whether anything is watched or the socket is open.
    pub fn is_active(&self) -> bool {
        let s = lock(&self.state);
        !s.watches.is_empty() || s.socket.is_some()
    }

    /// How many distinct resources are watched.
    pub fn watched(&self) -> usize {
        lock(&self.state).watches.len()
    }

    /// Requests the gap fills made so far.
    pub fn gap_requests(&self) -> u64 {
        lock(&self.state).gap_requests
    }

    /// Mattermost's time now, as far as the socket's pings told it (ours until then).
    pub fn server_now(&self) -> i64 {
        crate::time::now_ms() + lock(&self.state).clock_offset
    }

    /// Watches `what` (in `channel`, with `root` for a thread), opening the socket if it is not
    /// open. Refused past the bound of watches per person.
    pub fn watch(
        self: &Arc<Self>,
        what: Watchable,
        channel: Option<String>,
        root: Option<String>,
    ) -> Result<WatchGuard, String> {
        if self.closed.is_cancelled() {
            return Err(
                "Watching stopped for this person (their token was refused, they were forgotten, or the server \
                 is stopping). Subscribe again."
                    .into(),
            );
        }
        let mut s = lock(&self.state);
        let now = crate::time::now_ms() + s.clock_offset;
        match s.watches.get_mut(&what) {
            Some(w) => w.holders += 1,
            None => {
                if s.watches.len() >= self.settings.per_person {
                    return Err(format!(
                        "This person already watches {} resources, the most one person may ({}={}). Unsubscribe \
                         from one (or end a wait) first.",
                        s.watches.len(),
                        crate::config::MAX_WATCHES,
                        self.settings.per_person
                    ));
                }
                s.watches.insert(
                    what.clone(),
                    Watch {
                        holders: 1,
                        channel,
                        root,
                        mark: now,
                    },
                );
            }
        }
        if let Some(idle) = s.idle.take() {
            idle.cancel();
        }
        if s.socket.is_none() {
            let stop = self.closed.child_token();
            s.socket = Some(stop.clone());
            let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
            tokio::spawn(socket::run(
                self.endpoint.clone(),
                self.cx.token().clone(),
                tx,
                stop.clone(),
            ));
            tokio::spawn(drive(Arc::downgrade(self), rx, stop));
        }
        drop(s);
        Ok(WatchGuard {
            watcher: self.clone(),
            what,
        })
    }

    fn unwatch(self: &Arc<Self>, what: &Watchable) {
        let mut s = lock(&self.state);
        if let Some(w) = s.watches.get_mut(what) {
            w.holders = w.holders.saturating_sub(1);
            if w.holders == 0 {
                s.watches.remove(what);
            }
        }
        if s.watches.is_empty() && s.socket.is_some() && s.idle.is_none() {
            let idle = CancellationToken::new();
            s.idle = Some(idle.clone());
            let me = Arc::downgrade(self);
            let wait = self.settings.idle;
            tokio::spawn(async move {
                tokio::select! {
                    () = idle.cancelled() => {}
                    () = tokio::time::sleep(wait) => {
                        if let Some(w) = me.upgrade() {
                            w.close_socket_if_idle();
                        }
                    }
                }
            });
        }
    }

    fn close_socket_if_idle(&self) {
        let mut s = lock(&self.state);
        if s.watches.is_empty() {
            if let Some(socket) = s.socket.take() {
                socket.cancel();
            }
            s.idle = None;
            self.up.send_replace(false);
            crate::log::debug("a person's Mattermost socket closed: nothing watched");
        }
    }

    /// Ends the watcher for good: its socket closes (with a close frame) and its subscribers end.
    pub fn close(&self) {
        self.closed.cancel();
        let mut s = lock(&self.state);
        s.socket = None;
        self.up.send_replace(false);
    }

    /// Sends an update of `uri`, coalesced.
    fn emit(self: &Arc<Self>, uri: String) {
        let due = lock(&self.state).coalescer.change(&uri, Instant::now());
        match due {
            Due::Now => {
                let _ = self.updates.send(Update::Resource(uri));
            }
            Due::Joined => {}
            Due::After(wait) => {
                let me = Arc::downgrade(self);
                tokio::spawn(async move {
                    tokio::time::sleep(wait).await;
                    if let Some(w) = me.upgrade() {
                        lock(&w.state).coalescer.sent(&uri, Instant::now());
                        let _ = w.updates.send(Update::Resource(uri));
                    }
                });
            }
        }
    }

    /// The updates an event (or a gap's read) makes.
    fn heard(self: &Arc<Self>, heard: &Heard) {
        if heard.is_nothing() {
            return;
        }
        let mut uris = BTreeSet::new();
        {
            let mut s = lock(&self.state);
            for (what, w) in s.watches.iter_mut() {
                let touched = match what {
                    Watchable::Channel(c) => heard.channel.as_deref() == Some(c.as_str()),
                    Watchable::Thread(id) => {
                        heard.thread.as_deref() == Some(id.as_str())
                            || heard.post.as_deref() == Some(id.as_str())
                            || (heard.thread.is_some() && heard.thread == w.root)
                    }
                    Watchable::Inbox => heard.inbox,
                };
                if w.channel.is_some() && w.channel == heard.channel {
                    w.mark = w.mark.max(heard.at);
                }
                if touched {
                    uris.insert(what.uri());
                }
            }
            let now = Instant::now();
            s.coalescer.prune(now);
        }
        for uri in uris {
            self.emit(uri);
        }
        if heard.list_changed {
            let _ = self.updates.send(Update::ListChanged);
        }
    }

    /// Fills a gap: reads each watched channel since its mark and turns what others changed into
    /// updates. One request a channel (two when Mattermost's cap of 1000 changed posts is met: then
    /// everything there counts as changed).
    async fn fill_gap(self: &Arc<Self>) {
        let channels: BTreeMap<String, i64> = {
            let s = lock(&self.state);
            let mut m: BTreeMap<String, i64> = BTreeMap::new();
            for w in s.watches.values() {
                if let Some(c) = &w.channel {
                    let e = m.entry(c.clone()).or_insert(w.mark);
                    *e = (*e).min(w.mark);
                }
            }
            m
        };
        let inbox = lock(&self.state).watches.contains_key(&Watchable::Inbox);
        if inbox {
            self.emit(Watchable::Inbox.uri());
        }
        for (channel, since) in channels {
            let scope = Arc::new(CallScope::new(
                "watch",
                self.cx.token().clone(),
                ["GetPostsForChannel"],
                self.budget,
            ));
            let q = Query {
                channel_id: channel.clone(),
                roots_only: false,
            };
            let cx = self.cx.clone();
            let read = scope
                .run(async move {
                    posts_by_time::fetch(
                        &cx,
                        &q,
                        &Mode::Since(since - 1),
                        posts_by_time::MAX_PER_PAGE,
                    )
                    .await
                })
                .await;
            lock(&self.state).gap_requests += scope.requests() as u64;
            let posts = match read {
                Ok(p) => p,
                Err(e) => {
                    crate::log::debug(&format!(
                        "filling a watch's gap: channel {channel} could not be read ({})",
                        e.kind
                    ));
                    continue;
                }
            };
            let capped = posts.len() >= crate::paging::since::SINCE_CAP;
            for p in posts.iter().filter(|p| {
                p.user_id.as_deref() != Some(self.me.as_str())
                    && p.original_id.as_deref().unwrap_or("").is_empty()
            }) {
                let root = p.root_id.clone().filter(|r| !r.is_empty());
                self.heard(&Heard {
                    channel: Some(channel.clone()),
                    thread: Some(
                        root.clone()
                            .unwrap_or_else(|| p.id.clone().unwrap_or_default()),
                    ),
                    post: root.and(p.id.clone()),
                    inbox: false,
                    list_changed: false,
                    at: p.update_at.unwrap_or(0).max(p.create_at.unwrap_or(0)),
                });
            }
            if capped {
                let threads: Vec<String> = lock(&self.state)
                    .watches
                    .iter()
                    .filter(|(_, w)| w.channel.as_deref() == Some(channel.as_str()))
                    .map(|(what, _)| what.uri())
                    .collect();
                for uri in threads {
                    self.emit(uri);
                }
            }
        }
    }
}

/// Turns the socket's signals into updates, until the socket stops.
async fn drive(
    watcher: Weak<Watcher>,
    mut signals: tokio::sync::mpsc::UnboundedReceiver<Signal>,
    stop: CancellationToken,
) {
    loop {
        let signal = tokio::select! {
            () = stop.cancelled() => return,
            s = signals.recv() => match s {
                Some(s) => s,
                None => return,
            },
        };
        let Some(w) = watcher.upgrade() else { return };
        match signal {
            Signal::Hello {
                connection_id: _,
                gap,
            } => {
                w.up.send_replace(true);
                w.connected.send_modify(|n| *n += 1);
                if gap {
                    crate::log::info(
                        "a Mattermost socket came back on a new connection: filling the gap by reading",
                    );
                }
                let filler = w.clone();
                tokio::spawn(async move { filler.fill_gap().await });
            }
            Signal::Resumed => {
                w.up.send_replace(true);
                w.connected.send_modify(|n| *n += 1);
            }
            Signal::Event(frame) => {
                let heard = event::heard(&frame, &w.me);
                w.heard(&heard);
            }
            Signal::Clock(offset) => lock(&w.state).clock_offset = offset,
            Signal::Down => {
                w.up.send_replace(false);
            }
            Signal::Refused(_) => {
                w.close();
                return;
            }
        }
    }
}
