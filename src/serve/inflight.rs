//! The calls in flight, so SIGTERM can wait for them, and the response body that holds a call's
//! places (its person's concurrency permit, its in-flight mark) until the response is sent in full.

use crate::serve::team_state::store::CallSlot;
use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::Notify;

/// How many calls are running.
#[derive(Default)]
pub(crate) struct InFlight {
    running: AtomicUsize,
    changed: Notify,
}

/// One running call; dropping it ends the call.
pub(crate) struct Mark(Arc<InFlight>);

impl Drop for Mark {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
        self.0.changed.notify_waiters();
    }
}

impl InFlight {
    /// Marks a call as running.
    pub(crate) fn start(self: &Arc<Self>) -> Mark {
        self.running.fetch_add(1, Ordering::SeqCst);
        Mark(self.clone())
    }

    pub(crate) fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Waits until no call runs, or `within` has passed; true when none runs.
    pub(crate) async fn drained(&self, within: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let changed = self.changed.notified();
            if self.running() == 0 {
                return true;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return self.running() == 0;
            }
        }
    }
}

/// A response body that holds its call's places until it ends or is dropped.
pub(crate) struct Held<B> {
    pub(crate) inner: B,
    pub(crate) permit: Option<CallSlot>,
    pub(crate) mark: Option<Mark>,
}

impl<B: Body<Data = Bytes, Error = Infallible> + Unpin> Body for Held<B> {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        if let Poll::Ready(None) = polled {
            this.permit = None;
            this.mark = None;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
