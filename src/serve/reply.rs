//! The HTTP answers the server writes itself (the MCP ones come from rmcp): a JSON body with an
//! `error` code and a `message` that says what happened and what to do next.

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use serde_json::{Value, json};
use std::convert::Infallible;

/// The body type of every answer (rmcp's as well).
pub(crate) type Body = BoxBody<Bytes, Infallible>;

/// A body of these bytes.
pub(crate) fn full(bytes: impl Into<Bytes>) -> Body {
    Full::new(bytes.into()).boxed()
}

/// A JSON answer.
pub(crate) fn json(status: StatusCode, value: &Value) -> Response<Body> {
    let mut r = Response::new(full(value.to_string()));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// An error answer: `{"error": code, "message": message}`.
pub(crate) fn error(status: StatusCode, code: &str, message: &str) -> Response<Body> {
    json(status, &json!({ "error": code, "message": message }))
}

/// Adds a header whose value the server made (never from the request), skipping one that a header
/// cannot carry.
pub(crate) fn with_header(
    mut r: Response<Body>,
    name: header::HeaderName,
    value: &str,
) -> Response<Body> {
    if let Ok(v) = HeaderValue::from_str(value) {
        r.headers_mut().insert(name, v);
    }
    r
}
