//! mattermost-mcp: an MCP server for Mattermost.
//!
//! A tool call flows one way: a transport (`main`: stdio, or HTTP) hands it to the server
//! ([`server`]), which finds the caller's person context ([`context`]) and the tool in the inventory
//! ([`inventory`]), checks its arguments ([`args`]) and cursor ([`paging::cursor`]) against the tool's
//! declaration ([`tool`]), and runs the tool's code from its one file under [`tools`]. The code resolves
//! names ([`resolve`]), pages through its strategy ([`paging`]) over the generated client and its thin
//! hand layer ([`mattermost`], with every call declared in [`calls`]), and answers typed items
//! ([`show`]), in the list envelope for a list ([`paging::envelope`]).
//!
//! The same tools answer MCP resources ([`resources`]: files, threads, channels, with completion of
//! their arguments) and are named by the prompts ([`prompts`]).
//!
//! The top-level modules depend on each other one way only; `tests/integration/architecture.rs`
//! checks that there is no cycle.

pub mod args;
pub mod bundle;
pub mod calls;
pub mod config;
pub mod confirm;
pub mod context;
pub mod error;
#[cfg(test)]
mod governance;
pub mod identity;
pub mod ids;
pub mod inventory;
pub(crate) mod jsonrpc;
pub mod live;
pub mod log;
pub mod mattermost;
pub mod overrides_cmd;
pub mod paging;
pub mod prompts;
pub mod resolve;
pub mod resources;
pub mod serve;
pub mod server;
pub mod show;
pub mod spec_check;
pub mod time;
pub mod tool;
pub mod tools;
