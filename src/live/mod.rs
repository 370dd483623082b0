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

pub(crate) mod coalesce;
pub(crate) mod event;
pub(crate) mod registry;
pub(crate) mod sessions;
pub(crate) mod settings;
pub(crate) mod socket;
pub(crate) mod uri;
pub(crate) mod watcher;

pub(crate) use registry::{Live, Person};
pub(crate) use settings::WatchSettings;
pub(crate) use uri::Watchable;
pub(crate) use watcher::{Update, Watcher};
