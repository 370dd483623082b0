//! `read_file`: a shared file's content, paged like any list (`paging::file_items`). Text comes by
//! line, a PDF by page, a Word document by paragraph and table row, a spreadsheet by sheet and row, a
//! deck by slide, an archive's listing by entry, each item saying where it is; an image comes as MCP
//! image content, scaled to what a model takes, its size and type in the answer; anything else, and
//! any file over its kind's cap, is described (name, type, size, who shared it where) rather than
//! refused. The reading is `attachment-reader`'s; this file finds the file, downloads only what its
//! plan says will be read, reads it off the async runtime under a time limit, and pages it.
//!
//! The file is named by its id, its link (`…/files/<id>`), or the permalink of the post it is attached
//! to (as search answers a file); the first page describes it, naming who shared it by username.
//!
//! Later pages: a file never changes once uploaded, so a cursor's position stays valid and the items
//! could be read again for every page. They are kept instead, per cursor chain, in the person's kept
//! lists (`context::KeptLists`: a few lists and a few MiB per person, for minutes): one download and
//! one parse serve every page, where reading again would download and parse a 20 MiB PDF for each
//! 32 KiB page. Items too large for the bound are not kept, and each page reads the file again, which
//! gives the same items.

use crate::args::{Arg, Kind as ArgKind, Limit, MAX_REFERENCE};
use crate::calls::{Call, ME, MY_CHANNELS, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::ids::is_id;
use crate::mattermost::facts::FileFacts;
use crate::mattermost::types::FileInfo;
use crate::paging::cursor::{self, Fields, Reader};
use crate::paging::file_items::{self, Part};
use crate::paging::{Page, Strategy};
use crate::resolve;
use crate::show::FileItem;
use crate::tool::extra;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::posts::channel_labels;
use attachment_reader::{Content, Image, Items, Plan};
use base64::Engine;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The longest one file's reading may take; past it the file is described.
pub(crate) const READ_TIME: Duration = Duration::from_secs(30);

pub(crate) const TOOL: Tool = Tool {
    name: "read_file",
    title: "Read a file",
    description: "A shared file, paged: text by line, PDF by page, Word by paragraph, sheets by \
                  row, slides by slide, zip/tar by entry. An image comes as image content (at most \
                  1568 px, 1 MiB). Other kinds and files over the caps are described (`not_read`).",
    toolset: Toolset::Files,
    args: &[Arg {
        name: "file",
        kind: ArgKind::Text { max: MAX_REFERENCE },
        required: true,
        about: "The file's id, its link, or the permalink of its post.",
        shapes: None,
    }],
    answer: Answer::List {
        strategy: Strategy::FileItems,
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
        MY_CHANNELS,
        ME,
    ],
    code: crate::list!(run => Part, FileRead),
};

#[derive(Deserialize)]
struct Args {
    file: String,
}

/// What a page of a file carries besides its items: the file's id; on the first page what the file
/// is, what it holds, and either its image or why it was not read.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub(crate) struct FileRead {
    pub(crate) file_id: String,
    /// The file: name, type, size, who shared it and where (first page).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) file: Option<FileItem>,
    /// What the file holds, as read: "PDF document, 3 pages" (first page).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) format: Option<String>,
    /// What to know beside the items: pages without text, hidden sheets, a listing cut short.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) notes: Vec<String>,
    /// The image given as image content after this answer (published as its type and size only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<ImageShape>")]
    pub(crate) image: Option<Image>,
    /// Why the file is described rather than read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) not_read: Option<String>,
}

/// What the output schema says of `image`: the fields a client needs to show it.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct ImageShape {
    mime: String,
    width: u32,
    height: u32,
}

/// Where the next page starts: item `i` (from 0), byte `b` of its text, in file `f` (kept, so a file
/// named by its post's permalink is not looked up again).
#[derive(Debug, Clone, PartialEq, Eq)]
struct At {
    f: String,
    i: usize,
    b: usize,
}

impl cursor::Position for At {
    fn write(&self, fields: &mut Fields) {
        fields.id(&self.f).num(self.i as i64).num(self.b as i64);
    }

    fn read(r: &mut Reader<'_>) -> Option<At> {
        Some(At {
            f: r.id()?,
            i: usize::try_from(r.num()?).ok()?,
            b: usize::try_from(r.num()?).ok()?,
        })
    }
}

/// A file's items, kept for its cursor chain.
struct Kept {
    file_id: String,
    items: Items,
}

/// About the bytes kept items hold.
fn kept_bytes(items: &Items) -> usize {
    items.items.iter().map(|i| i.text.len() + 48).sum::<usize>()
        + items.notes.iter().map(String::len).sum::<usize>()
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

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<Part, FileRead>, ToolError> {
    let given = input.args.file.as_str();
    let key = input.list_key();
    let limit = input.limit as usize;
    if let Some(at) = input.position::<At>()? {
        // A cursor is made only for a file whose items were read: from the kept items, or read again.
        let kept = match cx.lists.get::<Kept>(&key).filter(|k| k.file_id == at.f) {
            Some(kept) => kept,
            None => {
                let info = file_info(cx, &at.f, given).await?;
                match read(cx, &info, &key, &input).await? {
                    Read::Items(kept) => kept,
                    _ => return Err(changed(given)),
                }
            }
        };
        let from = file_items::Position {
            item: at.i,
            byte: at.b,
        };
        return Ok(items_page(&kept, from, limit, FileRead::default()));
    }
    let info = info_of(cx, given).await?;
    let shown = described(cx, &info).await?;
    let mut extra = FileRead {
        file_id: info.id().to_string(),
        file: Some(shown),
        ..FileRead::default()
    };
    let read = match cx
        .lists
        .get::<Kept>(&key)
        .filter(|k| k.file_id == info.id())
    {
        Some(kept) => Read::Items(kept),
        None => read(cx, &info, &key, &input).await?,
    };
    Ok(match read {
        Read::Items(kept) => {
            extra.format = Some(kept.items.format.clone());
            extra.notes = kept.items.notes.clone();
            items_page(&kept, file_items::Position::default(), limit, extra)
        }
        Read::Image(image) => {
            let data = base64::engine::general_purpose::STANDARD.encode(&image.bytes);
            extra::add(rmcp::model::ContentBlock::image(data, image.mime.clone()));
            extra.format = Some(image.original_format.clone());
            extra.image = Some(image);
            Page::new(Vec::new()).with_total(0).with_extra(extra)
        }
        Read::Not { format, reason } => {
            extra.format = Some(format);
            extra.not_read = Some(reason);
            Page::new(Vec::new()).with_total(0).with_extra(extra)
        }
    })
}

fn changed(given: &str) -> ToolError {
    ToolError::new(
        ErrorKind::BadCursor,
        format!(
            "The file {} no longer reads as it did when the cursor was made; call read_file again without \
             `cursor`.",
            quote(given)
        ),
    )
}

/// One page of kept items from `from`.
fn items_page(
    kept: &Kept,
    from: file_items::Position,
    limit: usize,
    extra: FileRead,
) -> Page<Part, FileRead> {
    let (parts, next) = file_items::page(&kept.items.items, from, limit);
    let next = next.map(|p| At {
        f: kept.file_id.clone(),
        i: p.item,
        b: p.byte,
    });
    Page::new(parts)
        .continue_at(next)
        .with_total(kept.items.items.len() as u64)
        .with_extra(FileRead {
            file_id: kept.file_id.clone(),
            ..extra
        })
}

/// What reading a file gave.
enum Read {
    /// Its items, kept for the cursor chain under its key.
    Items(Arc<Kept>),
    Image(Image),
    /// Described, not read: what it is and why.
    Not {
        format: String,
        reason: String,
    },
}

/// Reads a file as its plan says: described without downloading when its kind is not read or it is
/// over its kind's cap; otherwise downloaded (no more than the cap) and read off the runtime, its
/// items kept under `key`.
async fn read<A>(
    cx: &Ctx,
    info: &FileInfo,
    key: &str,
    input: &Input<A>,
) -> Result<Read, ToolError> {
    let (name, mime, size) = (info.name(), info.mime(), info.size());
    let max = match attachment_reader::classify(name, mime, size) {
        Plan::Read { max_bytes, .. } => max_bytes,
        Plan::TooLarge {
            format, max_bytes, ..
        } => {
            return Ok(Read::Not {
                reason: format!(
                    "it is {}, more than the {} read_file reads of a {format}",
                    size_label(size),
                    size_label(max_bytes)
                ),
                format,
            });
        }
        Plan::Describe { format } => {
            return Ok(Read::Not {
                reason: format!(
                    "read_file does not read a {format}; it reads text, PDF, Word (docx), spreadsheets \
                     (xlsx, xlsb, ods), slides (pptx), images (PNG, JPEG, GIF, WebP) and zip and tar archives"
                ),
                format,
            });
        }
    };
    input.progress(
        None,
        format!("downloading {} ({})", quote(name), size_label(size)),
    );
    let Some(bytes) = download(cx, info.id(), name, max).await? else {
        return Ok(Read::Not {
            format: mime.unwrap_or("file").to_string(),
            reason: format!(
                "its content is larger than the {} read_file reads of it",
                size_label(max)
            ),
        });
    };
    input.progress(
        None,
        format!(
            "reading {} ({})",
            quote(name),
            size_label(bytes.len() as u64)
        ),
    );
    let content = read_off_runtime(bytes, name.to_string(), mime.map(str::to_string)).await?;
    Ok(match content {
        Ok(Content::Items(items)) => {
            input.progress(
                None,
                format!("read {}: {} items", quote(name), items.items.len()),
            );
            let kept = Arc::new(Kept {
                file_id: info.id().to_string(),
                items,
            });
            cx.lists
                .put(key.to_string(), kept.clone(), kept_bytes(&kept.items));
            Read::Items(kept)
        }
        Ok(Content::Image(image)) => Read::Image(image),
        Ok(Content::Described(d)) => Read::Not {
            format: d.format,
            reason: d.reason,
        },
        Err(e) => Read::Not {
            format: e.format,
            reason: e.reason,
        },
    })
}

/// How many files are read at once, at most: each read holds a thread and its file's memory.
fn readers() -> &'static Arc<tokio::sync::Semaphore> {
    static READERS: OnceLock<Arc<tokio::sync::Semaphore>> = OnceLock::new();
    READERS.get_or_init(|| {
        let n = std::thread::available_parallelism().map_or(2, |n| n.get());
        Arc::new(tokio::sync::Semaphore::new(n.clamp(1, 8)))
    })
}

/// Reads the bytes on a blocking thread, within [`READ_TIME`] and what is left of the call's budget.
/// A read that takes longer is described as such; its thread ends on its own (the reader bounds its
/// work), holding its place among the [`readers`] until then.
async fn read_off_runtime(
    bytes: Vec<u8>,
    name: String,
    mime: Option<String>,
) -> Result<Result<Content, attachment_reader::Unreadable>, ToolError> {
    let left = crate::mattermost::call::current().map_or(READ_TIME, |s| s.remaining());
    let limit = READ_TIME.min(left);
    let started = tokio::time::Instant::now();
    let permit = tokio::time::timeout(limit, readers().clone().acquire_owned())
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or_else(|| {
            ToolError::new(
                ErrorKind::Timeout,
                format!(
                    "Other files were being read for {} s, so {} was not; call again.",
                    limit.as_secs(),
                    quote(&name)
                ),
            )
        })?;
    let size = bytes.len() as u64;
    let label = name.clone();
    let work = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        attachment_reader::read(&bytes, &name, mime.as_deref())
    });
    match tokio::time::timeout(limit.saturating_sub(started.elapsed()), work).await {
        Ok(Ok(content)) => Ok(content),
        Ok(Err(_)) => Ok(Err(attachment_reader::Unreadable {
            kind: attachment_reader::Kind::Other,
            format: "file".to_string(),
            size,
            reason: "its reader stopped on it".to_string(),
        })),
        Err(_) => Ok(Err(attachment_reader::Unreadable {
            kind: attachment_reader::Kind::Other,
            format: "file".to_string(),
            size,
            reason: format!(
                "reading {} took longer than {} s, the most one read may take",
                quote(&label),
                limit.as_secs()
            ),
        })),
    }
}

/// A size for a sentence: bytes, KiB or MiB.
fn size_label(n: u64) -> String {
    match n {
        n if n < 1024 => format!("{n} bytes"),
        n if n < 1024 * 1024 => format!("{:.0} KiB", n as f64 / 1024.0),
        n => {
            let m = n as f64 / (1024.0 * 1024.0);
            if m.fract() == 0.0 {
                format!("{m:.0} MiB")
            } else {
                format!("{m:.1} MiB")
            }
        }
    }
}

/// The file `given` names, described by Mattermost.
async fn info_of(cx: &Ctx, given: &str) -> Result<FileInfo, ToolError> {
    match named(given)? {
        Named::File(id) => file_info(cx, &id, given).await,
        Named::Post(post_id) => {
            let post = cx
                .call(cx.api().get_post().post_id(&post_id).send(), "post", given)
                .await?;
            let files = post.metadata.and_then(|m| m.files);
            let described: Vec<FileInfo> = files
                .map(|f| f.read())
                .transpose()
                .map_err(|e| {
                    ToolError::new(
                        ErrorKind::NotMattermost,
                        format!(
                            "Mattermost described the files of the post {post_id} in a form this server does                              not read ({e}). Read the file by its id instead: the post's file_ids name its                              files (read_channel or read_thread shows them)."
                        ),
                    )
                })?
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
    match cx.send(cx.api().get_file_info().file_id(id).send()).await {
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

/// The file as the answer shows it: who shared it by username, and the channel it is in.
async fn described(cx: &Ctx, info: &FileInfo) -> Result<FileItem, ToolError> {
    let names = cx.usernames(info.user_id.clone()).await?;
    let item = FileItem::of(info, &names, cx.url());
    Ok(match info.channel_id.as_deref().filter(|c| !c.is_empty()) {
        Some(c) => {
            let labels = channel_labels(cx, [c]).await?;
            item.in_channel(c, labels.get(c).map(String::as_str))
        }
        None => item,
    })
}

/// The file's content, at most `max` bytes; `None` when it holds more.
async fn download(cx: &Ctx, id: &str, name: &str, max: u64) -> Result<Option<Vec<u8>>, ToolError> {
    let answer = cx
        .send(cx.api().get_file().file_id(id).send())
        .await
        .map_err(|e| cx.fail(e, "file", id))?;
    let mut stream = answer.into_inner_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = std::future::poll_fn(|c| stream.as_mut().poll_next(c)).await {
        let chunk = chunk.map_err(|_| {
            ToolError::new(
                ErrorKind::Unreachable,
                format!(
                    "The content of the file {} broke off while it was downloaded; call again.",
                    quote(name)
                ),
            )
        })?;
        if (bytes.len() + chunk.len()) as u64 > max {
            return Ok(None);
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(Some(bytes))
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
}
