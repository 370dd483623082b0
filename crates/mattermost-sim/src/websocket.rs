//! `GET /api/v4/websocket`: the upgrade (`api4/websocket.go` connectWebSocket) and the socket's
//! pumps (`web_conn.go` readPump and writePump): frames the hub hands over go out, and the client's
//! actions come in (`ping`, answered with `pong`; `authentication_challenge`, which binds a socket
//! opened without a session to the token's user, `websocket_router.go`).
//!
//! The session comes from the request as for every route (`Authorization: Bearer`, `Token`, the
//! `MMAUTHTOKEN` cookie): a token the server does not know is answered 401 before the upgrade; no
//! token at all opens a socket that must authenticate with its first message. `connection_id` and
//! `sequence_number` in the query ask to continue a connection (`PopulateWebConnConfig`: a
//! `connection_id` without a valid sequence number closes the socket). Upgrades are logged apart
//! from the REST requests ([`crate::Sim::websocket_upgrades`]).

use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use hyper::Response;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::sync::mpsc::unbounded_channel;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::Role;

use crate::body::SimBody;
use crate::hub::{Out, Registered};
use crate::log::LoggedRequest;
use crate::shared::{Shared, lock};

/// Whether a path is the WebSocket route (`/{websocket:websocket(?:\/)?}` under `/api/v4`).
pub(crate) fn is_websocket(path: &str) -> bool {
    path == "/api/v4/websocket" || path == "/api/v4/websocket/"
}

fn plain(status: u16, body: &str) -> Response<SimBody> {
    Response::builder()
        .status(status)
        .header("Content-Type", "application/json")
        .body(SimBody::of(body.as_bytes().to_vec()))
        .unwrap_or_else(|_| Response::new(SimBody::of(Vec::new())))
}

/// Answers an upgrade request: 101 and the socket, or the refusal.
pub(crate) fn upgrade(
    shared: Arc<Shared>,
    req: hyper::Request<Incoming>,
    token: Option<String>,
    query: Vec<(String, String)>,
    headers: Vec<(String, String)>,
) -> Response<SimBody> {
    let header = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    let (user, username) = match &token {
        Some(t) => {
            let w = lock(&shared.world);
            (w.session_user(t), w.token_username(t))
        }
        None => (None, None),
    };
    let mut log = LoggedRequest {
        method: "GET".into(),
        path: req.uri().path().to_string(),
        query: query.clone(),
        body: None,
        status: 101,
        username,
        headers: headers
            .iter()
            .map(|(k, v)| {
                let secret = k == "authorization" || k == "cookie";
                (
                    k.clone(),
                    if secret {
                        "<redacted>".into()
                    } else {
                        v.clone()
                    },
                )
            })
            .collect(),
    };
    let refuse = lock(&shared.hub).refuse_upgrade();
    let key = header("sec-websocket-key");
    let asked_upgrade = header("upgrade").is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
    let answer = if refuse {
        // A fault: the server restarting behind its proxy.
        log.status = 503;
        Err(plain(
            503,
            r#"{"id":"api.context.server_busy.app_error","message":"Server is busy, non-critical services are temporarily unavailable.","status_code":503}"#,
        ))
    } else if token.is_some() && user.is_none() {
        log.status = 401;
        Err(plain(
            401,
            r#"{"id":"api.context.session_expired.app_error","message":"Invalid or expired session, please login again.","status_code":401}"#,
        ))
    } else if !asked_upgrade || key.is_none() {
        // gorilla's Upgrader refuses a request that is not a WebSocket handshake.
        log.status = 400;
        Err(plain(
            400,
            r#"{"id":"api.web_socket.connect.upgrade.app_error","message":"Failed to upgrade websocket connection.","status_code":400}"#,
        ))
    } else {
        Ok(())
    };
    lock(&shared.hub).upgrades.push(log);
    if let Err(refusal) = answer {
        return refusal;
    }
    let get = |n: &str| query.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    let asked = match get("connection_id").filter(|c| !c.is_empty()) {
        None => None,
        Some(id) => match get("sequence_number").and_then(|s| s.parse::<i64>().ok()) {
            Some(seq) if crate::ids::is_valid_id(&id) => Some((id, seq)),
            // PopulateWebConnConfig fails: the socket is closed right after the upgrade.
            _ => Some((String::new(), -1)),
        },
    };
    let accept = derive_accept_key(key.unwrap_or_default().as_bytes());
    let user = user.unwrap_or_default();
    tokio::spawn(async move {
        let Ok(upgraded) = hyper::upgrade::on(req).await else {
            return;
        };
        let ws = WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, None).await;
        if matches!(&asked, Some((id, _)) if id.is_empty()) {
            drop(ws);
            return;
        }
        pump(shared, ws, user, asked).await;
    });
    Response::builder()
        .status(101)
        .header("Upgrade", "websocket")
        .header("Connection", "Upgrade")
        .header("Sec-WebSocket-Accept", accept)
        .body(SimBody::of(Vec::new()))
        .unwrap_or_else(|_| Response::new(SimBody::of(Vec::new())))
}

async fn pump(
    shared: Arc<Shared>,
    mut ws: WebSocketStream<TokioIo<hyper::upgrade::Upgraded>>,
    user: String,
    asked: Option<(String, i64)>,
) {
    let (tx, mut rx) = unbounded_channel();
    let key = {
        let mut world = lock(&shared.world);
        let Registered::Open(key) = lock(&shared.hub).register(&mut world, &user, asked, tx);
        key
    };
    loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(Out::Text(text)) => {
                    if ws.send(Message::text(text)).await.is_err() {
                        break;
                    }
                }
                Some(Out::Drop) | None => {
                    // Dropped without a close frame.
                    return;
                }
            },
            incoming = ws.next() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    if let Some(reply) = action(&shared, key, text.as_str()) {
                        let _ = ws.send(Message::text(reply.to_string())).await;
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
        }
    }
    lock(&shared.hub).unregister(key);
}

/// A client's action (`model.WebSocketRequest`: `seq`, `action`, `data`) and the response
/// (`model.WebSocketResponse`: `status`, `seq_reply`, `data` or `error`).
fn action(shared: &Shared, key: u64, text: &str) -> Option<Value> {
    let req: Value = serde_json::from_str(text).ok()?;
    let seq = req.get("seq").cloned().unwrap_or(json!(0));
    match req.get("action").and_then(Value::as_str)? {
        "ping" => {
            let version = lock(&shared.world).settings.release.clone();
            Some(json!({
                "status": "OK",
                "seq_reply": seq,
                "data": {"text": "pong", "version": version, "server_time": crate::clock::now_ms(), "node_id": ""},
            }))
        }
        "authentication_challenge" => {
            let token = req
                .pointer("/data/token")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let world = lock(&shared.world);
            match world.session_user(token) {
                Some(user) => {
                    lock(&shared.hub).authenticate(&world, key, &user);
                    Some(json!({"status": "OK", "seq_reply": seq}))
                }
                None => Some(json!({
                    "status": "FAIL",
                    "seq_reply": seq,
                    "error": {"id": "api.web_socket_router.not_authenticated.app_error", "message": "Not authenticated"},
                })),
            }
        }
        _ => None,
    }
}
