//! The channels tools: the person's channels, one channel, channel search, a team's public and
//! archived channels, a channel's members and counts; and what they share (`common`).

pub mod common;
pub mod get_channel;
pub mod get_channel_stats;
pub mod list_archived_channels;
pub mod list_channel_members;
pub mod list_channels;
pub mod list_team_channels;
pub mod search_channels;

pub(crate) use super::shared::args::{CHANNEL, TEAM_OF_CHANNEL};
