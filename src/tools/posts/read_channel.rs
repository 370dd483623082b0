//! `read_channel`: a channel's posts, back from the newest, back or forward from a post, or since a
//! time, paged on whole milliseconds (`paging::posts_by_time`; `paging::since` for `since`).

use super::common::{ChannelPosts, channel_of, channel_page};
use crate::args::{Arg, Kind, Limit};
use crate::calls::{Call, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::paging::posts_by_time::{self, Query, Start};
use crate::paging::{Page, Strategy, since};
use crate::resolve;
use crate::show::PostItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use serde::Deserialize;

pub const TOOL: Tool = Tool {
    name: "read_channel",
    title: "Read a channel",
    description: "A channel's posts, oldest first within a page. Without a position it reads the newest page \
                  and next_cursor goes back; `before`/`after` read back or forward from a post, `since` \
                  forward from a time. A page ends on a whole millisecond (it may pass the \
                  limit).",
    toolset: Toolset::Posts,
    args: &[
        super::CHANNEL,
        super::TEAM_OF_CHANNEL,
        Arg {
            name: "before",
            kind: Kind::Post,
            required: false,
            about: "A post id: read the posts before it, newest page first.",
            shapes: None,
        },
        Arg {
            name: "after",
            kind: Kind::Post,
            required: false,
            about: "A post id: read the posts after it, oldest first.",
            shapes: None,
        },
        Arg {
            name: "since",
            kind: Kind::Time,
            required: false,
            about: "A time (RFC 3339, a day, or epoch ms): read the posts written at or after it.",
            shapes: None,
        },
        Arg {
            name: "roots_only",
            kind: Kind::Flag,
            required: false,
            about: "true: only thread roots, each with its reply count and participants.",
            shapes: None,
        },
    ],
    answer: Answer::List {
        strategy: Strategy::PostsByTime,
        limit: Limit::new(30, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetPostsForChannel",
            params: &[
                ("channel_id", Source::Arg("channel")),
                ("before", Source::Arg("before")),
                ("after", Source::Arg("after")),
                ("since", Source::Arg("since")),
                (
                    "per_page",
                    Source::Paging(
                        "one post more than the page (at most 200), or 200 to read a millisecond whole",
                    ),
                ),
                (
                    "page",
                    Source::Fixed(
                        "0",
                        "paging is by post and time, never by offset, which skips and repeats while people post",
                    ),
                ),
                (
                    "include_deleted",
                    Source::Omitted(
                        "deleted posts are not read: only system admins may, and a model reading a channel wants what is there",
                    ),
                ),
                ("collapsedThreads", Source::Arg("roots_only")),
                ("collapsedThreadsExtended", Source::Arg("roots_only")),
                (
                    "skipFetchThreads",
                    Source::Fixed(
                        "true",
                        "the other posts of the threads in a page are not used; leaving them out keeps answers small and makes reply_count computed (shown with roots_only, where the replies are left out)",
                    ),
                ),
            ],
        },
        USERNAMES,
    ],
    code: crate::list!(run => PostItem, ChannelPosts),
};

#[derive(Deserialize)]
struct Args {
    channel: String,
    team: Option<String>,
    before: Option<String>,
    after: Option<String>,
    since: Option<String>,
    #[serde(default)]
    roots_only: bool,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<PostItem, ChannelPosts>, ToolError> {
    let args = &input.args;
    let channel_id = channel_of(cx, &args.channel, args.team.as_deref()).await?;
    let q = Query {
        channel_id: channel_id.clone(),
        roots_only: args.roots_only,
    };
    let given: Vec<&str> = [
        ("before", &args.before),
        ("after", &args.after),
        ("since", &args.since),
    ]
    .into_iter()
    .filter(|(_, v)| v.is_some())
    .map(|(k, _)| k)
    .collect();
    if given.len() > 1 {
        return Err(ToolError::bad_argument(format!(
            "read_channel takes one of before, after and since, not {}. Call again with one of them.",
            given.join(" and ")
        )));
    }
    let (posts, total) = match input.position::<posts_by_time::Position>()? {
        Some(p) => (
            posts_by_time::page(cx, &q, Start::At(p), input.limit).await?,
            None,
        ),
        None => {
            if let Some(b) = &args.before {
                let start = Start::Before(resolve::post_id(b)?);
                (posts_by_time::page(cx, &q, start, input.limit).await?, None)
            } else if let Some(a) = &args.after {
                let start = Start::After(resolve::post_id(a)?);
                (posts_by_time::page(cx, &q, start, input.limit).await?, None)
            } else if let Some(t) = args.since.as_deref().and_then(crate::time::parse) {
                since::first_page(cx, &q, t, input.limit).await?
            } else {
                (
                    posts_by_time::page(cx, &q, Start::Newest, input.limit).await?,
                    None,
                )
            }
        }
    };
    let mut page = channel_page(cx, posts, &channel_id).await?;
    if !args.roots_only {
        // The replies are the channel's own posts, on this page or the next: a root's count of them
        // would say again what the pages show, at 16 bytes a root.
        for item in &mut page.items {
            item.reply_count = None;
        }
    }
    Ok(match total {
        Some(total) => page.with_total(total),
        None => page,
    })
}
