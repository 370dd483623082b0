//! The channels tools: the person's channels, one channel, channel search, a team's public and
//! archived channels, a channel's members and counts; and what they share (`common`).

pub(crate) mod common;
pub(crate) mod get_channel;
pub(crate) mod get_channel_stats;
pub(crate) mod list_archived_channels;
pub(crate) mod list_channel_members;
pub(crate) mod list_channels;
pub(crate) mod list_team_channels;
pub(crate) mod search_channels;

pub(crate) use super::shared::args::{CHANNEL, TEAM_OF_CHANNEL};
