//! Text files: decoded (UTF-8, UTF-16 with a byte-order mark, or Windows-1252 for a file declared
//! text that is not UTF-8) and given by line, numbered from 1.
//!
//! A final newline does not start a line; `\r\n` counts as one line end, as `read_file` has it.

use crate::{Collector, Item, Location, Read};

/// Reads a file found text by its content.
pub(crate) fn read(bytes: &[u8]) -> Read {
    let mut notes = Vec::new();
    let text = if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        notes.push("Decoded from UTF-16 (little-endian).".to_string());
        decode_utf16(rest, u16::from_le_bytes)
    } else if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        notes.push("Decoded from UTF-16 (big-endian).".to_string());
        decode_utf16(rest, u16::from_be_bytes)
    } else {
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        String::from_utf8_lossy(body).into_owned()
    };
    Ok(lines(&text, notes))
}

/// Reads a file declared text whose bytes are not UTF-8, as Windows-1252 (Latin-1's superset).
pub(crate) fn read_declared(bytes: &[u8]) -> Read {
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
    let notes = vec![
        "The file is not UTF-8: it was decoded as Windows-1252 (Western European); a character \
         may show wrong if it was written in another encoding."
            .to_string(),
    ];
    Ok(lines(&text, notes))
}

fn decode_utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|c| unit([c[0], c[1]]));
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

fn lines(text: &str, mut notes: Vec<String>) -> (Vec<Item>, Vec<String>, Option<String>) {
    let mut out = Collector::new();
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut count = 0u32;
    if !text.is_empty() {
        for line in body.split('\n') {
            count += 1;
            let line = line.strip_suffix('\r').unwrap_or(line);
            if !out.push(Location::Line { line: count }, line.to_string()) {
                break;
            }
        }
    }
    if text.is_empty() {
        notes.push("The file is empty.".to_string());
    }
    notes.extend(out.note("the rest of the file"));
    let detail = if out.is_full() {
        None
    } else {
        Some(format!("{count} lines"))
    };
    (out.items, notes, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(bytes: &[u8]) -> Vec<String> {
        match read(bytes) {
            Ok((items, _, _)) => items.into_iter().map(|i| i.text).collect(),
            Err(e) => vec![e],
        }
    }

    #[test]
    fn lines_end_at_newlines() {
        assert_eq!(texts(b"a\r\nb\n"), ["a", "b"]);
        assert_eq!(texts(b"a\n\nb"), ["a", "", "b"]);
        assert!(texts(b"").is_empty());
        assert_eq!(texts(b"\xEF\xBB\xBFbom"), ["bom"]);
        assert_eq!(texts(b"\xFF\xFEh\x00i\x00\n\x00"), ["hi"]);
    }
}
