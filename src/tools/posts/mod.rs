//! The tools that read posts and what hangs off them: a channel, what is unread, a thread, followed
//! threads, everything unread at once (the inbox), pinned and saved posts, post search, mentions,
//! reactions, drafts and custom emoji.

pub mod common;
pub mod list_drafts;
pub mod list_emoji;
pub mod list_mentions;
pub mod list_pinned_posts;
pub mod list_reactions;
pub mod list_saved;
pub mod list_threads;
pub mod read_channel;
pub mod read_inbox;
pub mod read_thread;
pub mod read_unread;

pub mod search_posts;
pub mod wait_for_activity;

pub(crate) use super::shared::args::{CHANNEL, POST, TEAM, TEAM_OF_CHANNEL};
