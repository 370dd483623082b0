//! A page of a list read whole once per cursor chain and kept for it (`paging::pages_with_ties`), and
//! the sort key of a name such lists are ordered by.

use crate::context::Ctx;
use crate::error::ToolError;
use crate::paging::Page;
use crate::paging::pages_with_ties;
use crate::paging::whole_list::{After, Keyed, Order, SortKey};
use crate::tool::Input;
use serde::Serialize;

/// The sort key of a name: the name in lowercase, so that `alpha` and `Alpha` sit together.
pub(crate) fn name_key(name: &str) -> SortKey {
    SortKey::Text(name.to_lowercase())
}

/// One page of a list read whole once per cursor chain and kept for it (`paging::pages_with_ties`), by
/// key ascending then id.
pub(crate) async fn kept_page<A, T, F, Fut>(
    cx: &Ctx,
    input: &Input<A>,
    read_whole: F,
) -> Result<Page<T>, ToolError>
where
    T: Clone + Serialize + Send + Sync + 'static,
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Vec<Keyed<T>>, ToolError>>,
{
    let after = input.position::<After>()?;
    let (items, next, total) = pages_with_ties::page(
        &cx.lists,
        &input.list_key(),
        Order::Ascending,
        after,
        input.limit as usize,
        read_whole,
    )
    .await?;
    Ok(Page::new(items).continue_at(next).with_total(total as u64))
}
