//! What happened in the store that Mattermost publishes on its WebSocket: each change method of the
//! world records it here, and the hub (`crate::hub`) turns it into the event the server's `app`
//! layer publishes (`model.NewWebSocketEvent` with its broadcast) when the request (or the test's
//! change) is done. Recorded as ids only, so the event shows the store as it is then.

use super::{Happened, World};

impl World {
    /// Records a change the server publishes (see [`Happened`]).
    pub(crate) fn happened(&mut self, h: Happened) {
        // Seeding a large world before any socket connects would keep every post here; nobody
        // can receive those, so past this many the oldest go.
        const KEPT: usize = 10_000;
        if self.happenings.len() >= KEPT {
            self.happenings.remove(0);
        }
        self.happenings.push(h);
    }

    /// Everything recorded since the last call, oldest first.
    pub(crate) fn take_happenings(&mut self) -> Vec<Happened> {
        std::mem::take(&mut self.happenings)
    }
}
