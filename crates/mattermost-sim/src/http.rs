//! The HTTP side: the hyper server loop, auth, the headers every API response carries, AppError
//! JSON, faults applied on the wire, and the request log.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use http_body_util::BodyExt;
use hyper::Response;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpListener;

pub(crate) use crate::body::SimBody;
use crate::faults::Fault;
use crate::ids::new_id;
use crate::log::LoggedRequest;
use crate::params::{self, paging};
use crate::render::{BUILD_NUMBER, CONFIG_HASH};
use crate::reply::{AppError, HResult, Reply};
use crate::rng::Rng;
use crate::router;
use crate::routes::{Ctx, Deferred};
pub(crate) use crate::shared::{Shared, lock, publish};
use crate::world::World;

/// The error a handler returns to make hyper drop the connection without a response
/// ([`Fault::CutAfterStore`]).
#[derive(Debug)]
pub(crate) struct CutConnection;

impl std::fmt::Display for CutConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection cut by fault injection after the route stored its effect")
    }
}

impl std::error::Error for CutConnection {}

/// Accept connections forever, one task per connection.
pub(crate) async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let shared = shared.clone();
        tokio::spawn(async move {
            let io = TokioIo::new(stream);
            let svc = hyper::service::service_fn(move |req| handle(shared.clone(), req));
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, svc)
                .with_upgrades()
                .await;
        });
    }
}

/// Where the token came from (`ParseAuthTokenFromRequest`).
enum TokenSource {
    None,
    Header(String),
    Query(String),
}

fn find_token(headers: &[(String, String)], query: &[(String, String)]) -> TokenSource {
    let get = |n: &str| {
        headers
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.as_str())
    };
    if let Some(cookie) = get("cookie") {
        for part in cookie.split(';') {
            if let Some(v) = part.trim().strip_prefix("MMAUTHTOKEN=") {
                return TokenSource::Header(v.to_string());
            }
        }
    }
    if let Some(auth) = get("authorization") {
        if auth.len() > 6 && auth.is_char_boundary(6) && auth[..6].eq_ignore_ascii_case("bearer") {
            return TokenSource::Header(auth.get(7..).unwrap_or("").to_string());
        }
        if auth.len() > 5 && auth.is_char_boundary(5) && auth[..5].eq_ignore_ascii_case("token") {
            return TokenSource::Header(auth.get(6..).unwrap_or("").to_string());
        }
    }
    if let Some((_, t)) = query.iter().find(|(k, _)| k == "access_token")
        && !t.is_empty()
    {
        return TokenSource::Query(t.clone());
    }
    TokenSource::None
}

fn truncate_token(t: &str) -> &str {
    match t.char_indices().nth(50) {
        Some((i, _)) => &t[..i],
        None => t,
    }
}

const NGINX_502: &str = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n";

fn html_page(status: u16) -> String {
    if status == 502 {
        return NGINX_502.to_string();
    }
    format!(
        "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><h1>Single sign-on</h1>\
         <p>Status {status}. Please sign in to continue.</p><form method=\"post\"><input name=\"user\"></form></body></html>\n"
    )
}

async fn handle(
    shared: Arc<Shared>,
    req: hyper::Request<Incoming>,
) -> Result<Response<SimBody>, CutConnection> {
    let answer = handle_request(shared.clone(), req).await;
    publish(&shared);
    answer
}

async fn handle_request(
    shared: Arc<Shared>,
    req: hyper::Request<Incoming>,
) -> Result<Response<SimBody>, CutConnection> {
    if req.method() == hyper::Method::GET && crate::websocket::is_websocket(req.uri().path()) {
        let query = params::parse_query(req.uri().query().unwrap_or(""));
        let headers: Vec<(String, String)> = req
            .headers()
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_ascii_lowercase(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let token = match find_token(&headers, &query) {
            TokenSource::Header(t) | TokenSource::Query(t) => Some(truncate_token(&t).to_string()),
            TokenSource::None => None,
        };
        return Ok(crate::websocket::upgrade(
            shared, req, token, query, headers,
        ));
    }
    let method = req.method().as_str().to_string();
    let path = req.uri().path().to_string();
    let raw_query = req.uri().query().unwrap_or("").to_string();
    let query = params::parse_query(&raw_query);
    let headers: Vec<(String, String)> = req
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_ascii_lowercase(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let body = match req.into_body().collect().await {
        Ok(b) => b.to_bytes().to_vec(),
        Err(_) => Vec::new(),
    };
    let body_text = if body.is_empty() {
        None
    } else {
        Some(String::from_utf8_lossy(&body).into_owned())
    };

    let n = shared.counter.fetch_add(1, Ordering::SeqCst);
    let seed = lock(&shared.world).seed;
    let mut req_rng = Rng::new(seed ^ 0x005E_ED0F_0EE5 ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let request_id = new_id(&mut req_rng);

    let token = find_token(&headers, &query);
    let username = match &token {
        TokenSource::Header(t) | TokenSource::Query(t) => {
            lock(&shared.world).token_username(truncate_token(t))
        }
        TokenSource::None => None,
    };
    let route = router::find(&method, &path);
    let template = route.as_ref().map(|(r, _)| r.template);
    let fault = lock(&shared.faults).take(&method, &path, template);

    let mut reply: Option<Reply> = None;
    let mut cut = false;
    let mut malformed = false;
    let mut plain = false;
    let mut cut_after_store = false;
    let mut delay_after_store = None;
    let mut store_delay = None;
    match fault {
        Some(Fault::RateLimited { retry_after_secs }) => {
            let s = retry_after_secs.to_string();
            reply = Some(
                Reply::raw(
                    429,
                    "text/plain; charset=utf-8",
                    b"limit exceeded\n".to_vec(),
                )
                .header("X-Content-Type-Options", "nosniff")
                .header("X-RateLimit-Limit", "101")
                .header("X-RateLimit-Remaining", "0")
                .header("X-RateLimit-Reset", &s)
                .header("Retry-After", &s),
            );
            plain = true;
        }
        Some(Fault::Status(code)) => {
            let err = if code == 503 {
                AppError::new(
                    503,
                    "api.context.server_busy.app_error",
                    "Server is busy, non-critical services are temporarily unavailable.",
                )
            } else {
                AppError::new(
                    code,
                    "api.context.server_error.app_error",
                    "An internal server error occurred.",
                )
            };
            let mut r = Reply::json(&err.json(&request_id));
            r.status = code;
            reply = Some(r);
        }
        Some(Fault::Delay(d)) => tokio::time::sleep(d).await,
        Some(Fault::EchoAuthorization(code)) => {
            let auth = headers
                .iter()
                .find(|(k, _)| k == "authorization")
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            reply = Some(if code >= 500 {
                Reply::raw(
                    code,
                    "text/html",
                    format!("<html><body>upstream failed; request had Authorization: {auth}</body></html>")
                        .into_bytes(),
                )
            } else {
                let mut r = Reply::json(
                    &AppError::new(
                        code,
                        "api.context.debug.app_error",
                        &format!("rejected request with Authorization: {auth}"),
                    )
                    .json(&request_id),
                );
                r.status = code;
                r
            });
            plain = true;
        }
        Some(Fault::CutMidBody) => cut = true,
        Some(Fault::MalformedJson) => malformed = true,
        Some(Fault::Html) => {
            reply = Some(Reply::raw(502, "text/html", html_page(502).into_bytes()));
            plain = true;
        }
        Some(Fault::HtmlStatus(code)) => {
            reply = Some(Reply::raw(
                code,
                "text/html; charset=utf-8",
                html_page(code).into_bytes(),
            ));
            plain = true;
        }
        Some(Fault::CutAfterStore) => cut_after_store = true,
        Some(Fault::DelayAfterStore(d)) => delay_after_store = Some(d),
        Some(Fault::DelayBeforeStore(d)) => {
            if method == "POST" && template == Some("/api/v4/posts") {
                store_delay = Some(d);
            } else {
                tokio::time::sleep(d).await;
            }
        }
        None => {}
    }

    let reply = match reply {
        Some(r) => r,
        None => {
            let site_url = format!("http://{}", shared.addr);
            let (result, deferred) = {
                let mut world = lock(&shared.world);
                process(
                    &mut world,
                    Request {
                        route,
                        query: &query,
                        headers: &headers,
                        body: &body,
                        token: &token,
                        rng: req_rng,
                        site_url: &site_url,
                        request_id: &request_id,
                        store_delay,
                    },
                )
            };
            // The storing part of a route that waits before storing runs in a task of its own, so
            // that it completes even if the client gives up meanwhile.
            let result = match deferred {
                Some((wait, store)) => {
                    let shared = shared.clone();
                    let task = tokio::spawn(async move {
                        tokio::time::sleep(wait).await;
                        let mut world = lock(&shared.world);
                        store(&mut world)
                    });
                    task.await.unwrap_or_else(|_| {
                        Err(AppError::new(
                            500,
                            "api.context.server_error.app_error",
                            "An internal server error occurred.",
                        ))
                    })
                }
                None => result,
            };
            if let Some(wait) = delay_after_store {
                tokio::time::sleep(wait).await;
            }
            match result {
                Ok(r) => r,
                Err(e) => {
                    let mut r = Reply::json(&e.json(&request_id));
                    r.status = e.status;
                    r
                }
            }
        }
    };

    let mut reply = reply;
    if malformed {
        reply.status = 200;
        reply.content_type = "application/json".into();
        let keep = (reply.body.len() / 2).max(1);
        reply.body.truncate(keep);
        if serde_json::from_slice::<Value>(&reply.body).is_ok() || reply.body.len() < 2 {
            reply.body = b"{\"order\":[\"".to_vec();
        }
    }

    let mut builder = Response::builder().status(reply.status);
    if !plain {
        let release = lock(&shared.world).settings.release.clone();
        builder = builder.header("X-Request-Id", &request_id).header(
            "X-Version-Id",
            format!("{release}.{BUILD_NUMBER}.{CONFIG_HASH}.false"),
        );
        // web/handlers.go ServeHTTP sets these on every API response
        builder = builder
            .header("Permissions-Policy", "")
            .header("Referrer-Policy", "no-referrer");
        if !reply
            .headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("x-content-type-options"))
        {
            builder = builder.header("X-Content-Type-Options", "nosniff");
        }
        if method == "GET" {
            builder = builder.header("Expires", "0");
        }
    }
    if reply.status != 304 || !reply.content_type.is_empty() {
        builder = builder.header("Content-Type", &reply.content_type);
    }
    for (k, v) in &reply.headers {
        builder = builder.header(k.as_str(), v.as_str());
    }
    let status = reply.status;
    let body = if cut && reply.body.len() > 1 {
        let full = reply.body.len();
        builder = builder.header("Content-Length", full.to_string());
        let half = reply.body[..full / 2].to_vec();
        SimBody::cut(half)
    } else {
        SimBody::full(reply.body)
    };

    let log_headers = headers
        .iter()
        .map(|(k, v)| {
            let redacted = k == "authorization" || (k == "cookie" && v.contains("MMAUTHTOKEN"));
            (
                k.clone(),
                if redacted {
                    "<redacted>".to_string()
                } else {
                    v.clone()
                },
            )
        })
        .collect();
    lock(&shared.log).push(LoggedRequest {
        method,
        path,
        query,
        body: body_text,
        status,
        username,
        headers: log_headers,
    });
    if cut_after_store {
        return Err(CutConnection);
    }

    let resp = builder
        .body(body)
        .unwrap_or_else(|_| Response::new(SimBody::full(Vec::new())));
    Ok(resp)
}

/// A request read off the wire and routed, before authentication: what [`process`] runs under the
/// world lock.
struct Request<'a> {
    /// The matched route and its path variables (`None`: no route, a 404).
    route: Option<(&'static router::Route, Vec<(&'static str, String)>)>,
    query: &'a [(String, String)],
    headers: &'a [(String, String)],
    body: &'a [u8],
    token: &'a TokenSource,
    /// This request's own randomness.
    rng: Rng,
    site_url: &'a str,
    request_id: &'a str,
    /// A wait to put between validating and storing ([`Fault::DelayBeforeStore`]).
    store_delay: Option<std::time::Duration>,
}

/// Route, authenticate and run the handler, under the world lock.
fn process(world: &mut World, req: Request) -> (HResult, Option<(std::time::Duration, Deferred)>) {
    let mut deferred = None;
    let result = run_route(world, req, &mut deferred);
    (result, deferred)
}

/// Authenticate and run the route's handler; a handler may leave its storing part in `deferred`.
fn run_route(
    world: &mut World,
    req: Request,
    deferred: &mut Option<(std::time::Duration, Deferred)>,
) -> HResult {
    let Some((route, path_params)) = req.route else {
        return Err(AppError::not_found(
            "api.context.404.app_error",
            "Sorry, we could not find the page.",
        ));
    };
    let me = match req.token {
        TokenSource::Header(t) => world.session_user(truncate_token(t)),
        TokenSource::Query(_) if !route.public => {
            return Err(AppError::new(
                401,
                "api.context.token_provided.app_error",
                "Session is not OAuth but token was provided in the query string.",
            ));
        }
        _ => None,
    };
    let me = match me {
        Some(m) => m,
        None if route.public => String::new(),
        None => return Err(AppError::session_expired()),
    };
    let has_user_id = route.template.contains("{user_id}");
    let is_channel_members = route.template == "/api/v4/users/{user_id}/channel_members";
    let mut ctx = Ctx {
        w: world,
        me,
        params: path_params,
        query: req.query,
        headers: req.headers,
        body: req.body,
        rng: req.rng,
        paging: paging(req.query, has_user_id, is_channel_members),
        site_url: req.site_url.to_string(),
        request_id: req.request_id.to_string(),
        store_delay: req.store_delay,
        deferred: None,
    };
    let result = (route.handler)(&mut ctx);
    *deferred = ctx.deferred.take();
    result
}
