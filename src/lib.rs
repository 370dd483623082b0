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

// Visibility states the rules: `pub(crate)` by default, `pub` only what the binary (`src/main.rs`) and
// the tests use. The lint fails `clippy -D warnings` for a `pub` item nothing outside can reach (Cargo
// does not take a `[lints.rust]` table beside `workspace = true`, hence the attribute here).
#![warn(unreachable_pub)]

pub mod args;
pub mod bundle;
pub(crate) mod calls;
pub mod cli;
pub mod config;
pub mod confirm;
pub mod context;
pub mod error;
#[cfg(test)]
mod governance;
pub(crate) mod hex;
pub mod identity;
pub(crate) mod ids;
pub mod inventory;
pub(crate) mod jsonrpc;
pub(crate) mod live;
pub mod log;
pub mod mattermost;
pub mod overrides_cmd;
pub mod paging;
pub(crate) mod prompts;
pub(crate) mod resolve;
pub(crate) mod resources;
pub mod serve;
pub mod server;
pub mod show;
pub mod spec_check;
pub mod time;
pub mod tool;
pub mod tools;

// The macros that build a tool's code, named `crate::one!` and `crate::list!` by the tool files.
pub(crate) use tool::code::{list, one};
