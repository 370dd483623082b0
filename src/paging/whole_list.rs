//! Whole list: a list Mattermost gives whole (the user's channels, pinned posts, a search answer) is put
//! in a deterministic order — a sort key, then the id as tiebreak — and each page continues *after the
//! last item's key and id*, not at an offset. Every page reads the list again, so a list that changes
//! between pages neither skips nor repeats what remains: items added before the position are not
//! shown (they belong to pages already read), items removed are simply gone.

use super::cursor::{self, Fields, MAX_TEXT, Reader};
use std::cmp::Ordering;

/// A sort key: a number (a time, a count) or a text (a name, compared as given).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SortKey {
    Int(i64),
    Text(String),
}

impl SortKey {
    fn cmp(&self, other: &SortKey) -> Ordering {
        match (self, other) {
            (SortKey::Int(a), SortKey::Int(b)) => a.cmp(b),
            (SortKey::Text(a), SortKey::Text(b)) => a.cmp(b),
            (SortKey::Int(_), SortKey::Text(_)) => Ordering::Less,
            (SortKey::Text(_), SortKey::Int(_)) => Ordering::Greater,
        }
    }
}

/// Which way the key runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    Ascending,
    /// Largest key first (newest first, most active first); ties still by id ascending.
    Descending,
}

/// Where the next page starts: after the item with this key and id.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct After {
    pub(crate) k: SortKey,
    pub(crate) id: String,
    /// The text key was cut to its first [`MAX_TEXT`] characters to keep the cursor short.
    pub(crate) cut: bool,
}

impl After {
    /// The position after the item with `key` and `id`; a long text key is cut.
    pub(crate) fn new(key: &SortKey, id: &str) -> After {
        match key {
            SortKey::Text(t) if t.chars().count() > MAX_TEXT => After {
                k: SortKey::Text(t.chars().take(MAX_TEXT).collect()),
                id: id.to_string(),
                cut: true,
            },
            k => After {
                k: k.clone(),
                id: id.to_string(),
                cut: false,
            },
        }
    }
}

impl cursor::Position for After {
    fn write(&self, f: &mut Fields) {
        match &self.k {
            SortKey::Int(n) => f.tag('i').num(*n),
            SortKey::Text(t) => f.tag(if self.cut { 'p' } else { 't' }).text(t),
        };
        f.id(&self.id);
    }

    fn read(r: &mut Reader<'_>) -> Option<After> {
        let (k, cut) = match r.tag()? {
            'i' => (SortKey::Int(r.num()?), false),
            't' => (SortKey::Text(r.text()?), false),
            'p' => (SortKey::Text(r.text()?), true),
            _ => return None,
        };
        Some(After {
            k,
            id: r.id()?,
            cut,
        })
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Keyed<T> {
    pub(crate) key: SortKey,
    pub(crate) id: String,
    pub(crate) item: T,
}

impl<T> Keyed<T> {
    pub(crate) fn new(key: SortKey, id: impl Into<String>, item: T) -> Keyed<T> {
        Keyed {
            key,
            id: id.into(),
            item,
        }
    }
}

fn compare(order: Order, a_key: &SortKey, a_id: &str, b_key: &SortKey, b_id: &str) -> Ordering {
    let by_key = match order {
        Order::Ascending => a_key.cmp(b_key),
        Order::Descending => b_key.cmp(a_key),
    };
    by_key.then_with(|| a_id.cmp(b_id))
}

/// Puts a list in its order, each id once.
pub(crate) fn sort<T>(mut items: Vec<Keyed<T>>, order: Order) -> Vec<Keyed<T>> {
    items.sort_by(|a, b| compare(order, &a.key, &a.id, &b.key, &b.id));
    items.dedup_by(|a, b| a.id == b.id);
    let mut seen = std::collections::HashSet::new();
    items.retain(|i| seen.insert(i.id.clone()));
    items
}

/// One page of a sorted list: the first `limit` items after `after`, and where the next page starts.
/// Also returns how many items the whole list holds.
pub(crate) fn page<T: Clone>(
    sorted: &[Keyed<T>],
    order: Order,
    after: Option<&After>,
    limit: usize,
) -> (Vec<T>, Option<After>) {
    let start = match after {
        None => 0,
        Some(a) => start_after(sorted, order, a),
    };
    let end = (start + limit).min(sorted.len());
    let items: Vec<T> = sorted[start..end].iter().map(|i| i.item.clone()).collect();
    let next = if end < sorted.len() {
        sorted
            .get(end.wrapping_sub(1))
            .filter(|_| end > start)
            .map(|i| After::new(&i.key, &i.id))
    } else {
        None
    };
    (items, next)
}

/// Where the page after `a` starts. With the whole key, after the key and id, whatever changed. With a
/// cut text key: right after the item itself when it is still there, else after the items whose key
/// begins with the cut text and sorts before it (an item renamed or removed between pages whose key
/// shares its first characters with others may then shift the position among those alone).
fn start_after<T>(sorted: &[Keyed<T>], order: Order, a: &After) -> usize {
    if !a.cut {
        return sorted
            .partition_point(|i| compare(order, &i.key, &i.id, &a.k, &a.id) != Ordering::Greater);
    }
    if let Some(at) = sorted.iter().position(|i| i.id == a.id) {
        return at + 1;
    }
    let prefix = |k: &SortKey| match k {
        SortKey::Text(t) => SortKey::Text(t.chars().take(MAX_TEXT).collect()),
        other => other.clone(),
    };
    sorted.partition_point(|i| {
        compare(order, &prefix(&i.key), &i.id, &a.k, &a.id) != Ordering::Greater
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(pairs: &[(i64, &str)]) -> Vec<Keyed<String>> {
        pairs
            .iter()
            .map(|(k, id)| Keyed::new(SortKey::Int(*k), *id, id.to_string()))
            .collect()
    }

    #[test]
    fn ties_break_by_id_and_pages_continue_after_the_last_key() {
        let sorted = sort(
            list(&[(5, "b"), (9, "z"), (5, "a"), (1, "c")]),
            Order::Descending,
        );
        let ids: Vec<&str> = sorted.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["z", "a", "b", "c"]);
        let (first, next) = page(&sorted, Order::Descending, None, 2);
        assert_eq!(first, ["z", "a"]);
        let next = next.expect("more");
        assert_eq!(next, After::new(&SortKey::Int(5), "a"));
        let (second, last) = page(&sorted, Order::Descending, Some(&next), 2);
        assert_eq!(second, ["b", "c"]);
        assert!(last.is_none());
    }

    #[test]
    fn a_list_that_changed_neither_skips_nor_repeats_what_remains() {
        let before = sort(
            list(&[(5, "a"), (4, "b"), (3, "c"), (2, "d")]),
            Order::Descending,
        );
        let (_, next) = page(&before, Order::Descending, None, 2);
        // "a" (already read) is removed, "e" is added before the position, "c" stays.
        let after = sort(
            list(&[(6, "e"), (4, "b"), (3, "c"), (2, "d")]),
            Order::Descending,
        );
        let (rest, _) = page(&after, Order::Descending, next.as_ref(), 10);
        assert_eq!(rest, ["c", "d"]);
    }
}

#[cfg(test)]
mod long_keys {
    use super::*;

    fn named(pairs: &[(&str, &str)]) -> Vec<Keyed<String>> {
        pairs
            .iter()
            .map(|(k, id)| Keyed::new(SortKey::Text((*k).into()), *id, id.to_string()))
            .collect()
    }

    #[test]
    fn a_long_text_key_is_cut_and_still_continues_exactly_while_its_item_is_there() {
        let sorted = sort(
            named(&[
                ("engineering-platform-alpha", "a"),
                ("engineering-platform-beta", "b"),
                ("engineering-platform-gamma", "c"),
                ("zz", "d"),
            ]),
            Order::Ascending,
        );
        let (first, next) = page(&sorted, Order::Ascending, None, 1);
        assert_eq!(first, ["a"]);
        let next = next.expect("more");
        assert!(next.cut, "the key was cut to {MAX_TEXT} characters");
        let (rest, _) = page(&sorted, Order::Ascending, Some(&next), 10);
        assert_eq!(rest, ["b", "c", "d"]);
        // The item the cursor ended on was removed: the page starts after the cut key's items that
        // sort before it.
        let without_a = sort(
            named(&[
                ("engineering-platform-beta", "b"),
                ("engineering-platform-gamma", "c"),
                ("zz", "d"),
            ]),
            Order::Ascending,
        );
        let (rest, _) = page(&without_a, Order::Ascending, Some(&next), 10);
        assert_eq!(rest, ["b", "c", "d"]);
    }
}
