//! `read_unread`: what is unread in one of the person's channels — the posts written since they last
//! viewed it, oldest first, after a few read posts for context — read through `paging::since` and
//! continued forward with `paging::posts_by_time`. Mattermost keeps what is unread only for a channel's
//! members, so a channel the person has not joined is refused, pointing to `read_channel`.

use super::common::{ChannelPosts, channel_page};
use crate::args::Limit;
use crate::calls::{Call, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::{ChannelFacts, ChannelKind, PostFacts};
use crate::paging::posts_by_time::{self, Query, Start};
use crate::paging::{Page, Strategy, since};
use crate::resolve::{self, ResolvedChannel};
use crate::show::{self, PostItem};
use crate::time::rfc3339;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::posts::post_items;
use crate::tools::shared::unread::read_before;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const TOOL: Tool = Tool {
    name: "read_unread",
    title: "Read what is unread in a channel",
    description: "What is unread in one of your channels: the posts since you last viewed it, oldest first, \
                  after up to 3 read posts (`context`), with first_unread, unread_count and last_viewed; \
                  next_cursor goes forward. A channel never viewed is all unread (never_viewed), newest page \
                  first. Nothing is marked read. For a channel you have not joined use read_channel.",
    toolset: Toolset::Posts,
    args: &[super::CHANNEL, super::TEAM_OF_CHANNEL],
    answer: Answer::List {
        strategy: Strategy::Since,
        limit: Limit::new(30, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetChannelMember",
            params: &[
                ("channel_id", Source::Arg("channel")),
                (
                    "user_id",
                    Source::Fixed(
                        "me",
                        "the person's own membership holds when they last viewed the channel",
                    ),
                ),
            ],
        },
        Call {
            operation: "GetPostsForChannel",
            params: &[
                ("channel_id", Source::Arg("channel")),
                (
                    "since",
                    Source::Paging(
                        "the time the channel was last viewed, for the posts changed after it",
                    ),
                ),
                (
                    "before",
                    Source::Paging(
                        "the first unread post, for the read posts before it; the post a page ended on, going back",
                    ),
                ),
                (
                    "after",
                    Source::Paging("the post the previous page ended on, going forward"),
                ),
                (
                    "per_page",
                    Source::Paging(
                        "one post more than the page (at most 200), 3 for the context, or 200 to read a millisecond whole",
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
                        "deleted posts are not unread news, and only system admins may read them",
                    ),
                ),
                (
                    "collapsedThreads",
                    Source::Omitted(
                        "unread replies are news too: every post is read, not only thread roots",
                    ),
                ),
                (
                    "collapsedThreadsExtended",
                    Source::Omitted("only with collapsedThreads, which is not sent"),
                ),
                (
                    "skipFetchThreads",
                    Source::Fixed(
                        "true",
                        "the other posts of the threads in a page are not used; leaving them out keeps answers small",
                    ),
                ),
            ],
        },
        USERNAMES,
    ],
    code: crate::list!(run => PostItem, Unread),
};

#[derive(Deserialize)]
struct Args {
    channel: String,
    team: Option<String>,
}

/// The first unread post.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FirstUnread {
    pub id: String,
    pub time: String,
}

/// What a page of unread posts carries besides its items. The first page says when the channel was
/// last viewed, how many posts are unread and which is the first, with the read posts before it; a
/// later page carries only the channel's fields.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Unread {
    #[serde(flatten)]
    pub channel: ChannelPosts,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_viewed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unread_count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_unread: Option<FirstUnread>,
    /// Up to 3 read posts just before the first unread one (or the latest, when nothing is unread),
    /// shown as `items` are. Published as a list of objects: the items' schema once is enough for
    /// every client that lists the tools.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<serde_json::Map<String, serde_json::Value>>")]
    pub context: Vec<PostItem>,
    /// You never viewed the channel: every post is unread, read newest page first.
    #[serde(default, skip_serializing_if = "show::is_false")]
    pub never_viewed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Unread {
    fn of(channel: ChannelPosts) -> Unread {
        Unread {
            channel,
            last_viewed: None,
            unread_count: None,
            first_unread: None,
            context: Vec::new(),
            never_viewed: false,
            note: None,
        }
    }
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<PostItem, Unread>, ToolError> {
    let args = &input.args;
    let resolved = resolve::channel(cx, &args.channel, args.team.as_deref()).await?;
    let q = Query {
        channel_id: resolved.id.clone(),
        roots_only: false,
    };
    if let Some(p) = input.position::<posts_by_time::Position>()? {
        let posts = posts_by_time::page(cx, &q, Start::At(p), input.limit).await?;
        return Ok(with_unread(channel_page(cx, posts, &q.channel_id).await?));
    }
    let viewed = last_viewed(cx, &resolved, &args.channel).await?;
    if viewed <= 0 {
        return never_viewed(cx, &q, input.limit).await;
    }
    let (posts, total) = since::first_page(cx, &q, viewed + 1, input.limit).await?;
    let before = read_before(cx, &q, posts.posts.first(), viewed).await?;
    let mut all = before.clone();
    all.extend(posts.posts.iter().cloned());
    let mut items = post_items(cx, &all, Some(show::MESSAGE_CUT)).await?;
    let unread_items = items.split_off(before.len());
    let context = items
        .into_iter()
        .map(|mut item| {
            item.read = Some(true);
            item
        })
        .collect();
    let count = total.unwrap_or(posts.posts.len() as u64);
    let first_unread = posts.posts.first().map(|p| FirstUnread {
        id: p.id().to_string(),
        time: rfc3339(p.created()),
    });
    let note = first_unread.is_none().then(|| {
        "Nothing is unread in this channel: context holds its latest posts, all read.".to_string()
    });
    let extra = Unread {
        last_viewed: Some(rfc3339(viewed)),
        unread_count: Some(count),
        first_unread,
        context,
        note,
        ..Unread::of(ChannelPosts::of(cx, &q.channel_id, &posts))
    };
    Ok(Page::new(unread_items)
        .continue_at(posts.next)
        .with_total(count)
        .with_extra(extra))
}

fn with_unread(page: Page<PostItem, ChannelPosts>) -> Page<PostItem, Unread> {
    let extra = Unread::of(page.extra.clone());
    page.with_extra(extra)
}

/// When the person last viewed the channel (0 when never), from their membership.
///
/// Mattermost answers a membership only to a member (`api4/channel.go` `getChannelMember` needs the
/// `read_channel` permission, which only channel roles grant): a public channel the person has not
/// joined, a private one they are not in and an id of no channel are all 403 (404 for a system admin
/// who is not a member). None has anything unread for the person, so each is refused as `not_member`,
/// naming what can be done instead.
async fn last_viewed(cx: &Ctx, resolved: &ResolvedChannel, given: &str) -> Result<i64, ToolError> {
    let request = cx
        .api()
        .get_channel_member()
        .channel_id(&resolved.id)
        .user_id("me")
        .send();
    match cx.send(request).await {
        Ok(member) => Ok(member.into_inner().last_viewed_at.unwrap_or(0)),
        Err(e) if matches!(e.status(), Some(403 | 404)) => Err(not_member(resolved, given)),
        Err(e) => Err(cx.fail(e, "channel", given)),
    }
}

fn not_member(resolved: &ResolvedChannel, given: &str) -> ToolError {
    let public = resolved
        .channel
        .as_ref()
        .filter(|c| c.kind() == ChannelKind::Public);
    let message = match public {
        Some(c) => format!(
            "You have not joined the public channel ~{} ({}), so nothing in it is unread for you: Mattermost \
             keeps what is unread only for a channel's members. Call read_channel to read it without joining, \
             or join it with join_channel (a tool that writes) and then read_unread.",
            c.name(),
            quote(given)
        ),
        None => format!(
            "You are not a member of the channel {} (or no channel has that id), so nothing in it is unread for \
             you: Mattermost keeps what is unread only for a channel's members. For a public channel, call \
             read_channel to read it without joining, or join it with join_channel (a tool that writes); a \
             private channel is read only by its members. list_channels lists yours.",
            quote(given)
        ),
    };
    ToolError::new(ErrorKind::NotMember, message).with("channel", serde_json::json!(given))
}

/// A channel the person never viewed: every post is unread, read newest page first, going back.
async fn never_viewed(
    cx: &Ctx,
    q: &Query,
    limit: u32,
) -> Result<Page<PostItem, Unread>, ToolError> {
    let posts = posts_by_time::page(cx, q, Start::Newest, limit).await?;
    let page = channel_page(cx, posts, &q.channel_id).await?;
    let extra = Unread {
        never_viewed: true,
        note: Some(
            "You never viewed this channel, so every post in it is unread. This reads it newest page first \
             (each page oldest first); next_cursor goes further back."
                .to_string(),
        ),
        ..Unread::of(page.extra.clone())
    };
    Ok(page.with_extra(extra))
}
