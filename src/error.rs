//! The error a tool call answers with (`isError: true`): a message a model can act on — it quotes the
//! rejected value, says what is accepted and names the next step — and the same as structured data.

use serde_json::{Map, Value, json};

#[derive(Debug, Clone)]
pub struct ToolError {
    /// `bad_argument`, `bad_cursor`, `not_found`, `ambiguous`, `forbidden`, `unauthorized`,
    /// `rate_limited`, `mattermost_failed`, `not_mattermost`, `unreachable`, `timeout`, `internal`.
    pub kind: &'static str,
    pub message: String,
    pub data: Map<String, Value>,
}

impl ToolError {
    pub fn new(kind: &'static str, message: impl Into<String>) -> ToolError {
        ToolError {
            kind,
            message: message.into(),
            data: Map::new(),
        }
    }

    pub fn bad_argument(message: impl Into<String>) -> ToolError {
        ToolError::new("bad_argument", message)
    }

    pub fn with(mut self, key: &str, value: Value) -> ToolError {
        self.data.insert(key.to_string(), value);
        self
    }

    /// The structured form: `{"error": {"kind", "message", ...}}`.
    pub fn to_json(&self) -> Value {
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
pub fn quote(value: &str) -> String {
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
