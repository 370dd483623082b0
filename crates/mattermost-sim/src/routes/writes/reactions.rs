//! Reactions: save and delete (`api4/reaction.go` `saveReaction`, `deleteReaction`;
//! `app/reaction.go` `SaveReactionForPost`, `DeleteReactionForPost`).

use serde_json::json;

use super::decode::{Fields, WrongType, struct_body};
use super::replies::{app_error, status_ok};
use crate::clock::now_ms;
use crate::ids::is_valid_id;
use crate::reply::{AppError, HResult, Reply};
use crate::routes::Ctx;
use crate::world::World;
use crate::world::emoji::is_system_emoji;
use crate::world::perms::Perm;

/// `model.EmojiNameMaxLength`.
const EMOJI_NAME_MAX_LENGTH: usize = 64;
/// `ServiceSettings.UniqueEmojiReactionLimitPerPost` default.
const UNIQUE_REACTIONS_PER_POST: usize = 50;

/// `GetEmojiByName` for a name that is not a system emoji: custom emoji off → 403
/// `api.emoji.disabled.app_error`; unknown → 404 `app.emoji.get_by_name.no_result`.
pub(crate) fn custom_emoji_exists(w: &World, name: &str) -> Result<(), AppError> {
    if !w.settings.enable_custom_emoji {
        return Err(app_error(
            403,
            "api.emoji.disabled.app_error",
            "Custom emoji have been disabled by the system admin.",
        ));
    }
    if w.emoji.iter().any(|e| e.name == name) {
        Ok(())
    } else {
        Err(app_error(
            404,
            "app.emoji.get_by_name.no_result",
            "We couldn’t find the emoji.",
        ))
    }
}

/// `^[a-zA-Z0-9\-\+_]+$` (`Reaction.IsValid`, `RequireEmojiName`).
fn valid_emoji_chars(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-+_".contains(&b))
}

/// POST /api/v4/reactions — `api4/reaction.go` `saveReaction` → `App.SaveReactionForPost`.
/// `{user_id, post_id, emoji_name}`: ids not valid or the name empty or over 64 bytes → 400
/// `api.reaction.save_reaction.invalid.app_error`; another user's id → 403
/// `api.reaction.save_reaction.user_id.app_error`; no `add_reaction` on the post's channel → 403;
/// a deleted post → 404; a name that is neither a system emoji nor a custom one → 404 (403 with
/// custom emoji off); a new emoji past 50 distinct ones → 400
/// `app.reaction.save.save.too_many_reactions`; an archived channel → 403. Saving again is an
/// upsert. The post gets `has_reactions` and a new UpdateAt. Answers the reaction (200).
pub(crate) fn save_reaction(ctx: &mut Ctx) -> HResult {
    let m = struct_body(ctx.body).ok_or_else(|| AppError::invalid_param("reaction"))?;
    let f = Fields(&m);
    let read = || -> Result<_, WrongType> {
        f.int("update_at")?;
        f.int("delete_at")?;
        f.string("channel_id")?;
        f.opt_string("remote_id")?;
        Ok((
            f.string("user_id")?,
            f.string("post_id")?,
            f.string("emoji_name")?,
            f.int("create_at")?,
        ))
    };
    let (user_id, post_id, emoji, create_at) =
        read().map_err(|_| AppError::invalid_param("reaction"))?;
    if !is_valid_id(&user_id)
        || !is_valid_id(&post_id)
        || emoji.is_empty()
        || emoji.len() > EMOJI_NAME_MAX_LENGTH
    {
        return Err(app_error(
            400,
            "api.reaction.save_reaction.invalid.app_error",
            "Reaction is not valid.",
        ));
    }
    if user_id != ctx.me {
        return Err(app_error(
            403,
            "api.reaction.save_reaction.user_id.app_error",
            "You cannot save reaction for the other user.",
        ));
    }
    if !ctx
        .w
        .has_channel_permission_by_post(&ctx.me, &post_id, Perm::AddReaction)
    {
        return Err(AppError::permission());
    }
    let post = ctx.live_post(&post_id)?;
    if !is_system_emoji(&emoji) {
        custom_emoji_exists(ctx.w, &emoji)?;
    }
    let exists = ctx
        .w
        .reactions
        .iter()
        .any(|r| r.post_id == post_id && r.emoji_name == emoji);
    if !exists {
        let mut distinct: Vec<&str> = ctx
            .w
            .reactions
            .iter()
            .filter(|r| r.post_id == post_id)
            .map(|r| r.emoji_name.as_str())
            .collect();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() >= UNIQUE_REACTIONS_PER_POST {
            return Err(app_error(
                400,
                "app.reaction.save.save.too_many_reactions",
                "Reaction limit has been reached for this post.",
            ));
        }
    }
    if ctx
        .w
        .channel_by_id(&post.channel_id)
        .is_some_and(|c| c.delete_at > 0)
    {
        return Err(app_error(
            403,
            "api.reaction.save.archived_channel.app_error",
            "You cannot react in an archived channel.",
        ));
    }
    if !valid_emoji_chars(&emoji) {
        return Err(app_error(
            400,
            "model.reaction.is_valid.emoji_name.app_error",
            "Invalid emoji name.",
        ));
    }
    let now = now_ms();
    let create_at = if create_at == 0 { now } else { create_at };
    ctx.w
        .save_reaction(&ctx.me, &post_id, &emoji, create_at, now);
    Ok(Reply::json(&json!({
        "user_id": ctx.me,
        "post_id": post_id,
        "emoji_name": emoji,
        "create_at": create_at,
        "update_at": now,
        "delete_at": 0,
        "remote_id": "",
        "channel_id": post.channel_id,
    })))
}

/// DELETE /api/v4/users/{user_id}/posts/{post_id}/reactions/{emoji_name} — `api4/reaction.go`
/// `deleteReaction` → `App.DeleteReactionForPost`: the name must match `[a-zA-Z0-9+_-]`, at most
/// 64 (400 `invalid_url_param`); no `remove_reaction` on the post's channel → 403; another
/// user's reaction needs `remove_others_reactions` (system admins) → 403; a deleted post → 404;
/// an archived channel → 403 `api.reaction.delete.archived_channel.app_error`. Removing a
/// reaction that is not there succeeds; either way the post gets a new UpdateAt.
pub(crate) fn delete_reaction(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    let pid = ctx.require_id("post_id")?;
    let emoji = ctx.var("emoji_name");
    if !valid_emoji_chars(&emoji) || emoji.len() > EMOJI_NAME_MAX_LENGTH {
        return Err(AppError::invalid_url_param("emoji_name"));
    }
    if !ctx
        .w
        .has_channel_permission_by_post(&ctx.me, &pid, Perm::RemoveReaction)
    {
        return Err(AppError::permission());
    }
    if uid != ctx.me && !ctx.w.has_permission(&ctx.me, Perm::RemoveOthersReactions) {
        return Err(AppError::permission());
    }
    let post = ctx.live_post(&pid)?;
    if ctx
        .w
        .channel_by_id(&post.channel_id)
        .is_some_and(|c| c.delete_at > 0)
    {
        return Err(app_error(
            403,
            "api.reaction.delete.archived_channel.app_error",
            "You cannot remove a reaction in an archived channel.",
        ));
    }
    ctx.w.delete_reaction(&uid, &pid, &emoji, now_ms());
    Ok(status_ok())
}
