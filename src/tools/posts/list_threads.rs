//! `list_threads`: the threads the person follows, newest reply first, read whole once per cursor
//! chain (`paging::followed_threads`, kept as in `paging::pages_with_ties`), each with its channel.

use super::common::{ManyPosts, teams_of};
use crate::args::{Arg, Kind, Limit};
use crate::calls::{Call, ME, MY_CHANNELS, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::PostFacts;
use crate::mattermost::types::UserThread;
use crate::paging::whole_list::{After, Keyed, Order, SortKey};
use crate::paging::{Page, Strategy, followed_threads, pages_with_ties};
use crate::show::{Shown, ThreadItem};
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::posts::channel_labels;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "list_threads",
    title: "List followed threads",
    description: "The threads you follow, newest reply first: root post, channel, replies, last reply, \
                  participants, unread replies and mentions; direct and group threads once. Read whole once \
                  per cursor chain, as the order moves when people reply.",
    toolset: Toolset::Posts,
    args: &[
        super::TEAM,
        Arg {
            name: "unread_only",
            kind: Kind::Flag,
            required: false,
            about: "true: only threads with replies you have not read.",
            shapes: None,
        },
    ],
    answer: Answer::List {
        strategy: Strategy::FollowedThreads,
        limit: Limit::new(20, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetUserThreads",
            params: &[
                (
                    "user_id",
                    Source::Fixed("me", "the threads the token user follows"),
                ),
                (
                    "team_id",
                    Source::Paging("the team given, or each of the user's teams in turn"),
                ),
                (
                    "before",
                    Source::Paging(
                        "the last thread kept of the previous page, on a whole millisecond of last reply",
                    ),
                ),
                (
                    "after",
                    Source::Paging(
                        "the newest thread older than a millisecond that filled a whole page, to read that millisecond whole",
                    ),
                ),
                ("per_page", Source::Paging("200, Mattermost's largest page")),
                (
                    "page",
                    Source::Omitted(
                        "Mattermost never reads it: every page number answers the first page again (notes §4); paging is by before and after",
                    ),
                ),
                (
                    "excludeDirect",
                    Source::Paging(
                        "true for every team after the first, so direct and group threads, which appear under every team, are read once",
                    ),
                ),
                ("unread", Source::Arg("unread_only")),
                (
                    "threadsOnly",
                    Source::Omitted(
                        "the totals it would leave out check that the walk reached every followed thread",
                    ),
                ),
                (
                    "totalsOnly",
                    Source::Omitted("the threads themselves are wanted, not only their counts"),
                ),
                (
                    "since",
                    Source::Omitted(
                        "every followed thread is wanted, not only those changed since a time",
                    ),
                ),
                (
                    "deleted",
                    Source::Omitted("a thread whose root was deleted cannot be read"),
                ),
                (
                    "extended",
                    Source::Omitted(
                        "participants are shown by username, looked up once and cached, smaller than full user objects",
                    ),
                ),
            ],
        },
        USERNAMES,
        MY_CHANNELS,
        ME,
    ],
    code: crate::list!(run => FollowedThread, ManyPosts),
};

#[derive(Deserialize)]
struct Args {
    team: Option<String>,
    #[serde(default)]
    unread_only: bool,
}

/// A followed thread, with the channel it is in.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct FollowedThread {
    #[serde(flatten)]
    pub(crate) thread: ThreadItem,
    pub(crate) channel_id: String,
    /// The channel as a person names it (`~name`, `@username`, a group's names), when it is yours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) channel: Option<String>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<FollowedThread, ManyPosts>, ToolError> {
    let teams = teams_of(cx, input.args.team.as_deref()).await?;
    let sources = followed_threads::sources(&teams, input.args.unread_only);
    let after = input.position::<After>()?;
    let mut overflow = None;
    let (items, next, total) = pages_with_ties::page(
        &cx.lists,
        &input.list_key(),
        Order::Descending,
        after,
        input.limit as usize,
        || read_threads(cx, &sources, &mut overflow),
    )
    .await?;
    Ok(Page::new(items)
        .continue_at(next)
        .with_total(total as u64)
        .with_extra(ManyPosts::of(cx, overflow, "threads")))
}

fn channel_of(t: &UserThread) -> &str {
    t.post.as_ref().map(|p| p.channel()).unwrap_or("")
}

/// Every followed thread of the sources, shown and keyed by last reply.
async fn read_threads(
    cx: &Ctx,
    sources: &[followed_threads::Source],
    overflow: &mut Option<i64>,
) -> Result<Vec<Keyed<FollowedThread>>, ToolError> {
    let read = followed_threads::read_all(cx, sources).await?;
    *overflow = read.incomplete_millisecond;
    let people = read.threads.iter().flat_map(|t| {
        let root = t.post.as_ref().map(|p| p.author().to_string());
        let participants = t.participants.iter().flatten().filter_map(|u| u.id.clone());
        root.into_iter().chain(participants)
    });
    let authors = cx.authors(people.collect::<Vec<_>>()).await?;
    let names: std::collections::HashMap<String, String> = authors
        .iter()
        .map(|(id, a)| (id.clone(), a.username.clone()))
        .collect();
    let me = cx.my_id().await?;
    let shown = Shown {
        usernames: &names,
        authors: &authors,
        me: &me,
    };
    let labels = channel_labels(cx, read.threads.iter().map(channel_of)).await?;
    Ok(read
        .threads
        .iter()
        .map(|t| {
            let channel_id = channel_of(t).to_string();
            let item = FollowedThread {
                thread: ThreadItem::of(t, &shown),
                channel: labels.get(&channel_id).cloned(),
                channel_id,
            };
            let key = SortKey::Int(followed_threads::last_reply(t));
            Keyed::new(key, item.thread.id.clone(), item)
        })
        .collect())
}
