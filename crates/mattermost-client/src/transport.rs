//! The transport under the generated client: the hooks progenitor calls around every request.
//!
//! - `pre` refuses a request outside any call, an operation the running tool does not declare (a bug,
//!   caught loudly), a write of a tool that asks first before the person confirmed it (likewise), an
//!   operation the server's release is too old for (`versions`, from the `X-Version-Id` of its answers), a request of a cancelled call and one once the call's time budget is spent; it
//!   puts the person's token on the request (`Authorization: Bearer`, marked sensitive), so one
//!   connection pool serves every person.
//! - `exec` sends the request, counts every attempt in the call's scope, reads the whole body (so that
//!   a connection cut mid-body is seen here, where it can be retried), and retries reads only: after a
//!   429 as `Retry-After` says (capped), and after a 502, 503, 504 or a broken connection with backoff
//!   and jitter. Anything that changes data is sent once, whatever the answer (a proxy's 429 may come
//!   after the write went through).

use super::call;
use super::generated::Client;
use progenitor_client::{ClientHooks, ClientInfo, Error, OperationInfo, ResponseValue};
use reqwest::header::{AUTHORIZATION, HeaderValue};
use reqwest::{Method, StatusCode};
use std::time::Duration;

/// How the transport retries and waits.
#[derive(Debug, Clone)]
pub struct Policy {
    /// How long one request may take (a request's own timeout never exceeds it, nor the call's budget).
    pub request_timeout: Duration,
    /// Longest wait for one 429 `Retry-After`.
    pub rate_limit_wait_max: Duration,
    /// Tries in all for a request answered 429.
    pub rate_limit_tries: u32,
    /// Tries in all for a read after a 502/503/504 or a broken connection.
    pub read_tries: u32,
    /// First backoff; it doubles per try, plus up to as much again of jitter.
    pub backoff: Duration,
    /// The largest body read into memory.
    pub max_body: usize,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            request_timeout: Duration::from_secs(30),
            rate_limit_wait_max: Duration::from_secs(10),
            rate_limit_tries: 3,
            read_tries: 3,
            backoff: Duration::from_millis(200),
            max_body: 64 * 1024 * 1024,
        }
    }
}

/// The generated client's inner value.
#[derive(Debug, Clone, Default)]
pub struct Transport {
    /// The timeouts, retries and body cap the hooks apply.
    pub(crate) policy: Policy,
    /// The version of the Mattermost it reaches, as its answers say (`X-Version-Id`).
    pub server: std::sync::Arc<crate::versions::ServerVersion>,
}

/// True for requests that only read, which may be sent again: the catalog's classification of the
/// operation (`mattermost_spec::catalog::access`: GET and HEAD but the GETs that write, the POST
/// searches and lookups, the read-only POSTs it names). An operation the catalog does not hold (the
/// hand-written upload) reads only when it is a GET or HEAD.
pub fn reads(operation: &str, method: &Method) -> bool {
    match super::operations::lookup(operation) {
        Some(entry) => entry.access == super::operations::Access::Read,
        None => method == Method::GET || method == Method::HEAD,
    }
}

fn retry_after(response: &reqwest::Response) -> Option<Duration> {
    let value = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?;
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

fn jitter(max: Duration) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let max_ms = max.as_millis().max(1) as u64;
    Duration::from_millis(u64::from(nanos) % max_ms)
}

/// The operations whose answer is an array that Mattermost sends as `null` when it is empty (Go's nil
/// slice), as the `null_array_responses` repair marked them in the spec.
const NULL_ARRAYS: &str = include_str!(concat!(env!("OUT_DIR"), "/null_arrays.json"));

/// Whether `operation` answers an array whose `null` means empty.
pub fn null_is_empty(operation: &str) -> bool {
    static SET: std::sync::OnceLock<std::collections::HashSet<String>> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        serde_json::from_str::<Vec<String>>(NULL_ARRAYS)
            .unwrap_or_default()
            .iter()
            .map(|op| call::operation_key(op))
            .collect()
    })
    .contains(&call::operation_key(operation))
}

/// Reads the body whole (up to `max`), so that a cut connection fails here; a successful answer of
/// `null` from an operation that answers an array becomes `[]` when `null_is_empty`.
async fn read_whole(
    response: reqwest::Response,
    max: usize,
    null_is_empty: bool,
) -> reqwest::Result<reqwest::Response> {
    let response = buffer(response, max).await?;
    if !null_is_empty || !response.status().is_success() {
        return Ok(response);
    }
    let status = response.status();
    let version = response.version();
    let headers = response.headers().clone();
    let body = response.bytes().await?;
    let body = if body.trim_ascii() == b"null" {
        bytes::Bytes::from_static(b"[]")
    } else {
        body
    };
    let mut rebuilt = http::Response::new(body.to_vec());
    *rebuilt.status_mut() = status;
    *rebuilt.version_mut() = version;
    *rebuilt.headers_mut() = headers;
    Ok(reqwest::Response::from(rebuilt))
}

/// A JSON answer read into `T`, in place of progenitor's `ResponseValue::from_response` (the build
/// script has every generated operation call this, `build/responses.rs`): the body is checked to be
/// UTF-8 once, whole, and read as text, where reading it as bytes checked each of its strings again
/// (about 1,100 in a page of 21 posts: 4% of a `read_channel` call). A body that is not UTF-8 is read
/// as bytes, so the error says where, as before.
pub async fn json_response<T: serde::de::DeserializeOwned, E>(
    response: reqwest::Response,
) -> Result<ResponseValue<T>, Error<E>> {
    let status = response.status();
    let headers = response.headers().clone();
    let full = response.bytes().await.map_err(Error::ResponseBodyError)?;
    let read = match std::str::from_utf8(&full) {
        Ok(text) => serde_json::from_str(text),
        Err(_) => serde_json::from_slice(&full),
    };
    match read {
        Ok(inner) => Ok(ResponseValue::new(inner, status, headers)),
        Err(e) => Err(Error::InvalidResponsePayload(full, e)),
    }
}

/// Reads the body whole (up to `max`), so that a cut connection fails here.
async fn buffer(response: reqwest::Response, max: usize) -> reqwest::Result<reqwest::Response> {
    let status = response.status();
    let version = response.version();
    let headers = response.headers().clone();
    let mut response = response;
    // Sized for the answer when Mattermost says its length (a growing buffer copies it each time it
    // doubles).
    let announced = response.content_length().unwrap_or(0);
    let mut body: Vec<u8> = Vec::with_capacity(usize::try_from(announced).unwrap_or(max).min(max));
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > max {
            body.extend_from_slice(&chunk[..max.saturating_sub(body.len())]);
            break;
        }
        body.extend_from_slice(&chunk);
    }
    let mut rebuilt = http::Response::new(body);
    *rebuilt.status_mut() = status;
    *rebuilt.version_mut() = version;
    *rebuilt.headers_mut() = headers;
    Ok(reqwest::Response::from(rebuilt))
}

impl ClientHooks<Transport> for Client {
    async fn pre<E>(
        &self,
        request: &mut reqwest::Request,
        info: &OperationInfo,
    ) -> Result<(), Error<E>> {
        let Some(scope) = call::current() else {
            return Err(Error::Custom(format!(
                "internal error: {} {} (operation {}) was about to be sent outside any call, with no \
                 person's token; nothing was sent. Please report this.",
                request.method(),
                request.url().path(),
                info.operation_id
            )));
        };
        if !scope.declares(info.operation_id) {
            return Err(Error::Custom(format!(
                "internal error: the tool `{}` sent {} {}, operation {}, which its declaration does not \
                 list; nothing was sent. Please report this.",
                scope.tool,
                request.method(),
                request.url().path(),
                info.operation_id
            )));
        }
        if scope.write_refused() && !reads(info.operation_id, request.method()) {
            return Err(Error::Custom(format!(
                "internal error: the tool `{}` was about to send {} {} (operation {}), a write others will \
                 see, before the person confirmed it; nothing was sent. Please report this.",
                scope.tool,
                request.method(),
                request.url().path(),
                info.operation_id
            )));
        }
        if let Some(why) = self.inner().server.refusal(info.operation_id) {
            return Err(Error::Custom(format!("{why} Nothing was sent.")));
        }
        if scope.is_cancelled() {
            return Err(Error::Custom(format!(
                "the call was cancelled by the client after {} Mattermost requests",
                scope.requests()
            )));
        }
        let remaining = scope.remaining();
        if remaining.is_zero() {
            return Err(Error::Custom(format!(
                "the call ran out of its time budget after {} Mattermost requests",
                scope.requests()
            )));
        }
        let request_timeout = self.inner().policy.request_timeout;
        if remaining < request_timeout {
            scope.bound_by_budget();
        }
        let limit = request_timeout.min(remaining);
        let timeout = request.timeout_mut();
        *timeout = Some(timeout.map_or(limit, |t| t.min(limit)));
        let mut auth = HeaderValue::from_str(&format!("Bearer {}", scope.token().expose()))
            .map_err(|_| {
                Error::Custom(
                    "the token holds characters an HTTP header cannot carry; nothing was sent"
                        .into(),
                )
            })?;
        auth.set_sensitive(true);
        request.headers_mut().insert(AUTHORIZATION, auth);
        Ok(())
    }

    async fn exec(
        &self,
        request: reqwest::Request,
        info: &OperationInfo,
    ) -> reqwest::Result<reqwest::Response> {
        let null_array = null_is_empty(info.operation_id);
        let policy = &self.inner().policy;
        let scope = call::current();
        let read = reads(info.operation_id, request.method());
        let mut rate_limited = 0u32;
        let mut failed = 0u32;
        let mut current = request;
        loop {
            let spare = current.try_clone();
            if let Some(scope) = &scope {
                scope.count_request();
            }
            let outcome = match self.client().execute(current).await {
                Ok(response) => read_whole(response, policy.max_body, null_array).await,
                Err(e) => Err(e),
            };
            if let Ok(response) = &outcome
                && let Some(id) = response
                    .headers()
                    .get("x-version-id")
                    .and_then(|v| v.to_str().ok())
            {
                self.inner().server.saw(id);
            }
            if let (Some(scope), Ok(response)) = (&scope, &outcome) {
                let content_type = response
                    .headers()
                    .get(reqwest::header::CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("none");
                scope.saw_answer(response.status().as_u16(), content_type);
            }
            let Some(next) = spare else { return outcome };
            let wait = match &outcome {
                // A write is never sent again, even after a 429: Mattermost's own rate limiter answers
                // before it does anything, but a proxy in front of it may answer 429 after the write
                // went through, and nothing tells the two apart.
                Ok(response) if read && response.status() == StatusCode::TOO_MANY_REQUESTS => {
                    rate_limited += 1;
                    match retry_after(response) {
                        Some(wait)
                            if wait <= policy.rate_limit_wait_max
                                && rate_limited < policy.rate_limit_tries =>
                        {
                            wait
                        }
                        None if rate_limited < policy.rate_limit_tries => {
                            policy.backoff * 2u32.pow(rate_limited)
                        }
                        _ => return outcome,
                    }
                }
                Ok(response)
                    if read
                        && matches!(response.status().as_u16(), 502..=504)
                        && failed + 1 < policy.read_tries =>
                {
                    failed += 1;
                    let base = policy.backoff * 2u32.pow(failed - 1);
                    base + jitter(base)
                }
                Err(e) if read && !e.is_timeout() && failed + 1 < policy.read_tries => {
                    failed += 1;
                    let base = policy.backoff * 2u32.pow(failed - 1);
                    base + jitter(base)
                }
                _ => return outcome,
            };
            if let Some(scope) = &scope {
                if scope.remaining() <= wait {
                    return outcome;
                }
                let why = match &outcome {
                    Ok(r) if r.status() == StatusCode::TOO_MANY_REQUESTS => format!(
                        "Mattermost is rate-limiting (429); waiting {:.1} s as it asked, then trying again ({} of {} tries)",
                        wait.as_secs_f64(),
                        rate_limited + 1,
                        policy.rate_limit_tries
                    ),
                    Ok(r) => format!(
                        "Mattermost answered {}; trying again in {:.1} s ({} of {} tries)",
                        r.status().as_u16(),
                        wait.as_secs_f64(),
                        failed + 1,
                        policy.read_tries
                    ),
                    Err(_) => format!(
                        "the connection to Mattermost broke; trying again in {:.1} s ({} of {} tries)",
                        wait.as_secs_f64(),
                        failed + 1,
                        policy.read_tries
                    ),
                };
                scope.report(why);
            }
            tokio::time::sleep(wait).await;

            current = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(body: &[u8]) -> reqwest::Response {
        reqwest::Response::from(http::Response::new(body.to_vec()))
    }

    #[tokio::test]
    async fn an_answer_is_read_as_text_and_one_that_is_not_utf8_fails_saying_where() {
        let read: ResponseValue<crate::types::Post> = json_response::<_, ()>(answer(
            "{\"id\":\"p1\",\"message\":\"h\\u00e9 \u{e9}\"}".as_bytes(),
        ))
        .await
        .unwrap();
        assert_eq!(read.status(), StatusCode::OK);
        assert_eq!(read.into_inner().message.as_deref(), Some("h\u{e9} \u{e9}"));
        let e = json_response::<crate::types::Post, ()>(answer(b"{\"id\":\"p\xff\"}"))
            .await
            .unwrap_err();
        match e {
            Error::InvalidResponsePayload(bytes, e) => {
                assert_eq!(bytes.len(), 11);
                assert!(e.to_string().contains("invalid unicode"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        let e = json_response::<crate::types::Post, ()>(answer(br#"{"id":1}"#))
            .await
            .unwrap_err();
        assert!(matches!(e, Error::InvalidResponsePayload(..)), "{e:?}");
    }

    #[test]
    fn the_operation_index_finds_what_the_catalog_resolves_in_every_spelling() {
        let catalog = super::super::operations::catalog();
        assert!(catalog.operations.len() > 100);
        for e in &catalog.operations {
            let snake: String =
                e.id.chars()
                    .enumerate()
                    .flat_map(|(i, c)| {
                        let sep = (i > 0 && c.is_ascii_uppercase()).then_some('_');
                        sep.into_iter().chain(c.to_lowercase())
                    })
                    .collect();
            for name in [
                e.id.clone(),
                snake,
                e.id.to_uppercase(),
                format!(" {} ", e.id),
            ] {
                let found = super::super::operations::lookup(&name).map(|f| f.id.as_str());
                assert_eq!(
                    found,
                    catalog.resolve(&name).map(|f| f.id.as_str()),
                    "{name}"
                );
                assert!(found.is_some(), "{name}");
            }
        }
        assert!(super::super::operations::lookup("NoSuchOperation").is_none());
    }

    #[test]
    fn reads_follow_the_catalogs_classification_not_the_method_alone() {
        assert!(reads("GetPostsForChannel", &Method::GET));
        assert!(reads("SearchPosts", &Method::POST), "a POST search reads");
        assert!(
            reads("GetBulkReactions", &Method::POST),
            "a read-only POST the catalog names"
        );
        assert!(!reads("CreatePost", &Method::POST));
        assert!(!reads("CreateIncomingWebhook", &Method::POST));
        assert!(
            !reads("RevealPost", &Method::GET),
            "a GET that starts a post's timer writes"
        );
        assert!(
            !reads("UploadFile", &Method::POST),
            "the multipart upload writes"
        );
        assert!(reads("NoSuchOperation", &Method::GET));
        assert!(!reads("NoSuchOperation", &Method::PUT));
    }
}
