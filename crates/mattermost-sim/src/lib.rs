//! A Mattermost REST API v4 simulator for tests and the demo: the real routes, shapes, headers,
//! errors and paging quirks of the server (see `shared/docs/mattermost-list-semantics.md`), served
//! over HTTP on 127.0.0.1, with a change handle, a request log and fault injection; and
//! [`samples`], writers of sample files (PDF, PNG, Office documents, zip, tar). The write routes the
//! product's write tools call (posts with the pending-post-id de-duplication, reactions, pins, saved
//! posts, threads, channels and memberships, statuses, drafts, uploads) have the real server's side
//! effects, and faults can cut or delay a response after the write was stored.
//!
//! It follows the real server's Go source at `legendaSVD/mattermost@b24f322ebce36b9d20e777f99a0d8d747ae40202`
//! (the 11.6 development line, the tree `spec/pinned.yaml` comes from): each route handler names the
//! `server/channels/api4` handler, `app` function and `store/sqlstore` query it mirrors, and
//! `SPEC-DIFFERENCES.md` lists where that server differs from the OpenAPI spec.
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

#![warn(missing_docs)]

mod body;
mod clock;
mod demo;
mod faults;
mod fulltext;
mod http;
mod hub;
mod ids;
mod log;
mod mentions;
mod params;
mod render;
mod reply;
mod rng;
mod router;
mod routes;
pub mod samples;
mod shared;
mod sim;
mod websocket;
mod world;

pub use faults::{Fault, FaultRule};
pub use ids::is_valid_id;
pub use log::LoggedRequest;
pub use router::served as routes;
pub use sim::Sim;
pub use world::{ChannelKind, World};
