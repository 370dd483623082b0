//! Paging: the envelope and cursor every list shares, and one module per way Mattermost pages.
//!
//! | strategy | module | for |
//! |---|---|---|
//! | posts by time | [`posts_by_time`] | a channel read back or forward from a post, on whole milliseconds |
//! | since | [`since`] | posts written since a time, past Mattermost's cap of 1000 changed posts |
//! | whole list | [`whole_list`] | a list Mattermost gives whole, continued after the last item's key |
//! | pages with ties | [`pages_with_ties`] | a paged list ordered by a value items share, read whole once per cursor chain |
//! | (pages with ties) | [`straddling_ties`] | reading such a list whole: a run of one key that two pages cut is read again whole |
//! | recently active | [`recently_active`] | the user's channels, most recently posted in first, kept for the cursor chain |
//! | thread | [`thread`] | a thread oldest first, on Mattermost's (time, id) keyset from any post in it |
//! | followed threads | [`followed_threads`] | followed threads by last reply through `before`/`after`, whole milliseconds, DM threads once |
//! | saved posts | [`saved_posts`] | saved posts, whose `page` is an offset in posts, read until an empty page |
//! | search windows | [`search_windows`] | post and file search walked back by date windows past Mattermost's cap of 100, to the end |
//! | file items | [`file_items`] | a shared file's items (lines, PDF pages, rows, slides, entries) by item and byte, pages bounded in items and JSON bytes |
//! | inbox | [`inbox`] | everything unread, source after source, planned once and each source read once per cursor chain, on whole milliseconds |

pub mod by_operation;
pub mod cursor;
pub mod envelope;
pub mod file_items;
pub mod followed_threads;
pub mod inbox;
pub mod pages_with_ties;
pub mod posts_by_time;
pub mod recently_active;
pub mod saved_posts;
pub mod search_windows;
pub mod since;
pub mod straddling_ties;
pub mod thread;
pub mod whole_list;

pub use envelope::{Envelope, NoExtra, Page};

/// How a tool's list is paged; each names the module that holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// [`posts_by_time`]
    PostsByTime,
    /// [`whole_list`]
    WholeList,
    /// [`pages_with_ties`]
    PagesWithTies,
    /// [`recently_active`]
    RecentlyActive,
    /// [`since`] (with [`posts_by_time`] for later pages)
    Since,
    /// [`thread`]
    Thread,
    /// [`followed_threads`]
    FollowedThreads,
    /// [`saved_posts`]
    SavedPosts,
    /// [`search_windows`]
    SearchWindows,
    /// [`file_items`]
    FileItems,
    /// [`inbox`]
    Inbox,
    /// By how Mattermost pages the operation called (the operation gateway: [`by_operation`] cuts an
    /// answer into pages, `tools::api::walks` walks it by offset or by key, or reads it once).
    ByOperation,
}

impl Strategy {
    /// The module that holds the strategy.
    pub fn module(self) -> &'static str {
        match self {
            Strategy::PostsByTime => "paging::posts_by_time",
            Strategy::WholeList => "paging::whole_list",
            Strategy::PagesWithTies => "paging::pages_with_ties",
            Strategy::RecentlyActive => "paging::recently_active",
            Strategy::Since => "paging::since",
            Strategy::Thread => "paging::thread",
            Strategy::FollowedThreads => "paging::followed_threads",
            Strategy::SavedPosts => "paging::saved_posts",
            Strategy::SearchWindows => "paging::search_windows",
            Strategy::FileItems => "paging::file_items",
            Strategy::Inbox => "paging::inbox",
            Strategy::ByOperation => "paging::by_operation",
        }
    }
}
