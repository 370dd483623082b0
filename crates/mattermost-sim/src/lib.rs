//! A Mattermost REST API v4 simulator for tests and the demo: the real routes, shapes, headers,
//! errors and paging quirks of the server (see `shared/docs/mattermost-list-semantics.md`), served
//! over HTTP on 127.0.0.1, with a change handle, a request log and fault injection. The write
//! routes the product's write tools call (posts with the pending-post-id de-duplication, reactions,
//! pins, saved posts, threads, channels and memberships, statuses, drafts, uploads) have the real
//! server's side effects, and faults can cut or delay a response after the write was stored.
//!
//! ```no_run
//! # async fn example() -> std::io::Result<()> {
//! use mattermost_sim::{Sim, World, ChannelKind};
//! let mut w = World::new(1);
//! let alice = w.user("alice");
//! let team = w.team("acme", "Acme", true);
//! let town = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
//! w.join(&town, &alice);
//! w.post(&town, &alice, 1_700_000_000_000, "hello");
//! let sim = Sim::start(w).await?;
//! let _ = (sim.url(), sim.token("alice"));
//! # Ok(()) }
//! ```

mod demo;
mod faults;
mod http;
mod ids;
mod log;
mod params;
mod render;
mod rng;
mod router;
mod routes;
mod sim;
mod world;

pub use faults::{Fault, FaultRule};
pub use ids::is_valid_id;
pub use log::LoggedRequest;
pub use sim::Sim;
pub use world::{ChannelKind, World};
