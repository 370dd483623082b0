//! `read_file`: a text file's content, paged like any list with its lines as items
//! (`paging::file_lines`). The file is named by its id, its link (`…/files/<id>`), or the permalink of
//! the post it is attached to (as search answers a file); the first page checks what it is and
//! describes it, naming who shared it by username. Other formats come later (`attachment-reader`).

use crate::args::{Arg, Kind, Limit, MAX_REFERENCE};
use crate::calls::{Call, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::ids::is_id;
use crate::mattermost::facts::FileFacts;
use crate::mattermost::{send, types::FileInfo};
use crate::paging::cursor::{self, Fields, Reader};
use crate::paging::file_lines::{self, Line};
use crate::paging::{Page, Strategy};
use crate::resolve;
use crate::show::FileItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The largest file `read_file` reads.
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

pub const TOOL: Tool = Tool {
    name: "read_file",
    title: "Read a text file",
    description: "A text file's content (text, Markdown, CSV, JSON, code, logs; UTF-8, up to 8 \
                  MiB) as a list of its lines, numbered from 1: a line over 8 KiB comes in pieces \
                  (continues: true), a page stops at 32 KiB of text, total counts the lines. A file \
                  that is not text (an image, a PDF, an archive) is described and refused.",
    toolset: Toolset::Files,
    args: &[Arg {
        name: "file",
        kind: Kind::Text { max: MAX_REFERENCE },
        required: true,
        about: "The file's id, its link, or the permalink of its post.",
        shapes: None,
    }],
    answer: Answer::List {
        strategy: Strategy::FileLines,
        limit: Limit::new(100, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetFileInfo",
            params: &[("file_id", Source::Arg("file"))],
        },
        Call {
            operation: "GetFile",
            params: &[("file_id", Source::Arg("file"))],
        },
        Call {
            operation: "GetPost",
            params: &[
                ("post_id", Source::Arg("file")),
                (
                    "include_deleted",
                    Source::Omitted("a deleted post's files are gone with it"),
                ),
            ],
        },
        USERNAMES,
    ],
    code: crate::list!(run => Line, FileRead),
};

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

#[derive(Deserialize)]
struct Args {
    file: String,
}

/// What a page of a file carries besides its lines: the file's id, and on the first page what the file
/// is.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileRead {
    pub file_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<FileItem>,
}

/// Where the next page starts: line `l` (from 0), byte `b` of it, in file `f` (kept, so a file named
/// by its post's permalink is not looked up again).
#[derive(Debug, Clone, PartialEq, Eq)]
struct At {
    f: String,
    l: usize,
    b: usize,
}

impl cursor::Position for At {
    fn write(&self, fields: &mut Fields) {
        fields.id(&self.f).num(self.l as i64).num(self.b as i64);
    }

    fn read(r: &mut Reader<'_>) -> Option<At> {
        Some(At {
            f: r.id()?,
            l: usize::try_from(r.num()?).ok()?,
            b: usize::try_from(r.num()?).ok()?,
        })
    }
}

/// What the `file` argument names.
#[derive(Debug, PartialEq, Eq)]
enum Named {
    File(String),
    Post(String),
}

/// A file reference: its id, a link to it (`…/api/v4/files/<id>`, `…/files/<id>/preview`), or the
/// permalink of the post it is attached to (`…/pl/<post id>`).
fn named(reference: &str) -> Result<Named, ToolError> {
    let r = reference.trim();
    if is_id(r) {
        return Ok(Named::File(r.to_string()));
    }
    let path = r.split(['?', '#']).next().unwrap_or("");
    let parts: Vec<&str> = path.split('/').collect();
    if let Some(i) = parts.iter().position(|s| *s == "files")
        && let Some(id) = parts.get(i + 1).filter(|id| is_id(id))
    {
        return Ok(Named::File(id.to_string()));
    }
    if path.contains("/pl/") {
        return resolve::post_id(r).map(Named::Post);
    }
    Err(ToolError::bad_argument(format!(
        "{} is not a file: give a file id (26 lowercase letters and digits), as search_files and the file_ids \
         of posts give them, a file's link (https://<server>/api/v4/files/<id>), or the permalink of the post \
         it is attached to.",
        quote(reference)
    )))
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<Line, FileRead>, ToolError> {
    let given = input.args.file.as_str();
    // The first page finds and checks the file; a cursor was made for a file found readable.
    let (id, from, file) = match input.position::<At>()? {
        Some(at) => (
            at.f.clone(),
            Some(file_lines::Position { l: at.l, b: at.b }),
            None,
        ),
        None => {
            let info = info_of(cx, given).await?;
            let item = described(cx, &info).await?;
            readable(&info, &item)?;
            (info.id().to_string(), None, Some(item))
        }
    };
    let bytes = download(cx, &id, given).await?;
    let text = std::str::from_utf8(&bytes)
        .ok()
        .filter(|t| !t.contains('\u{0}'))
        .ok_or_else(|| match &file {
            Some(item) => not_text(item, "its content is not UTF-8 text"),
            None => ToolError::new(
                ErrorKind::NotText,
                format!("The file {} is not UTF-8 text.", quote(given)),
            ),
        })?;
    let lines = file_lines::lines(text);
    let (items, next) = file_lines::page(&lines, from, input.limit as usize);
    let next = next.map(|p| At {
        f: id.clone(),
        l: p.l,
        b: p.b,
    });
    Ok(Page::new(items)
        .continue_at(next)
        .with_total(lines.len() as u64)
        .with_extra(FileRead { file_id: id, file }))
}

/// The file `given` names, described by Mattermost.
async fn info_of(cx: &Ctx, given: &str) -> Result<FileInfo, ToolError> {
    match named(given)? {
        Named::File(id) => file_info(cx, &id, given).await,
        Named::Post(post_id) => {
            let post = cx
                .call(cx.mm.api.get_post().post_id(&post_id).send(), "post", given)
                .await?;
            let described: Vec<FileInfo> = post
                .metadata
                .and_then(|m| m.files)
                .unwrap_or_default()
                .into_iter()
                .filter(|f| f.delete_at.unwrap_or(0) == 0)
                .collect();
            let ids = post.file_ids.unwrap_or_default();
            match (described.as_slice(), ids.as_slice()) {
                ([one], _) => Ok(one.clone()),
                ([], [id]) => file_info(cx, id, given).await,
                ([], []) => Err(ToolError::new(
                    ErrorKind::NotFound,
                    format!(
                        "The post {} has no file attached. search_files finds files; a post's file_ids name \
                         its files.",
                        quote(given)
                    ),
                )),
                _ => Err(several(given, &described, &ids)),
            }
        }
    }
}

/// A file's description (GetFileInfo); a file id no file has is told apart from a post's id.
async fn file_info(cx: &Ctx, id: &str, given: &str) -> Result<FileInfo, ToolError> {
    match send(cx.mm.api.get_file_info().file_id(id).send()).await {
        Ok(info) => Ok(info.into_inner()),
        Err(e) if e.status() == Some(404) => Err(ToolError::new(
            ErrorKind::NotFound,
            format!(
                "No file has the id {} (a post's id is not its file's). Pass a file id from search_files or a \
                 post's file_ids, or the permalink of the post the file is attached to.",
                quote(given)
            ),
        )
        .with("file", json!(given))),
        Err(e) => Err(cx.fail(e, "file", given)),
    }
}

/// A post with several files: which one to read.
fn several(given: &str, described: &[FileInfo], ids: &[String]) -> ToolError {
    let files: Vec<serde_json::Value> = if described.is_empty() {
        ids.iter().map(|id| json!({"id": id})).collect()
    } else {
        described
            .iter()
            .map(|f| json!({"id": f.id(), "name": f.name(), "mime_type": f.mime(), "size": f.size()}))
            .collect()
    };
    ToolError::new(
        ErrorKind::Ambiguous,
        format!(
            "The post {} has {} files attached; read_file reads one at a time. Call it again with the id of the \
             one to read (listed in `files`).",
            quote(given),
            files.len()
        ),
    )
    .with("files", serde_json::Value::Array(files))
}

/// The file as the answer shows it, who shared it named by username.
async fn described(cx: &Ctx, info: &FileInfo) -> Result<FileItem, ToolError> {
    let names = cx.usernames(info.user_id.clone()).await?;
    Ok(FileItem::of(info, &names, cx.url()))
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

/// Refuses a file read_file cannot read: not text, or too large.
fn readable(info: &FileInfo, item: &FileItem) -> Result<(), ToolError> {
    if !textual(info) {
        return Err(not_text(item, "not a text file"));
    }
    if info.size() as usize > MAX_FILE_BYTES {
        return Err(not_text(item, "larger than read_file reads"));
    }
    Ok(())
}

fn not_text(f: &FileItem, why: &str) -> ToolError {
    ToolError::new(
        ErrorKind::NotText,
        format!(
            "{} is {} ({} bytes) and {why}, so read_file cannot give its lines; it reads text files (plain \
             text, Markdown, CSV, JSON, code, logs) up to {} MiB. Open it in Mattermost from its post instead.",
            quote(&f.name),
            f.mime_type.as_deref().unwrap_or("of no declared type"),
            f.size,
            MAX_FILE_BYTES / (1024 * 1024)
        ),
    )
    .with("file", json!(f))
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
                ErrorKind::Unreachable,
                format!(
                    "The content of the file {} broke off while it was read; call again.",
                    quote(given)
                ),
            )
        })?;
        if bytes.len() + chunk.len() > MAX_FILE_BYTES {
            return Err(ToolError::new(
                ErrorKind::TooLarge,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_ids_links_or_their_posts_permalinks() {
        let id = "abcdefghijklmnopqrstuvwxyz";
        assert_eq!(named(id).ok(), Some(Named::File(id.into())));
        assert_eq!(
            named(&format!("https://c.example.com/api/v4/files/{id}/preview")).ok(),
            Some(Named::File(id.into()))
        );
        assert_eq!(
            named(&format!("https://c.example.com/_redirect/pl/{id}")).ok(),
            Some(Named::Post(id.into()))
        );
        assert_eq!(
            named(&format!("https://c.example.com/eng/pl/{id}")).ok(),
            Some(Named::Post(id.into()))
        );
        assert!(named("report.txt").is_err());
        assert!(named("https://c.example.com/eng/pl/short").is_err());
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
