//! Paging: the envelope and cursor every list shares, and one module per way Mattermost pages.
//!
//! | strategy | module | for |
//! |---|---|---|
//! | posts by time | [`posts_by_time`] | a channel read back or forward from a post, on whole milliseconds |
//! | since | [`since`] | posts written since a time, past Mattermost's cap of 1000 changed posts |
//! | whole list | [`whole_list`] | a list Mattermost gives whole, continued after the last item's key |
//! | pages with ties | [`pages_with_ties`] | a paged list ordered by a value items share, read whole once per cursor chain |

pub mod cursor;
pub mod envelope;
pub mod pages_with_ties;
pub mod posts_by_time;
pub mod since;
pub mod whole_list;

pub use envelope::{Limit, Page};

/// How a tool's list is paged; each names the module that holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// [`posts_by_time`]
    PostsByTime,
    /// [`whole_list`]
    WholeList,
    /// [`pages_with_ties`]
    PagesWithTies,
}

impl Strategy {
    /// The module that holds the strategy.
    pub fn module(self) -> &'static str {
        match self {
            Strategy::PostsByTime => "paging::posts_by_time",
            Strategy::WholeList => "paging::whole_list",
            Strategy::PagesWithTies => "paging::pages_with_ties",
        }
    }
}
