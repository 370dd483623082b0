//! Pages of items: from a position (an item and a byte in its text) to about a byte budget of text.
//!
//! A file's items never change, so a position stays valid across calls: a caller keeps it in its
//! cursor. An item longer than [`CHUNK`] bytes is given in pieces, each with the item's location, all
//! but the last marked `continues`; a piece ends at a line end when one falls in its second half, so a
//! PDF page splits between lines. A page holds at least one piece, so paging always moves on.
//!
//! The budget counts each piece's text and about what its location adds once serialized, so a page
//! of short items (sheet rows, archive entries) is about as large in JSON as a page of long ones.

use crate::{Item, Location};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The text a page holds, about: a page stops before the piece that would take it past this.
pub const PAGE_BYTES: usize = 32 * 1024;
/// The longest piece of an item a page gives at once.
pub const CHUNK: usize = 8 * 1024;

/// Where a page starts: item `item` (from 0), byte `byte` of its text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Position {
    /// The index of the item in the file's items, from 0.
    pub item: usize,
    /// The byte offset in that item's text where the page starts (0 for its start; always on a
    /// character boundary when it comes from [`page`]).
    pub byte: usize,
}

/// A piece of an item as a page gives it: the whole item, or part of a long one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Piece<'a> {
    /// The item's location (every piece of an item carries it).
    #[serde(flatten)]
    pub at: &'a Location,
    /// This piece of the item's text: all of it, or at most [`CHUNK`] bytes of a long one.
    pub text: &'a str,
    /// The item's text goes on in the next piece.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub continues: bool,
}

/// The largest index at most `at` that falls on a character boundary of `s`.
fn floor_boundary(s: &str, at: usize) -> usize {
    let mut i = at.min(s.len());
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Where the piece of `text` that starts at `start` ends.
fn piece_end(text: &str, start: usize) -> usize {
    if text.len() - start <= CHUNK {
        return text.len();
    }
    let hard = floor_boundary(text, start + CHUNK);
    let mid = floor_boundary(text, start + CHUNK / 2).max(start);
    let soft = text[mid..hard].rfind('\n').map(|i| mid + i + 1);
    match soft {
        Some(end) => end,
        None if hard > start => hard,
        // Never stall, whatever the text.
        None => text.len(),
    }
}

/// About the bytes a piece's location and braces add to its text once serialized as JSON.
fn overhead(at: &Location) -> usize {
    const BRACES: usize = 12; // {"text":"",} and a comma between pieces
    BRACES
        + match at {
            Location::Line { .. } => 14,
            Location::Page { .. } => 12,
            Location::Paragraph { heading, .. } => 20 + if heading.is_some() { 12 } else { 0 },
            Location::TableRow { .. } => 40,
            Location::Sheet { sheet } => 12 + sheet.len(),
            Location::Row { sheet, .. } => 24 + sheet.len(),
            Location::Slide { title, notes, .. } => {
                14 + if *title { 12 } else { 0 } + if *notes { 13 } else { 0 }
            }
            Location::Entry { modified, dir, .. } => {
                36 + modified.as_ref().map_or(0, |m| m.len() + 14) + if *dir { 11 } else { 0 }
            }
        }
}

/// One page of `items` from `from`, holding at most about `budget` bytes (text and locations, at
/// least one piece): its pieces and where the next page starts (`None` at the end).
pub fn page(items: &[Item], from: Position, budget: usize) -> (Vec<Piece<'_>>, Option<Position>) {
    let mut at = from;
    let mut pieces = Vec::new();
    let mut bytes = 0usize;
    while let Some(item) = items.get(at.item) {
        let text = item.text.as_str();
        let start = floor_boundary(text, at.byte);
        let end = piece_end(text, start);
        let piece = &text[start..end];
        let cost = piece.len() + overhead(&item.at);
        if !pieces.is_empty() && bytes + cost > budget {
            break;
        }
        bytes += cost;
        let continues = end < text.len();
        pieces.push(Piece {
            at: &item.at,
            text: piece,
            continues,
        });
        at = if continues {
            Position {
                item: at.item,
                byte: end,
            }
        } else {
            Position {
                item: at.item + 1,
                byte: 0,
            }
        };
    }
    let next = (at.item < items.len()).then_some(at);
    (pieces, next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(n: u32, text: String) -> Item {
        Item {
            at: Location::Page { page: n },
            text,
        }
    }

    #[test]
    fn pages_cover_every_byte_once_and_split_at_lines() {
        let long: String = (0..2000).map(|i| format!("line {i} é\n")).collect();
        let items = vec![
            item(1, "short".into()),
            item(2, long.clone()),
            item(3, "end".into()),
        ];
        let mut from = Position::default();
        let mut rebuilt = vec![String::new(); 3];
        let mut pages = 0;
        loop {
            let (pieces, next) = page(&items, from, 10_000);
            pages += 1;
            let bytes: usize = pieces.iter().map(|p| p.text.len() + overhead(p.at)).sum();
            assert!(bytes <= 10_000 || pieces.len() == 1);
            for p in &pieces {
                let Location::Page { page } = p.at else {
                    panic!("not a page")
                };
                if p.continues {
                    assert!(p.text.ends_with('\n'));
                    assert!(p.text.len() <= CHUNK);
                }
                rebuilt[*page as usize - 1].push_str(p.text);
            }
            match next {
                Some(n) => from = n,
                None => break,
            }
        }
        assert_eq!(rebuilt, ["short".to_string(), long, "end".to_string()]);
        assert!(pages > 2);
    }

    #[test]
    fn a_piece_never_stalls_on_text_without_line_ends() {
        let items = vec![item(1, "é".repeat(3 * CHUNK))];
        let (pieces, next) = page(&items, Position::default(), 1);
        assert_eq!(pieces.len(), 1);
        assert!(pieces[0].continues);
        assert!(next.is_some_and(|n| n.byte > 0 && n.item == 0));
    }
}
