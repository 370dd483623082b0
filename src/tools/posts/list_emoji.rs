//! `list_emoji`: this Mattermost's custom emoji, by name, read whole once per cursor chain and kept
//! (`paging::pages_with_ties`).

use super::common::failed_or_disabled;
use crate::args::Limit;
use crate::calls::{Call, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::paging::whole_list::{After, Keyed, Order, SortKey};
use crate::paging::{Page, Strategy, pages_with_ties};
use crate::show::EmojiItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use serde::Deserialize;

pub(crate) const TOOL: Tool = Tool {
    name: "list_emoji",
    title: "List custom emoji",
    description: "This Mattermost's custom emoji by name, each with who added it; read whole once per cursor \
                  chain.",
    toolset: Toolset::Posts,
    args: &[],
    answer: Answer::List {
        strategy: Strategy::PagesWithTies,
        limit: Limit::new(50, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetEmojiList",
            params: &[
                (
                    "page",
                    Source::Paging("each page of 200 in turn, until a short one"),
                ),
                ("per_page", Source::Paging("200, Mattermost's largest page")),
                (
                    "sort",
                    Source::Fixed(
                        "name",
                        "without it Mattermost has no ORDER BY (notes §9) and pages overlap; names are unique, so pages by name are stable",
                    ),
                ),
            ],
        },
        USERNAMES,
    ],
    code: crate::list!(run => EmojiItem),
};

#[derive(Deserialize)]
struct Args {}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<EmojiItem>, ToolError> {
    let after = input.position::<After>()?;
    let (items, next, total) = pages_with_ties::page(
        &cx.lists,
        &input.list_key(),
        Order::Ascending,
        after,
        input.limit as usize,
        || read_emoji(cx),
    )
    .await?;
    Ok(Page::new(items).continue_at(next).with_total(total as u64))
}

/// Every custom emoji, by name. With `sort=name` Mattermost's pages are stable (names are unique), but
/// a page of the tool rarely lines up with one of Mattermost's (its offset moves as emoji are added or
/// removed, and the tool's limit is not 200), so the list is read whole once per cursor chain and kept:
/// later pages cost no request, and a cursor that outlives the kept list reads it again and goes on
/// after its name.
async fn read_emoji(cx: &Ctx) -> Result<Vec<Keyed<EmojiItem>>, ToolError> {
    let all = pages_with_ties::read_pages(|page, per_page| async move {
        let request = cx
            .api()
            .get_emoji_list()
            .page(page)
            .per_page(per_page)
            .sort("name")
            .send();
        cx.send(request).await.map(|r| r.into_inner()).map_err(|e| {
            failed_or_disabled(
                cx,
                e,
                "custom emoji",
                "list",
                "Custom emoji",
                "ServiceSettings.EnableCustomEmoji",
            )
        })
    })
    .await?;
    let creators: Vec<String> = all.iter().filter_map(|e| e.creator_id.clone()).collect();
    let names = cx.usernames(creators).await?;
    Ok(all
        .iter()
        .filter(|e| e.delete_at.unwrap_or(0) == 0)
        .map(|e| {
            let item = EmojiItem::of(e, &names);
            Keyed::new(SortKey::Text(item.name.clone()), item.id.clone(), item)
        })
        .collect())
}
