//! Files: info, content, the infos of a post (notes §9; `api4/file.go`).

use super::{Ctx, array};
use crate::params::parse_bool;
use crate::render;
use crate::reply::{AppError, HResult, Reply};
use crate::world::FileInfo;

fn file_not_found() -> AppError {
    AppError::not_found(
        "app.file_info.get.app_error",
        "Unable to get the file info.",
    )
}

/// `GetFileInfo` then the read check: the uploader, or anyone who may read the channel.
fn readable_file(ctx: &Ctx) -> Result<FileInfo, AppError> {
    let id = ctx.require_id("file_id")?;
    let f = ctx
        .w
        .files
        .iter()
        .find(|f| f.id == id && f.delete_at == 0)
        .cloned()
        .ok_or_else(file_not_found)?;
    let c = ctx.channel(&f.channel_id)?;
    if f.creator_id != ctx.me && !ctx.w.can_read_channel(&ctx.me, &c) {
        return Err(AppError::permission());
    }
    Ok(f)
}

/// GET /api/v4/files/{file_id}/info
// Mirrors server/channels/api4/file.go getFileInfo → app/file.go GetFileInfo →
// store/sqlstore/file_info_store.go Get
pub(crate) fn info(ctx: &mut Ctx) -> HResult {
    let f = readable_file(ctx)?;
    Ok(Reply::json(&render::file_info(&f)).header("Cache-Control", "max-age=2592000, private"))
}

/// GET /api/v4/files/{file_id} — the bytes, as `web.WriteFileResponse` sends them (attachment
/// unless an inline-able type, `X-Content-Type-Options: nosniff`).
// Mirrors server/channels/api4/file.go getFile → app/file.go GetFileInfo, GetFile →
// web.WriteFileResponse
pub(crate) fn content(ctx: &mut Ctx) -> HResult {
    let f = readable_file(ctx)?;
    // platform/shared/web/files.go setHeaders: the stored type, scripts and HTML as text/plain,
    // only these media types inline
    let media = [
        "image/jpeg",
        "image/png",
        "image/bmp",
        "image/gif",
        "image/tiff",
        "image/webp",
        "video/avi",
        "video/mpeg",
        "video/mp4",
        "audio/mpeg",
        "audio/wav",
    ];
    let unsafe_types = [
        "application/javascript",
        "application/ecmascript",
        "text/javascript",
        "text/ecmascript",
        "application/x-javascript",
        "text/html",
    ];
    let inline = media.iter().any(|m| f.mime_type.starts_with(m));
    let download = parse_bool(ctx.q("download"));
    let disposition = if inline && !download {
        format!(
            "inline;filename=\"{}\"; filename*=UTF-8''{}",
            f.name, f.name
        )
    } else {
        format!(
            "attachment;filename=\"{}\"; filename*=UTF-8''{}",
            f.name, f.name
        )
    };
    let ct = if f.mime_type.is_empty() {
        "application/octet-stream".to_string()
    } else if unsafe_types.iter().any(|u| f.mime_type.starts_with(u)) {
        "text/plain".to_string()
    } else {
        f.mime_type.clone()
    };
    Ok(Reply::raw(200, &ct, f.content.clone())
        .header("Content-Disposition", &disposition)
        .header("X-Content-Type-Options", "nosniff")
        .header("Cache-Control", "private, max-age=86400")
        .header("X-Frame-Options", "DENY")
        .header("Content-Security-Policy", "Frame-ancestors 'none'"))
}

/// GET /api/v4/posts/{post_id}/files/info — the whole list `ORDER BY CreateAt`; `include_deleted`
/// needs an admin; ETag `Etag(post_id, max UpdateAt)`.
// Mirrors server/channels/api4/post.go getFileInfosForPost → app/file.go
// GetFileInfosForPostWithMigration → store/sqlstore/file_info_store.go GetForPost
pub(crate) fn infos_for_post(ctx: &mut Ctx) -> HResult {
    let pid = ctx.require_id("post_id")?;
    let Some(post) = ctx.w.post_by_id(&pid).cloned() else {
        return Err(AppError::permission());
    };
    let c = ctx.channel(&post.channel_id)?;
    if !ctx.w.can_read_channel(&ctx.me, &c) {
        return Err(AppError::permission());
    }
    let include_deleted = parse_bool(ctx.q("include_deleted"));
    if include_deleted && !ctx.is_admin() {
        return Err(AppError::permission());
    }
    let mut infos: Vec<FileInfo> = ctx
        .w
        .files
        .iter()
        .filter(|f| f.post_id == pid && (include_deleted || f.delete_at == 0))
        .cloned()
        .collect();
    ctx.rng.sort_ties_shuffled(&mut infos, |f| f.create_at);
    let etag = if infos.is_empty() {
        render::etag(&[])
    } else {
        let max = infos.iter().map(|f| f.update_at).max().unwrap_or(0);
        render::etag(&[infos[0].post_id.clone(), max.to_string()])
    };
    if ctx.etag_matches(&etag) {
        return Ok(Reply::not_modified(&etag));
    }
    Ok(array(infos.iter().map(render::file_info).collect())
        .header("Cache-Control", "max-age=2592000, private")
        .header("ETag", &etag))
}
