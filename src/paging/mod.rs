//! Paging: the envelope and cursor every list shares, and one module per way Mattermost pages.
//!
//! | strategy | module | for |
//! |---|---|---|
//! | posts by time | [`posts_by_time`] | a channel read back or forward from a post, on whole milliseconds |
//! | since | [`since`] | posts written since a time, past Mattermost's cap of 1000 changed posts |

pub mod cursor;
pub mod envelope;
pub mod posts_by_time;
pub mod since;

pub use envelope::{Limit, Page};

/// How a tool's list is paged; each names the module that holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// [`posts_by_time`]
    PostsByTime,
}

impl Strategy {
    pub fn module(self) -> &'static str {
        match self {
            Strategy::PostsByTime => "paging::posts_by_time",
        }
    }
}
