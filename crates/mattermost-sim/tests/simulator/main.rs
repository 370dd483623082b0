//! Tests of the simulator itself: one test per quirk of `mattermost-list-semantics.md`, named after
//! it, plus faults, the request log, auth, permissions, the change handle and the demo world.

// Tests and their helpers say what must hold with unwrap and expect; outside tests both are denied.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod audit_rows;
mod auth;
mod change_handle;
mod channel_posts;
mod channel_reads;
mod channel_search;
mod channels;
mod common;
mod dedup;
mod demo;
mod demo_inbox;
mod demo_truth;
mod demo_writes;
mod faults;
mod followed_threads;
mod low_rows;
mod paging;
mod permissions;
mod posting;
mod request_log;
mod samples;
mod saved_posts;
mod search;
mod search_text;
mod small_lists;
mod thread;
mod unread;
mod uploads;
mod user_search;
mod users;
mod view_channel;
mod write_channels;
mod write_client;
mod write_posts;
mod write_users;
