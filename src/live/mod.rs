//! Live: the person hears what happens in Mattermost, through Mattermost's own WebSocket.
//!
//! - [`socket`]: a client of `/api/v4/websocket`, authenticated as the person by the bearer on the
//!   upgrade (never in the URL), that reconnects as Mattermost's own clients do: with its
//!   `connection_id` and the next `sequence_number`, backing off with jitter; a `hello` with another
//!   connection id (a restart, too long away, a lost event) says the server could not replay what
//!   was missed, and the watcher fills that gap by reading.
//! - [`event`]: Mattermost's events, decoded, and the resources each one changes.
//! - [`watcher`]: one person's watches (`mattermost://channels/{id}`, `mattermost://posts/{root}`,
//!   `mattermost://me/inbox`), the socket opened while something is watched, updates coalesced, the
//!   gap filled through the `since` paging.
//! - [`registry`]: every person's watcher in this process, bounded per person and in all, closed
//!   when idle, when the person is forgotten and at shutdown.
//! - [`uri`]: the watchable URIs; [`settings`]: the bounds; [`coalesce`]: at most one update per
//!   URI per [`coalesce::INTERVAL`].

pub mod coalesce;
pub mod event;
pub mod registry;
pub mod sessions;
pub mod settings;
pub mod socket;
pub mod uri;
pub mod watcher;

pub use registry::{Live, Person};
pub use settings::WatchSettings;
pub use uri::Watchable;
pub use watcher::{Update, Watcher};
