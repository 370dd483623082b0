//! Who a request is: its `Authorization: Bearer <token>` (a personal access token, a bot token, or
//! an OAuth access token Mattermost issued), confirmed with Mattermost (GET /users/me) when the
//! person is new and again once the last confirmation is older than the check interval. A request
//! without a token, or with one Mattermost refuses, gets 401 with `WWW-Authenticate` pointing at the
//! protected resource metadata (RFC 9728), so an OAuth-capable client can find where to sign in.
//! What Mattermost said of a token is shared with the team's other instances
//! ([`crate::serve::team_state`]), so a token is checked once per interval for the whole team; a
//! token whose verdict cannot be read (Redis gone) is checked with Mattermost, never trusted.

use crate::config::Secret;
use crate::context::Ctx;
use crate::error::About;
use crate::mattermost::facts::UserFacts;
use crate::mattermost::{Mattermost, MmError, types};
use crate::serve::limits::PersonLimits;
use crate::serve::people::{Key, Person, Registry};
use crate::serve::refusals::Refusals;
use crate::serve::reply::{self, Body};
use crate::serve::team_state::store::{Known, TeamState, Verdict};
use http::{HeaderMap, Response, StatusCode, header};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest token accepted.
const MAX_TOKEN_LEN: usize = 4096;

/// What finding a request's person needs.
pub(crate) struct Auth {
    pub(crate) registry: Arc<Registry>,
    pub(crate) mm: Arc<Mattermost>,
    /// How long a confirmation of a token is trusted.
    pub(crate) check_every: Duration,
    /// How long the confirmation may take.
    pub(crate) timeout: Duration,
    /// `<public>/.well-known/oauth-protected-resource`.
    pub(crate) resource_metadata: String,
    pub(crate) concurrency: usize,
    pub(crate) rate: u32,
    /// Tokens Mattermost refused within the check interval: refused again without asking it.
    pub(crate) refusals: Refusals,
    /// What the team's instances share (token verdicts among it).
    pub(crate) shared: Arc<dyn TeamState>,
}

/// Why a token could not be confirmed.
enum Unconfirmed {
    /// Mattermost answered 401, with this error id.
    Refused(String),
    /// Mattermost could not be asked, or answered otherwise.
    Unavailable(Box<Response<Body>>),
}

/// The token of a request, or why there is none to use.
pub(crate) fn bearer(headers: &HeaderMap) -> Result<&str, &'static str> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err("");
    };
    let value = value
        .to_str()
        .map_err(|_| "the Authorization header holds bytes that are not text")?;
    let (scheme, token) = value
        .trim()
        .split_once(' ')
        .ok_or("the Authorization header is not of the form `Bearer <token>`")?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err("the Authorization header uses another scheme than Bearer");
    }
    let token = token.trim();
    let well_formed = !token.is_empty()
        && token.len() <= MAX_TOKEN_LEN
        && token
            .trim_end_matches('=')
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b));
    if !well_formed {
        return Err("the bearer token is empty, too long, or holds characters no token has");
    }
    Ok(token)
}

impl Auth {
    fn challenge(&self, error: Option<(&str, &str)>) -> String {
        match error {
            None => format!("Bearer resource_metadata=\"{}\"", self.resource_metadata),
            Some((code, description)) => format!(
                "Bearer error=\"{code}\", error_description=\"{description}\", resource_metadata=\"{}\"",
                self.resource_metadata
            ),
        }
    }

    fn unauthorized(&self, error: Option<(&str, &str)>, message: &str) -> Response<Body> {
        let code = error.map(|(c, _)| c).unwrap_or("unauthorized");
        reply::with_header(
            reply::error(StatusCode::UNAUTHORIZED, code, message),
            header::WWW_AUTHENTICATE,
            &self.challenge(error),
        )
    }

    /// The 401 for a request without a token.
    pub(crate) fn missing(&self) -> Response<Body> {
        self.unauthorized(
            None,
            &format!(
                "This server acts as the person whose Mattermost token each request carries, and this request \
                 carries none. Send `Authorization: Bearer <token>` with a personal access token (Mattermost: \
                 Profile > Security > Personal Access Tokens), a bot token, or an OAuth access token from {}. \
                 An OAuth-capable client finds where to sign in at {}.",
                self.mm.url, self.resource_metadata
            ),
        )
    }

    fn refused(&self, id: &str) -> Response<Body> {
        self.unauthorized(
            Some(("invalid_token", "Mattermost refused this token")),
            &format!(
                "Mattermost at {} refused this token (401 {id}): it may be expired, revoked, mistyped or from \
                 another server. Create a new personal access token (Profile > Security) or sign in again, and \
                 send it as `Authorization: Bearer <token>`.",
                self.mm.url
            ),
        )
    }

    fn unavailable(&self, e: MmError) -> Response<Body> {
        let told = e.about("user", "me", &self.mm.url).message;
        reply::with_header(
            reply::error(
                StatusCode::SERVICE_UNAVAILABLE,
                "mattermost_unavailable",
                &format!(
                    "Your token could not be checked: {told} Send the request again in a few seconds."
                ),
            ),
            header::RETRY_AFTER,
            "5",
        )
    }

    async fn confirm(&self, ctx: &Ctx) -> Result<types::User, Unconfirmed> {
        let asked = ctx.request_as_me(
            "GetUser",
            self.timeout,
            ctx.send(ctx.api().get_user().user_id("me").send()),
        );
        match asked.await {
            Ok(me) => Ok(me.into_inner()),
            Err(MmError::Api {
                status: 401, id, ..
            }) => Err(Unconfirmed::Refused(id)),
            Err(e) => Err(Unconfirmed::Unavailable(Box::new(self.unavailable(e)))),
        }
    }

    /// The answer to a token that could not be confirmed; a refusal is remembered for the interval,
    /// here and by the other instances.
    async fn unconfirmed(&self, key: Key, why: Unconfirmed) -> Box<Response<Body>> {
        match why {
            Unconfirmed::Refused(id) => {
                self.registry.forget(&key);
                self.refusals.remember(key, &id);
                self.shared
                    .remember(key, Verdict::Refused { id: id.clone() })
                    .await;
                Box::new(self.refused(&id))
            }
            Unconfirmed::Unavailable(response) => response,
        }
    }

    /// The person a request acts as, or the answer that refuses it.
    pub(crate) async fn person(
        &self,
        headers: &HeaderMap,
    ) -> Result<Arc<Person>, Box<Response<Body>>> {
        let token = match bearer(headers) {
            Ok(t) => t,
            Err("") => return Err(Box::new(self.missing())),
            Err(why) => {
                return Err(Box::new(self.unauthorized(
                    Some(("invalid_token", "malformed Authorization header")),
                    &format!("This request's token cannot be used: {why}. Send `Authorization: Bearer <token>`."),
                )));
            }
        };
        let key = Key::of(token);
        if let Some(person) = self.registry.get(&key) {
            let mut checked = person.checked.lock().await;
            if checked.elapsed() < self.check_every {
                return Ok(person.clone());
            }
            // Another instance may have checked it within the interval.
            match self.shared.verdict(key).await {
                Some(Known {
                    verdict: Verdict::Confirmed { .. },
                    age,
                }) if age < self.check_every => {
                    *checked = Instant::now().checked_sub(age).unwrap_or_else(Instant::now);
                    return Ok(person.clone());
                }
                Some(Known {
                    verdict: Verdict::Refused { id },
                    ..
                }) => return Err(self.unconfirmed(key, Unconfirmed::Refused(id)).await),
                _ => {}
            }
            return match self.confirm(&person.ctx).await {
                Ok(me) => {
                    *checked = Instant::now();
                    self.shared.remember(key, confirmed(&me)).await;
                    Ok(person.clone())
                }
                Err(why) => Err(self.unconfirmed(key, why).await),
            };
        }
        if let Some(id) = self.refusals.recent(&key) {
            return Err(Box::new(self.refused(&id)));
        }
        let ctx = Arc::new(Ctx::new(self.mm.clone(), Secret::new(token.to_string())));
        let limits = PersonLimits::new(self.concurrency, self.rate);
        match self.shared.verdict(key).await {
            Some(Known {
                verdict: Verdict::Confirmed { user_id, username },
                age,
            }) if age < self.check_every => {
                ctx.know_my_id(user_id);
                let mut person = Person::new(key, ctx, limits, username);
                *person.checked.get_mut() =
                    Instant::now().checked_sub(age).unwrap_or_else(Instant::now);
                return Ok(self.registry.insert(person));
            }
            Some(Known {
                verdict: Verdict::Refused { id },
                ..
            }) => {
                self.refusals.remember(key, &id);
                return Err(Box::new(self.refused(&id)));
            }
            _ => {}
        }
        let me = match self.confirm(&ctx).await {
            Ok(me) => me,
            Err(why) => return Err(self.unconfirmed(key, why).await),
        };
        self.refusals.forget(&key);
        self.shared.remember(key, confirmed(&me)).await;
        let username = me.username.clone().unwrap_or_default();
        ctx.know_me(me);
        Ok(self
            .registry
            .insert(Person::new(key, ctx, limits, username)))
    }
}

/// The verdict shared for a token Mattermost accepted: whose it is, nothing more of theirs.
fn confirmed(me: &types::User) -> Verdict {
    Verdict::Confirmed {
        user_id: me.id().to_string(),
        username: me.username.clone().unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(v: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, v.parse().expect("header"));
        h
    }

    #[test]
    fn only_a_well_formed_bearer_is_taken() {
        assert_eq!(bearer(&HeaderMap::new()), Err(""));
        assert_eq!(bearer(&headers("Bearer abc123")), Ok("abc123"));
        assert_eq!(
            bearer(&headers("bearer  abc.DEF-_~+/==")),
            Ok("abc.DEF-_~+/==")
        );
        assert!(bearer(&headers("Basic dXNlcjpwYXNz")).is_err());
        assert!(bearer(&headers("Bearer")).is_err());
        assert!(bearer(&headers("Bearer a\"b")).is_err());
    }
}
