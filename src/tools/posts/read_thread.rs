//! `read_thread`: a whole thread from any post in it, oldest first, messages never cut, paged on
//! Mattermost's (time, id) keyset (`paging::thread`). Every page asks for the thread of the post given
//! (a cursor comes back with the same arguments), so the cursor holds only the keyset's (time, id).

use crate::args::Limit;
use crate::calls::{Call, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::PostFacts;
use crate::paging::cursor::{self, Fields, Reader};
use crate::paging::{Page, Strategy, thread};
use crate::resolve;
use crate::show::{self, PostItem};
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::posts::post_items;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "read_thread",
    title: "Read a thread",
    description: "A whole thread, oldest first, from any post in it: the root, then every reply, messages \
                  never cut; replies of one millisecond each once, in (time, id) order.",
    toolset: Toolset::Posts,
    args: &[super::POST],
    answer: Answer::List {
        strategy: Strategy::Thread,
        limit: Limit::new(50, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetPostThread",
            params: &[
                ("post_id", Source::Arg("post")),
                (
                    "perPage",
                    Source::Paging("the page's limit (at most 200; more is a 400)"),
                ),
                (
                    "fromPost",
                    Source::Paging("the id of the last post shown, the keyset's tiebreak"),
                ),
                (
                    "fromCreateAt",
                    Source::Paging("the creation time of the last post shown"),
                ),
                (
                    "direction",
                    Source::Fixed(
                        "down",
                        "oldest first, ordered by (create_at, id); without it Mattermost has no order at all",
                    ),
                ),
                (
                    "fromUpdateAt",
                    Source::Omitted(
                        "paging is by creation time, the thread's reading order, not by edits",
                    ),
                ),
                (
                    "updatesOnly",
                    Source::Omitted("the thread is read whole, not only what changed since a time"),
                ),
                (
                    "skipFetchThreads",
                    Source::Omitted("it would leave out the replies, which are what is read"),
                ),
                (
                    "collapsedThreads",
                    Source::Omitted(
                        "the replies are read as posts; the collapsed-threads form adds nothing here",
                    ),
                ),
                (
                    "collapsedThreadsExtended",
                    Source::Omitted("only with collapsedThreads, which is not sent"),
                ),
            ],
        },
        USERNAMES,
    ],
    code: crate::list!(run => PostItem, ThreadPosts),
};

#[derive(Deserialize)]
struct Args {
    post: String,
}

/// What a page of a thread carries besides its items.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ThreadPosts {
    pub(crate) root_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) channel_id: Option<String>,
    /// Any post's permalink: this with `{id}` replaced by the post's id.
    pub(crate) permalink: String,
}

/// Where the next page starts: after the post `p`, written at `t`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct After {
    t: i64,
    p: String,
}

impl cursor::Position for After {
    fn write(&self, f: &mut Fields) {
        f.num(self.t).id(&self.p);
    }

    fn read(r: &mut Reader<'_>) -> Option<After> {
        Some(After {
            t: r.num()?,
            p: r.id()?,
        })
    }
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<PostItem, ThreadPosts>, ToolError> {
    let given = resolve::post_id(&input.args.post)?;
    let from = input.position::<After>()?.map(|a| thread::Position {
        r: given.clone(),
        t: a.t,
        p: a.p,
    });
    let page = thread::page(cx, &given, from.as_ref(), input.limit).await?;
    let next = page.next.map(|n| After { t: n.t, p: n.p });
    let items = post_items(cx, &page.posts, None).await?;
    let extra = ThreadPosts {
        channel_id: page
            .posts
            .first()
            .map(|p| p.channel().to_string())
            .filter(|c| !c.is_empty()),
        root_id: page.root_id,
        permalink: show::permalink_pattern(cx.url()),
    };
    Ok(Page::new(items).continue_at(next).with_extra(extra))
}
