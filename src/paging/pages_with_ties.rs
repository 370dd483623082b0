//! Pages with ties: a list Mattermost gives a page at a time (`page`/`per_page`) but orders by a value two
//! items can share (display names of public and archived channels and teams; no order at all for channel
//! members) is read whole, each item once, ordered with an id tiebreak (see [`whole_list`]), and
//! continued by key. It is read once per cursor chain: the ordered list is kept for the cursor's
//! fingerprint (bounded in entries, bytes and age), so later pages cost no Mattermost request; a cursor
//! that outlives it reads the list again and continues after its key. An item Mattermost itself moves
//! across one of its own page boundaries while the list is read can still be missed, which no reader
//! can see.

use super::whole_list::{self, After, Keyed, Order};
use crate::context::KeptLists;
use crate::error::{ErrorKind, ToolError};
use serde::Serialize;
use std::sync::Arc;

/// Mattermost's largest page.
pub(crate) const PER_PAGE: i64 = 200;
/// The most pages of 200 read for one list (40,000 items).
pub(crate) const MAX_PAGES: i64 = 200;

/// Reads every page of a `page`/`per_page` list, 200 at a time, until a page comes back short.
pub(crate) async fn read_pages<T, F, Fut>(mut fetch: F) -> Result<Vec<T>, ToolError>
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
        crate::mattermost::call::step(|| {
            format!("read {} items in {} pages; reading on", all.len(), page + 1)
        });
    }
    Err(ToolError::new(
        ErrorKind::TooMany,
        format!(
            "This list holds more than {} items, more than one call reads; narrow it down.",
            MAX_PAGES * PER_PAGE
        ),
    ))
}

/// One page of the list kept under `key` (the tool and the fingerprint of the arguments that chose
/// it): from the kept list when the cursor's chain still has it, otherwise from `read_whole` (which
/// reads it from Mattermost and keys each item). Returns the items, the next position and the list's
/// length.
pub(crate) async fn page<T, F, Fut>(
    lists: &KeptLists,
    key: &str,
    order: Order,
    after: Option<After>,
    limit: usize,
    read_whole: F,
) -> Result<(Vec<T>, Option<After>, usize), ToolError>
where
    T: Clone + Serialize + Send + Sync + 'static,
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Vec<Keyed<T>>, ToolError>>,
{
    let kept = if after.is_some() {
        lists.get::<Vec<Keyed<T>>>(key)
    } else {
        None
    };
    let sorted = match kept {
        Some(items) => items,
        None => {
            let items = Arc::new(whole_list::sort(read_whole().await?, order));
            let bytes = items
                .iter()
                .map(|i| {
                    serde_json::to_vec(&i.item).map(|v| v.len()).unwrap_or(0) + i.id.len() + 16
                })
                .sum();
            lists.put(key.to_string(), items.clone(), bytes);
            items
        }
    };
    let (items, next) = whole_list::page(&sorted, order, after.as_ref(), limit);
    Ok((items, next, sorted.len()))
}
