//! The Mattermost client crate ([`mattermost_client`]), as the server names it.

pub use mattermost_client::*;
