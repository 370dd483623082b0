//! The handlers, one module per API area, and the request context they share.

pub(crate) mod channels;
pub(crate) mod files;
pub(crate) mod integrations;
pub(crate) mod misc;
pub(crate) mod oauth;
pub(crate) mod posts;
pub(crate) mod search;
pub(crate) mod teams;
pub(crate) mod threads;
pub(crate) mod users;
pub(crate) mod writes;

use serde_json::Value;

use crate::ids::is_valid_id;
use crate::params::Paging;
use crate::reply::{AppError, HResult, Reply};
use crate::rng::Rng;
use crate::world::{Channel, Post, World};

/// Work a route leaves for later: it runs after the wait, with the world locked again (see
/// [`crate::Fault::DelayBeforeStore`]).
pub(crate) type Deferred = Box<dyn FnOnce(&mut World) -> HResult + Send>;

/// One request as a handler sees it.
pub(crate) struct Ctx<'a> {
    pub(crate) w: &'a mut World,
    /// The session's user id ("" on public routes without a session).
    pub(crate) me: String,
    pub(crate) params: Vec<(&'static str, String)>,
    pub(crate) query: &'a [(String, String)],
    pub(crate) headers: &'a [(String, String)],
    pub(crate) body: &'a [u8],
    /// Fresh randomness for this request: ties and unordered rows come back differently each time.
    pub(crate) rng: Rng,
    pub(crate) paging: Paging,
    pub(crate) site_url: String,
    pub(crate) request_id: String,
    /// A wait to put between validating and storing ([`crate::Fault::DelayBeforeStore`]); a route
    /// that honours it takes it and leaves its storing part in `deferred`.
    pub(crate) store_delay: Option<std::time::Duration>,
    pub(crate) deferred: Option<(std::time::Duration, Deferred)>,
}

impl Ctx<'_> {
    /// A path variable (as matched by the router).
    pub(crate) fn var(&self, name: &str) -> String {
        self.params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    /// A query parameter's first value.
    pub(crate) fn q(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `c.RequireXxxId()`: 26 characters or 400 `api.context.invalid_url_param.app_error`;
    /// `me` stands for the session user in `user_id`.
    pub(crate) fn require_id(&self, name: &str) -> Result<String, AppError> {
        let mut v = self.var(name);
        if name == "user_id" && v == "me" {
            v = self.me.clone();
        }
        if !is_valid_id(&v) {
            return Err(AppError::invalid_url_param(name));
        }
        Ok(v)
    }

    pub(crate) fn is_admin(&self) -> bool {
        self.w.is_admin(&self.me)
    }

    /// `SessionHasPermissionToUser`: oneself, or an admin.
    pub(crate) fn require_self_or_admin(&self, user_id: &str) -> Result<(), AppError> {
        if user_id == self.me || self.is_admin() {
            Ok(())
        } else {
            Err(AppError::permission())
        }
    }

    pub(crate) fn if_none_match(&self) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == "if-none-match")
            .map(|(_, v)| v.as_str())
    }

    /// `HandleEtag`: 304 with no body when If-None-Match equals the ETag.
    pub(crate) fn etag_matches(&self, etag: &str) -> bool {
        self.if_none_match() == Some(etag)
    }

    /// The channel or 404 `app.channel.get.existing.app_error`.
    pub(crate) fn channel(&self, id: &str) -> Result<Channel, AppError> {
        self.w
            .channel_by_id(id)
            .cloned()
            .ok_or_else(channel_not_found)
    }

    /// The channel, readable by the session user, or 404/403.
    pub(crate) fn readable_channel(&self, id: &str) -> Result<Channel, AppError> {
        let c = self.channel(id)?;
        if !self.w.can_read_channel(&self.me, &c) {
            return Err(AppError::permission());
        }
        Ok(c)
    }

    /// `SessionHasPermissionToChannel(read_channel)` (`app/authorization.go`): only channel roles grant
    /// `read_channel` (team_user has `read_public_channel` instead), so a member or a system admin
    /// passes; a public channel one has not joined and an unknown channel id are both 403.
    pub(crate) fn require_channel_member_or_admin(&self, id: &str) -> Result<Channel, AppError> {
        let Some(c) = self.w.channel_by_id(id).cloned() else {
            return Err(AppError::permission());
        };
        if self.is_admin() || self.w.member(id, &self.me).is_some() {
            Ok(c)
        } else {
            Err(AppError::permission())
        }
    }

    /// `GetSinglePost` (not deleted) or 404 `app.post.get.app_error`.
    pub(crate) fn live_post(&self, id: &str) -> Result<Post, AppError> {
        match self.w.post_by_id(id) {
            Some(p) if p.delete_at == 0 => Ok(p.clone()),
            _ => Err(post_not_found()),
        }
    }

    /// Parse a JSON body.
    pub(crate) fn json_body(&self) -> Option<Value> {
        serde_json::from_slice(self.body).ok()
    }
}

pub(crate) fn channel_not_found() -> AppError {
    AppError::not_found(
        "app.channel.get.existing.app_error",
        "Unable to find the existing channel.",
    )
}

pub(crate) fn post_not_found() -> AppError {
    AppError::not_found("app.post.get.app_error", "Unable to get post.")
}

pub(crate) fn user_not_found() -> AppError {
    AppError::not_found("app.user.missing_account.const", "Unable to find the user.")
}

pub(crate) fn team_not_found() -> AppError {
    AppError::not_found(
        "app.team.get.find.app_error",
        "Unable to find the existing team.",
    )
}

/// Slice `items` like SQL `LIMIT per_page OFFSET page*per_page` (huge values give nothing).
pub(crate) fn page_slice<T: Clone>(items: &[T], page: i64, per_page: i64) -> Vec<T> {
    if page < 0 || per_page <= 0 {
        return Vec::new();
    }
    let offset = page.saturating_mul(per_page);
    offset_slice(items, offset, per_page)
}

/// `LIMIT limit OFFSET offset`.
pub(crate) fn offset_slice<T: Clone>(items: &[T], offset: i64, limit: i64) -> Vec<T> {
    if offset < 0 || limit <= 0 || offset as u128 >= items.len() as u128 {
        return Vec::new();
    }
    let start = offset as usize;
    let end = start.saturating_add(limit as usize).min(items.len());
    items[start..end].to_vec()
}

/// A JSON array reply.
pub(crate) fn array(items: Vec<Value>) -> Reply {
    Reply::json(&Value::Array(items))
}

/// A list the store scanned into a nil Go slice: `null` when empty, else a JSON array.
pub(crate) fn array_or_null(items: Vec<Value>) -> Reply {
    if items.is_empty() {
        Reply::json(&Value::Null)
    } else {
        Reply::json(&Value::Array(items))
    }
}
