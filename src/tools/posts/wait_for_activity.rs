//! `wait_for_activity`: for clients that show no notifications, waits until someone else writes in
//! a channel, a thread or anywhere in the person's channels (`inbox`), then answers the new posts
//! as `read_channel` pages them (oldest first, the same envelope), with a cursor that continues from
//! the last one — so nothing is lost between two waits — or, at the timeout, says honestly that
//! nothing new came and hands back the cursor to wait on.
//!
//! It watches through the person's Mattermost WebSocket (`crate::live`), so it answers within about
//! a second of the post; it reads through the REST paging (`paging::posts_by_time`, `paging::since`),
//! so what it answers does not depend on the socket: a post made while the socket was down is found
//! by the read when the socket comes back (or at the latest at the next re-read, every
//! [`REREAD`]). Progress notifications say how long it has waited; a cancelled call stops at once.

use crate::args::{Arg, Kind, Limit};
use crate::calls::{Call, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::live::{Update, Watchable, Watcher};
use crate::mattermost::facts::PostFacts;
use crate::mattermost::types::Post;
use crate::paging::Page;
use crate::paging::posts_by_time::{self, Direction, Position, Query, Start};
use crate::paging::{Strategy, since};
use crate::resolve;
use crate::show::PostItem;
use crate::time::rfc3339;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::posts::post_items_in_channels;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a wait lasts unless told.
pub const DEFAULT_WAIT: u32 = 30;
/// The longest wait one call takes (within the default call budget of 120 s, with room to read).
pub const MAX_WAIT: u32 = 100;
/// How often a progress notification says the call still waits.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);
/// How often the source is read again even without an event (a safety net for a socket that is
/// down or slow to come back).
pub const REREAD: Duration = Duration::from_secs(15);
/// How long the wait lets the socket come up before its first read.
const SOCKET_UP: Duration = Duration::from_secs(5);
/// The call budget left for the reads after the wait.
const READ_ROOM: Duration = Duration::from_secs(15);
/// How many channel pages a thread's wait reads at most in one read.
const THREAD_PAGES: usize = 10;

pub const TOOL: Tool = Tool {
    name: "wait_for_activity",
    title: "Wait for new posts",
    description: "Waits until someone else posts in a channel, a thread or your inbox; answers the new posts \
                  oldest first and a cursor to wait again from. At the timeout (default 30 s, max 100) news is \
                  false.",
    toolset: Toolset::Posts,
    args: &[
        Arg {
            name: "source",
            kind: Kind::Channel,
            required: true,
            about: "A channel, a post (its thread) or inbox.",
            shapes: None,
        },
        super::TEAM_OF_CHANNEL,
        Arg {
            name: "timeout_secs",
            kind: Kind::Seconds { max: MAX_WAIT },
            required: false,
            about: "Default 30.",
            shapes: Some("how long the call waits before it answers that nothing came"),
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
            operation: "GetChannelMember",
            params: &[
                ("channel_id", Source::Arg("source")),
                (
                    "user_id",
                    Source::Fixed(
                        "me",
                        "Mattermost tells a channel's events to its members only, so only a member can wait on it",
                    ),
                ),
            ],
        },
        Call {
            operation: "GetPost",
            params: &[
                ("post_id", Source::Arg("source")),
                (
                    "include_deleted",
                    Source::Omitted("a deleted post's thread gets no new replies to wait for"),
                ),
            ],
        },
        Call {
            operation: "GetChannelsForUser",
            params: &[
                (
                    "user_id",
                    Source::Fixed("me", "the inbox is the person's own channels"),
                ),
                (
                    "include_deleted",
                    Source::Omitted("an archived channel gets no new posts"),
                ),
                (
                    "last_delete_at",
                    Source::Omitted("archived channels are not read"),
                ),
            ],
        },
        Call {
            operation: "GetPostsForChannel",
            params: &[
                ("channel_id", Source::Arg("source")),
                (
                    "after",
                    Source::Paging("the last post already answered, going forward"),
                ),
                (
                    "since",
                    Source::Paging(
                        "the time the wait started from, for a channel with no post yet and for the inbox",
                    ),
                ),
                (
                    "per_page",
                    Source::Paging(
                        "one post more than the page (at most 200), 1 for the newest post, or 200 to read a millisecond whole",
                    ),
                ),
                (
                    "page",
                    Source::Fixed("0", "paging is by post and time, never by offset"),
                ),
                ("before", Source::Omitted("a wait reads forward only")),
                (
                    "include_deleted",
                    Source::Omitted("deleted posts are not read"),
                ),
                (
                    "collapsedThreads",
                    Source::Omitted("replies are new posts too"),
                ),
                (
                    "collapsedThreadsExtended",
                    Source::Omitted("replies are new posts too"),
                ),
                (
                    "skipFetchThreads",
                    Source::Fixed("true", "the other posts of the threads are not used"),
                ),
            ],
        },
        USERNAMES,
    ],
    code: crate::list!(run => PostItem, Waited),
};

#[derive(Deserialize)]
struct Args {
    source: String,
    team: Option<String>,
    timeout_secs: Option<u64>,
}

/// What a wait's page carries besides its items.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Waited {
    /// What was waited on: `channel`, `thread` or `inbox`.
    pub source: String,
    /// Whether someone else wrote something new.
    pub news: bool,
    /// Seconds waited.
    pub waited_secs: u64,
    /// What the answer means, in a sentence.
    pub note: String,
}

/// What a wait reads.
struct Target {
    what: Watchable,
    /// The channel (a thread's too).
    channel: Option<String>,
    root: Option<String>,
}

fn refused(why: String) -> ToolError {
    ToolError::new(ErrorKind::Refused, why)
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<PostItem, Waited>, ToolError> {
    let started = Instant::now();
    let person = input.call.live.clone().ok_or_else(|| {
        refused(
            "This server does not watch Mattermost here, so it cannot wait; read the channel with read_channel \
             instead."
                .into(),
        )
    })?;
    let watcher = person.watcher().await.map_err(refused)?;
    let me = watcher.me().to_string();
    let target = target(cx, &me, &input.args).await?;
    let budget_left = crate::mattermost::call::current()
        .map(|s| s.remaining())
        .unwrap_or(Duration::from_secs(u64::from(MAX_WAIT)));
    let asked = Duration::from_secs(input.args.timeout_secs.unwrap_or(u64::from(DEFAULT_WAIT)));
    let wait = asked.min(budget_left.saturating_sub(READ_ROOM));
    let deadline = started + wait;
    let _guard = watcher
        .watch(
            target.what.clone(),
            target.channel.clone(),
            target.root.clone(),
        )
        .map_err(refused)?;
    let mut updates = watcher.updates();
    socket_up(&watcher).await;
    let from = match input.position::<Position>()? {
        Some(p) => p,
        None => starting_point(cx, &target).await?,
    };
    let uri = target.what.uri();
    let mut next_progress = Instant::now() + PROGRESS_EVERY;
    let mut next_read = Instant::now();
    loop {
        if Instant::now() >= next_read {
            let read = read_after(cx, &me, &target, &from, input.limit).await?;
            if read.posts.iter().any(|p| p.author() != me) {
                return answer(cx, &target, read, true, started, &from).await;
            }
            if Instant::now() >= deadline {
                return answer(cx, &target, Read::nothing(&from), false, started, &from).await;
            }
            next_read = Instant::now() + REREAD;
        }
        let until = next_read.min(deadline).min(next_progress);
        tokio::select! {
            () = tokio::time::sleep_until(tokio::time::Instant::from_std(until)) => {
                let now = Instant::now();
                if now >= deadline {
                    next_read = now;
                }
                if now >= next_progress {
                    let waited = started.elapsed().as_secs();
                    crate::mattermost::call::step(|| format!("waited {waited} s of {} s for {uri}", wait.as_secs()));
                    next_progress = now + PROGRESS_EVERY;
                }
            }
            got = updates.recv() => match got {
                Ok(Update::Resource(u)) if u == uri => next_read = Instant::now(),
                Ok(Update::ListChanged) if target.what == Watchable::Inbox => next_read = Instant::now(),
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => next_read = Instant::now(),
            },
            () = watcher.ended() => {
                return Err(refused(
                    "Watching stopped for you (your token was refused, or the server is stopping); call again."
                        .into(),
                ));
            }
        }
    }
}

/// Waits (briefly) for the socket, so that nothing written after the first read goes unheard.
async fn socket_up(watcher: &Arc<Watcher>) {
    let mut connections = watcher.connections();
    let _ = tokio::time::timeout(SOCKET_UP, async {
        while !(watcher.is_up() && *connections.borrow() > 0) {
            if connections.changed().await.is_err() {
                return;
            }
        }
    })
    .await;
}

/// What `source` names: `inbox`, a post (its thread), or a channel the person is a member of.
async fn target(cx: &Ctx, me: &str, args: &Args) -> Result<Target, ToolError> {
    let s = args.source.trim();
    if s.eq_ignore_ascii_case("inbox") {
        return Ok(Target {
            what: Watchable::Inbox,
            channel: None,
            root: None,
        });
    }
    let is_permalink = s.contains("/pl/");
    let mut not_a_member = None;
    let channel = if is_permalink {
        None
    } else {
        let id = resolve::channel_id(cx, s, args.team.as_deref()).await?;
        match member(cx, &id, me).await {
            Ok(()) => Some(id),
            Err(e) if crate::ids::is_id(s) && e.kind == ErrorKind::NotFound => {
                not_a_member = Some(e);
                None
            }
            Err(e) => return Err(e),
        }
    };
    if let Some(id) = channel {
        return Ok(Target {
            what: Watchable::Channel(id.clone()),
            channel: Some(id),
            root: None,
        });
    }
    let post_id = resolve::post_id(s)?;
    let post = match cx
        .call(
            cx.api().get_post().post_id(&post_id).send(),
            "post",
            &post_id,
        )
        .await
    {
        Ok(p) => p,
        // An id that is neither: the channel's reason says what to do.
        Err(e) if e.kind == ErrorKind::NotFound => return Err(not_a_member.unwrap_or(e)),
        Err(e) => return Err(e),
    };
    let root = post.root().unwrap_or(post.id()).to_string();
    let channel = post.channel().to_string();
    member(cx, &channel, me).await?;
    Ok(Target {
        what: Watchable::Thread(root.clone()),
        channel: Some(channel),
        root: Some(root),
    })
}

/// Whether the person is a member of the channel (Mattermost sends its events to members only).
async fn member(cx: &Ctx, channel: &str, me: &str) -> Result<(), ToolError> {
    match cx
        .send(
            cx.api()
                .get_channel_member()
                .channel_id(channel)
                .user_id(me)
                .send(),
        )
        .await
    {
        Ok(_) => Ok(()),
        Err(crate::mattermost::MmError::Api {
            status: 403 | 404, ..
        }) => Err(ToolError::new(
            ErrorKind::NotFound,
            format!(
                "You are not a member of channel {}, or it does not exist: Mattermost tells a channel's events \
                 to its members only, so a wait on it would never end early. Join it (join_channel) first, or \
                 read it with read_channel.",
                quote(channel)
            ),
        )),
        Err(e) => Err(cx.fail(e, "channel", channel)),
    }
}

/// Where a first wait starts: after the newest post of its channel, or (the inbox, an empty
/// channel) after the newest post of any of the person's channels.
async fn starting_point(cx: &Ctx, target: &Target) -> Result<Position, ToolError> {
    if let Some(channel) = &target.channel {
        let q = query(channel);
        let newest = posts_by_time::page(cx, &q, Start::Newest, 1).await?;
        if let Some(p) = newest.posts.last() {
            return Ok(Position {
                d: Direction::Forward,
                t: p.created(),
                a: p.id().to_string(),
            });
        }
    }
    let channels = cx.read_my_channels(None).await?;
    let t = channels
        .iter()
        .filter_map(|c| c.last_post_at)
        .max()
        .unwrap_or(0);
    Ok(Position {
        d: Direction::Forward,
        t,
        a: String::new(),
    })
}

fn query(channel: &str) -> Query {
    Query {
        channel_id: channel.to_string(),
        roots_only: false,
    }
}

/// What one read found after a position.
struct Read {
    posts: Vec<Post>,
    /// Where the next read starts.
    next: Position,
    /// Whether more posts follow than the page held.
    more: bool,
}

impl Read {
    fn nothing(from: &Position) -> Read {
        Read {
            posts: Vec::new(),
            next: from.clone(),
            more: false,
        }
    }
}

fn after(p: &Post) -> Position {
    Position {
        d: Direction::Forward,
        t: p.created(),
        a: p.id().to_string(),
    }
}

/// Whether `p` comes after `from`: after its post (time, then id), or, when it names none, after
/// its whole millisecond.
fn is_after(p: &Post, from: &Position) -> bool {
    if from.a.is_empty() {
        return p.created() > from.t;
    }
    (p.created(), p.id()) > (from.t, from.a.as_str())
}

/// A channel's posts after `from`: forward from its post, or since its time when it names none.
async fn channel_after(
    cx: &Ctx,
    channel: &str,
    from: &Position,
    limit: u32,
) -> Result<(Vec<Post>, bool), ToolError> {
    let q = query(channel);
    if from.a.is_empty() {
        let (page, _) = since::first_page(cx, &q, from.t + 1, limit).await?;
        Ok((page.posts, page.next.is_some()))
    } else {
        let page = posts_by_time::page(cx, &q, Start::At(from.clone()), limit).await?;
        Ok((page.posts, page.next.is_some()))
    }
}

async fn read_after(
    cx: &Ctx,
    me: &str,
    target: &Target,
    from: &Position,
    limit: u32,
) -> Result<Read, ToolError> {
    match &target.what {
        Watchable::Channel(c) => {
            let (posts, more) = channel_after(cx, c, from, limit).await?;
            let next = posts.last().map(after).unwrap_or_else(|| from.clone());
            Ok(Read { posts, next, more })
        }
        Watchable::Thread(root) => {
            let channel = target.channel.clone().unwrap_or_default();
            let mut at = from.clone();
            let mut found = Vec::new();
            for _ in 0..THREAD_PAGES {
                let (posts, more) = channel_after(cx, &channel, &at, limit).await?;
                for p in posts {
                    at = after(&p);
                    if p.id() == root || p.root() == Some(root.as_str()) {
                        found.push(p);
                        if found.len() as u32 >= limit {
                            return Ok(Read {
                                posts: found,
                                next: at,
                                more: true,
                            });
                        }
                    }
                }
                if !more {
                    return Ok(Read {
                        posts: found,
                        next: at,
                        more: false,
                    });
                }
            }
            Ok(Read {
                posts: found,
                next: at,
                more: true,
            })
        }
        Watchable::Inbox => {
            let channels = cx.read_my_channels(None).await?;
            let mut posts = Vec::new();
            for c in channels
                .iter()
                .filter(|c| c.last_post_at.unwrap_or(0) >= from.t && c.delete_at.unwrap_or(0) == 0)
            {
                let id = c.id.clone().unwrap_or_default();
                let (found, _) = since::first_page(cx, &query(&id), from.t, limit).await?;
                posts.extend(
                    found
                        .posts
                        .into_iter()
                        .filter(|p| p.author() != me && is_after(p, from)),
                );
            }
            posts.sort_by(|a, b| (a.created(), a.id()).cmp(&(b.created(), b.id())));
            let more = posts.len() > limit as usize;
            posts.truncate(limit as usize);
            let next = posts.last().map(after).unwrap_or_else(|| from.clone());
            Ok(Read { posts, next, more })
        }
    }
}

async fn answer(
    cx: &Ctx,
    target: &Target,
    read: Read,
    news: bool,
    started: Instant,
    from: &Position,
) -> Result<Page<PostItem, Waited>, ToolError> {
    let source = match &target.what {
        Watchable::Channel(_) => "channel",
        Watchable::Thread(_) => "thread",
        Watchable::Inbox => "inbox",
    };
    let waited = started.elapsed().as_secs();
    let note = if news {
        format!(
            "{} new post(s) after {waited} s; pass next_cursor back to wait for what comes after them{}.",
            read.posts.len(),
            if read.more {
                " (more are there already: wait again at once)"
            } else {
                ""
            }
        )
    } else {
        format!(
            "Nothing new from others since {} (waited {waited} s); pass next_cursor back to keep waiting from \
             there.",
            if from.t > 0 {
                rfc3339(from.t)
            } else {
                "the start".to_string()
            }
        )
    };
    let items = post_items_in_channels(cx, &read.posts).await?;
    Ok(Page::new(items)
        .continue_at(Some(read.next))
        .with_extra(Waited {
            source: source.to_string(),
            news,
            waited_secs: waited,
            note,
        })
        .capped(false))
}
