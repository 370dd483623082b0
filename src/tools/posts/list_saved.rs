//! `list_saved`: the posts the person saved, newest first. Mattermost pages them by an offset that
//! shifts whenever a post is saved or unsaved (`paging::saved_posts` reads them all, until a page comes
//! back empty), so the list is read whole once per cursor chain and kept for it
//! (`paging::pages_with_ties`); later pages cost no request.

use super::common::ManyPosts;
use crate::args::Limit;
use crate::calls::{Call, ME, MY_CHANNELS, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::paging::whole_list::{After, Keyed, Order};
use crate::paging::{Page, Strategy, pages_with_ties, saved_posts};
use crate::show::PostItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::posts::{by_creation, post_items_in_channels};
use serde::Deserialize;

pub(crate) const TOOL: Tool = Tool {
    name: "list_saved",
    title: "List saved posts",
    description: "The posts you saved (flagged), newest first, each with its channel. Mattermost pages them by \
                  a shifting offset, so the list is read whole once per cursor chain. Posts in channels you \
                  can no longer read are left out by Mattermost.",
    toolset: Toolset::Posts,
    args: &[],
    answer: Answer::List {
        strategy: Strategy::SavedPosts,
        limit: Limit::new(30, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetFlaggedPostsForUser",
            params: &[
                (
                    "user_id",
                    Source::Fixed("me", "the token user's own saved posts"),
                ),
                (
                    "page",
                    Source::Paging(
                        "an offset in posts, not a page number (notes §6): 0, then the posts read so far",
                    ),
                ),
                ("per_page", Source::Paging("200, Mattermost's largest page")),
                (
                    "team_id",
                    Source::Omitted(
                        "Mattermost's team filter lacks parentheses (notes §6) and lets every saved direct message post through; all saved posts are listed",
                    ),
                ),
                (
                    "channel_id",
                    Source::Omitted("all saved posts are listed, each naming its channel"),
                ),
            ],
        },
        USERNAMES,
        MY_CHANNELS,
        ME,
    ],
    code: crate::list!(run => PostItem, ManyPosts),
};

#[derive(Deserialize)]
struct Args {}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<PostItem, ManyPosts>, ToolError> {
    let after = input.position::<After>()?;
    let mut overflow = None;
    let (items, next, total) = pages_with_ties::page(
        &cx.lists,
        &input.list_key(),
        Order::Descending,
        after,
        input.limit as usize,
        || read_saved(cx, &mut overflow),
    )
    .await?;
    Ok(Page::new(items)
        .continue_at(next)
        .with_total(total as u64)
        .with_extra(ManyPosts::of(cx, overflow, "saved posts")))
}

/// Every saved post, as items keyed by creation time.
async fn read_saved(
    cx: &Ctx,
    overflow: &mut Option<i64>,
) -> Result<Vec<Keyed<PostItem>>, ToolError> {
    let read = saved_posts::read_all(cx).await?;
    *overflow = read.incomplete_millisecond;
    let items = post_items_in_channels(cx, &read.posts).await?;
    Ok(read
        .posts
        .iter()
        .zip(items)
        .map(|(p, item)| by_creation(p, item))
        .collect())
}
