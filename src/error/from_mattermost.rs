//! Mattermost's failures ([`MmError`]) as tool errors a model can act on: which token or permission is
//! at fault, which value named nothing, which request of Mattermost's failed (its error id and request
//! id), or that the address does not answer as Mattermost.

use super::tool_error::{ErrorKind, ToolError, quote};
use mattermost_client::MmError;
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether tokens come from each request (HTTP) rather than from `MATTERMOST_TOKEN` (stdio): a refused
/// token is then the client's bearer, and the 401 text says so.
static TOKENS_FROM_REQUESTS: AtomicBool = AtomicBool::new(false);

/// Says, for the whole process, that tokens come from each request (set once when HTTP serving starts).
pub(crate) fn tokens_come_from_requests() {
    TOKENS_FROM_REQUESTS.store(true, Ordering::Relaxed);
}

/// A Mattermost failure read as a tool error.
pub(crate) trait About {
    /// The tool error, for a request about `what` (`channel`, `post`, `user`, ...) named `value` as the
    /// model gave it. `base_url` is the configured Mattermost.
    fn about(self, what: &str, value: &str, base_url: &str) -> ToolError;
}

impl About for MmError {
    /// The tool error, for a request about `what` (`channel`, `post`, `user`, ...) named `value` as the
    /// model gave it. `base_url` is the configured Mattermost.
    fn about(self, what: &str, value: &str, base_url: &str) -> ToolError {
        match self {
            MmError::Api { status: 401, id, .. } if TOKENS_FROM_REQUESTS.load(Ordering::Relaxed) => {
                ToolError::new(ErrorKind::Unauthorized,
                    format!(
                        "Mattermost at {base_url} refused the token (401 {id}). The bearer token your client sends \
                         (Authorization: Bearer) may be expired, revoked or mistyped: create a new personal access \
                         token (Profile > Security) or sign in again, and give it to your MCP client."
                    ),
                )
            }
            MmError::Api { status: 401, id, .. } => ToolError::new(ErrorKind::Unauthorized,
                format!(
                    "Mattermost at {base_url} refused the token (401 {id}). Check MATTERMOST_TOKEN: it may be \
                     expired, revoked or mistyped. Create a new personal access token (Profile > Security) and \
                     restart the server with it."
                ),
            ),
            MmError::Api { status: 403, id, message, .. } => ToolError::new(ErrorKind::Forbidden,
                format!(
                    "You have no permission to read the {what} {} (403 {id}: {message}). Ask to be added to \
                     it, or choose another {what}.",
                    quote(value)
                ),
            )
            .with(what, json!(value)),
            MmError::Api { status: 404, id, .. } => {
                let hint = if crate::ids::is_id(value) {
                    format!(
                        " It may have been deleted, or you may not see it. Find the {what} you mean with a list or \
                         search tool ({}) and pass the id it gives.",
                        finder(what)
                    )
                } else {
                    format!(
                        " {} does not look like a Mattermost id (26 lowercase letters and digits); find the {what} \
                         with a list or search tool ({}) and pass the id it gives.",
                        quote(value),
                        finder(what)
                    )
                };
                ToolError::new(
                    ErrorKind::NotFound,
                    format!("Mattermost has no {what} {} that you can see.{hint}", quote(value)),
                )
                .with(what, json!(value))
                .with("mattermost_error_id", json!(id))
            }
            MmError::Api { status, id, message, request_id } if status >= 500 => ToolError::new(ErrorKind::MattermostFailed,
                format!(
                    "Mattermost failed while reading the {what} {} ({status} {id}: {message}; request id \
                     {request_id}). Try again in a moment; if it keeps failing, give the request id to the \
                     Mattermost administrator.",
                    quote(value)
                ),
            )
            .with("status", json!(status))
            .with("mattermost_error_id", json!(id))
            .with("request_id", json!(request_id)),
            MmError::Api { status, id, message, request_id } => ToolError::new(ErrorKind::MattermostRefused,
                format!(
                    "Mattermost refused the request for the {what} {} ({status} {id}: {message}; request id \
                     {request_id}).",
                    quote(value)
                ),
            )
            .with("status", json!(status))
            .with("mattermost_error_id", json!(id)),
            MmError::RateLimited { retry_after } => ToolError::new(ErrorKind::RateLimited,
                format!(
                    "Mattermost at {base_url} is rate-limiting requests (429){}. A read was tried again after the \
                     wait it asked for; a write is never sent twice, and a 429 from a proxy in front of Mattermost can \
                     come after the write went through, so read back what it would change before calling again. Wait a \
                     little and call again; a list call can be repeated with the same cursor.",
                    retry_after.map(|s| format!(" (Retry-After: {s} s)")).unwrap_or_default()
                ),
            ),
            MmError::NotMattermost { status, content_type, detail } => ToolError::new(ErrorKind::NotMattermost,
                format!(
                    "The server at {base_url} did not answer as Mattermost does (status {status}, content type \
                     `{content_type}`: {detail}). Check MATTERMOST_URL: it must be the address of the Mattermost \
                     server itself, not of a proxy's sign-in page or another service."
                ),
            ),
            MmError::Unreachable { detail, timeout: true } => ToolError::new(ErrorKind::Timeout,
                format!("Mattermost at {base_url} did not answer in time ({detail}). Try again; if it keeps \
                         happening, raise MATTERMOST_TIMEOUT_SECS."),
            ),
            MmError::Unreachable { detail, timeout: false } => ToolError::new(ErrorKind::Unreachable,
                format!("Mattermost at {base_url} could not be reached ({detail}). Check MATTERMOST_URL and the \
                         network, then try again."),
            ),
            MmError::Refused(message) => ToolError::new(ErrorKind::Refused, message),
        }
    }
}

/// The tools that find a thing of this kind.
fn finder(what: &str) -> &'static str {
    match what {
        "channel" => "list_channels, search_channels",
        "team" => "list_teams",
        "user" | "users" | "person" => "search_users",
        "post" => "read_channel, search_posts",
        "file" => "search_files",
        "thread" => "list_threads",
        _ => "the list and search tools",
    }
}
