//! Preferences (saved posts are `flagged_post` preferences) and following threads
//! (`api4/preference.go` `updatePreferences`, `deletePreferences`; `api4/user.go`
//! `followThreadByUser`, `unfollowThreadByUser` → `App.UpdateThreadFollowForUser`).

use serde_json::Value;

use super::decode::{Fields, first_value, runes};
use super::replies::{app_error, status_ok};
use crate::clock::now_ms;
use crate::reply::{AppError, HResult};
use crate::routes::Ctx;
use crate::world::Preference;

/// `api4/preference.go` `maxUpdatePreferences`.
const MAX_UPDATE_PREFERENCES: usize = 100;
/// `model.MaxPreferenceValueLength`.
const MAX_PREFERENCE_VALUE_LENGTH: usize = 20_000;

/// `model.StructFromJSONLimited` into `model.Preferences`: an array of `{user_id, category, name,
/// value}` (400 `preferences` when it does not decode), then 1 to 100 of them (400).
fn preferences(body: &[u8]) -> Result<Vec<Preference>, AppError> {
    let bad = || AppError::invalid_param("preferences");
    let items = match first_value(body).ok_or_else(bad)? {
        Value::Array(items) => items,
        Value::Null => Vec::new(),
        _ => return Err(bad()),
    };
    let mut out = Vec::new();
    for item in &items {
        let m = match item {
            Value::Object(m) => m.clone(),
            Value::Null => Default::default(),
            _ => return Err(bad()),
        };
        let f = Fields(&m);
        out.push(Preference {
            user_id: f.string("user_id").map_err(|_| bad())?,
            category: f.string("category").map_err(|_| bad())?,
            name: f.string("name").map_err(|_| bad())?,
            value: f.string("value").map_err(|_| bad())?,
        });
    }
    if out.is_empty() || out.len() > MAX_UPDATE_PREFERENCES {
        return Err(bad());
    }
    Ok(out)
}

/// `model.Preference.IsValid` (the parts a client controls).
fn preference_is_valid(p: &Preference) -> Result<(), AppError> {
    if p.category.is_empty() || p.category.len() > 32 {
        return Err(app_error(
            400,
            "model.preference.is_valid.category.app_error",
            "Invalid category.",
        ));
    }
    if p.name.len() > 32 {
        return Err(app_error(
            400,
            "model.preference.is_valid.name.app_error",
            "Invalid name.",
        ));
    }
    if runes(&p.value) > MAX_PREFERENCE_VALUE_LENGTH {
        return Err(app_error(
            400,
            "model.preference.is_valid.value.app_error",
            "Value is too long.",
        ));
    }
    if p.category == "theme"
        && serde_json::from_str::<serde_json::Map<String, Value>>(&p.value).is_err()
    {
        return Err(app_error(
            400,
            "model.preference.is_valid.theme.app_error",
            "Invalid theme.",
        ));
    }
    Ok(())
}

/// PUT /api/v4/users/{user_id}/preferences — `api4/preference.go` `updatePreferences` →
/// `App.UpdatePreferences`. Saving a post is `[{user_id, category: "flagged_post", name: <post
/// id>, value: "true"}]`. Another user without `edit_other_users` → 403; not 1 to 100
/// preferences → 400; a `flagged_post` whose post is missing or deleted → 400
/// `preference.name`, in a channel the session cannot read → 403; a `user_id` other than the
/// path's → 403 `api.preference.update_preferences.set.app_error`; an invalid category, name or
/// value → 400 `model.preference.is_valid.*`. Upserts; `{"status":"OK"}`.
pub(crate) fn update_preferences(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    if !ctx.w.may_act_for_user(&ctx.me, &uid) {
        return Err(AppError::permission());
    }
    let prefs = preferences(ctx.body)?;
    for p in &prefs {
        if p.category == "flagged_post" {
            let post = ctx
                .live_post(&p.name)
                .map_err(|_| AppError::invalid_param("preference.name"))?;
            let channel = ctx.channel(&post.channel_id)?;
            if !ctx.w.may_read_channel(&ctx.me, &channel).0 {
                return Err(AppError::permission());
            }
        }
    }
    if prefs.iter().any(|p| p.user_id != uid) {
        return Err(app_error(
            403,
            "api.preference.update_preferences.set.app_error",
            "Unable to set user preferences.",
        ));
    }
    for p in &prefs {
        preference_is_valid(p)?;
    }
    for p in prefs {
        ctx.w.save_preference(p);
    }
    Ok(status_ok())
}

/// POST /api/v4/users/{user_id}/preferences/delete — `api4/preference.go` `deletePreferences` →
/// `App.DeletePreferences`: the same body (only `user_id`, `category` and `name` matter);
/// another user → 403; not 1 to 100 → 400; a `user_id` other than the path's → 403
/// `api.preference.delete_preferences.delete.app_error`. Unsaving a post deletes its
/// `flagged_post` preference; deleting what is not there succeeds. `{"status":"OK"}`.
pub(crate) fn delete_preferences(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    if !ctx.w.may_act_for_user(&ctx.me, &uid) {
        return Err(AppError::permission());
    }
    let prefs = preferences(ctx.body)?;
    if prefs.iter().any(|p| p.user_id != uid) {
        return Err(app_error(
            403,
            "api.preference.delete_preferences.delete.app_error",
            "Unable to delete user preferences.",
        ));
    }
    for p in &prefs {
        ctx.w.delete_preference(&uid, &p.category, &p.name);
    }
    Ok(status_ok())
}

/// The checks both following routes make: valid user, thread and team ids (400
/// `invalid_url_param`), `edit_other_users` for another user, a thread the session can read
/// (403; an unknown id too). The team id is not otherwise checked.
fn thread_route(ctx: &Ctx) -> Result<(String, String), AppError> {
    let uid = ctx.require_id("user_id")?;
    let tid = ctx.require_id("thread_id")?;
    ctx.require_id("team_id")?;
    if !ctx.w.may_act_for_user(&ctx.me, &uid) {
        return Err(AppError::permission());
    }
    if !ctx.w.may_read_post(&ctx.me, &tid) {
        return Err(AppError::permission());
    }
    Ok((uid, tid))
}

/// PUT /api/v4/users/{user_id}/teams/{team_id}/threads/{thread_id}/following — `api4/user.go`
/// `followThreadByUser` → `App.UpdateThreadFollowForUser(state: true)`: the membership follows
/// and is marked viewed now (unread mentions 0), created if needed (also for a post without
/// replies). `{"status":"OK"}`.
pub(crate) fn follow_thread(ctx: &mut Ctx) -> HResult {
    let (uid, tid) = thread_route(ctx)?;
    ctx.w
        .maintain_thread_membership(&uid, &tid, true, true, now_ms());
    Ok(status_ok())
}

/// DELETE /api/v4/users/{user_id}/teams/{team_id}/threads/{thread_id}/following — `api4/user.go`
/// `unfollowThreadByUser` → `App.UpdateThreadFollowForUser(state: false)`: the membership stops
/// following (its read state is kept); without one, a non-following one is created.
pub(crate) fn unfollow_thread(ctx: &mut Ctx) -> HResult {
    let (uid, tid) = thread_route(ctx)?;
    ctx.w
        .maintain_thread_membership(&uid, &tid, false, false, now_ms());
    Ok(status_ok())
}
