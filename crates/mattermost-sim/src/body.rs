//! The body of a simulated response.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};

/// A response body that can also break off mid-way (for [`Fault::CutMidBody`]).
pub(crate) struct SimBody {
    data: Option<Bytes>,
    fail_after: bool,
    /// Before failing, wait so that the head and the first part are flushed to the socket.
    pause: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl SimBody {
    /// A whole body.
    pub(crate) fn of(b: Vec<u8>) -> SimBody {
        SimBody::full(b)
    }

    pub(crate) fn full(b: Vec<u8>) -> SimBody {
        SimBody {
            data: if b.is_empty() {
                None
            } else {
                Some(Bytes::from(b))
            },
            fail_after: false,
            pause: None,
        }
    }

    pub(crate) fn cut(part: Vec<u8>) -> SimBody {
        SimBody {
            data: Some(Bytes::from(part)),
            fail_after: true,
            pause: Some(Box::pin(tokio::time::sleep(
                std::time::Duration::from_millis(50),
            ))),
        }
    }
}

impl Body for SimBody {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        if let Some(d) = self.data.take() {
            return Poll::Ready(Some(Ok(Frame::data(d))));
        }
        if let Some(p) = self.pause.as_mut() {
            if p.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            self.pause = None;
        }
        if self.fail_after {
            self.fail_after = false;
            return Poll::Ready(Some(Err(std::io::Error::other(
                "connection cut by fault injection",
            ))));
        }
        Poll::Ready(None)
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none() && !self.fail_after
    }

    fn size_hint(&self) -> SizeHint {
        if self.fail_after {
            SizeHint::default()
        } else {
            SizeHint::with_exact(self.data.as_ref().map(|d| d.len() as u64).unwrap_or(0))
        }
    }
}
