//! Drafts: upsert and delete (`api4/drafts.go` `upsertDraft`, `deleteDraft`; `app/draft.go`
//! `UpsertDraft`, `DeleteDraft`), behind `ServiceSettings.AllowSyncedDrafts`.

use serde_json::{Map, Value, json};

use super::decode::{Fields, WrongType, runes, struct_body};
use super::replies::{app_error, created, status_ok};
use crate::clock::now_ms;
use crate::ids::is_valid_id;
use crate::render;
use crate::reply::{AppError, HResult};
use crate::routes::Ctx;
use crate::world::{Draft, MAX_POST_SIZE};

fn disabled() -> AppError {
    app_error(
        501,
        "api.drafts.disabled.app_error",
        "Drafts feature is disabled.",
    )
}

/// POST /api/v4/drafts — `api4/drafts.go` `upsertDraft` → `App.UpsertDraft` →
/// `SqlDraftStore.Upsert`: drafts off → 501; a body that does not decode → 400 `draft`; the
/// draft is the session user's whatever `user_id` says; no `create_post` on the channel (or
/// `create_post_public` for a public one) → 403; an archived channel → 400
/// `api.draft.create_draft.can_not_draft_to_deleted.error`; an empty message deletes the draft
/// and answers 201 `null`; over 16383 characters → 400
/// `model.draft.is_valid.message_length.app_error`; a `root_id` that is not an id → 400
/// `model.draft.is_valid.root_id.app_error` (the root is not looked up). Keyed by (user,
/// channel, root): `create_at` is the client's (or now) for a new draft, `update_at` now. 201
/// with the draft and `metadata` (the files among `file_ids` the user uploaded and has not
/// attached yet).
pub(crate) fn upsert_draft(ctx: &mut Ctx) -> HResult {
    if !ctx.w.settings.allow_synced_drafts {
        return Err(disabled());
    }
    let bad = || AppError::invalid_param("draft");
    let m = struct_body(ctx.body).ok_or_else(bad)?;
    let f = Fields(&m);
    let read = || -> Result<_, WrongType> {
        f.int("update_at")?;
        f.int("delete_at")?;
        f.string("user_id")?;
        Ok((
            f.int("create_at")?,
            f.string("channel_id")?,
            f.string("root_id")?,
            f.string("message")?,
            f.string("type")?,
            f.opt_object("props")?,
            f.opt_strings("file_ids")?,
            f.opt_object("priority")?,
        ))
    };
    let (create_at, channel_id, root_id, message, kind, props, file_ids, priority) =
        read().map_err(|_| bad())?;
    let me = ctx.me.clone();
    if !ctx.w.may_create_post(&me, &channel_id) {
        return Err(AppError::permission());
    }
    let channel = ctx.channel(&channel_id)?;
    if channel.delete_at != 0 {
        return Err(app_error(
            400,
            "api.draft.create_draft.can_not_draft_to_deleted.error",
            "Can not save draft to deleted channel",
        ));
    }
    if message.is_empty() {
        ctx.w
            .drafts
            .retain(|d| !(d.user_id == me && d.channel_id == channel_id && d.root_id == root_id));
        return Ok(created(&Value::Null));
    }
    let now = now_ms();
    let create_at = if create_at == 0 { now } else { create_at };
    if runes(&message) > MAX_POST_SIZE {
        return Err(app_error(
            400,
            "model.draft.is_valid.message_length.app_error",
            "Draft Message property is longer than the maximum permitted length.",
        ));
    }
    if !root_id.is_empty() && !is_valid_id(&root_id) {
        return Err(app_error(
            400,
            "model.draft.is_valid.root_id.app_error",
            "Invalid root id.",
        ));
    }
    let mut ids: Vec<String> = Vec::new();
    for id in file_ids.unwrap_or_default() {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    if runes(&serde_json::to_string(&ids).unwrap_or_default()) > 300 {
        return Err(app_error(
            400,
            "model.draft.is_valid.file_ids.app_error",
            "Invalid file ids.",
        ));
    }
    match ctx
        .w
        .drafts
        .iter_mut()
        .find(|d| d.user_id == me && d.channel_id == channel_id && d.root_id == root_id)
    {
        Some(d) => {
            d.message = message.clone();
            d.update_at = now;
        }
        None => ctx.w.drafts.push(Draft {
            user_id: me.clone(),
            channel_id: channel_id.clone(),
            root_id: root_id.clone(),
            message: message.clone(),
            create_at,
            update_at: now,
        }),
    }
    let files: Vec<Value> = ctx
        .w
        .files
        .iter()
        .filter(|fi| ids.contains(&fi.id) && fi.post_id.is_empty() && fi.creator_id == me)
        .map(render::file_info)
        .collect();
    let mut meta = Map::new();
    if !files.is_empty() {
        meta.insert("files".into(), Value::Array(files));
    }
    let mut out = json!({
        "create_at": create_at,
        "update_at": now,
        "delete_at": 0,
        "user_id": me,
        "channel_id": channel_id,
        "root_id": root_id,
        "message": message,
        "type": kind,
        "props": props.unwrap_or_default(),
    });
    if let Some(o) = out.as_object_mut() {
        if !ids.is_empty() {
            o.insert("file_ids".into(), json!(ids));
        }
        o.insert("metadata".into(), Value::Object(meta));
        if let Some(p) = priority.filter(|p| !p.is_empty()) {
            o.insert("priority".into(), Value::Object(p));
        }
    }
    Ok(created(&out))
}

/// DELETE /api/v4/users/{user_id}/channels/{channel_id}/drafts and
/// `.../drafts/{thread_id}` — `api4/drafts.go` `deleteDraft`: drafts off → 501; the session
/// user's draft of the channel (the root is the `thread_id` path segment, none for the channel's
/// own draft; the path's user id is not read) is deleted; no such draft is a success too.
/// `{"status":"OK"}`.
pub(crate) fn delete_draft(ctx: &mut Ctx) -> HResult {
    if !ctx.w.settings.allow_synced_drafts {
        return Err(disabled());
    }
    let me = ctx.me.clone();
    let channel = ctx.var("channel_id");
    let root = ctx.var("thread_id");
    ctx.w
        .drafts
        .retain(|d| !(d.user_id == me && d.channel_id == channel && d.root_id == root));
    Ok(status_ok())
}
