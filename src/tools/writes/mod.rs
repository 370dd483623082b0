//! The writes tools: those that change something in Mattermost, offered only with
//! `MATTERMOST_ALLOW_WRITES=true`.

pub mod mark_channel_read;
