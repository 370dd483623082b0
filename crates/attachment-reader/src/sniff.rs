//! What a file is: from its first bytes (magic numbers) foremost, then its name's extension and its
//! declared MIME type.

use crate::Kind;
use std::io::{Cursor, Read};

/// A file's format, as far as reading it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Format {
    /// Text found by its content: UTF-8 (or UTF-16 with a byte-order mark) without NUL bytes.
    Text,
    /// Text by its name or type whose bytes are not UTF-8: decoded as Windows-1252.
    TextDeclared,
    Pdf,
    Docx,
    Xlsx,
    Xlsb,
    Ods,
    Pptx,
    Png,
    Jpeg,
    Gif,
    Webp,
    Zip,
    Tar,
    TarGz,
    /// A format this crate does not read; `reads_as` says what would make it readable.
    Other {
        label: &'static str,
        reads_as: Option<&'static str>,
    },
}

impl Format {
    pub fn kind(&self) -> Kind {
        match self {
            Format::Text | Format::TextDeclared => Kind::Text,
            Format::Pdf => Kind::Pdf,
            Format::Docx => Kind::Word,
            Format::Xlsx | Format::Xlsb | Format::Ods => Kind::Spreadsheet,
            Format::Pptx => Kind::Slides,
            Format::Png | Format::Jpeg | Format::Gif | Format::Webp => Kind::Image,
            Format::Zip | Format::Tar | Format::TarGz => Kind::Archive,
            Format::Other { .. } => Kind::Other,
        }
    }

    pub fn label(&self) -> &'static str {
        match self {
            Format::Text | Format::TextDeclared => "text file",
            Format::Pdf => "PDF document",
            Format::Docx => "Word document (docx)",
            Format::Xlsx => "Excel workbook (xlsx)",
            Format::Xlsb => "Excel binary workbook (xlsb)",
            Format::Ods => "OpenDocument spreadsheet (ods)",
            Format::Pptx => "PowerPoint deck (pptx)",
            Format::Png => "PNG image",
            Format::Jpeg => "JPEG image",
            Format::Gif => "GIF image",
            Format::Webp => "WebP image",
            Format::Zip => "zip archive",
            Format::Tar => "tar archive",
            Format::TarGz => "gzip-compressed tar archive",
            Format::Other { label, .. } => label,
        }
    }
}

const fn other(label: &'static str) -> Format {
    Format::Other {
        label,
        reads_as: None,
    }
}

const fn other_hint(label: &'static str, hint: &'static str) -> Format {
    Format::Other {
        label,
        reads_as: Some(hint),
    }
}

const LEGACY_WORD: Format = other_hint(
    "Word 97-2003 document (doc)",
    "saved as .docx or PDF it can be read",
);
const LEGACY_EXCEL: Format = other_hint(
    "Excel 97-2003 workbook (xls)",
    "saved as .xlsx, .ods or CSV it can be read",
);
const LEGACY_POWERPOINT: Format = other_hint(
    "PowerPoint 97-2003 deck (ppt)",
    "saved as .pptx or PDF it can be read",
);

/// Media types of text beyond `text/*`, `*+json` and `*+xml`.
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
    "application/rtf",
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
    "rtf",
    "eml",
];

/// The name's extension, lower-cased; `tar.gz` counts as one.
fn extension(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let lower = base.to_ascii_lowercase();
    if lower.ends_with(".tar.gz") {
        return "tar.gz".to_string();
    }
    match lower.rsplit_once('.') {
        Some((_, ext)) => ext.to_string(),
        // A name without a dot (Makefile, Dockerfile) is its own extension.
        None => lower,
    }
}

/// The declared type without parameters, lower-cased; a generic type counts as none.
fn media_type(mime: Option<&str>) -> Option<String> {
    let m = mime?.split(';').next()?.trim().to_ascii_lowercase();
    match m.as_str() {
        ""
        | "application/octet-stream"
        | "binary/octet-stream"
        | "application/x-download"
        | "application/unknown" => None,
        _ => Some(m),
    }
}

fn by_extension(ext: &str) -> Option<Format> {
    Some(match ext {
        "pdf" => Format::Pdf,
        "docx" | "docm" | "dotx" | "dotm" => Format::Docx,
        "xlsx" | "xlsm" | "xltx" | "xltm" => Format::Xlsx,
        "xlsb" => Format::Xlsb,
        "ods" => Format::Ods,
        "pptx" | "pptm" | "ppsx" | "ppsm" | "potx" => Format::Pptx,
        "png" => Format::Png,
        "jpg" | "jpeg" | "jpe" | "jfif" => Format::Jpeg,
        "gif" => Format::Gif,
        "webp" => Format::Webp,
        "zip" => Format::Zip,
        "tar" => Format::Tar,
        "tar.gz" | "tgz" => Format::TarGz,
        "doc" | "dot" => LEGACY_WORD,
        "xls" | "xlt" => LEGACY_EXCEL,
        "ppt" | "pps" => LEGACY_POWERPOINT,
        "odt" => other_hint(
            "OpenDocument text (odt)",
            "saved as .docx or PDF it can be read",
        ),
        "odp" => other_hint(
            "OpenDocument presentation (odp)",
            "saved as .pptx or PDF it can be read",
        ),
        "pages" | "numbers" | "key" => other("Apple iWork document"),
        "heic" | "heif" => other_hint("HEIC image", "converted to JPEG or PNG it can be read"),
        "tif" | "tiff" => other_hint("TIFF image", "converted to PNG or JPEG it can be read"),
        "bmp" => other_hint("BMP image", "converted to PNG it can be read"),
        "psd" => other("Photoshop document"),
        "mp4" | "m4v" | "mov" | "avi" | "mkv" | "webm" | "wmv" | "mpg" | "mpeg" => other("video"),
        "mp3" | "m4a" | "wav" | "ogg" | "oga" | "flac" | "aac" | "opus" | "wma" => other("audio"),
        "7z" => other("7-Zip archive"),
        "rar" => other("RAR archive"),
        "gz" => other("gzip-compressed file"),
        "bz2" | "tbz2" => other("bzip2-compressed file"),
        "xz" | "txz" => other("xz-compressed file"),
        "zst" => other("Zstandard-compressed file"),
        "exe" | "dll" | "msi" => other("Windows program"),
        "dmg" => other("macOS disk image"),
        "iso" => other("disk image"),
        "apk" | "ipa" => other("mobile app package"),
        "ttf" | "otf" | "woff" | "woff2" => other("font"),
        "sqlite" | "db" => other("database file"),
        _ if TEXT_EXTENSIONS.contains(&ext) => Format::Text,
        _ => return None,
    })
}

fn by_media_type(m: &str) -> Option<Format> {
    Some(match m {
        "application/pdf" => Format::Pdf,
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document" => Format::Docx,
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" => Format::Xlsx,
        "application/vnd.ms-excel.sheet.binary.macroenabled.12" => Format::Xlsb,
        "application/vnd.ms-excel.sheet.macroenabled.12" => Format::Xlsx,
        "application/vnd.oasis.opendocument.spreadsheet" => Format::Ods,
        "application/vnd.openxmlformats-officedocument.presentationml.presentation" => Format::Pptx,
        "image/png" => Format::Png,
        "image/jpeg" | "image/jpg" | "image/pjpeg" => Format::Jpeg,
        "image/gif" => Format::Gif,
        "image/webp" => Format::Webp,
        "application/zip" | "application/x-zip-compressed" => Format::Zip,
        "application/x-tar" => Format::Tar,
        "application/gzip" | "application/x-gzip" | "application/x-compressed-tar" => Format::TarGz,
        "application/msword" => LEGACY_WORD,
        "application/vnd.ms-excel" => LEGACY_EXCEL,
        "application/vnd.ms-powerpoint" => LEGACY_POWERPOINT,
        "image/heic" | "image/heif" => other("HEIC image"),
        "image/tiff" => other("TIFF image"),
        "image/bmp" => other("BMP image"),
        "application/x-7z-compressed" => other("7-Zip archive"),
        "application/vnd.rar" | "application/x-rar-compressed" => other("RAR archive"),
        _ if m.starts_with("video/") => other("video"),
        _ if m.starts_with("audio/") => other("audio"),
        _ if m.starts_with("font/") => other("font"),
        _ if m.starts_with("text/")
            || m.ends_with("+json")
            || m.ends_with("+xml")
            || TEXT_TYPES.contains(&m) =>
        {
            Format::Text
        }
        _ => return None,
    })
}

/// What the name and declared type say, the extension first; `None` when neither says anything known.
pub(crate) fn by_name(name: &str, mime: Option<&str>) -> Option<Format> {
    by_extension(&extension(name)).or_else(|| media_type(mime).and_then(|m| by_media_type(&m)))
}

fn starts(bytes: &[u8], magic: &[u8]) -> bool {
    bytes.starts_with(magic)
}

/// What the bytes say, foremost, then the name and type.
pub(crate) fn detect(bytes: &[u8], name: &str, mime: Option<&str>) -> Format {
    let named = by_name(name, mime);
    if let Some(found) = by_magic(bytes, named.as_ref()) {
        return found;
    }
    if let Some(text) = text_by_content(bytes) {
        return text;
    }
    match named {
        // Declared text whose bytes are not UTF-8 but hold no NUL: an 8-bit encoding.
        Some(Format::Text) if !bytes.iter().take(8192).any(|b| *b == 0) => Format::TextDeclared,
        Some(Format::Text) => other("binary file named as text"),
        // A readable kind by name whose bytes are not of it: let its reader say what is wrong.
        Some(f) if f.kind() != Kind::Other && !bytes.is_empty() => f,
        Some(f @ Format::Other { .. }) => f,
        _ => other("binary file of unknown type"),
    }
}

fn text_by_content(bytes: &[u8]) -> Option<Format> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Some(Format::Text);
    }
    let ok = std::str::from_utf8(bytes).is_ok_and(|s| !s.contains('\0'));
    ok.then_some(Format::Text)
}

fn by_magic(bytes: &[u8], named: Option<&Format>) -> Option<Format> {
    let head = &bytes[..bytes.len().min(1024)];
    // A PDF may have bytes before its header; trust a late header only in a file named as a PDF.
    if starts(bytes, b"%PDF-")
        || (named == Some(&Format::Pdf) && head.windows(5).any(|w| w == b"%PDF-"))
    {
        return Some(Format::Pdf);
    }
    if starts(bytes, b"\x89PNG\r\n\x1a\n") {
        return Some(Format::Png);
    }
    if starts(bytes, &[0xFF, 0xD8, 0xFF]) {
        return Some(Format::Jpeg);
    }
    if starts(bytes, b"GIF87a") || starts(bytes, b"GIF89a") {
        return Some(Format::Gif);
    }
    if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        return Some(Format::Webp);
    }
    if starts(bytes, b"PK\x03\x04") || starts(bytes, b"PK\x05\x06") {
        return Some(zip_kind(bytes, named));
    }
    if starts(bytes, &[0x1F, 0x8B]) {
        return Some(if gzip_holds_tar(bytes) {
            Format::TarGz
        } else {
            other("gzip-compressed file")
        });
    }
    if bytes.len() >= 262 && &bytes[257..262] == b"ustar" {
        return Some(Format::Tar);
    }
    if starts(bytes, &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        return Some(match named {
            Some(f @ Format::Other { .. }) => f.clone(),
            Some(Format::Xlsx | Format::Xlsb | Format::Ods) => LEGACY_EXCEL,
            Some(Format::Pptx) => LEGACY_POWERPOINT,
            Some(Format::Docx) => LEGACY_WORD,
            _ => other("Microsoft compound document (legacy Office file, or an encrypted one)"),
        });
    }
    let magic: &[(&[u8], usize, Format)] = &[
        (b"7z\xBC\xAF\x27\x1C", 0, other("7-Zip archive")),
        (b"Rar!\x1A\x07", 0, other("RAR archive")),
        (b"BZh", 0, other("bzip2-compressed file")),
        (b"\xFD7zXZ\x00", 0, other("xz-compressed file")),
        (b"\x28\xB5\x2F\xFD", 0, other("Zstandard-compressed file")),
        (b"\x7FELF", 0, other("Linux program (ELF)")),
        (b"MZ", 0, other("Windows program")),
        (b"\xCA\xFE\xBA\xBE", 0, other("Java class or macOS program")),
        (b"\xCF\xFA\xED\xFE", 0, other("macOS program")),
        (b"II*\x00", 0, other("TIFF image")),
        (b"MM\x00*", 0, other("TIFF image")),
        (b"BM", 0, other("BMP image")),
        (b"8BPS", 0, other("Photoshop document")),
        (b"OggS", 0, other("Ogg audio or video")),
        (b"fLaC", 0, other("FLAC audio")),
        (b"ID3", 0, other("MP3 audio")),
        (b"\x1A\x45\xDF\xA3", 0, other("Matroska or WebM video")),
        (b"SQLite format 3\x00", 0, other("SQLite database")),
        (b"wOFF", 0, other("font")),
        (b"wOF2", 0, other("font")),
    ];
    for (sig, at, format) in magic {
        if bytes.len() >= at + sig.len() && &bytes[*at..at + sig.len()] == *sig {
            // "BM" and "MZ" are short: trust them only when the name does not say text.
            if sig.len() == 2 && matches!(named, Some(Format::Text)) {
                continue;
            }
            return Some(format.clone());
        }
    }
    if bytes.len() >= 12 && &bytes[4..8] == b"ftyp" {
        let brand = &bytes[8..12];
        return Some(match brand {
            b"heic" | b"heix" | b"mif1" | b"msf1" | b"heim" | b"heis" => {
                other_hint("HEIC image", "converted to JPEG or PNG it can be read")
            }
            b"avif" | b"avis" => {
                other_hint("AVIF image", "converted to JPEG or PNG it can be read")
            }
            b"M4A " | b"M4B " => other("audio"),
            _ => other("video"),
        });
    }
    if bytes.len() >= 12 && &bytes[..4] == b"RIFF" {
        return Some(match &bytes[8..12] {
            b"WAVE" => other("WAV audio"),
            b"AVI " => other("AVI video"),
            _ => other("RIFF file"),
        });
    }
    None
}

/// Which zip-based format a zip is, by the parts it holds.
fn zip_kind(bytes: &[u8], named: Option<&Format>) -> Format {
    let Ok(mut zip) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        // A broken zip: its name may say what it meant to be; its reader says what is wrong.
        return match named {
            Some(f @ (Format::Docx | Format::Xlsx | Format::Xlsb | Format::Ods | Format::Pptx)) => {
                f.clone()
            }
            _ => Format::Zip,
        };
    };
    let has = |zip: &zip::ZipArchive<Cursor<&[u8]>>, part: &str| zip.index_for_name(part).is_some();
    if has(&zip, "[Content_Types].xml") {
        if has(&zip, "word/document.xml") {
            return Format::Docx;
        }
        if has(&zip, "xl/workbook.xml") {
            return Format::Xlsx;
        }
        if has(&zip, "xl/workbook.bin") {
            return Format::Xlsb;
        }
        if has(&zip, "ppt/presentation.xml") {
            return Format::Pptx;
        }
        if has(&zip, "visio/document.xml") {
            return other("Visio drawing (vsdx)");
        }
    }
    if let Some(i) = zip.index_for_name("mimetype") {
        let mut declared = Vec::new();
        if let Ok(entry) = zip.by_index(i) {
            // The mimetype part is a short line; read no more than a line's worth.
            let _ = entry.take(100).read_to_end(&mut declared);
        }
        match declared.trim_ascii() {
            b"application/vnd.oasis.opendocument.spreadsheet" => return Format::Ods,
            b"application/vnd.oasis.opendocument.text" => {
                return other_hint(
                    "OpenDocument text (odt)",
                    "saved as .docx or PDF it can be read",
                );
            }
            b"application/vnd.oasis.opendocument.presentation" => {
                return other_hint(
                    "OpenDocument presentation (odp)",
                    "saved as .pptx or PDF it can be read",
                );
            }
            _ => {}
        }
    }
    Format::Zip
}

/// Whether a gzip stream starts with a tar header (`ustar` at byte 257 once inflated).
fn gzip_holds_tar(bytes: &[u8]) -> bool {
    let mut head = Vec::new();
    let decoder = flate2::read::GzDecoder::new(bytes);
    if decoder.take(512).read_to_end(&mut head).is_err() && head.len() < 262 {
        return false;
    }
    head.len() >= 262 && &head[257..262] == b"ustar"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_and_types() {
        assert_eq!(extension("a/b/Report.PDF"), "pdf");
        assert_eq!(extension("x.tar.gz"), "tar.gz");
        assert_eq!(extension("Makefile"), "makefile");
        assert_eq!(by_name("notes.md", None), Some(Format::Text));
        assert_eq!(
            by_name("blob", Some("application/pdf; charset=binary")),
            Some(Format::Pdf)
        );
        assert_eq!(by_name("blob", Some("application/octet-stream")), None);
        assert_eq!(
            by_name("film.mp4", None).map(|f| f.kind()),
            Some(Kind::Other)
        );
    }

    #[test]
    fn magic_wins_over_the_name() {
        assert_eq!(detect(b"%PDF-1.4\n", "x.txt", None), Format::Pdf);
        assert_eq!(detect(b"hello\n", "x.bin", None), Format::Text);
        assert_eq!(detect(b"caf\xe9\n", "x.csv", None), Format::TextDeclared);
        assert_eq!(detect(b"\x00\x01\x02", "x", None).kind(), Kind::Other);
    }
}
