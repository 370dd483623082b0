//! Malformed JSON-RPC, answered with the code JSON-RPC 2.0 gives it, at the server's edge (stdio and
//! HTTP read every message through [`read`] before rmcp does): text that is not JSON gets -32700, JSON
//! that is not a JSON-RPC 2.0 message gets -32600, each with the request's `id` when it could be read
//! and `"id": null` when not. rmcp itself ignores text that is not JSON and answers -32600 without an
//! `id`. A known method whose params rmcp cannot read reaches the server as a custom request, which
//! rmcp answers -32601 (method not found); [`invalid_params`] names what is wrong with them instead,
//! as -32602. Only a method this server does not serve gets -32601.

use rmcp::model::{
    CallToolRequest, CompleteRequest, ConstString, DiscoverRequest, ErrorCode, ErrorData,
    GetPromptRequest, InitializeRequest, ListPromptsRequest, ListResourceTemplatesRequest,
    ListResourcesRequest, ListToolsRequest, PingRequest, ReadResourceRequest,
};
use rmcp::service::RxJsonRpcMessage;
use rmcp::{RoleServer, model};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// A message refused before rmcp reads it: its JSON-RPC error and the id to answer it with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Malformed {
    pub(crate) code: i32,
    pub(crate) message: String,
    /// The request's id, or `Value::Null` when it could not be read.
    pub(crate) id: Value,
}

impl Malformed {
    fn new(code: ErrorCode, id: Value, message: impl Into<String>) -> Malformed {
        Malformed {
            code: code.0,
            message: message.into(),
            id,
        }
    }

    /// A line longer than a stdio message may be: answered with its id when [`IdScanner`] found one.
    pub(crate) fn oversized(len: usize, max: usize, id: Option<Value>) -> Malformed {
        Malformed::new(
            ErrorCode::INVALID_REQUEST,
            id.unwrap_or(Value::Null),
            format!(
                "The message is {len} bytes long, more than the {max} bytes one stdio message may be; it was \
                 not read. Send less in one request (a file's content, say, in smaller parts)."
            ),
        )
    }

    /// The JSON-RPC error response.
    pub(crate) fn to_json(&self) -> Value {
        let response = ErrorResponse {
            jsonrpc: "2.0",
            id: &self.id,
            error: ErrorObject {
                code: self.code,
                message: &self.message,
            },
        };
        serde_json::to_value(response).unwrap_or(Value::Null)
    }
}

/// A JSON-RPC 2.0 error response, whose `id` is always present (null when unknown); rmcp's own
/// type leaves a missing id out.
#[derive(Serialize)]
struct ErrorResponse<'a> {
    jsonrpc: &'static str,
    id: &'a Value,
    error: ErrorObject<'a>,
}

#[derive(Serialize)]
struct ErrorObject<'a> {
    code: i32,
    message: &'a str,
}

/// Whether `id` is one JSON-RPC allows for a request this server answers: a string or an integer.
fn usable_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads one message as rmcp's server would, or says why it is not one. `Ok(None)`: a notification
/// that is read as nothing (one rmcp cannot read: a notification is never answered).
pub(crate) fn read(bytes: &[u8]) -> Result<Option<RxJsonRpcMessage<RoleServer>>, Malformed> {
    let shape = shape(bytes)?;
    let notification = shape.notification;
    let params = shape.value.get("params").cloned();
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(shape.value) {
        Ok(message) => Ok(Some(message)),
        Err(e) if notification => {
            crate::log::debug(&format!("ignored a notification that cannot be read: {e}"));
            Ok(None)
        }
        Err(e) => Err(unreadable(
            &shape.id,
            &e,
            shape.method.as_deref(),
            params.as_ref(),
        )),
    }
}

/// The checks of [`read`] that need only the message's top level (is it JSON, an object, with a usable
/// `id`, `jsonrpc` 2.0, a `method` or a result, `params` an object or an array), without reading it as
/// rmcp's typed message: what the HTTP server checks before rmcp reads the message itself (rmcp
/// answers a message it cannot read 415, and [`read`] then says why).
pub(crate) fn check_shape(bytes: &[u8]) -> Result<(), Malformed> {
    shape(bytes).map(|_| ())
}

/// A message whose top level is well formed.
struct Shape {
    value: Value,
    id: Value,
    notification: bool,
    method: Option<String>,
}

/// Why rmcp cannot read a well-formed message: -32602 for params a served method cannot take, -32600
/// for anything else.
fn unreadable(
    id: &Value,
    e: &serde_json::Error,
    method: Option<&str>,
    params: Option<&Value>,
) -> Malformed {
    // Which protocol the request speaks is not known here; rmcp reads that from the session.
    match method.and_then(|m| invalid_params(m, params, true)) {
        Some(wrong) => Malformed {
            code: wrong.code.0,
            message: wrong.message.into_owned(),
            id: id.clone(),
        },
        None => Malformed::new(
            ErrorCode::INVALID_REQUEST,
            id.clone(),
            format!("Invalid request: the message cannot be read as JSON-RPC 2.0 ({e})."),
        ),
    }
}

fn shape(bytes: &[u8]) -> Result<Shape, Malformed> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        Malformed::new(
            ErrorCode::PARSE_ERROR,
            Value::Null,
            format!("Parse error: the message is not JSON ({e}). Send one JSON-RPC 2.0 object."),
        )
    })?;
    let invalid = |id: &Value, m: String| Malformed::new(ErrorCode::INVALID_REQUEST, id.clone(), m);
    let object = match &value {
        Value::Object(o) => o,
        Value::Array(_) => {
            return Err(invalid(
                &Value::Null,
                "Invalid request: a batch (an array of messages) is not accepted; MCP removed JSON-RPC \
                 batching in 2025-06-18. Send each message on its own."
                    .into(),
            ));
        }
        other => {
            return Err(invalid(
                &Value::Null,
                format!(
                    "Invalid request: a JSON-RPC message is an object, and this is {}.",
                    kind(other)
                ),
            ));
        }
    };
    let id = match object.get("id") {
        None => Value::Null,
        Some(id) if usable_id(id) => id.clone(),
        // An error response whose request could not be read answers with a null id.
        Some(Value::Null) if !object.contains_key("method") && object.contains_key("error") => {
            Value::Null
        }
        Some(Value::Null) => {
            return Err(invalid(
                &Value::Null,
                "Invalid request: `id` must be a string or an integer, and it is null.".into(),
            ));
        }
        Some(id) => {
            return Err(invalid(
                &Value::Null,
                format!(
                    "Invalid request: `id` must be a string or an integer, and it is {} ({id}).",
                    kind(id)
                ),
            ));
        }
    };
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return Err(invalid(
            &id,
            match object.get("jsonrpc") {
                None => "Invalid request: `jsonrpc` is missing; it must be \"2.0\".".to_string(),
                Some(v) => format!("Invalid request: `jsonrpc` is {v}; it must be \"2.0\"."),
            },
        ));
    }
    let answer = object.contains_key("result") || object.contains_key("error");
    match object.get("method") {
        Some(Value::String(_)) if answer => {
            return Err(invalid(
                &id,
                "Invalid request: a message has either `method` (a request or a notification) or \
                 `result`/`error` (a response), not both."
                    .into(),
            ));
        }
        Some(Value::String(_)) => match object.get("params") {
            None | Some(Value::Null | Value::Object(_) | Value::Array(_)) => {}
            Some(p) => {
                return Err(invalid(
                    &id,
                    format!(
                        "Invalid request: `params` must be an object, and it is {}.",
                        kind(p)
                    ),
                ));
            }
        },
        Some(m) => {
            return Err(invalid(
                &id,
                format!(
                    "Invalid request: `method` must be a string, and it is {}.",
                    kind(m)
                ),
            ));
        }
        None if answer => {}
        None => {
            return Err(invalid(
                &id,
                "Invalid request: the message has no `method` (a request or a notification) and no \
                 `result` or `error` (a response)."
                    .into(),
            ));
        }
    }
    let notification = object.contains_key("method") && !object.contains_key("id");
    let method = object
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok(Shape {
        value,
        id,
        notification,
        method,
    })
}

/// A check that reads a request as one typed form.
type Reads = fn(Value) -> Result<(), serde_json::Error>;

/// Reads the whole request as its typed form, for the error that says why it does not fit.
fn reads<T: DeserializeOwned>(request: Value) -> Result<(), serde_json::Error> {
    serde_json::from_value::<T>(request).map(|_| ())
}

/// The methods of the protocols with `initialize` (up to 2025-11-25) that 2026-07-28 removed.
const ONLY_WITH_INITIALIZE: &[&str] = &[
    model::InitializeResultMethod::VALUE,
    model::PingRequestMethod::VALUE,
];

/// The methods this server serves, each with the typed request rmcp reads it as. A method listed here
/// reaches [`invalid_params`] only when that typed form failed.
const SERVED: &[(&str, Reads)] = &[
    (
        model::InitializeResultMethod::VALUE,
        reads::<InitializeRequest>,
    ),
    (model::PingRequestMethod::VALUE, reads::<PingRequest>),
    (
        model::DiscoverRequestMethod::VALUE,
        reads::<DiscoverRequest>,
    ),
    (
        model::ListToolsRequestMethod::VALUE,
        reads::<ListToolsRequest>,
    ),
    (
        model::CallToolRequestMethod::VALUE,
        reads::<CallToolRequest>,
    ),
    (
        model::ListPromptsRequestMethod::VALUE,
        reads::<ListPromptsRequest>,
    ),
    (
        model::GetPromptRequestMethod::VALUE,
        reads::<GetPromptRequest>,
    ),
    (
        model::ListResourcesRequestMethod::VALUE,
        reads::<ListResourcesRequest>,
    ),
    (
        model::ListResourceTemplatesRequestMethod::VALUE,
        reads::<ListResourceTemplatesRequest>,
    ),
    (
        model::ReadResourceRequestMethod::VALUE,
        reads::<ReadResourceRequest>,
    ),
    (
        model::CompleteRequestMethod::VALUE,
        reads::<CompleteRequest>,
    ),
];

/// The -32602 answer to a request rmcp could not read as the method it names, when this server
/// serves that method in the request's protocol (`with_initialize`: one that has `initialize`);
/// `None` for a method it does not serve (left to -32601).
pub(crate) fn invalid_params(
    method: &str,
    params: Option<&Value>,
    with_initialize: bool,
) -> Option<ErrorData> {
    if !with_initialize && ONLY_WITH_INITIALIZE.contains(&method) {
        return None;
    }
    let (_, typed) = SERVED.iter().find(|(m, _)| *m == method)?;
    let message = match params {
        None | Some(Value::Null) => {
            format!("Invalid params: `{method}` needs params, and this request has none.")
        }
        Some(p) => match typed(json!({"method": method, "params": p})) {
            Err(e) => format!("Invalid params for `{method}`: {e}."),
            Ok(()) => format!("Invalid params: the request cannot be read as `{method}`."),
        },
    };
    Some(ErrorData::invalid_params(message, None))
}

/// Finds the top-level `id` of a message as it streams past, without keeping the message: so that a
/// line too long to read can still be answered with its request's id. It follows strings (with their
/// escapes) and nesting, and keeps only the bytes of the top-level `id` value (a string or a number).
#[derive(Debug, Default)]
pub(crate) struct IdScanner {
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// At the top level, the next string is a key.
    key_next: bool,
    /// The key being read, while it is short enough to be `id`.
    key: Option<Vec<u8>>,
    /// The last top-level key read was `id`, and its value is next.
    id_next: bool,
    /// The `id` value being read.
    value: Option<Vec<u8>>,
    found: Option<Value>,
}

/// The longest id kept.
const MAX_ID: usize = 256;

impl IdScanner {
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.step(b);
        }
    }

    /// The top-level id, once its value has ended.
    pub(crate) fn id(&self) -> Option<Value> {
        self.found.clone().filter(usable_id)
    }

    fn end_value(&mut self) {
        if let Some(v) = self.value.take()
            && self.found.is_none()
        {
            self.found = serde_json::from_slice(&v).ok();
        }
    }

    fn step(&mut self, b: u8) {
        if self.in_string {
            if let Some(v) = self.value.as_mut()
                && v.len() <= MAX_ID
            {
                v.push(b);
            }
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
                self.key = None;
            } else if b == b'"' {
                self.in_string = false;
                if let Some(key) = self.key.take() {
                    self.id_next = key == b"id";
                }
                self.end_value();
            } else if let Some(key) = self.key.as_mut() {
                key.push(b);
                if key.len() > 2 {
                    self.key = None;
                }
            }
            return;
        }
        match b {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.key_next {
                    self.key_next = false;
                    self.key = Some(Vec::new());
                } else if self.depth == 1 && self.id_next {
                    self.id_next = false;
                    self.value = Some(vec![b'"']);
                }
            }
            b'{' | b'[' => {
                self.depth += 1;
                self.id_next = false;
                if self.depth == 1 {
                    self.key_next = b == b'{';
                }
            }
            b'}' | b']' => {
                self.end_value();
                self.depth = self.depth.saturating_sub(1);
            }
            b',' if self.depth == 1 => {
                self.end_value();
                self.key_next = true;
                self.id_next = false;
            }
            b':' if self.depth == 1 => {}
            b' ' | b'\t' | b'\r' | b'\n' => self.end_value(),
            _ if self.depth == 1 && self.id_next => {
                self.id_next = false;
                self.value = Some(vec![b]);
            }
            _ => {
                if let Some(v) = self.value.as_mut()
                    && v.len() <= MAX_ID
                {
                    v.push(b);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> Malformed {
        read(text.as_bytes()).expect_err(text)
    }

    #[test]
    fn text_that_is_not_json_is_a_parse_error_with_a_null_id() {
        for text in ["{\"jsonrpc\":\"2.0\",\"id\":1,", "garbage", "\u{1}"] {
            let m = refused(text);
            assert_eq!((m.code, m.id.clone()), (-32700, Value::Null), "{text}");
            assert_eq!(m.to_json()["id"], Value::Null);
            assert!(
                m.to_json()
                    .as_object()
                    .is_some_and(|o| o.contains_key("id"))
            );
        }
    }

    #[test]
    fn json_that_is_not_a_message_is_an_invalid_request() {
        for (text, id) in [
            (r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#, json!(3)),
            (r#"{"id":"a","method":"ping"}"#, json!("a")),
            (r#"{"jsonrpc":"2.0","id":4}"#, json!(4)),
            (
                r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
                Value::Null,
            ),
            (r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, Value::Null),
            (r#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#, Value::Null),
            (r#"{"jsonrpc":"2.0","id":5,"method":7}"#, json!(5)),
            (
                r#"{"jsonrpc":"2.0","id":6,"method":"ping","params":"x"}"#,
                json!(6),
            ),
            (
                r#"{"jsonrpc":"2.0","id":8,"method":"ping","result":{}}"#,
                json!(8),
            ),
            ("[]", Value::Null),
            (r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, Value::Null),
            ("5", Value::Null),
        ] {
            let m = refused(text);
            assert_eq!((m.code, m.id), (-32600, id), "{text}: {}", m.message);
            assert!(m.message.ends_with('.'), "{}", m.message);
        }
    }

    #[test]
    fn messages_rmcp_reads_pass() {
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
            r#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/whatever","params":{"a":1}}"#,
            r#"{"jsonrpc":"2.0","id":9,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"m"}}"#,
        ] {
            assert!(read(text.as_bytes()).is_ok(), "{text}");
        }
    }

    #[test]
    fn a_served_method_with_unreadable_params_is_invalid_params() {
        for (method, params, says) in [
            ("tools/call", Some(json!({})), "missing field `name`"),
            ("prompts/get", Some(json!({"arguments": {}})), "`name`"),
            ("resources/read", Some(json!({})), "`uri`"),
            ("completion/complete", None, "needs params"),
            ("prompts/get", Some(json!({"name": 5})), "invalid type"),
        ] {
            let e = invalid_params(method, params.as_ref(), true).expect(method);
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS, "{method}");
            assert!(e.message.contains(says), "{method}: {}", e.message);
            assert!(e.message.ends_with('.'), "{}", e.message);
        }
        let m = refused(r#"{"jsonrpc":"2.0","id":12,"method":"ping","params":[]}"#);
        assert_eq!((m.code, m.id), (-32602, json!(12)), "{}", m.message);
        assert!(invalid_params("logging/setLevel", None, true).is_none());
        assert!(invalid_params("no/such", Some(&json!({})), true).is_none());
        // 2026-07-28 has no initialize and no ping: they are not found there, whatever their params.
        assert!(invalid_params("initialize", Some(&json!({})), true).is_some());
        assert!(invalid_params("initialize", Some(&json!({})), false).is_none());
        assert!(invalid_params("ping", Some(&json!([])), false).is_none());
    }

    fn scanned(text: &str) -> Option<Value> {
        let mut s = IdScanner::default();
        for chunk in text.as_bytes().chunks(3) {
            s.feed(chunk);
        }
        s.id()
    }

    #[test]
    fn the_scanner_finds_the_top_level_id_wherever_it_is() {
        let big = "x".repeat(1000);
        for (text, id) in [
            (
                format!(r#"{{"jsonrpc":"2.0","id":42,"params":{{"a":"{big}"}}}}"#),
                Some(json!(42)),
            ),
            (
                format!(r#"{{"params":{{"id":7,"a":"{big}\"id\":9"}},"id": "abc" }}"#),
                Some(json!("abc")),
            ),
            (
                r#"{"params":["id",{"id":1}],"method":"x","id":-3}"#.to_string(),
                Some(json!(-3)),
            ),
            (
                format!(r#"{{"params":{{"a":"{big}"}},"method":"tools/call""#),
                None,
            ),
            (r#"{"id":"a\"b"}"#.to_string(), Some(json!("a\"b"))),
            (r#"{"xid":1,"idx":2}"#.to_string(), None),
            (r#"{"id":1.5}"#.to_string(), None),
        ] {
            assert_eq!(scanned(&text), id, "{}", &text[..text.len().min(80)]);
        }
    }
}
