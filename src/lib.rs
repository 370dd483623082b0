//! mattermost-mcp: an MCP server for Mattermost.
//!
//! A tool call flows one way: the server ([`server`]) finds the tool's row in the table ([`table`]),
//! checks its arguments ([`args`]) and cursor ([`paging::cursor`]), runs the row's code ([`tools`]),
//! which pages through one strategy ([`paging`]) over the generated client and its thin hand layer
//! ([`mattermost`]), and the answer goes back in the list envelope ([`paging::envelope`]).

pub mod args;
pub mod config;
pub mod context;
pub mod error;
pub mod ids;
pub mod log;
pub mod mattermost;
pub mod names;
pub mod overrides_cmd;
pub mod paging;
pub mod server;
pub mod spec_check;
pub mod summary;
pub mod table;
pub mod time;
pub mod tools;
