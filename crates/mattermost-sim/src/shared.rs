//! What the simulator shares between its connections and the test's [`crate::Sim`] handle, and
//! publishing on the WebSocket what a change recorded.

use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::faults::Faults;
use crate::log::LoggedRequest;
use crate::world::World;

/// What the simulator shares between its connections and the test's [`crate::Sim`] handle.
pub(crate) struct Shared {
    pub world: Mutex<World>,
    pub log: Mutex<Vec<LoggedRequest>>,
    pub faults: Mutex<Faults>,
    pub counter: AtomicU64,
    pub addr: SocketAddr,
    /// The WebSocket hub (`crate::hub`).
    pub hub: Mutex<crate::hub::Hub>,
}

/// Publishes on the WebSocket what the world recorded as happened (the events of the request just
/// served, or of a test's change), to every connection that should receive them; with a delay
/// fault, after the delay.
pub(crate) fn publish(shared: &Arc<Shared>) {
    let events = {
        let mut world = lock(&shared.world);
        let happened = world.take_happenings();
        if happened.is_empty() {
            return;
        }
        let events = crate::hub::events_of(&world, &happened);
        let delay = lock(&shared.hub).event_delay();
        match delay {
            None => {
                lock(&shared.hub).deliver(&world, &events);
                return;
            }
            Some(d) => (events, d),
        }
    };
    let shared = shared.clone();
    tokio::spawn(async move {
        tokio::time::sleep(events.1).await;
        let world = lock(&shared.world);
        lock(&shared.hub).deliver(&world, &events.0);
    });
}

/// Lock a mutex even if a previous holder panicked (the data stays usable for tests).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
