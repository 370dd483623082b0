//! The MCP server: rmcp's handler over the inventory. It routes and checks, it does not decide:
//! `tools/list` pages the offered tools by `--page-size`; `tools/call` finds the caller's person
//! context, checks the arguments and the cursor against the tool's declaration, runs the tool's code
//! inside a call scope (the person's token, the operations the tool declares, request counting, the
//! time budget, progress and cancellation), and answers its value, its envelope for a list, or the
//! question the client must ask the person first; after the answer's text copy come the content its
//! code added (an image) and `resource_link`s to what it names. A call the client cancels stops at
//! once: its future is dropped, so no further request reaches Mattermost. `resources/*`,
//! `completion/complete` and `prompts/*` route to [`crate::resources`] and [`crate::prompts`]; a
//! resource is read by running its tool as a call.

mod call;
mod handler;
mod list;
mod resources;
mod state;
mod subscribe;

pub use list::{describe, description};
pub use state::{INSTRUCTIONS, People, Server};
