//! The error a tool call answers with (`isError: true`): a message a model can act on — it quotes the
//! rejected value, says what is accepted and names the next step — and the same as structured data
//! (`{"error": {"kind", "message", ...}}`), with its kind as a word a client can branch on.

mod from_mattermost;
mod tool_error;

pub(crate) use from_mattermost::{About, tokens_come_from_requests};
pub use tool_error::{ErrorKind, ToolError, quote};
