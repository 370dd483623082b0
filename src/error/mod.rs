//! The error a tool call answers with (`isError: true`): a message a model can act on — it quotes the
//! rejected value, says what is accepted and names the next step — inside JSON a program can read
//! (`{"error": {"kind", "message", ...}}`, the result's text; [`ToolError`]), and Mattermost's failures
//! read as such errors (`from_mattermost`).

mod from_mattermost;
mod tool_error;

pub(crate) use from_mattermost::{About, tokens_come_from_requests};
pub use tool_error::ToolError;
pub(crate) use tool_error::{ErrorKind, quote};
