//! Mattermost's failures, read from what the generated client returns: its AppError (status, error id,
//! message, request id), a rate limit that outlasted the waits, an answer that is not Mattermost's, no
//! answer at all, or a request refused on this side before sending. The server turns them into tool
//! errors a model can act on.

use crate::generated::types::AppError;
use progenitor_client::Error;

/// Why a request to Mattermost failed.
#[derive(Debug, Clone)]
pub enum MmError {
    /// Mattermost answered with its AppError JSON.
    Api {
        /// The HTTP status (400, 403, 404, ...).
        status: u16,
        /// Mattermost's error id (`api.context.permissions.app_error`), stable across languages;
        /// empty when absent.
        id: String,
        /// Mattermost's message for people, in the server's language; empty when absent.
        message: String,
        /// The id Mattermost gave the request, which finds it in the server's log; empty when
        /// absent.
        request_id: String,
    },
    /// 429, still, after the waits `Retry-After` asked for.
    RateLimited {
        /// The last answer's `Retry-After` header as sent (seconds, or an HTTP date); `None` when
        /// it had none.
        retry_after: Option<String>,
    },
    /// The answer is not Mattermost's: an HTML or proxy page, plain text, malformed JSON.
    NotMattermost {
        /// The HTTP status of the answer as received.
        status: u16,
        /// Its `Content-Type` header (empty when absent, `unknown` when it was not noted).
        content_type: String,
        /// What was wrong, with the first 160 bytes of the body, whitespace collapsed.
        detail: String,
    },
    /// No answer: connection refused or cut, or the request timed out.
    Unreachable {
        /// What failed (`connection failed: ...`, `timed out`), without the request's URL, whose
        /// query could hold argument values.
        detail: String,
        /// The request timed out (rather than failed to connect or broke off).
        timeout: bool,
    },
    /// Refused on this side before sending (an undeclared operation, the call's budget spent).
    Refused(String),
}

/// What a token is replaced with wherever Mattermost's answer (or a proxy's) echoed it.
pub const REDACTED: &str = "[token redacted]";

/// Tokens this process knows besides the one of the request in flight: the configured
/// `MATTERMOST_TOKEN` (registered at start, over stdio and HTTP alike).
fn known() -> &'static std::sync::Mutex<Vec<crate::Secret>> {
    static KNOWN: std::sync::OnceLock<std::sync::Mutex<Vec<crate::Secret>>> =
        std::sync::OnceLock::new();
    KNOWN.get_or_init(Default::default)
}

/// Adds a token to those redacted from every error this process reads from Mattermost.
pub fn redact_also(token: &crate::Secret) {
    if let Ok(mut k) = known().lock()
        && !k.iter().any(|t| t.expose() == token.expose())
    {
        k.push(token.clone());
    }
}

/// `text` with every known token replaced by [`REDACTED`]: the token of the request in flight (its call
/// scope's) and those registered with [`redact_also`]. Mattermost's errors, and above all a proxy's or a
/// debugging endpoint's, can echo the request's `Authorization`; nothing read from an answer reaches a
/// result or a log before this.
pub fn redact(text: &str) -> String {
    let mut out = text.to_string();
    let scope = crate::call::current();
    let current = scope.as_ref().map(|s| s.token().expose().to_string());
    let others = known()
        .lock()
        .map(|k| k.iter().map(|t| t.expose().to_string()).collect::<Vec<_>>())
        .unwrap_or_default();
    for token in current.into_iter().chain(others) {
        // A token shorter than this would mangle ordinary words; none of Mattermost's is (26
        // characters).
        if token.len() >= 8 && out.contains(&token) {
            out = out.replace(&token, REDACTED);
        }
    }
    out
}

/// The start of a body that is not Mattermost's, on one line, any known token redacted first (so a
/// cut never leaves part of one).
fn snippet(bytes: &[u8]) -> String {
    let text = redact(&String::from_utf8_lossy(bytes));
    let cut: String = text.chars().take(160).collect();
    cut.split_whitespace().collect::<Vec<_>>().join(" ")
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
                    id: redact(&e.id.unwrap_or_default()),
                    message: redact(&e.message.unwrap_or_default()),
                    request_id: redact(&e.request_id.unwrap_or_default()),
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
                        id: redact(&e.id.unwrap_or_default()),
                        message: redact(&e.message.unwrap_or_default()),
                        request_id: redact(&e.request_id.unwrap_or_default()),
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
                let (status, content_type) = crate::call::current()
                    .and_then(|s| s.last_answer())
                    .unwrap_or((200, "unknown".into()));
                MmError::NotMattermost {
                    status,
                    content_type,
                    detail: format!(
                        "not the JSON Mattermost sends ({}): {}",
                        redact(&e.to_string()),
                        snippet(&bytes)
                    ),
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

    /// Whether a failed request may be sent again because it may not have arrived: the connection
    /// broke, the request timed out, or a proxy answered 502, 503 or 504.
    pub fn may_not_have_arrived(&self) -> bool {
        match self {
            MmError::Unreachable { .. } => true,
            MmError::Api { status, .. } | MmError::NotMattermost { status, .. } => {
                matches!(status, 502..=504)
            }
            _ => false,
        }
    }

    /// The HTTP status Mattermost answered with, if it answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            MmError::Api { status, .. } | MmError::NotMattermost { status, .. } => Some(*status),
            MmError::RateLimited { .. } => Some(429),
            _ => None,
        }
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
