//! The open connections of the HTTP listener, and their limits: how long a connection may take to send
//! a request's headers (`MATTERMOST_MCP_HEADER_TIMEOUT_SECS`), how long it may stay open with nothing in
//! flight (`MATTERMOST_MCP_IDLE_TIMEOUT_SECS`), and how many may be open in all and from one client
//! address (`MATTERMOST_MCP_MAX_CONNECTIONS`, `..._PER_ADDRESS`).
//!
//! Each connection is [`Watched`]: its reads are seen, and its requests are counted while they run
//! (until their answer is sent in full, event streams included). A connection with no request running
//! is closed when it has sent part of a request's head for longer than the header timeout (a slow or
//! half-sent request: a new connection is expected to send one at once), or nothing at all for longer
//! than the idle timeout. Past a count limit, room is made by closing a connection that runs nothing,
//! the one idle longest of the address holding the most, so a flood of half-open connections from one
//! address sheds its own, and a new connection is refused only when every candidate is busy. A
//! connection with a request running is never closed here.
//!
//! A connection closed to make room keeps its file descriptor until its task runs and drops it, so the
//! listener counts those still closing and stops accepting while more than [`MAX_CLOSING`] are (a
//! flood accepted faster than its shed connections close would otherwise run the process out of
//! files).

use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// Connections closed to make room whose descriptors may still be open, past which the listener
/// waits before it accepts another.
pub const MAX_CLOSING: usize = 8;

/// The limits of the listener's connections.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub header: Duration,
    pub idle: Duration,
    pub total: usize,
    pub per_address: usize,
}

/// One open connection.
pub struct Conn {
    id: u64,
    addr: IpAddr,
    running: AtomicUsize,
    /// When the last request ended (or the connection opened).
    quiet_since: Mutex<Instant>,
    /// When the first byte of a request's head came while nothing ran.
    head_since: Mutex<Option<Instant>>,
    /// HTTP/2: reads between requests are the protocol's own (pings, windows), not a request's head.
    http2: AtomicBool,
    changed: Notify,
    /// Cancelled to close the connection (to make room for another, or at a timeout).
    pub close: CancellationToken,
}

fn now() -> Instant {
    Instant::now()
}

impl Conn {
    fn new(id: u64, addr: IpAddr) -> Conn {
        let t = now();
        Conn {
            id,
            addr,
            running: AtomicUsize::new(0),
            quiet_since: Mutex::new(t),
            // A new connection is expected to send its request at once.
            head_since: Mutex::new(Some(t)),
            http2: AtomicBool::new(false),
            changed: Notify::new(),
            close: CancellationToken::new(),
        }
    }

    fn busy(&self) -> bool {
        self.running.load(Ordering::SeqCst) > 0
    }

    fn quiet_since(&self) -> Instant {
        self.quiet_since
            .lock()
            .map(|g| *g)
            .unwrap_or_else(|_| now())
    }

    /// A request began on this connection (its head is read): held until its answer is sent.
    pub fn begin(self: &Arc<Self>, http2: bool) -> Running {
        if http2 {
            self.http2.store(true, Ordering::SeqCst);
        }
        self.running.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut h) = self.head_since.lock() {
            *h = None;
        }
        self.changed.notify_waiters();
        Running(self.clone())
    }

    fn read_some(&self) {
        if self.busy() || self.http2.load(Ordering::SeqCst) {
            return;
        }
        if let Ok(mut h) = self.head_since.lock()
            && h.is_none()
        {
            *h = Some(now());
            drop(h);
            self.changed.notify_waiters();
        }
    }

    /// When this connection is to be closed if nothing changes, or `None` while a request runs.
    fn deadline(&self, limits: &Limits) -> Option<Instant> {
        if self.busy() {
            return None;
        }
        match self.head_since.lock().ok().and_then(|h| *h) {
            Some(since) => Some(since + limits.header),
            None => Some(self.quiet_since() + limits.idle),
        }
    }

    /// Resolves when the connection is to be closed: a timeout passed with nothing running, or it was
    /// told to close.
    pub async fn watch(&self, limits: Limits) {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let deadline = self.deadline(&limits);
            if deadline.is_some_and(|d| d <= now()) {
                return;
            }
            let sleep = async {
                match deadline {
                    Some(d) => tokio::time::sleep_until(d.into()).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = sleep => {}
                _ = &mut changed => {}
                _ = self.close.cancelled() => return,
            }
        }
    }
}

/// A request running on a connection; dropping it (with its answer) ends it.
pub struct Running(Arc<Conn>);

impl Drop for Running {
    fn drop(&mut self) {
        if self.0.running.fetch_sub(1, Ordering::SeqCst) == 1 {
            if let Ok(mut q) = self.0.quiet_since.lock() {
                *q = now();
            }
            self.0.changed.notify_waiters();
        }
    }
}

/// Why a connection was not admitted.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// Its address holds as many connections as it may, all of them running requests.
    Address(usize),
    /// The listener holds as many connections as it may, all of them running requests.
    Total(usize),
}

#[derive(Default)]
struct Table {
    next: u64,
    open: HashMap<u64, Arc<Conn>>,
    by_address: HashMap<IpAddr, usize>,
    /// Connections shed whose task has not yet ended (and so may still hold their descriptor).
    closing: usize,
}

impl Table {
    /// The connection running nothing and quiet longest among `candidates`.
    fn idlest<'a>(candidates: impl Iterator<Item = &'a Arc<Conn>>) -> Option<Arc<Conn>> {
        candidates
            .filter(|c| !c.busy())
            .min_by_key(|c| c.quiet_since())
            .cloned()
    }

    fn remove(&mut self, id: u64) -> Option<Arc<Conn>> {
        let c = self.open.remove(&id)?;
        if let Some(n) = self.by_address.get_mut(&c.addr) {
            *n -= 1;
            if *n == 0 {
                self.by_address.remove(&c.addr);
            }
        }
        Some(c)
    }

    fn shed(&mut self, victim: Arc<Conn>) {
        victim.close.cancel();
        if self.remove(victim.id).is_some() {
            self.closing += 1;
        }
    }
}

/// The listener's open connections.
pub struct Conns {
    pub limits: Limits,
    table: Mutex<Table>,
    shed: AtomicUsize,
    /// Told when a shed connection's task ends.
    closed: Notify,
}

impl Conns {
    pub fn new(limits: Limits) -> Conns {
        Conns {
            limits,
            table: Mutex::new(Table::default()),
            shed: AtomicUsize::new(0),
            closed: Notify::new(),
        }
    }

    /// Admits a connection from `addr`, closing an idle one to make room when a limit is reached.
    pub fn admit(&self, addr: IpAddr) -> Result<Arc<Conn>, Refused> {
        let mut t = self
            .table
            .lock()
            .map_err(|_| Refused::Total(self.limits.total))?;
        if t.by_address.get(&addr).copied().unwrap_or(0) >= self.limits.per_address {
            let victim = Table::idlest(t.open.values().filter(|c| c.addr == addr))
                .ok_or(Refused::Address(self.limits.per_address))?;
            t.shed(victim);
            self.shed.fetch_add(1, Ordering::Relaxed);
        }
        if t.open.len() >= self.limits.total {
            let crowded = t
                .by_address
                .iter()
                .max_by_key(|(_, n)| **n)
                .map(|(a, _)| *a);
            let victim = crowded
                .and_then(|a| Table::idlest(t.open.values().filter(|c| c.addr == a)))
                .or_else(|| Table::idlest(t.open.values()))
                .ok_or(Refused::Total(self.limits.total))?;
            t.shed(victim);
            self.shed.fetch_add(1, Ordering::Relaxed);
        }
        t.next += 1;
        let conn = Arc::new(Conn::new(t.next, addr));
        t.open.insert(conn.id, conn.clone());
        *t.by_address.entry(addr).or_insert(0) += 1;
        Ok(conn)
    }

    /// Forgets a connection that ended (its task is over, its descriptor closed).
    pub fn closed(&self, conn: &Conn) {
        if let Ok(mut t) = self.table.lock()
            && t.remove(conn.id).is_none()
        {
            // it was shed: one fewer still closing
            t.closing = t.closing.saturating_sub(1);
            self.closed.notify_waiters();
        }
    }

    /// How many shed connections are still closing.
    pub fn closing(&self) -> usize {
        self.table.lock().map(|t| t.closing).unwrap_or(0)
    }

    /// Waits while more than [`MAX_CLOSING`] shed connections are still closing (checked again every
    /// 50 ms, so a lost wake-up costs no more than that).
    pub async fn room(&self) {
        loop {
            let told = self.closed.notified();
            if self.closing() <= MAX_CLOSING {
                return;
            }
            let _ = tokio::time::timeout(Duration::from_millis(50), told).await;
        }
    }

    /// Closes the connection idle longest, to free a file descriptor (the process ran out).
    pub fn shed_one(&self) -> bool {
        let Ok(mut t) = self.table.lock() else {
            return false;
        };
        match Table::idlest(t.open.values()) {
            Some(v) => {
                t.shed(v);
                self.shed.fetch_add(1, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// How many connections are open.
    pub fn open(&self) -> usize {
        self.table.lock().map(|t| t.open.len()).unwrap_or(0)
    }

    /// How many connections were closed to make room.
    pub fn shed_count(&self) -> usize {
        self.shed.load(Ordering::Relaxed)
    }
}

/// A connection's stream, watched: each read that brings bytes while nothing runs starts the header
/// timeout.
pub struct Watched<S> {
    inner: S,
    conn: Arc<Conn>,
}

impl<S> Watched<S> {
    pub fn new(inner: S, conn: Arc<Conn>) -> Watched<S> {
        Watched { inner, conn }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.conn.read_some();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// Raises the process's soft limit of open files to its hard limit, where it can; the limit in force.
pub fn raise_fd_limit() -> Option<u64> {
    rlimit::increase_nofile_limit(u64::MAX).ok()
}

/// The connections the listener may hold with `fds` file descriptors: room is kept for the
/// connections to Mattermost, the session files and the process's own.
pub fn fit_to_fds(wanted: usize, fds: Option<u64>) -> usize {
    match fds {
        Some(n) => {
            let room = (n as usize).saturating_sub(64) * 3 / 4;
            wanted.min(room.max(16))
        }
        None => wanted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(total: usize, per_address: usize) -> Limits {
        Limits {
            header: Duration::from_millis(50),
            idle: Duration::from_millis(200),
            total,
            per_address,
        }
    }

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    #[tokio::test]
    async fn the_listener_waits_while_too_many_shed_connections_still_hold_their_descriptors() {
        let conns = Conns::new(limits(1, 1));
        let mut shed = Vec::new();
        let mut last = conns.admit(ip(2)).expect("first");
        for _ in 0..=MAX_CLOSING {
            let next = conns.admit(ip(2)).expect("room made");
            assert!(last.close.is_cancelled(), "the idle one was shed");
            shed.push(std::mem::replace(&mut last, next));
        }
        assert_eq!(conns.open(), 1);
        assert_eq!(conns.closing(), MAX_CLOSING + 1, "shed, not yet closed");
        assert!(
            tokio::time::timeout(Duration::from_millis(200), conns.room())
                .await
                .is_err(),
            "no room while {} are closing",
            MAX_CLOSING + 1
        );
        // One shed connection's task ends: room again, at once.
        let waiting = tokio::spawn({
            let conns = Arc::new(conns);
            let c = conns.clone();
            let first = shed.remove(0);
            async move {
                let room = tokio::spawn(async move { c.room().await });
                tokio::time::sleep(Duration::from_millis(20)).await;
                conns.closed(&first);
                tokio::time::timeout(Duration::from_millis(40), room).await
            }
        });
        assert!(
            matches!(waiting.await, Ok(Ok(Ok(())))),
            "room once a shed connection closed"
        );
    }

    #[test]
    fn past_an_addresss_limit_its_idlest_connection_makes_room_and_a_busy_one_never_does() {
        let conns = Conns::new(limits(100, 2));
        let a = conns.admit(ip(2)).expect("first");
        std::thread::sleep(Duration::from_millis(2));
        let b = conns.admit(ip(2)).expect("second");
        let c = conns.admit(ip(2)).expect("third, making room");
        assert!(a.close.is_cancelled(), "the idlest went");
        assert!(!b.close.is_cancelled());
        assert_eq!(conns.open(), 2);
        let _rb = b.begin(false);
        let _rc = c.begin(false);
        assert_eq!(
            conns.admit(ip(2)).err(),
            Some(Refused::Address(2)),
            "every connection of the address is busy"
        );
        assert!(
            conns.admit(ip(3)).is_ok(),
            "another address is not held back"
        );
    }

    #[test]
    fn past_the_total_the_crowded_address_gives_way() {
        let conns = Conns::new(limits(3, 10));
        let mine = conns.admit(ip(1)).expect("mine");
        let _r = mine.begin(false);
        let flood: Vec<_> = (0..2).map(|_| conns.admit(ip(9)).expect("flood")).collect();
        let other = conns.admit(ip(5)).expect("room is made");
        assert!(flood.iter().any(|c| c.close.is_cancelled()));
        assert!(!mine.close.is_cancelled() && !other.close.is_cancelled());
        assert_eq!(conns.open(), 3);
    }

    #[tokio::test]
    async fn a_half_sent_head_and_an_idle_connection_time_out_and_a_running_request_does_not() {
        let conns = Conns::new(limits(10, 10));
        let half = conns.admit(ip(1)).expect("admitted");
        let started = Instant::now();
        half.watch(conns.limits).await;
        assert!(started.elapsed() >= Duration::from_millis(50));
        let idle = conns.admit(ip(1)).expect("admitted");
        drop(idle.begin(false));
        let started = Instant::now();
        idle.watch(conns.limits).await;
        assert!(
            started.elapsed() >= Duration::from_millis(200),
            "idle, not head"
        );
        let busy = conns.admit(ip(1)).expect("admitted");
        let running = busy.begin(false);
        let waited =
            tokio::time::timeout(Duration::from_millis(400), busy.watch(conns.limits)).await;
        assert!(waited.is_err(), "a running request keeps its connection");
        drop(running);
    }
}
