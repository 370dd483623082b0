//! File uploads: `POST /api/v4/files` (`api4/file.go` `uploadFileStream` with
//! `uploadFileMultipart`, `uploadFileMultipartLegacy` and `uploadFileSimple` → `App.UploadFileX`),
//! with a multipart reader that refuses malformed bodies the way Go's `mime/multipart` does (400
//! `api.file.upload_file.read_request.app_error`), never by panicking.

use serde_json::{Value, json};

use super::replies::{app_error, created, invalid};
use crate::clock::now_ms;
use crate::ids::is_valid_id;
use crate::render;
use crate::reply::{AppError, HResult};
use crate::routes::Ctx;
use crate::world::FileInfo;
use crate::world::perms::Perm;

/// `api4/file.go` `maxMultipartFormDataBytes`: a form value is read up to 10 KiB.
const MAX_FORM_VALUE: usize = 10 * 1024;
/// `bytes.MinRead`: the request body may exceed `MaxFileSize` by this much.
const MIN_READ: i64 = 512;

/// One part of a `multipart/form-data` body.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Part {
    /// The `name` of a `form-data` disposition ("" otherwise).
    pub(crate) name: String,
    /// `Part.FileName`: the base name of `filename`, "" when there is none.
    pub(crate) filename: String,
    pub(crate) data: Vec<u8>,
}

/// Splits `s` on `;` outside quoted strings and reads `key=value` pairs (`mime.ParseMediaType`'s
/// parameters): the value before the first `;` (lowercase) and the parameters (keys lowercase),
/// or None when malformed.
fn with_params(s: &str) -> Option<(String, Vec<(String, String)>)> {
    let mut pieces: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            cur.push(c);
            escaped = false;
            continue;
        }
        match c {
            '\\' if quoted => escaped = true,
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            ';' if !quoted => pieces.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if quoted {
        return None;
    }
    pieces.push(cur);
    let kind = pieces.first()?.trim().to_ascii_lowercase();
    if kind.is_empty() {
        return None;
    }
    let mut params = Vec::new();
    for p in pieces.iter().skip(1) {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        let (k, v) = p.split_once('=')?;
        let k = k.trim().to_ascii_lowercase();
        let v = v.trim();
        if k.is_empty() {
            return None;
        }
        let v = match v.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
            Some(inner) => inner.to_string(),
            None => v.to_string(),
        };
        params.push((k, v));
    }
    Some((kind, params))
}

/// `mime.ParseMediaType`: a `type/subtype` with parameters.
fn media_type(s: &str) -> Option<(String, Vec<(String, String)>)> {
    with_params(s).filter(|(kind, _)| kind.contains('/'))
}

/// `parseMultipartRequestHeader`: Ok(Some(boundary)) for `multipart/form-data`, Ok(None) when the
/// body is not multipart (the simple upload), Err when the boundary is missing.
pub(crate) fn multipart_boundary(content_type: Option<&str>) -> Result<Option<String>, ()> {
    let Some((kind, params)) = content_type.and_then(media_type) else {
        return Ok(None);
    };
    if kind != "multipart/form-data" {
        return Ok(None);
    }
    match params.into_iter().find(|(k, _)| k == "boundary") {
        Some((_, b)) if !b.is_empty() => Ok(Some(b)),
        _ => Err(()),
    }
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || from > hay.len() {
        return None;
    }
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

/// The end of the line starting at `at` (the index after its `\n`), or None.
fn line_end(body: &[u8], at: usize) -> Option<usize> {
    find(body, b"\n", at).map(|i| i + 1)
}

/// `filepath.Base` of a file name (the last `/` segment).
fn base_name(name: &str) -> String {
    let trimmed = name.trim_end_matches('/');
    match trimmed.rsplit_once('/') {
        Some((_, last)) => last.to_string(),
        None if trimmed.is_empty() && !name.is_empty() => "/".to_string(),
        None => trimmed.to_string(),
    }
}

/// Reads every part of a `multipart/form-data` body (`multipart.Reader.NextPart` until the
/// closing delimiter); None for a body that is not well formed (no opening or closing delimiter,
/// a part without the blank line ending its headers, a malformed header).
pub(crate) fn parse_multipart(body: &[u8], boundary: &str) -> Option<Vec<Part>> {
    let delim = format!("--{boundary}").into_bytes();
    let mut pos = if body.starts_with(&delim) {
        0
    } else {
        let mut nl = delim.clone();
        nl.insert(0, b'\n');
        find(body, &nl, 0)? + 1
    };
    let mut parts = Vec::new();
    loop {
        let after = pos + delim.len();
        let rest = body.get(after..)?;
        if rest.starts_with(b"--") {
            return Some(parts);
        }
        let eol = line_end(body, after)?;
        let tail = std::str::from_utf8(&body[after..eol]).ok()?;
        if !tail.trim_matches([' ', '\t', '\r', '\n']).is_empty() {
            return None;
        }
        let mut headers: Vec<(String, String)> = Vec::new();
        let mut at = eol;
        loop {
            let end = line_end(body, at)?;
            let line = std::str::from_utf8(&body[at..end]).ok()?;
            let line = line.trim_end_matches(['\r', '\n']);
            at = end;
            if line.is_empty() {
                break;
            }
            let (k, v) = line.split_once(':')?;
            if k.is_empty() || k.contains(' ') {
                return None;
            }
            headers.push((k.to_ascii_lowercase(), v.trim().to_string()));
        }
        let mut next = delim.clone();
        next.insert(0, b'\n');
        let found = find(body, &next, at)?;
        let data_end = if found > at && body[found - 1] == b'\r' {
            found - 1
        } else {
            found
        };
        let data = body.get(at..data_end.max(at))?.to_vec();
        let (mut name, mut filename) = (String::new(), String::new());
        if let Some((_, cd)) = headers.iter().find(|(k, _)| k == "content-disposition")
            && let Some((kind, params)) = with_params(cd)
        {
            let get = |key: &str| {
                params
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default()
            };
            if kind == "form-data" {
                name = get("name");
            }
            let f = get("filename");
            if !f.is_empty() {
                filename = base_name(&f);
            }
        }
        parts.push(Part {
            name,
            filename,
            data,
        });
        pos = found + 1;
    }
}

/// `mime.TypeByExtension` with Go's built-in table plus the usual system `mime.types` entries
/// (text types get `; charset=utf-8`, as Go adds it); unknown extensions have no type ("").
fn mime_type(extension: &str) -> &'static str {
    match extension {
        "avif" => "image/avif",
        "css" => "text/css; charset=utf-8",
        "gif" => "image/gif",
        "htm" | "html" => "text/html; charset=utf-8",
        "jpeg" | "jpg" => "image/jpeg",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "wasm" => "application/wasm",
        "webp" => "image/webp",
        "xml" => "text/xml; charset=utf-8",
        "txt" | "text" | "log" => "text/plain; charset=utf-8",
        "csv" => "text/csv; charset=utf-8",
        "md" | "markdown" => "text/markdown; charset=utf-8",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "mp3" => "audio/mpeg",
        "mp4" => "video/mp4",
        _ => "",
    }
}

/// `App.UploadFileX` for one file: over `MaxFileSize` → 413
/// `api.file.upload_file.too_large_detailed.app_error`; else a FileInfo (not attached: no
/// `post_id`) created now by the user in the channel.
fn upload_one(
    ctx: &mut Ctx,
    channel_id: &str,
    name: &str,
    data: &[u8],
    now: i64,
) -> Result<Value, AppError> {
    let max = ctx.w.writes.max_file_size;
    let name = base_name(name);
    if data.len() as i64 > max {
        return Err(app_error(
            413,
            "api.file.upload_file.too_large_detailed.app_error",
            &format!(
                "Unable to upload file {name}. {} bytes exceeds the maximum allowed {max} bytes.",
                data.len()
            ),
        ));
    }
    let extension = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let info = FileInfo {
        id: ctx.w.fresh_id(),
        creator_id: ctx.me.clone(),
        post_id: String::new(),
        channel_id: channel_id.to_string(),
        create_at: now,
        update_at: now,
        delete_at: 0,
        mime_type: mime_type(&extension).to_string(),
        extension,
        name,
        content: data.to_vec(),
    };
    let v = render::file_info(&info);
    ctx.w.files.push(info);
    Ok(v)
}

fn read_request() -> AppError {
    app_error(
        400,
        "api.file.upload_file.read_request.app_error",
        "Unable to upload file(s). Error reading or parsing request data.",
    )
}

/// The checks before storing a file in a channel: a valid channel id (400 `invalid_url_param`)
/// and `upload_file` on it (403; an unknown channel too).
fn check_channel(ctx: &Ctx, channel_id: &str) -> Result<(), AppError> {
    if !is_valid_id(channel_id) {
        return Err(AppError::invalid_url_param("channel_id"));
    }
    if !ctx
        .w
        .has_channel_permission(&ctx.me, channel_id, Perm::UploadFile)
        .0
    {
        return Err(AppError::permission());
    }
    Ok(())
}

/// POST /api/v4/files — `api4/file.go` `uploadFileStream`. Attachments off → 403
/// `api.file.attachments.disabled.app_error`; an empty body → 400
/// `api.file.upload_file.read_request.app_error`; a body over `MaxFileSize` + 512 bytes → 413.
///
/// `multipart/form-data` (`uploadFileMultipart`): `channel_id` as a query parameter or a form
/// field before the files (both and different → 400
/// `api.file.upload_file.multiple_channel_ids.app_error`), optional `client_ids` fields before the
/// files (one per file, else 400 `client_ids` or
/// `api.file.upload_file.incorrect_number_of_client_ids.app_error`), any other field → 400, then
/// one or more file parts (any field name); without a channel before the first file, the
/// buffered form is read instead (`uploadFileMultipartLegacy`: `channel_id` anywhere, files only
/// under `files`). Another body is the simple upload (`uploadFileSimple`: `channel_id` and
/// `filename` query parameters, the body is the file). Per file: a valid channel id, `upload_file`
/// on it (403), at most `MaxFileSize` (413 `api.file.upload_file.too_large_detailed.app_error`).
/// Answers 201 `{file_infos, client_ids}`; the files stay unattached until a post takes them.
pub(crate) fn upload_files(ctx: &mut Ctx) -> HResult {
    if !ctx.w.writes.enable_file_attachments {
        return Err(app_error(
            403,
            "api.file.attachments.disabled.app_error",
            "File attachments have been disabled on this server.",
        ));
    }
    if ctx.body.is_empty() {
        return Err(read_request());
    }
    if ctx.body.len() as i64 > ctx.w.writes.max_file_size.saturating_add(MIN_READ) {
        return Err(app_error(
            413,
            "api.context.request_body_too_large.app_error",
            "Request body is too large.",
        ));
    }
    let content_type = ctx
        .headers
        .iter()
        .find(|(k, _)| k == "content-type")
        .map(|(_, v)| v.clone());
    let now = now_ms();
    let query_channel = ctx.q("channel_id").unwrap_or("").to_string();
    let boundary = multipart_boundary(content_type.as_deref()).map_err(|_| read_request())?;
    let Some(boundary) = boundary else {
        return upload_simple(ctx, &query_channel, now);
    };
    let parts = parse_multipart(ctx.body, &boundary).ok_or_else(read_request)?;
    let mut channel = query_channel;
    if channel.is_empty() {
        // The first pass: a file before any channel_id field means the buffered (legacy) form;
        // a channel_id field makes the server read the body again from the start with it.
        for p in parts.iter().filter(|p| !p.name.is_empty()) {
            if !p.filename.is_empty() {
                return upload_legacy(ctx, &parts, now);
            }
            match p.name.as_str() {
                "channel_id" => {
                    channel = value_of(p);
                    break;
                }
                "client_ids" => {}
                other => return Err(invalid(other)),
            }
        }
    }
    let mut client_ids: Vec<String> = Vec::new();
    let mut expect_client_ids = true;
    let (mut infos, mut ids_out) = (Vec::new(), Vec::new());
    for p in parts.iter().filter(|p| !p.name.is_empty()) {
        if p.filename.is_empty() {
            match p.name.as_str() {
                "channel_id" => {
                    let v = value_of(p);
                    if !channel.is_empty() && channel != v {
                        return Err(app_error(
                            400,
                            "api.file.upload_file.multiple_channel_ids.app_error",
                            "Unable to upload file(s). Multiple conflicting channel_ids.",
                        ));
                    }
                    if !v.is_empty() {
                        channel = v;
                    }
                }
                "client_ids" => {
                    if !expect_client_ids {
                        return Err(invalid("client_ids"));
                    }
                    client_ids.push(value_of(p));
                }
                other => return Err(invalid(other)),
            }
            continue;
        }
        check_channel(ctx, &channel)?;
        if infos.is_empty() && client_ids.is_empty() {
            expect_client_ids = false;
        }
        let mut client_id = String::new();
        if expect_client_ids {
            match client_ids.get(infos.len()) {
                Some(c) => client_id = c.clone(),
                None => return Err(invalid("client_ids")),
            }
        }
        infos.push(upload_one(ctx, &channel, &p.filename, &p.data, now)?);
        if expect_client_ids {
            ids_out.push(client_id);
        }
    }
    if expect_client_ids && client_ids.len() != infos.len() {
        return Err(incorrect_client_ids(client_ids.len(), infos.len()));
    }
    Ok(created(
        &json!({"file_infos": infos, "client_ids": ids_out}),
    ))
}

fn incorrect_client_ids(ids: usize, files: usize) -> AppError {
    app_error(
        400,
        "api.file.upload_file.incorrect_number_of_client_ids.app_error",
        &format!("Unable to upload file(s). Have {ids} client_ids for {files} files."),
    )
}

/// A form value as the server reads it: at most the first 10 KiB.
fn value_of(p: &Part) -> String {
    let end = p.data.len().min(MAX_FORM_VALUE);
    String::from_utf8_lossy(&p.data[..end]).into_owned()
}

/// `uploadFileMultipartLegacy`: the whole form; `channel_id` is its first value (400 when none),
/// the files are the parts named `files`, `client_ids` either absent or one per file.
fn upload_legacy(ctx: &mut Ctx, parts: &[Part], now: i64) -> HResult {
    let channel = parts
        .iter()
        .find(|p| p.name == "channel_id" && p.filename.is_empty())
        .map(value_of)
        .ok_or_else(|| invalid("channel_id"))?;
    check_channel(ctx, &channel)?;
    let client_ids: Vec<String> = parts
        .iter()
        .filter(|p| p.name == "client_ids" && p.filename.is_empty())
        .map(value_of)
        .collect();
    let files: Vec<&Part> = parts
        .iter()
        .filter(|p| p.name == "files" && !p.filename.is_empty())
        .collect();
    if !client_ids.is_empty() && client_ids.len() != files.len() {
        return Err(incorrect_client_ids(client_ids.len(), files.len()));
    }
    let (mut infos, mut ids_out) = (Vec::new(), Vec::new());
    for (i, f) in files.iter().enumerate() {
        infos.push(upload_one(ctx, &channel, &f.filename, &f.data, now)?);
        if let Some(c) = client_ids.get(i).filter(|c| !c.is_empty()) {
            ids_out.push(c.clone());
        }
    }
    Ok(created(
        &json!({"file_infos": infos, "client_ids": ids_out}),
    ))
}

/// `uploadFileSimple`: `channel_id` and `filename` from the query, the body is the file, the
/// optional `client_id` query value is echoed (`client_ids` is `null` without it).
fn upload_simple(ctx: &mut Ctx, channel: &str, now: i64) -> HResult {
    if !is_valid_id(channel) {
        return Err(AppError::invalid_url_param("channel_id"));
    }
    let filename = ctx.q("filename").unwrap_or("").to_string();
    if filename.is_empty() {
        return Err(AppError::invalid_url_param("filename"));
    }
    check_channel(ctx, channel)?;
    let client_id = ctx.q("client_id").unwrap_or("").to_string();
    let body = ctx.body.to_vec();
    let info = upload_one(ctx, channel, &filename, &body, now)?;
    let ids = if client_id.is_empty() {
        Value::Null
    } else {
        json!([client_id])
    };
    Ok(created(&json!({"file_infos": [info], "client_ids": ids})))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries() {
        assert_eq!(
            multipart_boundary(Some("multipart/form-data; boundary=xyz")),
            Ok(Some("xyz".into()))
        );
        assert_eq!(
            multipart_boundary(Some("Multipart/Form-Data; charset=utf-8; boundary=\"a b\"")),
            Ok(Some("a b".into()))
        );
        assert_eq!(multipart_boundary(Some("multipart/form-data")), Err(()));
        assert_eq!(
            multipart_boundary(Some("application/octet-stream")),
            Ok(None)
        );
        assert_eq!(multipart_boundary(None), Ok(None));
        assert_eq!(multipart_boundary(Some("garbage")), Ok(None));
    }

    #[test]
    fn parses_parts_and_refuses_garbage() {
        let body = b"preamble\r\n--b\r\nContent-Disposition: form-data; name=\"channel_id\"\r\n\r\nabc\r\n--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"dir/a.txt\"\r\nContent-Type: text/plain\r\n\r\nline1\r\nline2\r\n--b--\r\n";
        let parts = parse_multipart(body, "b").unwrap();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].name, "channel_id");
        assert_eq!(parts[0].data, b"abc");
        assert_eq!(parts[1].filename, "a.txt");
        assert_eq!(parts[1].data, b"line1\r\nline2");
        for bad in [
            &b""[..],
            b"no delimiter at all",
            b"--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nnever closed",
            b"--b\r\nbroken header line\r\n\r\nx\r\n--b--",
            b"--b\r\nContent-Disposition: form-data; name=\"x\"",
            b"--bogus-trailer\r\n\r\nx\r\n--b--",
        ] {
            assert!(
                parse_multipart(bad, "b").is_none(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
        assert_eq!(parse_multipart(b"--b--", "b"), Some(vec![]));
    }

    #[test]
    fn base_names() {
        assert_eq!(base_name("a/b/c.txt"), "c.txt");
        assert_eq!(base_name("c.txt"), "c.txt");
        assert_eq!(base_name("a/"), "a");
    }
}
