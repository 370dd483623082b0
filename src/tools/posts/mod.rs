//! The tools that read posts and what hangs off them: a channel, what is unread, a thread, followed
//! threads, everything unread at once (the inbox), pinned and saved posts, post search, mentions,
//! reactions, drafts and custom emoji.

pub(crate) mod common;
pub(crate) mod list_drafts;
pub(crate) mod list_emoji;
pub(crate) mod list_mentions;
pub(crate) mod list_pinned_posts;
pub(crate) mod list_reactions;
pub(crate) mod list_saved;
pub(crate) mod list_threads;
pub(crate) mod read_channel;
pub(crate) mod read_inbox;
pub(crate) mod read_thread;
pub(crate) mod read_unread;

pub(crate) mod search_posts;
pub(crate) mod wait_for_activity;

pub(crate) use super::shared::args::{CHANNEL, POST, TEAM, TEAM_OF_CHANNEL};
