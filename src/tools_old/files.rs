//! Files: search (capped as post search is) and a text file's content, read by lines like any list.

use crate::context::{Ctx, Input, Output};
use crate::error::{ToolError, quote};
use crate::ids::is_id;
use crate::mattermost::{send, types::FileInfo};
use crate::paging::search_capped::{self, Search};
use crate::paging::whole_list::{self, After};
use crate::paging::{Page, file_lines};
use crate::summary;
use crate::tools::posts::{channel_labels, search_team};
use serde_json::json;

/// The largest file `read_file` reads.
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

/// Media types of text beyond `text/*`.
const TEXT_TYPES: &[&str] = &[
    "application/json",
    "application/ld+json",
    "application/x-ndjson",
    "application/xml",
    "application/yaml",
    "application/x-yaml",
    "application/toml",
    "application/javascript",
    "application/x-javascript",
    "application/typescript",
    "application/x-sh",
    "application/sql",
    "application/csv",
    "application/x-httpd-php",
    "image/svg+xml",
];

/// Extensions of text files whatever type they were uploaded as.
const TEXT_EXTENSIONS: &[&str] = &[
    "txt",
    "text",
    "md",
    "markdown",
    "rst",
    "adoc",
    "tex",
    "csv",
    "tsv",
    "json",
    "jsonl",
    "ndjson",
    "yaml",
    "yml",
    "toml",
    "ini",
    "cfg",
    "conf",
    "env",
    "properties",
    "xml",
    "html",
    "htm",
    "css",
    "scss",
    "js",
    "mjs",
    "ts",
    "jsx",
    "tsx",
    "vue",
    "py",
    "rb",
    "php",
    "pl",
    "lua",
    "r",
    "go",
    "rs",
    "java",
    "kt",
    "scala",
    "swift",
    "c",
    "h",
    "cc",
    "cpp",
    "hpp",
    "cs",
    "m",
    "sh",
    "bash",
    "zsh",
    "ps1",
    "bat",
    "sql",
    "graphql",
    "proto",
    "log",
    "diff",
    "patch",
    "svg",
    "gradle",
    "tf",
    "hcl",
    "dockerfile",
    "makefile",
    "mk",
    "cmake",
    "gitignore",
    "srt",
    "vtt",
    "ics",
    "vcf",
];

pub async fn search_files(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let team = search_team(cx, &input).await?;
    let terms = input
        .args
        .str("terms")
        .unwrap_or_default()
        .trim()
        .to_string();
    let s = Search::asked(team.as_deref(), &terms, &input.args);
    let found = search_capped::files(cx, &s).await?;
    let sorted = search_capped::ordered(
        found.items,
        |f: &FileInfo| f.create_at.unwrap_or(0),
        |f| f.id.clone().unwrap_or_default(),
    );
    let after = input.position::<After>("search_files")?;
    let (shown, next) = whole_list::page(
        &sorted,
        search_capped::ORDER,
        after.as_ref(),
        input.limit as usize,
    );
    let names = cx
        .usernames(
            shown
                .iter()
                .filter_map(|f| f.user_id.clone())
                .collect::<Vec<_>>(),
        )
        .await?;
    let labels = channel_labels(cx, shown.iter().filter_map(|f| f.channel_id.as_deref())).await?;
    let items = shown
        .iter()
        .map(|f| {
            let c = f.channel_id.as_deref().unwrap_or("");
            summary::with_channel(
                summary::file(f, &names, &cx.mm.url),
                c,
                labels.get(c).map(String::as_str),
            )
        })
        .collect();
    let mut page = Page::new(items)
        .continue_at(next)
        .with_total(sorted.len() as u64);
    page.capped = found.capped;
    if let Some(oldest) = sorted.last().filter(|_| found.capped) {
        let t = oldest.item.create_at.unwrap_or(0);
        page = page.with("older", search_capped::older(&terms, t, "files"));
    }
    Ok(Output::Page(page))
}

/// A file reference: its id, or a link to it (`.../api/v4/files/<id>`, `.../files/<id>/preview`).
pub fn file_id(reference: &str) -> Result<String, ToolError> {
    let r = reference.trim();
    if is_id(r) {
        return Ok(r.to_string());
    }
    let path = r.split(['?', '#']).next().unwrap_or("");
    let parts: Vec<&str> = path.split('/').collect();
    if let Some(i) = parts.iter().position(|s| *s == "files")
        && let Some(id) = parts.get(i + 1).filter(|id| is_id(id))
    {
        return Ok(id.to_string());
    }
    Err(ToolError::bad_argument(format!(
        "{} is not a file: give a file id (26 lowercase letters and digits), as search_files and the file_ids \
         of posts give them, or a file's link (https://<server>/api/v4/files/<id>).",
        quote(reference)
    )))
}

/// Whether a file is text by its type or its extension.
fn textual(f: &FileInfo) -> bool {
    let mime = f.mime_type.as_deref().unwrap_or("").to_ascii_lowercase();
    let mime = mime.split(';').next().unwrap_or("").trim().to_string();
    let ext = f.extension.as_deref().unwrap_or("").to_ascii_lowercase();
    mime.starts_with("text/")
        || mime.ends_with("+json")
        || mime.ends_with("+xml")
        || TEXT_TYPES.contains(&mime.as_str())
        || TEXT_EXTENSIONS.contains(&ext.as_str())
}

fn not_text(f: &FileInfo, why: &str, base_url: &str) -> ToolError {
    let about = summary::file(f, &Default::default(), base_url);
    ToolError::new(
        "not_text",
        format!(
            "{} is {} ({} bytes) and {why}, so read_file cannot give its lines; it reads text files (plain \
             text, Markdown, CSV, JSON, code, logs) up to {} MiB. Open it in Mattermost from its post instead.",
            quote(f.name.as_deref().unwrap_or("")),
            f.mime_type.as_deref().filter(|m| !m.is_empty()).unwrap_or("of no declared type"),
            f.size.unwrap_or(0),
            MAX_FILE_BYTES / (1024 * 1024)
        ),
    )
    .with("file", about)
}

/// The file's description, refused unless it is a text file read_file can read.
async fn readable_info(cx: &Ctx, id: &str, given: &str) -> Result<FileInfo, ToolError> {
    let info = send(cx.mm.api.get_file_info().file_id(id).send())
        .await
        .map_err(|e| cx.fail(e, "file", given))?
        .into_inner();
    if !textual(&info) {
        return Err(not_text(&info, "not a text file", &cx.mm.url));
    }
    if info.size.unwrap_or(0) as usize > MAX_FILE_BYTES {
        return Err(not_text(&info, "larger than read_file reads", &cx.mm.url));
    }
    Ok(info)
}

/// The file's content (refused past [`MAX_FILE_BYTES`]).
async fn download(cx: &Ctx, id: &str, given: &str) -> Result<Vec<u8>, ToolError> {
    let answer = send(cx.mm.api.get_file().file_id(id).send())
        .await
        .map_err(|e| cx.fail(e, "file", given))?;
    let mut stream = answer.into_inner_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = std::future::poll_fn(|c| stream.as_mut().poll_next(c)).await {
        let chunk = chunk.map_err(|_| {
            ToolError::new(
                "unreachable",
                format!(
                    "The content of the file {} broke off while it was read; call again.",
                    quote(given)
                ),
            )
        })?;
        if bytes.len() + chunk.len() > MAX_FILE_BYTES {
            return Err(ToolError::new(
                "too_large",
                format!(
                    "The file {} is larger than {} MiB, more than read_file reads.",
                    quote(given),
                    MAX_FILE_BYTES / (1024 * 1024)
                ),
            ));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

pub async fn read_file(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let given = input.args.str("file").unwrap_or_default();
    let id = file_id(given)?;
    let from = input.position::<file_lines::Position>("read_file")?;
    // The first page checks what the file is; a cursor was made for a file found readable.
    let info = match from {
        None => Some(readable_info(cx, &id, given).await?),
        Some(_) => None,
    };
    let bytes = download(cx, &id, given).await?;
    let text = std::str::from_utf8(&bytes)
        .ok()
        .filter(|t| !t.contains('\u{0}'))
        .ok_or_else(|| match &info {
            Some(i) => not_text(i, "its content is not UTF-8 text", &cx.mm.url),
            None => ToolError::new(
                "not_text",
                format!("The file {} is not UTF-8 text.", quote(given)),
            ),
        })?;
    let lines = file_lines::lines(text);
    let (items, next) = file_lines::page(&lines, from, input.limit as usize);
    let mut page = Page::new(items)
        .continue_at(next)
        .with_total(lines.len() as u64)
        .with("file_id", json!(id));
    if let Some(i) = &info {
        page = page.with("file", summary::file(i, &Default::default(), &cx.mm.url));
    }
    Ok(Output::Page(page))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_ids_or_links() {
        let id = "abcdefghijklmnopqrstuvwxyz";
        assert_eq!(file_id(id).ok().as_deref(), Some(id));
        assert_eq!(
            file_id(&format!("https://c.example.com/api/v4/files/{id}/preview"))
                .ok()
                .as_deref(),
            Some(id)
        );
        assert!(file_id("report.txt").is_err());
    }

    #[test]
    fn text_is_known_by_type_or_extension() {
        let f = |mime: &str, ext: &str| FileInfo {
            mime_type: Some(mime.into()),
            extension: Some(ext.into()),
            ..FileInfo::default()
        };
        assert!(textual(&f("text/plain; charset=utf-8", "txt")));
        assert!(textual(&f("application/octet-stream", "rs")));
        assert!(textual(&f("application/vnd.api+json", "")));
        assert!(!textual(&f("image/png", "png")));
        assert!(!textual(&f("application/pdf", "pdf")));
    }
}
