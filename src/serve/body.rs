//! The body of a JSON POST to `/mcp`, read and checked before rmcp gets it: a body that is not a
//! JSON-RPC message is answered 400 with its JSON-RPC error (rmcp answers it 415, in plain text, as if
//! the `Content-Type` were wrong), a request whose params rmcp cannot read 200 with its -32602 error
//! (as rmcp answers the params of a method it read), and a body over the limit 413, in JSON. Any other
//! request (a GET, a DELETE, a POST whose `Content-Type` is not JSON, which rmcp answers 415) goes to
//! rmcp untouched.
//!
//! The message's top level is checked here ([`crate::jsonrpc::check_shape`]); whether rmcp can read it
//! as its typed message is left to rmcp, which reads it anyway: only when rmcp answers a JSON body 415
//! does [`explained`] read it again ([`crate::jsonrpc::read`]) to say why. (Reading every message as
//! rmcp's typed message here too cost about 50,000 instructions a call.)

use crate::serve::reply;
use bytes::{Bytes, BytesMut};
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full};

/// What goes on to rmcp.
pub(crate) enum Checked<B> {
    /// Not a JSON POST: rmcp reads it.
    Untouched(Request<B>),
    /// A JSON POST whose body is a message, read whole: the request for rmcp, and the body.
    Read(Request<Full<Bytes>>, Bytes),
}

/// Whether the request says its body is JSON (`application/json`, parameters aside), as rmcp asks.
fn says_json<B>(req: &Request<B>) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .eq_ignore_ascii_case("application/json")
        })
}

/// Reads and checks the body of a JSON POST of at most `max` bytes; the answer when it is refused.
pub(crate) async fn check<B>(
    req: Request<B>,
    max: usize,
    within: std::time::Duration,
) -> Result<Checked<B>, Box<Response<reply::Body>>>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: std::fmt::Display,
{
    if req.method() != Method::POST || !says_json(&req) {
        return Ok(Checked::Untouched(req));
    }
    match tokio::time::timeout(within, read(req, max)).await {
        Ok(r) => r,
        Err(_) => Err(Box::new(reply::error(
            StatusCode::REQUEST_TIMEOUT,
            "body_timeout",
            &format!(
                "The request body did not arrive in full within {} s (MATTERMOST_MCP_BODY_TIMEOUT_SECS); the \
                 connection is closed. Send the request again, whole.",
                within.as_secs()
            ),
        ))),
    }
}

async fn read<B>(req: Request<B>, max: usize) -> Result<Checked<B>, Box<Response<reply::Body>>>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: std::fmt::Display,
{
    let (parts, body) = req.into_parts();
    let mut body = std::pin::pin!(body);
    let mut read = BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = match frame {
            Ok(f) => f,
            Err(e) => {
                return Err(Box::new(reply::error(
                    StatusCode::BAD_REQUEST,
                    "body_unreadable",
                    &format!("The request body could not be read ({e}). Send the request again."),
                )));
            }
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        if read.len() + data.len() > max {
            return Err(Box::new(reply::error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                &format!(
                    "The request body is over {max} bytes, the most this server reads \
                     (MATTERMOST_MCP_MAX_BODY_BYTES). Send less in one request."
                ),
            )));
        }
        read.extend_from_slice(&data);
    }
    let read = read.freeze();
    if let Err(refused) = crate::jsonrpc::check_shape(&read) {
        return Err(Box::new(refusal(&refused)));
    }
    Ok(Checked::Read(
        Request::from_parts(parts, Full::new(read.clone())),
        read,
    ))
}

/// rmcp's answer to a message read whole, or, when rmcp could not read it (415), the JSON-RPC error
/// that says why.
pub(crate) fn explained(answer: Response<reply::Body>, body: &[u8]) -> Response<reply::Body> {
    if answer.status() != StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return answer;
    }
    match crate::jsonrpc::read(body) {
        Err(refused) => refusal(&refused),
        Ok(_) => answer,
    }
}

fn refusal(refused: &crate::jsonrpc::Malformed) -> Response<reply::Body> {
    crate::log::info(&format!(
        "answered a malformed message with {}: {}",
        refused.code, refused.message
    ));
    // Params a request's method cannot take are answered in the JSON-RPC error, as rmcp answers them;
    // a body that is no request at all is a bad HTTP request.
    let status = if refused.code == rmcp::model::ErrorCode::INVALID_PARAMS.0 {
        StatusCode::OK
    } else {
        StatusCode::BAD_REQUEST
    };
    reply::json(status, &refused.to_json())
}
