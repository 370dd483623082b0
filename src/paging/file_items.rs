//! File items: a shared file's content paged by cursor like any other list. Its items are what
//! `attachment-reader` reads from it: a text file's lines, a PDF's pages, a Word document's paragraphs
//! and table rows, a spreadsheet's sheets and rows, a deck's slides, an archive's entries.
//!
//! Mattermost serves a file whole (`GET /files/{id}`, no ranges the API documents), and a file never
//! changes once uploaded, so a position in its items stays valid: the cursor holds the item and the
//! byte in its text where the next page starts. A page holds at most `limit` pieces and stops before
//! the piece that would take its items past [`PAGE_BYTES`] of JSON, so a page of long PDF pages and a
//! page of short sheet rows cost about the same; an item longer than [`attachment_reader::CHUNK`] bytes
//! comes in pieces (split at a line end where one falls in the piece's second half), each with the
//! item's location, all but its last marked `continues: true`. A page always holds one piece at least,
//! so paging always moves on.

use super::cursor::{self, Fields, Reader};
use attachment_reader::{Item, Location};
use schemars::JsonSchema;
use serde::Serialize;

/// A page stops before the piece that would take its items past this many bytes of JSON.
pub(crate) const PAGE_BYTES: usize = attachment_reader::PAGE_BYTES;

/// Where the next page starts: item `item` (from 0), byte `byte` of its text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Position {
    pub(crate) item: usize,
    pub(crate) byte: usize,
}

impl cursor::Position for Position {
    fn write(&self, f: &mut Fields) {
        f.num(self.item as i64).num(self.byte as i64);
    }

    fn read(r: &mut Reader<'_>) -> Option<Position> {
        Some(Position {
            item: usize::try_from(r.num()?).ok()?,
            byte: usize::try_from(r.num()?).ok()?,
        })
    }
}

/// One piece of a file as a page gives it: where it is, beside its text (`{"line": 3}`, `{"page": 2}`,
/// `{"paragraph": 4, "heading": 1}`, `{"sheet": "Q1", "row": 7}`, `{"slide": 5, "title": true}`,
/// `{"entry": 9, "size": 120}`…), and the text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct Part {
    /// Where the piece is; its fields tell the kinds apart.
    #[serde(flatten)]
    #[schemars(skip)]
    pub(crate) at: Location,
    pub(crate) text: String,
    /// true when the item's text goes on in the next piece.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) continues: bool,
}

/// The bytes of a piece's JSON, as a page counts them.
fn cost(part: &Part) -> usize {
    serde_json::to_string(part).map_or(usize::MAX / 4, |s| s.len() + 1)
}

/// One page of `items` from `from`: at most `limit` pieces (one at least) and [`PAGE_BYTES`] of JSON,
/// and where the next page starts (`None` at the end).
pub(crate) fn page(items: &[Item], from: Position, limit: usize) -> (Vec<Part>, Option<Position>) {
    let mut at = attachment_reader::Position {
        item: from.item,
        byte: from.byte,
    };
    let mut parts = Vec::new();
    let mut bytes = 0usize;
    while parts.len() < limit.max(1) {
        // A budget of nothing gives exactly one piece, and where the next one starts.
        let (mut one, next) = attachment_reader::page(items, at, 0);
        let Some(piece) = one.pop() else {
            return (parts, None);
        };
        let part = Part {
            at: piece.at.clone(),
            text: piece.text.to_string(),
            continues: piece.continues,
        };
        let c = cost(&part);
        if !parts.is_empty() && bytes + c > PAGE_BYTES {
            break;
        }
        bytes += c;
        parts.push(part);
        match next {
            Some(n) => at = n,
            None => return (parts, None),
        }
    }
    let next = (at.item < items.len()).then_some(Position {
        item: at.item,
        byte: at.byte,
    });
    (parts, next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: u32, text: &str) -> Item {
        Item {
            at: Location::Line { line: n },
            text: text.to_string(),
        }
    }

    #[test]
    fn pages_go_on_where_the_last_stopped_and_say_where_each_piece_is() {
        let items = vec![line(1, "one"), line(2, "two"), line(3, "three")];
        let (first, next) = page(&items, Position::default(), 2);
        assert_eq!(first.len(), 2);
        assert_eq!(
            serde_json::to_value(&first[1]).ok(),
            Some(serde_json::json!({"line": 2, "text": "two"}))
        );
        let (rest, end) = page(&items, next.unwrap_or_default(), 2);
        assert_eq!(rest.len(), 1);
        assert_eq!(rest[0].text, "three");
        assert!(end.is_none());
    }

    #[test]
    fn a_long_item_comes_in_pieces_and_a_page_stops_at_its_json_bytes() {
        let long = "é".repeat(attachment_reader::CHUNK); // two bytes each
        let items = vec![line(1, &long), line(2, "tail")];
        let mut from = Position::default();
        let mut joined = String::new();
        let mut pages = 0;
        loop {
            let (parts, next) = page(&items, from, 200);
            pages += 1;
            let json = serde_json::to_string(&parts).map(|s| s.len()).unwrap_or(0);
            assert!(json <= PAGE_BYTES + 2, "{json} bytes");
            for p in parts.iter().filter(|p| p.at == Location::Line { line: 1 }) {
                joined.push_str(&p.text);
            }
            match next {
                Some(n) => from = n,
                None => break,
            }
        }
        assert_eq!(joined, long);
        assert!(pages >= 1);
    }

    #[test]
    fn many_short_items_fill_a_page_by_their_json_not_their_text() {
        let items: Vec<Item> = (1..=5000)
            .map(|i| Item {
                at: Location::Row {
                    sheet: "Budget".into(),
                    row: i,
                },
                text: "x".into(),
            })
            .collect();
        let (parts, next) = page(&items, Position::default(), usize::MAX);
        let json = serde_json::to_string(&parts).map(|s| s.len()).unwrap_or(0);
        assert!(json <= PAGE_BYTES && json > PAGE_BYTES - 100, "{json}");
        assert_eq!(next.map(|n| n.item), Some(parts.len()));
    }
}
