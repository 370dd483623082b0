//! File lines: a text file's content paged by cursor like any other list, its items the lines.
//!
//! Mattermost serves a file whole (`GET /files/{id}`, no ranges the API documents), and a file never
//! changes once uploaded, so a position in it stays valid: the cursor holds the line and the byte in it
//! where the next page starts. A page holds at most `limit` items and stops early at [`PAGE_BYTES`] of
//! text, so a page of long lines stays small; a line longer than [`CHUNK`] bytes is given in pieces,
//! each an item with the same line number, all but its last marked `continues: true`. Lines are
//! numbered from 1; a final newline does not start a line; `\r\n` counts as one line end.

use super::cursor::{self, Fields, Reader};
use schemars::JsonSchema;
use serde::Serialize;

/// A page stops once it holds this many bytes of text.
pub const PAGE_BYTES: usize = 32 * 1024;
/// The longest piece of a line one item holds.
pub const CHUNK: usize = 8 * 1024;

/// Where the next page starts: line `l` (from 0), byte `b` of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub l: usize,
    pub b: usize,
}

impl cursor::Position for Position {
    fn write(&self, f: &mut Fields) {
        f.num(self.l as i64).num(self.b as i64);
    }

    fn read(r: &mut Reader<'_>) -> Option<Position> {
        Some(Position {
            l: usize::try_from(r.num()?).ok()?,
            b: usize::try_from(r.num()?).ok()?,
        })
    }
}

/// One line of a text file, or a piece of a long one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Line {
    /// The line's number, from 1.
    pub line: usize,
    pub text: String,
    /// true when the line goes on in the next item.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub continues: bool,
}

/// The lines of a text.
pub fn lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// The largest index at most `at` that falls on a character boundary of `s`.
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut i = at.min(s.len());
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One page of `lines` from `from` (the start when `None`): the items and where the next page starts.
pub fn page(lines: &[&str], from: Option<Position>, limit: usize) -> (Vec<Line>, Option<Position>) {
    let mut at = from.unwrap_or(Position { l: 0, b: 0 });
    let mut items = Vec::new();
    let mut bytes = 0usize;
    while at.l < lines.len() && items.len() < limit.max(1) {
        let line = lines[at.l];
        let start = floor_boundary(line, at.b);
        let mut end = floor_boundary(line, start + CHUNK);
        if end == start && start < line.len() {
            // A character wider than the chunk cannot happen for UTF-8, but never stall.
            end = line.len();
        }
        let piece = &line[start..end];
        if !items.is_empty() && bytes + piece.len() > PAGE_BYTES {
            break;
        }
        bytes += piece.len();
        let continues = end < line.len();
        items.push(Line {
            line: at.l + 1,
            text: piece.to_string(),
            continues,
        });
        if continues {
            at.b = end;
        } else {
            at = Position { l: at.l + 1, b: 0 };
        }
    }
    let next = (at.l < lines.len()).then_some(at);
    (items, next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_newlines_and_a_final_newline_starts_none() {
        assert_eq!(lines("a\r\nb\n"), ["a", "b"]);
        assert_eq!(lines("a\n\nb"), ["a", "", "b"]);
        assert!(lines("").is_empty());
        assert_eq!(lines("\n"), [""]);
    }

    #[test]
    fn pages_go_on_where_the_last_stopped() {
        let text = "one\ntwo\nthree\n";
        let all = lines(text);
        let (first, next) = page(&all, None, 2);
        assert_eq!(first.len(), 2);
        assert_eq!(first[1].line, 2);
        let (rest, end) = page(&all, next, 2);
        assert_eq!(
            rest,
            vec![Line {
                line: 3,
                text: "three".into(),
                continues: false
            }]
        );
        assert!(end.is_none());
    }

    #[test]
    fn a_long_line_comes_in_pieces_and_a_page_stops_at_its_bytes() {
        let long = "é".repeat(CHUNK); // two bytes each
        let all = vec![long.as_str(), "tail"];
        let (items, next) = page(&all, None, 100);
        let joined: String = items
            .iter()
            .filter(|i| i.line == 1)
            .map(|i| i.text.as_str())
            .collect();
        assert_eq!(joined, long);
        assert!(items.iter().all(|i| i.line != 2) || next.is_none());
        let bytes: usize = items.iter().map(|i| i.text.len()).sum();
        assert!(bytes <= PAGE_BYTES);
    }
}
