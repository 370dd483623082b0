//! Reading posts: channels (by time, since a time).

use crate::context::{Ctx, Input, Output};
use crate::error::ToolError;
use crate::mattermost::types::Post;
use crate::names;
use crate::paging::posts_by_time::{self, Posts, Query, Start};
use crate::paging::{Page, since};
use crate::summary::{self, MESSAGE_CUT};
use crate::time::rfc3339;
use serde_json::{Value, json};

/// Post summaries for a page, with the authors' usernames (one lookup for those not yet known).
pub async fn summaries(cx: &Ctx, posts: &[Post]) -> Result<Vec<Value>, ToolError> {
    let names = cx.usernames(summary::authors(posts)).await?;
    Ok(posts
        .iter()
        .map(|p| summary::post(p, &names, &cx.mm.url, Some(MESSAGE_CUT)))
        .collect())
}

pub async fn read_channel(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let args = &input.args;
    let channel_id = names::channel_id(
        cx,
        args.str("channel").unwrap_or_default(),
        args.str("team"),
    )
    .await?;
    let q = Query {
        channel_id: channel_id.clone(),
        roots_only: args.flag("roots_only"),
    };
    let given: Vec<&str> = ["before", "after", "since"]
        .into_iter()
        .filter(|k| args.str(k).is_some())
        .collect();
    if given.len() > 1 {
        return Err(ToolError::bad_argument(format!(
            "read_channel takes one of before, after and since, not {}. Call again with one of them.",
            given.join(" and ")
        )));
    }
    let position = input.position::<posts_by_time::Position>("read_channel")?;
    let (posts, total): (Posts, Option<u64>) = match position {
        Some(p) => (
            posts_by_time::page(cx, &q, Start::At(p), input.limit).await?,
            None,
        ),
        None => {
            if let Some(b) = args.str("before") {
                (
                    posts_by_time::page(cx, &q, Start::Before(names::post_id(b)?), input.limit)
                        .await?,
                    None,
                )
            } else if let Some(a) = args.str("after") {
                (
                    posts_by_time::page(cx, &q, Start::After(names::post_id(a)?), input.limit)
                        .await?,
                    None,
                )
            } else if let Some(t) = args.time("since") {
                since::first_page(cx, &q, t, input.limit).await?
            } else {
                (
                    posts_by_time::page(cx, &q, Start::Newest, input.limit).await?,
                    None,
                )
            }
        }
    };
    let items = summaries(cx, &posts.posts).await?;
    let mut page = Page::new(items)
        .continue_at(posts.next)
        .with("channel_id", json!(channel_id));
    if let Some(total) = total {
        page = page.with_total(total);
    }
    if let Some(ms) = posts.incomplete_millisecond {
        page = page.with(
            "incomplete_millisecond",
            json!({
                "time": rfc3339(ms),
                "note": "Mattermost holds 200 posts or more in this one millisecond and can only be asked for 200 of \
                         them; the others cannot be read in order. Search (search_posts) can still find them.",
            }),
        );
    }
    Ok(Output::Page(page))
}
