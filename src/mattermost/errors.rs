//! Mattermost's failures, read from what the generated client returns, and turned into tool errors a
//! model can act on: which token or permission is at fault, which value named nothing, which request
//! of Mattermost's failed (its error id and request id), or that the address does not answer as
//! Mattermost.

use super::generated::types::AppError;
use crate::error::{ErrorKind, ToolError, quote};
use progenitor_client::Error;
use serde_json::json;

#[derive(Debug, Clone)]
pub enum MmError {
    /// Mattermost answered with its AppError JSON.
    Api {
        status: u16,
        id: String,
        message: String,
        request_id: String,
    },
    /// 429, still, after the waits `Retry-After` asked for.
    RateLimited { retry_after: Option<String> },
    /// The answer is not Mattermost's: an HTML or proxy page, plain text, malformed JSON.
    NotMattermost {
        status: u16,
        content_type: String,
        detail: String,
    },
    /// No answer: connection refused or cut, or the request timed out.
    Unreachable { detail: String, timeout: bool },
    /// Refused on this side before sending (an undeclared operation, the call's budget spent).
    Refused(String),
}

fn snippet(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(160)]);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl MmError {
    /// Reads a generated client's error. An unexpected response's body is already in memory (the
    /// transport buffers every body), so reading it here is cheap.
    pub async fn from_client(error: Error<AppError>) -> MmError {
        match error {
            Error::ErrorResponse(rv) => {
                let status = rv.status().as_u16();
                let e = rv.into_inner();
                MmError::Api {
                    status,
                    id: e.id.unwrap_or_default(),
                    message: e.message.unwrap_or_default(),
                    request_id: e.request_id.unwrap_or_default(),
                }
            }
            Error::UnexpectedResponse(response) => {
                let status = response.status().as_u16();
                let content_type = response
                    .headers()
                    .get(reqwest::header::CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_string();
                let retry_after = response
                    .headers()
                    .get(reqwest::header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string);
                let bytes = response.bytes().await.unwrap_or_default();
                if status == 429 {
                    return MmError::RateLimited { retry_after };
                }
                match serde_json::from_slice::<AppError>(&bytes) {
                    Ok(e) if e.id.is_some() || e.message.is_some() => MmError::Api {
                        status,
                        id: e.id.unwrap_or_default(),
                        message: e.message.unwrap_or_default(),
                        request_id: e.request_id.unwrap_or_default(),
                    },
                    _ => MmError::NotMattermost {
                        status,
                        content_type,
                        detail: snippet(&bytes),
                    },
                }
            }
            Error::InvalidResponsePayload(bytes, e) => {
                // The answer as it was received (the transport noted it), not as it should have been.
                let (status, content_type) = super::call::current()
                    .and_then(|s| s.last_answer())
                    .unwrap_or((200, "unknown".into()));
                MmError::NotMattermost {
                    status,
                    content_type,
                    detail: format!("not the JSON Mattermost sends ({e}): {}", snippet(&bytes)),
                }
            }
            Error::CommunicationError(e) => MmError::Unreachable {
                timeout: e.is_timeout(),
                detail: without_url(&e),
            },
            Error::ResponseBodyError(e) | Error::InvalidUpgrade(e) => MmError::Unreachable {
                timeout: e.is_timeout(),
                detail: format!("the answer broke off: {}", without_url(&e)),
            },
            Error::Custom(s) | Error::InvalidRequest(s) => MmError::Refused(s),
        }
    }

    pub fn status(&self) -> Option<u16> {
        match self {
            MmError::Api { status, .. } | MmError::NotMattermost { status, .. } => Some(*status),
            MmError::RateLimited { .. } => Some(429),
            _ => None,
        }
    }

    /// The tool error, for a request about `what` (`channel`, `post`, `user`, ...) named `value` as the
    /// model gave it. `base_url` is the configured Mattermost.
    pub fn about(self, what: &str, value: &str, base_url: &str) -> ToolError {
        match self {
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
                    "Mattermost at {base_url} is rate-limiting requests (429) and still was after waiting as it \
                     asked{}. Wait a little and call again; a list call can be repeated with the same cursor.",
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

/// A reqwest error's text without the request's URL (whose query could hold argument values); the URL
/// of the configured server is named by the caller.
fn without_url(e: &reqwest::Error) -> String {
    let mut source: Option<&dyn std::error::Error> = std::error::Error::source(e);
    let mut parts = Vec::new();
    while let Some(s) = source {
        parts.push(s.to_string());
        source = s.source();
    }
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection failed"
    } else if e.is_body() || e.is_decode() {
        "the body could not be read"
    } else {
        "request failed"
    };
    if parts.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}: {}", parts.join(": "))
    }
}
