//! Fault injection: per-route rules that make the simulator answer like a failing server or proxy.

use std::time::Duration;

use crate::router;

/// What an injected fault does to a matching request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// That status with a body that quotes the request's `Authorization` header back, as a debugging
    /// proxy or a misconfigured gateway in front of Mattermost might: an AppError JSON for a 4xx, an
    /// HTML page for a 5xx.
    EchoAuthorization(u16),
    /// 429 with the rate limiter's plain-text body `limit exceeded` and `Retry-After`,
    /// `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` headers.
    RateLimited {
        /// The `Retry-After` value, in seconds.
        retry_after_secs: u64,
    },
    /// That status (500/502/503/504, ...) with an AppError JSON body.
    Status(u16),
    /// Wait, then answer normally.
    Delay(Duration),
    /// Send the headers with the full Content-Length and part of the body, then close the connection.
    CutMidBody,
    /// 200 with a truncated (invalid) JSON body.
    MalformedJson,
    /// 502 with an HTML error page, like a reverse proxy in front of a dead server.
    Html,
    /// An HTML page with the given status (e.g. 200 from an SSO proxy's login page).
    HtmlStatus(u16),
    /// Run the route (its effect is stored: the post exists), then close the connection without
    /// sending a response, as when a proxy or the network drops it after the server committed.
    /// The request log records the status the route produced.
    CutAfterStore,
    /// Run the route (its effect is stored), then wait before answering, with the world unlocked
    /// (a client with a shorter timeout gives up while the write has happened).
    DelayAfterStore(Duration),
    /// Wait between validating and storing. `POST /api/v4/posts` registers its `pending_post_id`
    /// as in flight, waits with the world unlocked, then saves (so a retry meanwhile meets the
    /// in-flight entry, as with a slow database); on other routes the wait comes before the route
    /// runs, like [`Fault::Delay`].
    DelayBeforeStore(Duration),
}

/// A fault rule. `path` is a route template as in the spec (`/api/v4/channels/{channel_id}/posts`), "*" for every route,
/// or an exact path; `method` None matches any method; `times` None = every matching request,
/// Some(n) = the next n matching requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultRule {
    /// The HTTP method to match (`GET`, `POST`, ...); `None` matches any.
    pub method: Option<String>,
    /// A route template, `*`, or an exact path.
    pub path: String,
    /// What the simulator does to a matching request.
    pub fault: Fault,
    /// How many more matching requests the rule applies to; `None` for every one.
    pub times: Option<u32>,
}

impl FaultRule {
    /// A rule for every request to `path` (any method).
    pub fn always(path: &str, fault: Fault) -> FaultRule {
        FaultRule {
            method: None,
            path: path.to_string(),
            fault,
            times: None,
        }
    }

    /// A rule for every request to any route (`path` "*").
    pub fn everywhere(fault: Fault) -> FaultRule {
        FaultRule {
            method: None,
            path: "*".to_string(),
            fault,
            times: None,
        }
    }

    /// A rule for the next `n` requests to `path` (any method).
    pub fn times(path: &str, fault: Fault, n: u32) -> FaultRule {
        FaultRule {
            method: None,
            path: path.to_string(),
            fault,
            times: Some(n),
        }
    }
}

/// The active rules and how many uses each has left.
#[derive(Default)]
pub(crate) struct Faults {
    rules: Vec<FaultRule>,
}

impl Faults {
    pub(crate) fn add(&mut self, rule: FaultRule) {
        self.rules.push(rule);
    }

    pub(crate) fn clear(&mut self) {
        self.rules.clear();
    }

    /// The fault for this request, if a rule matches (consuming one use of a counted rule).
    pub(crate) fn take(
        &mut self,
        method: &str,
        path: &str,
        template: Option<&str>,
    ) -> Option<Fault> {
        let idx = self.rules.iter().position(|r| {
            r.method
                .as_deref()
                .is_none_or(|m| m.eq_ignore_ascii_case(method))
                && (r.path == "*"
                    || r.path == path
                    || template.is_some_and(|t| router::same_template(&r.path, t))
                    || router::template_matches(&r.path, path))
                && r.times != Some(0)
        })?;
        let rule = &mut self.rules[idx];
        let fault = rule.fault.clone();
        if let Some(n) = rule.times.as_mut() {
            *n -= 1;
        }
        if rule.times == Some(0) {
            self.rules.remove(idx);
        }
        Some(fault)
    }
}
