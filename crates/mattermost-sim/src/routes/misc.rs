//! System ping, client config (`format=old`), custom emoji (notes §9; `api4/system.go`,
//! `api4/config.go`, `api4/emoji.go`).

use serde_json::{Map, Value, json};

use super::{Ctx, array, page_slice};
use crate::render::{self, BUILD_HASH, BUILD_NUMBER};
use crate::reply::{AppError, HResult, Reply};
use crate::world::Emoji;

/// GET /api/v4/system/ping — no session needed.
// Mirrors server/channels/api4/system.go getSystemPing
pub(crate) fn ping(_ctx: &mut Ctx) -> HResult {
    Ok(Reply::json(&json!({
        "ActiveSearchBackend": "database",
        "AndroidLatestVersion": "",
        "AndroidMinVersion": "",
        "IosLatestVersion": "",
        "IosMinVersion": "",
        "status": "OK"
    })))
}

/// GET /api/v4/config/client — `format` missing → 501, anything but `old` → 400; a map of strings
/// (a limited one without a session).
// Mirrors server/channels/api4/config.go getClientConfig → config.GenerateLimitedClientConfig /
// GenerateClientConfig
pub(crate) fn client_config(ctx: &mut Ctx) -> HResult {
    match ctx.q("format") {
        None | Some("") => {
            return Err(AppError::new(
                501,
                "api.config.client.old_format.app_error",
                "New format for the client configuration is not supported yet. Please specify format=old in the query string.",
            ));
        }
        Some("old") => {}
        Some(_) => return Err(AppError::invalid_param("format")),
    }
    let b = |v: bool| if v { "true" } else { "false" }.to_string();
    let mut m = Map::new();
    let mut put = |k: &str, v: String| {
        m.insert(k.to_string(), Value::String(v));
    };
    put("Version", ctx.w.settings.release.clone());
    put("BuildNumber", BUILD_NUMBER.to_string());
    put("BuildDate", "Thu Apr  9 12:00:00 UTC 2026".to_string());
    put("BuildHash", BUILD_HASH.to_string());
    put("BuildEnterpriseReady", "false".to_string());
    put("SiteURL", ctx.site_url.clone());
    put("SiteName", "Mattermost".to_string());
    put("DiagnosticsEnabled", "false".to_string());
    put("EnableSignUpWithEmail", "true".to_string());
    put("NoAccounts", "false".to_string());
    if !ctx.me.is_empty() {
        put("MaxPostSize", "16383".to_string());
        put("MaxFileSize", ctx.w.writes.max_file_size.to_string());
        put("EnableCustomEmoji", b(ctx.w.settings.enable_custom_emoji));
        put("AllowSyncedDrafts", b(ctx.w.settings.allow_synced_drafts));
        put(
            "EnableFileAttachments",
            b(ctx.w.writes.enable_file_attachments),
        );
        put("EnablePublicLink", "false".to_string());
        put("ExperimentalViewArchivedChannels", "true".to_string());
        put("CollapsedThreads", ctx.w.settings.collapsed_threads.clone());
        put("PostEditTimeLimit", "-1".to_string());
        put("ShowEmailAddress", "true".to_string());
        put("ShowFullName", "true".to_string());
        put("TeammateNameDisplay", "username".to_string());
        put("EnableBotAccountCreation", "true".to_string());
        put("EnableUserStatuses", "true".to_string());
        put(
            "EnableCustomUserStatuses",
            b(ctx.w.writes.enable_custom_user_statuses),
        );
        put("UniqueEmojiReactionLimitPerPost", "50".to_string());
        put(
            "ExperimentalEnableDefaultChannelLeaveJoinMessages",
            "true".to_string(),
        );
        put("PostPriority", "true".to_string());
        put("FeatureFlagPostPriority", "true".to_string());
        put("EnablePostSearch", "true".to_string());
        put("EnableFileSearch", "true".to_string());
        put("ServiceEnvironment", "production".to_string());
    }
    Ok(Reply::json(&Value::Object(m)))
}

fn require_custom_emoji(ctx: &Ctx) -> Result<(), AppError> {
    if ctx.w.settings.enable_custom_emoji {
        Ok(())
    } else {
        Err(AppError::new(
            501,
            "api.emoji.disabled.app_error",
            "Custom emoji have been disabled by the system admin.",
        ))
    }
}

/// GET /api/v4/emoji — OFFSET paging; no ORDER BY unless `sort=name`; any other sort → 400.
// Mirrors server/channels/api4/emoji.go getEmojiList → app/emoji.go GetEmojiList →
// store/sqlstore/emoji_store.go GetList
pub(crate) fn emoji_list(ctx: &mut Ctx) -> HResult {
    require_custom_emoji(ctx)?;
    let sort = ctx.q("sort").unwrap_or("").to_string();
    if !sort.is_empty() && sort != "name" {
        return Err(AppError::invalid_url_param("sort"));
    }
    let mut list: Vec<Emoji> = ctx.w.emoji.clone();
    if sort == "name" {
        list.sort_by(|a, b| a.name.cmp(&b.name));
    } else {
        ctx.rng.shuffle(&mut list);
    }
    let page = page_slice(&list, ctx.paging.page, ctx.paging.per_page);
    Ok(array(page.iter().map(render::emoji).collect()))
}

/// GET /api/v4/emoji/name/{emoji_name}
// Mirrors server/channels/api4/emoji.go getEmojiByName → app/emoji.go GetEmojiByName →
// store/sqlstore/emoji_store.go GetByName
pub(crate) fn emoji_by_name(ctx: &mut Ctx) -> HResult {
    require_custom_emoji(ctx)?;
    let name = ctx.var("emoji_name");
    if name.len() > 64 {
        return Err(AppError::invalid_url_param("emoji_name"));
    }
    let e = ctx.w.emoji.iter().find(|e| e.name == name).ok_or_else(|| {
        AppError::not_found(
            "app.emoji.get_by_name.no_result",
            "Unable to find the emoji.",
        )
    })?;
    Ok(Reply::json(&render::emoji(e)))
}

/// GET /api/v4/emoji/{emoji_id}
// Mirrors server/channels/api4/emoji.go getEmoji → app/emoji.go GetEmoji →
// store/sqlstore/emoji_store.go Get
pub(crate) fn emoji_get(ctx: &mut Ctx) -> HResult {
    require_custom_emoji(ctx)?;
    let id = ctx.require_id("emoji_id")?;
    let e = ctx.w.emoji.iter().find(|e| e.id == id).ok_or_else(|| {
        AppError::not_found("app.emoji.get.no_result", "Unable to find the emoji.")
    })?;
    Ok(Reply::json(&render::emoji(e)))
}
