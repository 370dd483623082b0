//! The caps: how large a file of each kind may be to be read, and how much reading one may produce.
//!
//! A file over its kind's input cap is described, not read; [`crate::classify`] says so from its
//! size alone, so a caller need not download it. The other caps bound the work and memory one read
//! may take, whatever the input claims about itself.

/// The largest text file read (UTF-8, or UTF-16 with a byte-order mark).
pub const MAX_TEXT_BYTES: u64 = 8 * 1024 * 1024;
/// The largest PDF, Word, spreadsheet or slide deck read.
pub const MAX_DOCUMENT_BYTES: u64 = 20 * 1024 * 1024;
/// The largest image read.
pub const MAX_IMAGE_BYTES: u64 = 10 * 1024 * 1024;
/// The largest archive listed.
pub const MAX_ARCHIVE_BYTES: u64 = 50 * 1024 * 1024;
/// The largest file of an unknown type read to find out what it holds (it may be text).
pub const MAX_SNIFF_BYTES: u64 = MAX_TEXT_BYTES;

/// The most text, in bytes, that one read gives in its items; past it the items stop and a note says so.
pub const MAX_OUTPUT_TEXT: usize = 8 * 1024 * 1024;
/// The most items one read gives; past it the items stop and a note says so.
pub const MAX_ITEMS: usize = 500_000;

/// The most bytes one part of a zip container (a docx's `word/document.xml`, an xlsx sheet) may
/// inflate to.
pub const MAX_PART_BYTES: u64 = 64 * 1024 * 1024;
/// The most bytes all the parts of a zip container read may inflate to, together.
pub const MAX_INFLATED_BYTES: u64 = 256 * 1024 * 1024;
/// The most entries a document's zip container may hold (an archive's listing is not bound by it).
pub const MAX_PARTS: usize = 10_000;
/// The most bytes one PDF stream (a page's content, a font's map, an object stream) may inflate to.
pub const MAX_PDF_STREAM_BYTES: usize = 64 * 1024 * 1024;
/// The most bytes a `.tar.gz` may inflate to while it is listed; past it the listing stops.
pub const MAX_TAR_INFLATED_BYTES: u64 = 512 * 1024 * 1024;

/// The most entries an archive's listing gives; a note says how many more there are.
pub const MAX_ARCHIVE_ENTRIES: usize = 5_000;

/// The most pixels (width × height, as the image's header declares them) an image may have to be
/// decoded: more is refused before any pixel is decoded.
pub const MAX_IMAGE_PIXELS: u64 = 50_000_000;
/// The longest side, in pixels, of an image as given.
pub const IMAGE_MAX_SIDE: u32 = 1568;
/// The most bytes an image as given may take, encoded.
pub const IMAGE_MAX_ENCODED_BYTES: usize = 1024 * 1024;
