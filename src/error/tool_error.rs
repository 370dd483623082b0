//! The error a tool call answers with: its kind as a word a client can branch on, its message, the
//! details beside it (as the JSON of the result's text), and how a rejected value is quoted.

use serde::Serialize;
use serde_json::{Map, Value, json};

/// What went wrong, as a word (`bad_argument`, `not_found`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ErrorKind {
    /// An argument is missing, of the wrong type, out of range or names nothing it could.
    BadArgument,
    /// The cursor is not one this call can continue.
    BadCursor,
    /// Mattermost has no such object.
    NotFound,
    /// A name matches several objects.
    Ambiguous,
    /// Mattermost refuses the person this object (403).
    Forbidden,
    /// The person is not a member of the channel the tool needs them in.
    NotMember,
    /// Mattermost refused the token (401).
    Unauthorized,
    /// Mattermost kept answering 429.
    RateLimited,
    /// Mattermost failed (5xx).
    MattermostFailed,
    /// Mattermost refused the request for another reason (4xx).
    MattermostRefused,
    /// The address does not answer as Mattermost.
    NotMattermost,
    /// Mattermost could not be reached.
    Unreachable,
    /// Mattermost or the call's budget ran out of time.
    Timeout,
    /// Refused on this side before sending.
    Refused,
    /// The client cancelled the call.
    Cancelled,
    /// The feature is off on this Mattermost.
    Disabled,
    /// The list is larger than one call reads.
    TooMany,
    /// The file is larger than the tool reads.
    TooLarge,
    /// A tool that writes, offered only with writes allowed.
    WritesNotAllowed,
    /// The person declined or cancelled a confirmation.
    Declined,
    /// The client cannot ask the person to confirm a write.
    CannotAsk,
    /// What was shown for confirmation changed before the write.
    Changed,
    /// A bug of this server.
    Internal,
}

impl ErrorKind {
    /// The word, as in the structured error.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ErrorKind::BadArgument => "bad_argument",
            ErrorKind::BadCursor => "bad_cursor",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Ambiguous => "ambiguous",
            ErrorKind::Forbidden => "forbidden",
            ErrorKind::NotMember => "not_member",
            ErrorKind::Unauthorized => "unauthorized",
            ErrorKind::RateLimited => "rate_limited",
            ErrorKind::MattermostFailed => "mattermost_failed",
            ErrorKind::MattermostRefused => "mattermost_refused",
            ErrorKind::NotMattermost => "not_mattermost",
            ErrorKind::Unreachable => "unreachable",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Refused => "refused",
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::Disabled => "disabled",
            ErrorKind::TooMany => "too_many",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::WritesNotAllowed => "writes_not_allowed",
            ErrorKind::Declined => "declined",
            ErrorKind::CannotAsk => "cannot_ask",
            ErrorKind::Changed => "changed",
            ErrorKind::Internal => "internal",
        }
    }

    /// A failure that may pass: calling again later may succeed.
    pub(crate) fn is_transient(self) -> bool {
        matches!(
            self,
            ErrorKind::RateLimited
                | ErrorKind::Timeout
                | ErrorKind::Unreachable
                | ErrorKind::MattermostFailed
        )
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone)]
pub struct ToolError {
    pub(crate) kind: ErrorKind,
    pub message: String,
    pub(crate) data: Map<String, Value>,
}

impl ToolError {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> ToolError {
        ToolError {
            kind,
            message: message.into(),
            data: Map::new(),
        }
    }

    pub(crate) fn bad_argument(message: impl Into<String>) -> ToolError {
        ToolError::new(ErrorKind::BadArgument, message)
    }

    pub(crate) fn internal(message: impl Into<String>) -> ToolError {
        ToolError::new(ErrorKind::Internal, message)
    }

    pub(crate) fn with(mut self, key: &str, value: Value) -> ToolError {
        self.data.insert(key.to_string(), value);
        self
    }

    /// The JSON form, an error result's text: `{"error": {"kind", "message", ...}}`.
    pub(crate) fn to_json(&self) -> Value {
        let mut error = Map::new();
        error.insert("kind".into(), json!(self.kind));
        error.insert("message".into(), json!(self.message));
        for (k, v) in &self.data {
            error.insert(k.clone(), v.clone());
        }
        json!({ "error": error })
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Quotes a value for an error message, shortened and with control characters made visible, so that a
/// message never carries a huge or garbled argument back whole.
pub(crate) fn quote(value: &str) -> String {
    let mut out = String::from("`");
    for (i, c) in value.chars().enumerate() {
        if i >= 120 {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.push_str(&c.escape_default().to_string());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_as_its_serialized_word() {
        for kind in [
            ErrorKind::BadArgument,
            ErrorKind::NotMember,
            ErrorKind::WritesNotAllowed,
            ErrorKind::Internal,
        ] {
            assert_eq!(json!(kind), json!(kind.as_str()));
        }
    }
}
