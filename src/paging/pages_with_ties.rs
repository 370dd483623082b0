//! Pages with ties: a list Mattermost gives a page at a time (`page`/`per_page`) but orders by a value two
//! items can share (display names of public and archived channels and teams; no order at all for channel
//! members) is read whole, each item once, ordered with an id tiebreak (see [`whole_list`]), and
//! continued by key. It is read once per cursor chain: the ordered list is kept for the cursor's
//! fingerprint (bounded in entries, bytes and age), so later pages cost no Mattermost request; a cursor
//! that outlives it reads the list again and continues after its key. An item Mattermost itself moves
//! across one of its own page boundaries while the list is read can still be missed, which no reader
//! can see.

use super::whole_list::{self, After, Keyed, Order};
use crate::error::ToolError;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Mattermost's largest page.
pub const PER_PAGE: i64 = 200;
/// How many lists are kept.
pub const MAX_LISTS: usize = 16;
/// How many bytes (of the items' JSON) all kept lists may hold.
pub const MAX_BYTES: usize = 16 * 1024 * 1024;
/// How long a list is kept.
pub const MAX_AGE: Duration = Duration::from_secs(600);
/// The most pages of 200 read for one list (40,000 items).
pub const MAX_PAGES: i64 = 200;

struct Kept {
    key: String,
    at: Instant,
    bytes: usize,
    items: Arc<Vec<Keyed<Value>>>,
}

/// The kept lists.
#[derive(Default)]
pub struct ListCache {
    kept: Mutex<Vec<Kept>>,
}

impl ListCache {
    fn get(&self, key: &str) -> Option<Arc<Vec<Keyed<Value>>>> {
        let mut kept = self.kept.lock().ok()?;
        kept.retain(|k| k.at.elapsed() < MAX_AGE);
        kept.iter().find(|k| k.key == key).map(|k| k.items.clone())
    }

    fn put(&self, key: String, items: Arc<Vec<Keyed<Value>>>) {
        let bytes: usize = items
            .iter()
            .map(|i| i.item.to_string().len() + i.id.len() + 16)
            .sum();
        let Ok(mut kept) = self.kept.lock() else {
            return;
        };
        kept.retain(|k| k.key != key && k.at.elapsed() < MAX_AGE);
        if bytes > MAX_BYTES {
            return;
        }
        kept.push(Kept {
            key,
            at: Instant::now(),
            bytes,
            items,
        });
        while kept.len() > MAX_LISTS || kept.iter().map(|k| k.bytes).sum::<usize>() > MAX_BYTES {
            kept.remove(0);
        }
    }

    /// How many lists are kept (for tests).
    pub fn len(&self) -> usize {
        self.kept.lock().map(|k| k.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Reads every page of a `page`/`per_page` list, 200 at a time, until a page comes back short.
pub async fn read_pages<T, F, Fut>(mut fetch: F) -> Result<Vec<T>, ToolError>
where
    F: FnMut(i64, i64) -> Fut,
    Fut: Future<Output = Result<Vec<T>, ToolError>>,
{
    let mut all = Vec::new();
    for page in 0..MAX_PAGES {
        let got = fetch(page, PER_PAGE).await?;
        let short = (got.len() as i64) < PER_PAGE;
        all.extend(got);
        if short {
            return Ok(all);
        }
    }
    Err(ToolError::new(
        "too_many",
        format!(
            "This list holds more than {} items, more than one call reads; narrow it down.",
            MAX_PAGES * PER_PAGE
        ),
    ))
}

/// One page of the list of `tool` for the arguments with `fingerprint`: from the kept list when the
/// cursor's chain still has it, otherwise from `read_whole` (which reads it from Mattermost and keys
/// each item). Returns the items, the next position and the list's length.
pub async fn page<F, Fut>(
    cache: &ListCache,
    tool: &str,
    fingerprint: &str,
    order: Order,
    after: Option<After>,
    limit: usize,
    read_whole: F,
) -> Result<(Vec<Value>, Option<After>, usize), ToolError>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Vec<Keyed<Value>>, ToolError>>,
{
    let key = format!("{tool}\u{0}{fingerprint}");
    let kept = if after.is_some() {
        cache.get(&key)
    } else {
        None
    };
    let sorted = match kept {
        Some(items) => items,
        None => {
            let items = Arc::new(whole_list::sort(read_whole().await?, order));
            cache.put(key, items.clone());
            items
        }
    };
    let (items, next) = whole_list::page(&sorted, order, after.as_ref(), limit);
    Ok((items, next, sorted.len()))
}
