//! How `call_operation` pages what Mattermost answers, whatever the operation: Mattermost's answer is
//! read as a [`Shaped`] value (a list, out of an array or a wrapper such as `PostList`; an object; a
//! scalar; bytes; nothing) and cut into pages bounded in items and bytes, each continued by a
//! [`Position`] in the opaque cursor:
//!
//! - a list: after the last item shown, by its index and identity (its id, or a digest of it), in
//!   Mattermost's order; a list read again finds the item by identity, so it neither skips nor repeats
//!   what remains unless that item itself is gone;
//! - an object larger than a page: between its top-level fields, by index;
//! - bytes: by byte offset (text as text, anything else as base64);
//! - a `page`/`per_page` list Mattermost walks (see `call_operation`): by offset in items;
//! - a `before`/`after` list: by the id of the last item shown.
//!
//! Nothing is dropped silently: what a page leaves out is on a later page, and what is never paged (the
//! tail of bytes past [`MAX_BYTES`]) is said in the answer.

use crate::paging::cursor::{Fields, Position as CursorPosition, Reader};
use base64::Engine;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The most bytes of JSON one page holds (a page holds at least one item or field, whatever its size).
pub(crate) const PAGE_BYTES: usize = 24_000;
/// The most bytes of one page of bytes (before base64).
pub(crate) const CHUNK_BYTES: usize = 16_000;
/// The most bytes of a binary or text answer read and paged.
pub(crate) const MAX_BYTES: usize = 4 * 1024 * 1024;

/// Where the next page of an answer starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Position {
    /// The list item at `at`, after the item whose identity is `after`.
    Item { at: usize, after: String },
    /// The top-level field at `at` of an object cut between its fields.
    Field { at: usize },
    /// The byte at `at` of a text or binary answer.
    Byte { at: usize },
    /// The item at offset `at` of a list Mattermost pages by `page`/`per_page`.
    Offset { at: i64 },
    /// Before (`back`) or after the item with this id, for a list Mattermost pages by `before`/`after`.
    Key { back: bool, id: String },
}

impl CursorPosition for Position {
    fn write(&self, f: &mut Fields) {
        match self {
            Position::Item { at, after } => f.tag('i').num(*at as i64).text(after),
            Position::Field { at } => f.tag('f').num(*at as i64),
            Position::Byte { at } => f.tag('b').num(*at as i64),
            Position::Offset { at } => f.tag('o').num(*at),
            Position::Key { back, id } => f.tag(if *back { 'k' } else { 'a' }).id(id),
        };
    }

    fn read(r: &mut Reader<'_>) -> Option<Position> {
        let index = |n: i64| usize::try_from(n).ok();
        Some(match r.tag()? {
            'i' => Position::Item {
                at: index(r.num()?)?,
                after: r.text()?,
            },
            'f' => Position::Field {
                at: index(r.num()?)?,
            },
            'b' => Position::Byte {
                at: index(r.num()?)?,
            },
            'o' => Position::Offset {
                at: r.num().filter(|n| *n >= 0)?,
            },
            'k' => Position::Key {
                back: true,
                id: r.id()?,
            },
            'a' => Position::Key {
                back: false,
                id: r.id()?,
            },
            _ => return None,
        })
    }
}

/// Mattermost's answer, read for paging.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shaped {
    /// A list, with the other fields of the object that wrapped it (`PostList`'s `next_post_id`, a
    /// `total_count`).
    List {
        items: Vec<Value>,
        meta: Map<String, Value>,
    },
    /// One object, its top-level fields in Mattermost's order.
    Object(Map<String, Value>),
    /// A string, number, boolean or null.
    Scalar(Value),
    /// Bytes: text when they are UTF-8, else shown as base64. `cut`: Mattermost's answer was longer
    /// than [`MAX_BYTES`].
    Bytes {
        content_type: Option<String>,
        bytes: Vec<u8>,
        cut: bool,
    },
    /// No body.
    Empty,
}

/// The list inside an answer of a list operation: an array; a `PostList` (its `order` of ids over its
/// `posts` map, or `order` over `file_infos`); or the one array of objects an object wraps. `None` when
/// the answer holds no list.
pub(crate) fn list_of(value: &Value) -> Option<(Vec<Value>, Map<String, Value>)> {
    match value {
        Value::Array(items) => Some((items.clone(), Map::new())),
        Value::Null => Some((Vec::new(), Map::new())),
        Value::Object(map) => {
            if let Some(order) = map.get("order").and_then(Value::as_array) {
                for by_id in ["posts", "file_infos"] {
                    if let Some(objects) = map.get(by_id).and_then(Value::as_object) {
                        let items = order
                            .iter()
                            .filter_map(Value::as_str)
                            .filter_map(|id| objects.get(id).cloned())
                            .collect();
                        let meta = map
                            .iter()
                            .filter(|(k, _)| *k != "order" && *k != by_id)
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect();
                        return Some((items, meta));
                    }
                }
            }
            let arrays: Vec<&String> = map
                .iter()
                .filter(|(_, v)| v.as_array().is_some_and(|a| a.iter().all(Value::is_object)))
                .map(|(k, _)| k)
                .collect();
            let [key] = arrays.as_slice() else {
                return None;
            };
            let items = map
                .get(*key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let meta = map
                .iter()
                .filter(|(k, _)| k != key)
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            Some((items, meta))
        }
        _ => None,
    }
}

/// An item's identity: its `id` when it has one that fits a cursor as it is (at most 26 lowercase
/// letters, digits and `-`: a Mattermost id), else 12 hex digits of a digest of it.
pub(crate) fn identity(item: &Value) -> String {
    if let Some(id) = item.get("id").and_then(Value::as_str)
        && !id.is_empty()
        && id.len() <= 26
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return id.to_string();
    }
    crate::hex::hex(&Sha256::digest(item.to_string().as_bytes())[..6])
}

fn json_len(v: &Value) -> usize {
    serde_json::to_vec(v).map(|b| b.len()).unwrap_or(0)
}

/// What a page of an answer holds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cut {
    pub(crate) items: Vec<Value>,
    pub(crate) next: Option<Position>,
    /// For an object or bytes cut into parts: what this page holds (`fields 1 to 40 of 120`).
    pub(crate) part: Option<String>,
}

/// Up to `limit` items from `start` (at least one), bounded by [`PAGE_BYTES`]; how many were taken.
pub(crate) fn take_items(items: &[Value], start: usize, limit: usize) -> Vec<Value> {
    let mut out = Vec::new();
    let mut bytes = 0;
    for item in items.iter().skip(start).take(limit.max(1)) {
        let size = json_len(item);
        if !out.is_empty() && bytes + size > PAGE_BYTES {
            break;
        }
        bytes += size;
        out.push(item.clone());
    }
    out
}

/// Where a list page continues: the index of the item after `after`, found by identity (a list read
/// again may have moved), or `at` when that item is gone.
fn list_start(items: &[Value], at: usize, after: &str) -> usize {
    if at > 0 && items.get(at - 1).is_some_and(|i| identity(i) == after) {
        return at;
    }
    match items.iter().position(|i| identity(i) == after) {
        Some(i) => i + 1,
        None => at.min(items.len()),
    }
}

/// The page of `shaped` that starts at `position` (the first page when `None`), of at most `limit`
/// items.
pub(crate) fn page(shaped: &Shaped, position: Option<&Position>, limit: usize) -> Cut {
    match shaped {
        Shaped::List { items, .. } => {
            let start = match position {
                Some(Position::Item { at, after }) => list_start(items, *at, after),
                _ => 0,
            };
            let shown = take_items(items, start, limit);
            let end = start + shown.len();
            let next = (end < items.len()).then(|| Position::Item {
                at: end,
                after: items.get(end - 1).map(identity).unwrap_or_default(),
            });
            Cut {
                items: shown,
                next,
                part: None,
            }
        }
        Shaped::Object(map) => {
            let start = match position {
                Some(Position::Field { at }) => (*at).min(map.len()),
                _ => 0,
            };
            let whole = Value::Object(map.clone());
            if start == 0 && json_len(&whole) <= PAGE_BYTES {
                return Cut {
                    items: vec![whole],
                    next: None,
                    part: None,
                };
            }
            let mut part = Map::new();
            let mut bytes = 2;
            for (k, v) in map.iter().skip(start) {
                let size = json_len(v) + k.len() + 4;
                if !part.is_empty() && bytes + size > PAGE_BYTES {
                    break;
                }
                bytes += size;
                part.insert(k.clone(), v.clone());
            }
            let end = start + part.len();
            Cut {
                part: Some(format!(
                    "fields {} to {end} of {}: the object is larger than a page",
                    start + 1,
                    map.len()
                )),
                items: vec![Value::Object(part)],
                next: (end < map.len()).then_some(Position::Field { at: end }),
            }
        }
        Shaped::Scalar(v) => Cut {
            items: vec![v.clone()],
            next: None,
            part: None,
        },
        Shaped::Empty => Cut {
            items: Vec::new(),
            next: None,
            part: None,
        },
        Shaped::Bytes { bytes, cut, .. } => {
            let start = match position {
                Some(Position::Byte { at }) => (*at).min(bytes.len()),
                _ => 0,
            };
            let text = std::str::from_utf8(bytes).is_ok();
            let mut end = (start + CHUNK_BYTES).min(bytes.len());
            if text {
                while end < bytes.len() && end > start && (bytes[end] & 0xC0) == 0x80 {
                    end -= 1;
                }
            }
            let chunk = &bytes[start..end];
            let item = if text {
                serde_json::json!({"text": String::from_utf8_lossy(chunk)})
            } else {
                serde_json::json!({"base64": base64::engine::general_purpose::STANDARD.encode(chunk)})
            };
            let whole = start == 0 && end == bytes.len();
            let part = (!whole || *cut).then(|| {
                let mut s = format!("bytes {} to {end} of {}", start + 1, bytes.len());
                if *cut {
                    s.push_str(&format!(
                        "; Mattermost's answer is longer and only its first {MAX_BYTES} bytes are paged (read_file reads files)"
                    ));
                }
                s
            });
            Cut {
                items: if bytes.is_empty() {
                    Vec::new()
                } else {
                    vec![item]
                },
                next: (end < bytes.len()).then_some(Position::Byte { at: end }),
                part,
            }
        }
    }
}

/// The word for a shaped answer, as the gateway's answer gives it.
pub(crate) fn kind_of(shaped: &Shaped) -> &'static str {
    match shaped {
        Shaped::List { .. } => "list",
        Shaped::Object(_) => "object",
        Shaped::Scalar(_) => "scalar",
        Shaped::Bytes { bytes, .. } if std::str::from_utf8(bytes).is_ok() => "text",
        Shaped::Bytes { .. } => "bytes",
        Shaped::Empty => "empty",
    }
}

/// About how many bytes a shaped answer holds (for keeping it per cursor chain).
pub(crate) fn size_of(shaped: &Shaped) -> usize {
    match shaped {
        Shaped::List { items, meta } => {
            items.iter().map(json_len).sum::<usize>() + json_len(&Value::Object(meta.clone()))
        }
        Shaped::Object(map) => json_len(&Value::Object(map.clone())),
        Shaped::Scalar(v) => json_len(v),
        Shaped::Bytes { bytes, .. } => bytes.len(),
        Shaped::Empty => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paging::cursor;
    use serde_json::json;

    fn ids(items: &[Value]) -> Vec<String> {
        items.iter().map(identity).collect()
    }

    #[test]
    fn every_position_round_trips_through_a_short_cursor() {
        let b = cursor::Binding::new("call_operation", &Map::new(), "person");
        for p in [
            Position::Item {
                at: 4000,
                after: "abcdefghijklmnopqrstuvwxyz".into(),
            },
            Position::Field { at: 12 },
            Position::Byte { at: 4_000_000 },
            Position::Offset { at: 600 },
            Position::Key {
                back: true,
                id: "abcdefghijklmnopqrstuvwxyz".into(),
            },
        ] {
            let c = cursor::encode(&b, &cursor::fields_of(&p));
            assert!(c.len() <= cursor::MAX_LEN, "{c}");
            let back: Position =
                cursor::position(&cursor::decode(&c, &b, &[]).expect("decodes")).expect("fits");
            assert_eq!(back, p);
        }
    }

    #[test]
    fn lists_come_out_of_arrays_post_lists_and_wrappers() {
        let (items, meta) = list_of(&json!({"order": ["b", "a"], "posts": {"a": {"id": "a"}, "b": {"id": "b"}}, "next_post_id": ""}))
            .expect("a post list");
        assert_eq!(ids(&items), ["b", "a"]);
        assert_eq!(
            meta,
            json!({"next_post_id": ""})
                .as_object()
                .cloned()
                .unwrap_or_default()
        );
        let (items, meta) =
            list_of(&json!({"channels": [{"id": "c"}], "total_count": 1})).expect("a wrapper");
        assert_eq!(ids(&items), ["c"]);
        assert_eq!(meta.get("total_count"), Some(&json!(1)));
        assert!(list_of(&json!({"a": [{"id": "x"}], "b": [{"id": "y"}]})).is_none());
        assert_eq!(list_of(&Value::Null).map(|l| l.0.len()), Some(0));
    }

    #[test]
    fn a_list_continues_after_its_last_item_even_when_read_again_changed() {
        let list = |names: &[&str]| Shaped::List {
            items: names.iter().map(|n| json!({"id": n})).collect(),
            meta: Map::new(),
        };
        let first = page(&list(&["a", "b", "c", "d"]), None, 2);
        assert_eq!(ids(&first.items), ["a", "b"]);
        let next = first.next.expect("more");
        // Read again: "a" is gone and "x" came first; the page still starts after "b".
        let second = page(&list(&["x", "b", "c", "d"]), Some(&next), 2);
        assert_eq!(ids(&second.items), ["c", "d"]);
        assert!(second.next.is_none());
    }

    #[test]
    fn a_large_object_is_cut_between_fields_and_every_field_comes_once() {
        let mut map = Map::new();
        for k in 0..10 {
            map.insert(format!("f{k}"), json!("x".repeat(PAGE_BYTES / 4)));
        }
        let shaped = Shaped::Object(map.clone());
        let mut seen = Map::new();
        let mut at = None;
        let mut pages = 0;
        loop {
            let cut = page(&shaped, at.as_ref(), 30);
            pages += 1;
            assert!(cut.part.is_some());
            for (k, v) in cut.items[0].as_object().cloned().unwrap_or_default() {
                assert!(seen.insert(k, v).is_none(), "a field came twice");
            }
            match cut.next {
                Some(n) => at = Some(n),
                None => break,
            }
        }
        assert_eq!(seen, map);
        assert!(pages >= 3);
    }

    #[test]
    fn bytes_page_by_offset_text_on_character_boundaries() {
        let text = "é".repeat(CHUNK_BYTES);
        let shaped = Shaped::Bytes {
            content_type: Some("text/plain".into()),
            bytes: text.clone().into_bytes(),
            cut: false,
        };
        let mut out = String::new();
        let mut at = None;
        loop {
            let cut = page(&shaped, at.as_ref(), 1);
            out.push_str(cut.items[0]["text"].as_str().unwrap_or_default());
            match cut.next {
                Some(n) => at = Some(n),
                None => break,
            }
        }
        assert_eq!(out, text);
    }
}
