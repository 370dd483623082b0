//! Reads a shared file's bytes into what a model can read: text in small items a caller pages
//! through (lines, PDF pages, Word paragraphs, sheet rows, slide shapes, archive entries), an image
//! scaled to a size a model takes, or a description of a file it does not read.
//!
//! [`classify`] says from a file's name, declared type and size alone what [`read`] would make of it,
//! so a caller can refuse to download a file too large to read. [`read`] never panics on malformed
//! input and bounds the memory and work a read takes (see [`caps`]); what it cannot read it describes.
//! [`page`] cuts the items into pages of about [`PAGE_BYTES`] of text, by a position a cursor holds.

#![warn(missing_docs)]

mod archive;
pub mod caps;
mod dates;
mod image;
mod office;
mod page;
mod pdf;
mod sniff;
mod text;
mod xml;

use schemars::JsonSchema;
use serde::Serialize;
use std::fmt;

pub use page::{CHUNK, PAGE_BYTES, Piece, Position, page};

/// What a file holds, as this crate reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Text, by line.
    Text,
    /// A PDF, by page.
    Pdf,
    /// A Word document (docx), by paragraph and table row.
    Word,
    /// A spreadsheet (xlsx, xlsm, xlsb, ods), by sheet and row.
    Spreadsheet,
    /// A slide deck (pptx), by slide.
    Slides,
    /// An image (PNG, JPEG, GIF, WebP).
    Image,
    /// An archive (zip, tar, tar.gz), by entry.
    Archive,
    /// Anything else: described, not read.
    Other,
}

impl Kind {
    /// The largest file of this kind [`read`] reads.
    pub fn max_bytes(self) -> u64 {
        match self {
            Kind::Text => caps::MAX_TEXT_BYTES,
            Kind::Pdf | Kind::Word | Kind::Spreadsheet | Kind::Slides => caps::MAX_DOCUMENT_BYTES,
            Kind::Image => caps::MAX_IMAGE_BYTES,
            Kind::Archive => caps::MAX_ARCHIVE_BYTES,
            Kind::Other => caps::MAX_SNIFF_BYTES,
        }
    }
}

/// What [`read`] would make of a file, judged from its name, declared type and size alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "plan", rename_all = "snake_case")]
pub enum Plan {
    /// Download it (at most `max_bytes`) and [`read`] it. `kind` is [`Kind::Other`] when the name
    /// and type say nothing known: [`read`] then looks at the bytes (it may be text).
    Read {
        /// What [`read`] is expected to read it as.
        kind: Kind,
        /// What the name and type say it is, e.g. "PDF document".
        format: String,
        /// The most bytes to download ([`Kind::max_bytes`]): [`read`] reads no larger file of the
        /// kind.
        max_bytes: u64,
    },
    /// A kind this crate reads, but larger than it reads: describe it without downloading.
    TooLarge {
        /// What it would be read as ([`Kind::Other`] when the name and type say nothing known).
        kind: Kind,
        /// What the name and type say it is ("file of unknown type" when they say nothing known).
        format: String,
        /// Its declared size in bytes.
        size: u64,
        /// The largest size [`read`] reads for the kind, in bytes ([`Kind::max_bytes`]).
        max_bytes: u64,
    },
    /// A kind this crate does not read (a video, a legacy .doc, a 7z archive): describe it without
    /// downloading.
    Describe {
        /// What the name and type say it is, e.g. "MP4 video".
        format: String,
    },
}

/// Says, from a file's name, declared MIME type and size alone, whether [`read`] would read it and as
/// what. Only the name's extension and the type are looked at; a generic type
/// (`application/octet-stream`) counts as none.
pub fn classify(name: &str, mime: Option<&str>, size: u64) -> Plan {
    match sniff::by_name(name, mime) {
        Some(format) if format.kind() == Kind::Other => Plan::Describe {
            format: format.label().to_string(),
        },
        Some(format) => {
            let kind = format.kind();
            let max_bytes = kind.max_bytes();
            if size > max_bytes {
                Plan::TooLarge {
                    kind,
                    format: format.label().to_string(),
                    size,
                    max_bytes,
                }
            } else {
                Plan::Read {
                    kind,
                    format: format.label().to_string(),
                    max_bytes,
                }
            }
        }
        None if size > caps::MAX_SNIFF_BYTES => Plan::TooLarge {
            kind: Kind::Other,
            format: "file of unknown type".to_string(),
            size,
            max_bytes: caps::MAX_SNIFF_BYTES,
        },
        None => Plan::Read {
            kind: Kind::Other,
            format: "file of unknown type".to_string(),
            max_bytes: caps::MAX_SNIFF_BYTES,
        },
    }
}

/// Where in its file an item is. Serialized beside the item's text, its fields alone tell the kinds
/// apart: `{"line": 3}`, `{"page": 2}`, `{"sheet": "Q1", "row": 4}`, `{"slide": 5, "notes": true}`…
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Location {
    /// A text file's line, from 1.
    Line {
        /// The line number, from 1.
        line: u32,
    },
    /// A PDF page, from 1: the page's text, its lines joined by `\n`.
    Page {
        /// The page number, from 1, in the document's page order.
        page: u32,
    },
    /// A Word paragraph, numbered from 1 among the document's paragraphs and table rows that hold
    /// text; `heading` is the heading level (1 for a title or top heading).
    Paragraph {
        /// The paragraph's number, from 1.
        paragraph: u32,
        /// The heading level its style gives (1 to 9); `None` for body text.
        #[serde(skip_serializing_if = "Option::is_none")]
        heading: Option<u8>,
    },
    /// A row of a Word table: its cells joined by ` | `. `paragraph` counts as [`Location::Paragraph`]
    /// does; `table` counts the document's tables from 1 and `row` the table's rows from 1.
    TableRow {
        /// The row's number in the count of paragraphs and table rows, from 1.
        paragraph: u32,
        /// Which table of the document, from 1.
        table: u32,
        /// Which row of that table, from 1.
        row: u32,
    },
    /// A sheet's header: its position, size and used range.
    Sheet {
        /// The sheet's name, as its tab shows it.
        sheet: String,
    },
    /// A sheet's row, numbered as the spreadsheet numbers it (from 1): its cells from the sheet's
    /// first used column, joined by ` | `.
    Row {
        /// The name of the sheet the row is on.
        sheet: String,
        /// The row number the spreadsheet shows, from 1.
        row: u32,
    },
    /// Text on a slide, numbered from 1 in the deck's order: one item a shape (`title` for the
    /// slide's title), or the slide's speaker notes (`notes`).
    Slide {
        /// The slide's number, from 1.
        slide: u32,
        /// The text is the slide's title.
        #[serde(default, skip_serializing_if = "is_false")]
        title: bool,
        /// The text is the slide's speaker notes, not a shape on it.
        #[serde(default, skip_serializing_if = "is_false")]
        notes: bool,
    },
    /// An archive's entry, numbered from 1 in the archive's order; its text is the entry's path.
    /// `size` is the uncompressed size in bytes; `modified` is as the archive gives it (zip: local
    /// time, `YYYY-MM-DDTHH:MM:SS`; tar: UTC, with a `Z`).
    Entry {
        /// The entry's number, from 1.
        entry: u32,
        /// Its uncompressed size in bytes.
        size: u64,
        /// When it was last changed; `None` when the archive records no time for it (a tar mtime of
        /// 0, a zip date that does not parse).
        #[serde(skip_serializing_if = "Option::is_none")]
        modified: Option<String>,
        /// The entry is a directory, not a file.
        #[serde(default, skip_serializing_if = "is_false")]
        dir: bool,
    },
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One small piece of a file's text and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Item {
    /// Where it is (serialized flat, beside `text`).
    #[serde(flatten)]
    pub at: Location,
    /// Its text: a line without its line end, a page, a paragraph, cells joined by ` | `, an
    /// archive entry's path.
    pub text: String,
}

/// A file's text, as items.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Items {
    /// What the file was read as, judged from its bytes first (so a file of unknown name that
    /// proves to be text is [`Kind::Text`]).
    pub kind: Kind,
    /// What the file is, e.g. "PDF document, 12 pages".
    pub format: String,
    /// The text, in the file's order; [`page`] cuts it into pages.
    pub items: Vec<Item>,
    /// What a reader should know beside the items: pages with no text, hidden sheets, a listing cut
    /// short, a text decoded from another encoding.
    pub notes: Vec<String>,
}

/// An image scaled and encoded to a size a model takes.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Image {
    /// The encoded image (not serialized: give it as an image content block).
    #[serde(skip)]
    pub bytes: Vec<u8>,
    /// `image/png` or `image/jpeg`.
    pub mime: String,
    /// The encoded image's width in pixels, upright (after any EXIF rotation); its longer side is
    /// at most [`caps::IMAGE_MAX_SIDE`].
    pub width: u32,
    /// The encoded image's height in pixels, as `width`.
    pub height: u32,
    /// The file's own size in pixels (before any EXIF rotation).
    pub original_width: u32,
    /// The file's own height in pixels, as `original_width`.
    pub original_height: u32,
    /// What the file was, e.g. "JPEG image".
    pub original_format: String,
    /// How it was changed: scaled, re-encoded, rotated, its first frame taken.
    pub notes: Vec<String>,
}

/// A file this crate does not read, described.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Description {
    /// What it looks like, from its first bytes, name and type, e.g. "MP4 video".
    pub format: String,
    /// The file's size in bytes.
    pub size: u64,
    /// Why it is described rather than read.
    pub reason: String,
}

/// What [`read`] made of a file.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "content", rename_all = "snake_case")]
pub enum Content {
    /// Text, read into items (text, PDF, Word, spreadsheet, slides, archive listing).
    Items(Items),
    /// An image, scaled and encoded for a model.
    Image(Image),
    /// A kind this crate does not read: described.
    Described(Description),
}

/// A file of a kind this crate reads that could not be read: too large, malformed, encrypted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Unreadable {
    /// The kind it was to be read as.
    pub kind: Kind,
    /// What the file looks like, e.g. "Word document (docx)".
    pub format: String,
    /// The file's size in bytes.
    pub size: u64,
    /// Why it could not be read, as a sentence.
    pub reason: String,
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} bytes) could not be read: {}",
            self.format, self.size, self.reason
        )
    }
}

impl std::error::Error for Unreadable {}

/// Reads a file's bytes. What it is comes from its first bytes foremost, then its name's extension
/// and declared MIME type. A kind it does not read gives [`Content::Described`]; a kind it reads but
/// cannot (too large, malformed, encrypted) gives [`Unreadable`]. Never panics on any input: a panic
/// inside a parser is caught and reported as malformed input.
pub fn read(bytes: &[u8], name: &str, mime: Option<&str>) -> Result<Content, Unreadable> {
    let size = bytes.len() as u64;
    let format = sniff::detect(bytes, name, mime);
    let kind = format.kind();
    let unreadable = |reason: String| Unreadable {
        kind,
        format: format.label().to_string(),
        size,
        reason,
    };
    if let sniff::Format::Other { .. } = format {
        return Ok(Content::Described(Description {
            format: format.label().to_string(),
            size,
            reason: other_reason(&format),
        }));
    }
    if size > kind.max_bytes() {
        return Err(unreadable(format!(
            "it is larger than {}, the most read for a {}",
            mib(kind.max_bytes()),
            format.label()
        )));
    }
    let result =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read_format(&format, bytes)));
    match result {
        Ok(Ok(content)) => Ok(content),
        Ok(Err(reason)) => Err(unreadable(reason)),
        Err(_) => Err(unreadable(
            "its content is malformed (the reader stopped on it)".to_string(),
        )),
    }
}

fn read_format(format: &sniff::Format, bytes: &[u8]) -> Result<Content, String> {
    use sniff::Format as F;
    let items = |kind: Kind, read: Read| {
        read.map(|(items, notes, detail)| {
            Content::Items(Items {
                kind,
                format: match detail {
                    Some(d) => format!("{}, {d}", format.label()),
                    None => format.label().to_string(),
                },
                items,
                notes,
            })
        })
    };
    match format {
        F::Text => items(Kind::Text, text::read(bytes)),
        F::TextDeclared => items(Kind::Text, text::read_declared(bytes)),
        F::Pdf => items(Kind::Pdf, pdf::read(bytes)),
        F::Docx => items(Kind::Word, office::docx::read(bytes)),
        F::Xlsx | F::Xlsb => items(Kind::Spreadsheet, office::xlsx::read(bytes)),
        F::Ods => items(Kind::Spreadsheet, office::ods::read(bytes)),
        F::Pptx => items(Kind::Slides, office::pptx::read(bytes)),
        F::Png | F::Jpeg | F::Gif | F::Webp => image::read(bytes, format).map(Content::Image),
        F::Zip => items(Kind::Archive, archive::read_zip(bytes)),
        F::Tar => items(Kind::Archive, archive::read_tar(bytes, false)),
        F::TarGz => items(Kind::Archive, archive::read_tar(bytes, true)),
        F::Other { .. } => Err("this kind of file is not read".to_string()),
    }
}

/// What a format's reader gives: its items, notes, and a detail for the format's label ("12 pages").
pub(crate) type Read = Result<(Vec<Item>, Vec<String>, Option<String>), String>;

fn other_reason(format: &sniff::Format) -> String {
    match format {
        sniff::Format::Other { reads_as: Some(hint), .. } => {
            format!("this kind of file is not read; {hint}")
        }
        _ => "this kind of file is not read: only text, PDF, Word (docx), spreadsheets (xlsx, xlsb, \
              ods), slides (pptx), images (PNG, JPEG, GIF, WebP) and archives (zip, tar, tar.gz) are"
            .to_string(),
    }
}

/// `n` bytes in MiB, for a sentence.
pub(crate) fn mib(n: u64) -> String {
    let m = n as f64 / (1024.0 * 1024.0);
    if m.fract() == 0.0 {
        format!("{m:.0} MiB")
    } else {
        format!("{m:.1} MiB")
    }
}

/// Collects items under [`caps::MAX_OUTPUT_TEXT`] and [`caps::MAX_ITEMS`]: once either is reached it
/// takes no more, and says so in a note.
pub(crate) struct Collector {
    pub items: Vec<Item>,
    bytes: usize,
    full: bool,
}

impl Collector {
    pub fn new() -> Self {
        Collector {
            items: Vec::new(),
            bytes: 0,
            full: false,
        }
    }

    /// Adds an item; false once the caps are reached. An item that would pass the text cap is cut to
    /// what is left of it, at a character boundary, and ends with `…`.
    pub fn push(&mut self, at: Location, mut text: String) -> bool {
        if self.full {
            return false;
        }
        if self.items.len() >= caps::MAX_ITEMS {
            self.full = true;
            return false;
        }
        let room = caps::MAX_OUTPUT_TEXT - self.bytes;
        if text.len() > room {
            let mut end = room.saturating_sub('…'.len_utf8());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
            text.push('…');
            self.full = true;
        }
        self.bytes += text.len();
        self.items.push(Item { at, text });
        !self.full
    }

    pub fn is_full(&self) -> bool {
        self.full
    }

    /// The note that says the items stop short, if they do.
    pub fn note(&self, what_is_left: &str) -> Option<String> {
        self.full.then(|| {
            format!(
                "The items stop after {} of text ({} items), the most one read gives; {what_is_left} \
                 is not shown.",
                mib(self.bytes as u64),
                self.items.len()
            )
        })
    }
}
