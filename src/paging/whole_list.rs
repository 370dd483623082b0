//! Whole list: a list Mattermost gives whole (the user's channels, pinned posts, a search answer) is put
//! in a deterministic order — a sort key, then the id as tiebreak — and each page continues *after the
//! last item's key and id*, not at an offset. Every page reads the list again, so a list that changes
//! between pages neither skips nor repeats what remains: items added before the position are not
//! shown (they belong to pages already read), items removed are simply gone.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// A sort key: a number (a time, a count) or a text (a name, compared as given).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SortKey {
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
pub enum Order {
    Ascending,
    /// Largest key first (newest first, most active first); ties still by id ascending.
    Descending,
}

/// Where the next page starts: after the item with this key and id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct After {
    pub k: SortKey,
    pub id: String,
}

/// An item with its sort key and id.
#[derive(Debug, Clone)]
pub struct Keyed<T> {
    pub key: SortKey,
    pub id: String,
    pub item: T,
}

impl<T> Keyed<T> {
    pub fn new(key: SortKey, id: impl Into<String>, item: T) -> Keyed<T> {
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
pub fn sort<T>(mut items: Vec<Keyed<T>>, order: Order) -> Vec<Keyed<T>> {
    items.sort_by(|a, b| compare(order, &a.key, &a.id, &b.key, &b.id));
    items.dedup_by(|a, b| a.id == b.id);
    let mut seen = std::collections::HashSet::new();
    items.retain(|i| seen.insert(i.id.clone()));
    items
}

/// One page of a sorted list: the first `limit` items after `after`, and where the next page starts.
/// Also returns how many items the whole list holds.
pub fn page<T: Clone>(
    sorted: &[Keyed<T>],
    order: Order,
    after: Option<&After>,
    limit: usize,
) -> (Vec<T>, Option<After>) {
    let start = match after {
        None => 0,
        Some(a) => sorted
            .partition_point(|i| compare(order, &i.key, &i.id, &a.k, &a.id) != Ordering::Greater),
    };
    let end = (start + limit).min(sorted.len());
    let items: Vec<T> = sorted[start..end].iter().map(|i| i.item.clone()).collect();
    let next = if end < sorted.len() {
        sorted
            .get(end.wrapping_sub(1))
            .filter(|_| end > start)
            .map(|i| After {
                k: i.key.clone(),
                id: i.id.clone(),
            })
    } else {
        None
    };
    (items, next)
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
        assert_eq!(
            next,
            After {
                k: SortKey::Int(5),
                id: "a".into()
            }
        );
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
