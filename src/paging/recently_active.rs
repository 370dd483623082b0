//! Recently active first: the user's own channels, most recently posted in first (`last_post_at`
//! descending, then the id). Mattermost gives this list whole (`GET /users/{user_id}/channels`, notes
//! §8 "GET /api/v4/users/{user_id}/channels": one array, no paging) with the unread counts in a second
//! whole list per team (`GET /users/{user_id}/teams/{team_id}/channels/members`), but the sort key moves
//! whenever someone posts: a channel not yet shown that gets a post jumps ahead of the position, so a
//! list read again for every page ([`super::whole_list`]) would skip it. So the ordered list is kept for
//! the cursor chain, as [`super::pages_with_ties`] keeps its lists (bounded in entries, bytes and age):
//! the pages of one chain are one consistent picture of the channels and their unread counts, and
//! later pages cost no request. A cursor that outlives the kept list reads the list again and continues
//! after its key and id; a channel that moved ahead of the position in between is then not shown again.

use super::pages_with_ties;
use super::whole_list::{After, Keyed, Order, SortKey};
use crate::context::KeptLists;
use crate::error::ToolError;
use serde::Serialize;

/// The order of the list.
pub(crate) const ORDER: Order = Order::Descending;

/// The sort key of a channel: the time of its last post.
pub(crate) fn key(last_post_at: Option<i64>) -> SortKey {
    SortKey::Int(last_post_at.unwrap_or(0))
}

/// One page of the list kept under `key`: from the list kept for the cursor's chain, or read whole
/// again by `read_whole`. Returns the items, the next position and the list's length.
pub(crate) async fn page<T, F, Fut>(
    lists: &KeptLists,
    key: &str,
    after: Option<After>,
    limit: usize,
    read_whole: F,
) -> Result<(Vec<T>, Option<After>, usize), ToolError>
where
    T: Clone + Serialize + Send + Sync + 'static,
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Vec<Keyed<T>>, ToolError>>,
{
    pages_with_ties::page(lists, key, ORDER, after, limit, read_whole).await
}
