//! `read_inbox`: everything unread for the person, as one list paged by cursor to its end
//! (`paging::inbox`): direct and group messages, then channels that mention them, then the other
//! unread channels by most recent activity, then followed threads with unread replies, then muted
//! channels; within a source its unread posts oldest first, after the read post just before them (a
//! thread's root, for a thread).
//!
//! What is unread is what the person's Mattermost clients count (`tools::shared::unread`): with
//! collapsed reply threads on, a channel's unread root posts, and each followed thread's replies since
//! the person last viewed it; without, every post since they last viewed the channel (and no thread
//! sources, as replies are then counted in their channels). The first page plans the walk from what
//! `list_channels` and `list_threads` read (the person's channels, their memberships per team, their
//! followed threads with unread replies per team) and opens with the whole picture; each source is
//! read when a page first reaches it, in about one request:
//!
//! - a channel: its newest posts in one page-mode read (`GetPostsForChannel` `page=0`, sized to the
//!   unread count, the context and two posts more) reaches back past the last viewed time, so it
//!   holds every unread post and the read ones just before them; ties cannot be lost there, as the
//!   page's oldest millisecond is a read one. When more is unread (or more arrived meanwhile), the
//!   unread posts are read as `read_unread` reads them (`paging::since`) with the context before them.
//! - a followed thread: its replies written after the person last viewed it, 200 a request on
//!   Mattermost's keyset (`paging::thread`, `fromCreateAt` alone for the first), its root as context.
//!
//! Nothing is marked read. The walk and what it read are kept for the cursor's chain; the last page
//! reads the counts again (the person's channels and followed threads) and says what arrived while the
//! walk ran and was not shown.

use crate::args::{Arg, Kind, Limit};
use crate::calls::{CLIENT_CONFIG, Call, ME, MY_TEAMS, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::facts::{ChannelFacts, PostFacts};
use crate::mattermost::types::{self, Post, UserThread};
use crate::paging::inbox::{self, Place, Position, Section};
use crate::paging::posts_by_time::{self, MAX_PER_PAGE, Mode, Query};
use crate::paging::{Page, Strategy, followed_threads, since, thread};
use crate::resolve;
use crate::show::{self, MESSAGE_CUT, PostItem, Shown};
use crate::time::rfc3339_seconds;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::posts::post_items;
use crate::tools::shared::unread::{
    CRT_PREFERENCE, collapsed_threads, memberships, muted, read_before, unread_in,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The parts of the inbox `only` chooses from.
const ONLY: &[&str] = &["direct", "mentions", "channels", "threads"];

pub(crate) const TOOL: Tool = Tool {
    name: "read_inbox",
    title: "Read everything unread",
    description: "Everything unread for you, one list to its end: direct and group messages, channels that \
                  mention you, other channels, followed threads, muted channels; each source's posts oldest \
                  first. Items are rows [s, id, time, by, text, more]; source s's header is in `sources` where \
                  it begins, and the first page's overview counts every source. Nothing is marked read. About \
                  one request per source (up to 200 posts), 2 per team to plan.",
    toolset: Toolset::Posts,
    args: &[
        super::TEAM,
        Arg {
            name: "only",
            kind: Kind::Choices { of: ONLY },
            required: false,
            about: "Only these parts: direct, mentions, channels (muted too), threads.",
            shapes: Some("keeps only the sources of the parts named"),
        },
    ],
    answer: Answer::List {
        strategy: Strategy::Inbox,
        limit: Limit::new(100, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetChannelsForUser",
            params: &[
                (
                    "user_id",
                    Source::Fixed("me", "the token user's own channels"),
                ),
                (
                    "include_deleted",
                    Source::Omitted(
                        "nothing in an archived channel is unread news: only live channels are read",
                    ),
                ),
                (
                    "last_delete_at",
                    Source::Omitted("archived channels are left out altogether"),
                ),
            ],
        },
        Call {
            operation: "GetChannelMembersForUser",
            params: &[
                (
                    "user_id",
                    Source::Fixed(
                        "me",
                        "the token user's own memberships hold the unread counts",
                    ),
                ),
                (
                    "team_id",
                    Source::Paging("the team given, or each of the user's teams in turn"),
                ),
            ],
        },
        Call {
            operation: "GetChannelMembersWithTeamDataForUser",
            params: &[
                (
                    "user_id",
                    Source::Fixed(
                        "me",
                        "a user in no team still has direct messages, whose memberships only this list gives",
                    ),
                ),
                (
                    "page",
                    Source::Paging("each page from 0 until a short one, for a user in no team"),
                ),
                ("per_page", Source::Paging("200, Mattermost's largest page")),
            ],
        },
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
                        "Mattermost never reads it (notes §4); paging is by before and after",
                    ),
                ),
                (
                    "excludeDirect",
                    Source::Paging(
                        "true for every team after the first, so direct and group threads are read once",
                    ),
                ),
                (
                    "unread",
                    Source::Fixed("true", "only threads with unread replies are inbox sources"),
                ),
                (
                    "threadsOnly",
                    Source::Omitted(
                        "the totals it would leave out check that the walk reached every thread",
                    ),
                ),
                (
                    "totalsOnly",
                    Source::Omitted("the threads themselves are wanted"),
                ),
                (
                    "since",
                    Source::Omitted("every thread with unread replies is wanted"),
                ),
                (
                    "deleted",
                    Source::Omitted("a thread whose root was deleted cannot be read"),
                ),
                (
                    "extended",
                    Source::Omitted("participants are not shown; authors are looked up by id"),
                ),
            ],
        },
        Call {
            operation: "GetPostsForChannel",
            params: &[
                ("channel_id", Source::Paging("each channel source in turn")),
                (
                    "page",
                    Source::Fixed(
                        "0",
                        "the newest posts, reaching back past the last viewed time; never an offset",
                    ),
                ),
                (
                    "per_page",
                    Source::Paging(
                        "the unread count, the context and two more (under 200); 3 for the context, 200 to read on",
                    ),
                ),
                (
                    "since",
                    Source::Paging(
                        "the time the channel was last viewed, when more is unread than one page holds",
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
                    Source::Omitted(
                        "channels are read back from their newest post or since a time",
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
                    Source::Paging(
                        "true when collapsed reply threads are on for the person: root posts only, as the channel counts them",
                    ),
                ),
                (
                    "collapsedThreadsExtended",
                    Source::Paging("with collapsedThreads, as the collapsed-threads read sends it"),
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
        Call {
            operation: "GetPostThread",
            params: &[
                (
                    "post_id",
                    Source::Paging("each followed thread's root in turn"),
                ),
                (
                    "perPage",
                    Source::Paging("200, the largest (more is a 400)"),
                ),
                (
                    "fromCreateAt",
                    Source::Paging("the time the thread was last viewed, then the last reply read"),
                ),
                (
                    "fromPost",
                    Source::Paging("the last reply read, the keyset's tiebreak"),
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
                    Source::Omitted("replies are read by creation time, not by edits"),
                ),
                (
                    "updatesOnly",
                    Source::Omitted("what is unread is what was written, not what changed"),
                ),
                (
                    "skipFetchThreads",
                    Source::Omitted("it would leave out the replies, which are what is read"),
                ),
                (
                    "collapsedThreads",
                    Source::Omitted("the replies are read as posts"),
                ),
                (
                    "collapsedThreadsExtended",
                    Source::Omitted("only with collapsedThreads, which is not sent"),
                ),
            ],
        },
        CLIENT_CONFIG,
        CRT_PREFERENCE,
        MY_TEAMS,
        ME,
        USERNAMES,
    ],
    code: crate::list!(run => Row, InboxPage),
};

#[derive(Deserialize)]
struct Args {
    team: Option<String>,
    only: Option<Vec<String>>,
}

/// The columns of a post's row.
pub(crate) const COLUMNS: [&str; 6] = ["s", "id", "time", "by", "text", "more"];

/// A post as a row, `[s, id, time, by, text, more]` (the page's `columns`): the index of its source
/// (a header in `sources` where the source begins, an entry of the first page's `overview`), its id,
/// when it was written (to the second), who wrote it (their username, or their id when it is not
/// known), its text, and, when it has any, an object of everything else a post shows (`root_id`,
/// `reply_count`, `file_ids`, `edited`, `pinned`, `reactions`, `my_reactions`, `type`, ...). A row
/// rather than an object: the keys of every post would cost a quarter of a page.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub(crate) s: usize,
    pub(crate) id: String,
    pub(crate) time: String,
    pub(crate) by: String,
    pub(crate) text: String,
    pub(crate) more: serde_json::Map<String, serde_json::Value>,
}

impl Row {
    /// The row of a post of source `s`: the post's item, its four first fields taken out.
    fn of(s: usize, item: &PostItem) -> Row {
        let mut more = match serde_json::to_value(item) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => serde_json::Map::new(),
        };
        for key in ["id", "time", "by", "by_id", "text"] {
            more.remove(key);
        }
        Row {
            s,
            id: item.id.clone(),
            time: item.time.clone(),
            by: item
                .author
                .clone()
                .or_else(|| item.author_id.clone())
                .unwrap_or_default(),
            text: item.message.clone(),
            more,
        }
    }
}

impl Serialize for Row {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let len = if self.more.is_empty() { 5 } else { 6 };
        let mut seq = serializer.serialize_seq(Some(len))?;
        seq.serialize_element(&self.s)?;
        seq.serialize_element(&self.id)?;
        seq.serialize_element(&self.time)?;
        seq.serialize_element(&self.by)?;
        seq.serialize_element(&self.text)?;
        if !self.more.is_empty() {
            seq.serialize_element(&self.more)?;
        }
        seq.end()
    }
}

impl JsonSchema for Row {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Row".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        // The columns are said in the tool's description: a row's schema stays short.
        schemars::json_schema!({"type": "array", "minItems": 5, "maxItems": 6})
    }
}

/// A source's header, given once, on the page where its posts begin.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Header {
    /// The source's index: its posts carry it as `s`.
    pub(crate) s: usize,
    /// direct, group, public, private or thread.
    pub(crate) kind: String,
    /// The channel's id, or the thread's root post id.
    pub(crate) id: String,
    /// The channel as a person names it (`~name`, `@username`, a group's names); for a thread, its
    /// channel's.
    pub(crate) name: String,
    /// The team's URL name, when another of your teams has a channel of that name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) team: Option<String>,
    /// Unread posts, as Mattermost counts them (a thread: its unread replies).
    pub(crate) unread: i64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) mentions: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) first_unread: Option<String>,
    /// You muted the channel.
    #[serde(default, skip_serializing_if = "show::is_false")]
    pub(crate) muted: bool,
    /// Read posts just before the first unread one, oldest first, as rows like the items; for a
    /// thread, its root.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<Vec<serde_json::Value>>")]
    pub(crate) context: Vec<Row>,
    /// Why the source could not be read (left meanwhile, permissions changed): the walk went on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
    /// When what was read differs from the count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
}

/// One source in the overview, as `[s, name, unread, mentions]` (the overview's `columns`).
pub(crate) type Entry = (usize, String, i64, i64);

/// One part of the inbox in the overview.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Part {
    /// direct, mentions, channels, threads or muted.
    pub(crate) part: String,
    pub(crate) unread: i64,
    /// Each source as `[s, name, unread, mentions]`.
    pub(crate) sources: Vec<Entry>,
}

/// The whole picture, on the first page: every source with its counts, by part, and the totals.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Overview {
    /// Unread posts in all, as Mattermost counts them.
    pub(crate) unread: i64,
    pub(crate) mentions: i64,
    pub(crate) sources: usize,
    /// What each source of a part's `sources` holds, in order.
    pub(crate) columns: [&'static str; 4],
    #[schemars(with = "Vec<serde_json::Map<String, serde_json::Value>>")]
    pub(crate) parts: Vec<Part>,
    pub(crate) note: String,
}

/// What the walk has still to show, as Mattermost counts it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Left {
    pub(crate) sources: usize,
    pub(crate) unread: i64,
}

/// What arrived while the walk ran and was not shown (on the last page).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Arrived {
    pub(crate) posts: i64,
    /// Where, by name.
    pub(crate) sources: Vec<String>,
    pub(crate) note: String,
}

/// What a page carries besides its posts.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct InboxPage {
    /// What each item (and each context post) holds, in order (said in the description too, so left
    /// out of the published schema).
    #[schemars(skip)]
    pub(crate) columns: [&'static str; 6],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) overview: Option<Overview>,
    /// The headers of the sources that begin on this page.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<serde_json::Map<String, serde_json::Value>>")]
    pub(crate) sources: Vec<Header>,
    /// Any post's permalink: this with `{id}` replaced by the post's id.
    pub(crate) permalink: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) left: Option<Left>,
    /// On the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")]
    pub(crate) new: Option<Arrived>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// What a page may cost a model: this many bytes of text copy a post of its limit, the first page's
/// overview and every header included (a page always holds one post, and a millisecond whole).
const BYTES_PER_POST: usize = 150;
/// The bytes of a page besides its posts, headers and overview: the envelope, the columns, the
/// permalink, what is left and what arrived.
const RESERVED: usize = 600;

/// The length of a value's JSON.
fn json_len<T: Serialize>(value: &T) -> usize {
    serde_json::to_vec(value).map_or(0, |v| v.len())
}

/// How many read posts a channel shows before its first unread one.
const CHANNEL_CONTEXT: usize = 1;
/// How many posts more than counted a channel's first read asks for, for posts arriving meanwhile.
const SLACK: i64 = 2;

/// What a source is.
#[derive(Debug, Clone)]
enum What {
    Channel { roots_only: bool },
    Thread,
}

/// A source as the walk planned it.
#[derive(Debug, Clone)]
struct Planned {
    place: Place,
    what: What,
    kind: &'static str,
    name: String,
    team: Option<String>,
    /// When the person last viewed it (0: never).
    viewed: i64,
    unread: i64,
    mentions: i64,
    muted: bool,
    /// A thread's root, shown first in its context.
    root: Option<PostItem>,
}

/// A source as read: its unread posts in (time, id) order, with their times, and the read ones
/// before them; or why it could not be read.
#[derive(Debug, Default)]
struct Read {
    posts: Vec<(i64, PostItem)>,
    context: Vec<PostItem>,
    error: Option<String>,
}

/// The walk kept for its cursor chain: its plan, and each source read so far.
struct Walk {
    t0: i64,
    crt: bool,
    sources: Vec<Planned>,
    read: Mutex<HashMap<usize, Arc<Read>>>,
    /// For the last page's count of what arrived: the unread posts of each of the person's channels,
    /// and the unread replies of each followed thread, as counted when the walk was planned.
    counted: HashMap<String, i64>,
    /// Set when the plan was read again for a cursor that outlived it: sources that moved meanwhile.
    moved: Vec<String>,
}

impl Walk {
    fn bytes(&self) -> usize {
        let read = self
            .read
            .lock()
            .map(|r| {
                r.values()
                    .map(|s| (s.posts.len() + s.context.len()) * 300)
                    .sum::<usize>()
            })
            .unwrap_or(0);
        read + self.sources.len() * 300 + self.counted.len() * 64
    }

    fn read_of(&self, i: usize) -> Option<Arc<Read>> {
        self.read.lock().ok()?.get(&i).cloned()
    }
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<Row, InboxPage>, ToolError> {
    let parts = chosen_parts(input.args.only.as_deref());
    let team = input.args.team.as_deref();
    let key = |t0: i64| format!("{}:{t0}", input.list_key());
    let (walk, start, first) = match input.position::<Position>()? {
        None => {
            let walk = Arc::new(plan(cx, team, &parts, None).await?);
            let start = walk
                .sources
                .first()
                .map(|s| Position::start(walk.t0, 0, &s.place));
            (walk, start, true)
        }
        Some(at) => match cx.lists.get::<Walk>(&key(at.t0)) {
            Some(walk) if walk.sources.get(at.i).is_some_and(|s| at.is_at(&s.place)) => {
                (walk, Some(at), false)
            }
            _ => {
                let (walk, start) = replan(cx, team, &parts, &at).await?;
                (Arc::new(walk), start, false)
            }
        },
    };
    let overview = first.then(|| overview(&walk, &parts));
    let limit = input.limit as usize;
    let budget = BYTES_PER_POST * limit;
    let mut used = RESERVED + overview.as_ref().map_or(0, json_len);
    let mut items = Vec::new();
    let mut headers = Vec::new();
    let mut next = None;
    if let Some(start) = start {
        let (mut i, mut after) = (start.i, start.after);
        while i < walk.sources.len() && items.len() < limit {
            let read = read_source(cx, &walk, i).await?;
            let times: Vec<i64> = read.posts.iter().map(|(t, _)| *t).collect();
            let from = after.map_or(0, |a| times.partition_point(|t| *t <= a));
            let head = after.is_none().then(|| header(i, &walk.sources[i], &read));
            let head_bytes = head.as_ref().map_or(0, |h| json_len(h) + 1);
            // the posts that fit in what is left of the page, in posts and in bytes
            let mut room = 0;
            let mut bytes = used + head_bytes;
            for (_, p) in &read.posts[from..] {
                let b = json_len(&Row::of(i, p)) + 1;
                if room == limit - items.len() || bytes + b > budget {
                    break;
                }
                bytes += b;
                room += 1;
            }
            let page_empty = items.is_empty();
            // a source none of whose posts fits waits for the next page (a header alone, when it
            // does not fit)
            let full = if from < times.len() {
                room == 0
            } else {
                bytes > budget
            };
            if full && !page_empty {
                break;
            }
            let take = inbox::take(&times, after, room.max(usize::from(page_empty)), page_empty);
            if let Some(h) = head {
                if take.from == take.to && !take.complete {
                    break;
                }
                headers.push(h);
                used += head_bytes;
            }
            for (_, p) in &read.posts[take.from..take.to] {
                let row = Row::of(i, p);
                used += json_len(&row) + 1;
                items.push(row);
            }
            if take.complete {
                i += 1;
                after = None;
            } else {
                after = times.get(take.to.saturating_sub(1)).copied().or(after);
                break;
            }
        }
        if i < walk.sources.len() {
            let mut p = Position::start(walk.t0, i, &walk.sources[i].place);
            p.after = after;
            next = Some(p);
        }
    }
    let left = next.as_ref().map(|p| left_after(&walk, p));
    let arrived = if next.is_none() {
        Some(arrived(cx, &walk, team, &parts).await?)
    } else {
        None
    };
    cx.lists.put(key(walk.t0), walk.clone(), walk.bytes());
    let note = (!walk.moved.is_empty()).then(|| {
        format!(
            "This walk's plan was no longer kept (another server instance, or more than ten minutes), so it \
             was read again. These sources had new posts since the walk began and could not be placed as \
             they were then; some of their unread posts may not be in this walk: {}. Read them with \
             read_unread or read_thread, or call read_inbox again without cursor.",
            walk.moved.join(", ")
        )
    });
    let extra = InboxPage {
        columns: COLUMNS,
        overview,
        sources: headers,
        permalink: show::permalink_pattern(cx.url()),
        left,
        new: arrived,
        note,
    };
    Ok(Page::new(items).continue_at(next).with_extra(extra))
}

/// The parts `only` names (every part when it is left out); muted channels go with `channels`.
fn chosen_parts(only: Option<&[String]>) -> Vec<Section> {
    let Some(only) = only else {
        return Section::ALL.to_vec();
    };
    Section::ALL
        .into_iter()
        .filter(|s| {
            let name = match s {
                Section::Muted => "channels",
                other => other.name(),
            };
            only.iter().any(|o| o == name)
        })
        .collect()
}

/// The milliseconds of now, from the server's clock as its answers show it: the latest activity seen.
fn latest(channels: &[types::Channel], threads: &[UserThread]) -> i64 {
    let c = channels.iter().map(|c| c.last_post_at()).max().unwrap_or(0);
    let t = threads
        .iter()
        .map(followed_threads::last_reply)
        .max()
        .unwrap_or(0);
    c.max(t)
}

/// A channel's most recent activity as the person's clients sort by it (`mattermost-redux`
/// `selectors/entities/channel_categories.ts`, by recency): the last root post with collapsed reply
/// threads (or the last post), never before the channel was made.
fn activity(c: &types::Channel, crt: bool) -> i64 {
    let last = if crt {
        c.last_root_post_at
            .filter(|t| *t > 0)
            .unwrap_or(c.last_post_at())
    } else {
        c.last_post_at()
    };
    last.max(c.create_at.unwrap_or(0))
}

/// Reads the walk's plan: the person's channels and memberships, whether collapsed reply threads are
/// on, their followed threads with unread replies; every source with unread posts or mentions, in the
/// walk's order. `t0` is the given one for a plan read again.
async fn plan(
    cx: &Ctx,
    team: Option<&str>,
    parts: &[Section],
    t0: Option<i64>,
) -> Result<Walk, ToolError> {
    let team_id = match team {
        Some(t) => Some(resolve::team_id(cx, t).await?),
        None => None,
    };
    let teams: HashMap<String, String> = cx
        .my_teams()
        .await?
        .iter()
        .filter_map(|t| Some((t.id.clone()?, t.name.clone()?)))
        .collect();
    let read_teams: Vec<String> = match &team_id {
        Some(t) => vec![t.clone()],
        None => {
            let mut ids: Vec<String> = teams.keys().cloned().collect();
            ids.sort();
            ids
        }
    };
    let crt = collapsed_threads(cx).await?;
    let channels: Vec<types::Channel> = cx
        .read_my_channels(None)
        .await?
        .into_iter()
        .filter(|c| !c.archived())
        .filter(|c| {
            let t = c.team_id();
            team_id
                .as_deref()
                .is_none_or(|want| t == want || t.is_empty())
        })
        .collect();
    let wants_channels = parts.iter().any(|p| *p != Section::Threads);
    let members = if wants_channels {
        memberships(cx, &read_teams).await?
    } else {
        HashMap::new()
    };
    let threads = if crt && parts.contains(&Section::Threads) && !read_teams.is_empty() {
        followed_threads::read_all(cx, &followed_threads::sources(&read_teams, true))
            .await?
            .threads
    } else {
        Vec::new()
    };
    let me = cx.my_id().await?;
    let mut people: Vec<String> = channels
        .iter()
        .filter_map(|c| c.other_person(&me))
        .map(str::to_string)
        .collect();
    people.extend(
        threads
            .iter()
            .filter_map(|t| t.post.as_ref())
            .map(|p| p.author().to_string()),
    );
    let authors = cx.authors(people).await?;
    let names: HashMap<String, String> = authors
        .iter()
        .map(|(id, a)| (id.clone(), a.username.clone()))
        .collect();
    let shown = Shown {
        usernames: &names,
        authors: &authors,
        me: &me,
    };
    let by_id: HashMap<&str, &types::Channel> = channels.iter().map(|c| (c.id(), c)).collect();
    let label = |c: &types::Channel| show::channel_label(c, &me, &names);
    // the team is named where the channel's name alone is in several of the person's teams
    let mut name_teams: HashMap<&str, std::collections::HashSet<&str>> = HashMap::new();
    for c in channels.iter().filter(|c| !c.kind().is_message()) {
        name_teams.entry(c.name()).or_default().insert(c.team_id());
    }
    let team_of = |c: &types::Channel| {
        name_teams
            .get(c.name())
            .filter(|t| t.len() > 1)
            .and_then(|_| teams.get(c.team_id()).cloned())
    };
    let mut sources = Vec::new();
    let mut counted = HashMap::new();
    for c in &channels {
        let Some(m) = members.get(c.id()) else {
            continue;
        };
        let (unread, mentions) = unread_in(c, m, crt);
        counted.insert(c.id().to_string(), unread);
        if unread == 0 && mentions == 0 {
            continue;
        }
        let is_muted = muted(m);
        let section = if c.kind().is_message() {
            Section::Direct
        } else if mentions > 0 {
            Section::Mentions
        } else if is_muted {
            Section::Muted
        } else {
            Section::Channels
        };
        if !parts.contains(&section) {
            continue;
        }
        sources.push(Planned {
            place: Place {
                section,
                activity: activity(c, crt),
                id: c.id().to_string(),
            },
            what: What::Channel { roots_only: crt },
            kind: c.kind().as_str(),
            name: label(c),
            team: team_of(c),
            viewed: m.last_viewed_at.unwrap_or(0),
            unread,
            mentions,
            muted: is_muted,
            root: None,
        });
    }
    for t in &threads {
        let unread = t.unread_replies.unwrap_or(0);
        let root_id = t.id.clone().unwrap_or_default();
        counted.insert(root_id.clone(), unread);
        if unread == 0 {
            continue;
        }
        let channel_id = t
            .post
            .as_ref()
            .map(|p| p.channel().to_string())
            .unwrap_or_default();
        let channel = by_id.get(channel_id.as_str());
        let root = t.post.as_ref().map(|p| {
            let mut item = PostItem::of(p, &shown, Some(MESSAGE_CUT));
            item.reply_count = t.reply_count.filter(|n| *n > 0);
            item
        });
        sources.push(Planned {
            place: Place {
                section: Section::Threads,
                activity: followed_threads::last_reply(t),
                id: root_id,
            },
            what: What::Thread,
            kind: "thread",
            name: channel.map_or_else(|| "a channel".to_string(), |c| label(c)),
            team: channel.and_then(|c| team_of(c)),
            viewed: t.last_viewed_at.unwrap_or(0),
            unread,
            mentions: t.unread_mentions.unwrap_or(0),
            muted: false,
            root,
        });
    }
    inbox::order(&mut sources, |s| &s.place);
    Ok(Walk {
        t0: t0.unwrap_or_else(|| latest(&channels, &threads)),
        crt,
        sources,
        read: Mutex::new(HashMap::new()),
        counted,
        moved: Vec::new(),
    })
}

/// A plan read again for a cursor that outlived the kept one: the walk goes on after the cursor's
/// place (`paging::inbox::resume`), with the sources active since it began named.
async fn replan(
    cx: &Ctx,
    team: Option<&str>,
    parts: &[Section],
    at: &Position,
) -> Result<(Walk, Option<Position>), ToolError> {
    let mut walk = plan(cx, team, parts, Some(at.t0)).await?;
    let places: Vec<(Place, bool)> = walk
        .sources
        .iter()
        .map(|s| (s.place.clone(), s.place.activity > at.t0))
        .collect();
    let (next, inside, moved) = inbox::resume(&places, at);
    walk.moved = moved
        .iter()
        .map(|i| walk.sources[*i].name.clone())
        .collect();
    let start = walk.sources.get(next).map(|s| {
        let mut p = Position::start(at.t0, next, &s.place);
        if inside {
            p.after = at.after;
        }
        p
    });
    Ok((walk, start))
}

/// Source `i` as read, reading it the first time (and keeping it with the walk).
async fn read_source(cx: &Ctx, walk: &Walk, i: usize) -> Result<Arc<Read>, ToolError> {
    if let Some(r) = walk.read_of(i) {
        return Ok(r);
    }
    let s = &walk.sources[i];
    crate::mattermost::call::step(|| {
        format!("reading {} ({} of {})", s.name, i + 1, walk.sources.len())
    });
    let read = match &s.what {
        What::Channel { roots_only } => read_channel(cx, s, *roots_only).await,
        What::Thread => read_thread(cx, s).await,
    };
    let read = match read {
        Ok(r) => r,
        Err(e) if e.kind == ErrorKind::TooMany => Read {
            error: Some(format!(
                "More is unread here than one walk reads ({} posts or more): read it with read_channel, \
                 newest first, or mark it read in Mattermost.",
                since::WALK_PAGES * (MAX_PER_PAGE as usize - 1)
            )),
            ..Read::default()
        },
        Err(e) if gone(&e) => Read {
            error: Some(e.message),
            ..Read::default()
        },
        Err(e) => return Err(e),
    };
    let read = Arc::new(read);
    if let Ok(mut kept) = walk.read.lock() {
        kept.insert(i, read.clone());
    }
    Ok(read)
}

/// A failure that concerns one source only (it is gone, or no longer the person's to read): reported
/// in its header, and the walk goes on.
fn gone(e: &ToolError) -> bool {
    matches!(
        e.kind,
        ErrorKind::NotFound | ErrorKind::Forbidden | ErrorKind::NotMember
    )
}

/// A channel's unread posts and the read ones before them: one request of its newest posts when they
/// reach back past the last viewed time, else the posts since then (`paging::since`) and the context
/// before the first (`read_before`).
async fn read_channel(cx: &Ctx, s: &Planned, roots_only: bool) -> Result<Read, ToolError> {
    let q = Query {
        channel_id: s.place.id.clone(),
        roots_only,
    };
    let want = s.unread + CHANNEL_CONTEXT as i64 + SLACK;
    let mut unread: Option<Vec<Post>> = None;
    let mut context = Vec::new();
    if want < i64::from(MAX_PER_PAGE) {
        let asked = want as u32;
        let newest = posts_by_time::fetch(cx, &q, &Mode::Newest, asked).await?;
        let whole = newest.len() < asked as usize;
        if whole || newest.last().is_some_and(|p| p.created() <= s.viewed) {
            let (after, before): (Vec<Post>, Vec<Post>) =
                newest.into_iter().partition(|p| p.created() > s.viewed);
            unread = Some(after);
            context = before;
        }
    }
    let mut unread = match unread {
        Some(posts) => posts,
        None => {
            let posts = since::all(cx, &q, s.viewed + 1).await?;
            if s.viewed > 0 {
                context = read_before(cx, &q, posts.first(), s.viewed).await?;
            }
            posts
        }
    };
    let key = |p: &Post| (p.created(), p.id().to_string());
    unread.sort_by_key(key);
    unread.dedup_by(|a, b| a.id == b.id);
    context.sort_by_key(key);
    let skip = context.len().saturating_sub(CHANNEL_CONTEXT);
    let context: Vec<Post> = context.into_iter().skip(skip).collect();
    let (posts, context) = shown(cx, &unread, &context, false).await?;
    Ok(Read {
        posts,
        context,
        error: None,
    })
}

/// A followed thread's unread replies, after its root: the replies written after the time it was last
/// viewed (`fromCreateAt` alone, on Mattermost's keyset), 200 a request; a thread never viewed, whole.
async fn read_thread(cx: &Ctx, s: &Planned) -> Result<Read, ToolError> {
    let root = s.place.id.as_str();
    let mut from = (s.viewed > 0).then(|| thread::Position {
        r: root.to_string(),
        t: s.viewed,
        p: String::new(),
    });
    let mut all: Vec<Post> = Vec::new();
    let mut root_post = None;
    for _ in 0..since::WALK_PAGES {
        let page = thread::page(cx, root, from.as_ref(), thread::MAX_PER_PAGE).await?;
        for p in page.posts {
            if p.root().is_some() {
                all.push(p);
            } else if p.id() == root {
                root_post = Some(p);
            }
        }
        match page.next {
            Some(n) => from = Some(n),
            None => break,
        }
    }
    let key = |p: &Post| (p.created(), p.id().to_string());
    all.sort_by_key(key);
    all.dedup_by(|a, b| a.id == b.id);
    all.retain(|p| p.created() > s.viewed);
    let before: Vec<Post> = root_post.into_iter().collect();
    let (posts, mut context) = shown(cx, &all, &before, true).await?;
    if context.is_empty()
        && let Some(r) = &s.root
    {
        context.push(r.clone());
    }
    Ok(Read {
        posts,
        context,
        error: None,
    })
}

/// The items of a source's unread posts (with their times) and of its context. A thread's posts do
/// not repeat its root's id, which the source is.
async fn shown(
    cx: &Ctx,
    unread: &[Post],
    context: &[Post],
    in_thread: bool,
) -> Result<(Vec<(i64, PostItem)>, Vec<PostItem>), ToolError> {
    let mut all: Vec<Post> = context.to_vec();
    all.extend(unread.iter().cloned());
    let mut items = post_items(cx, &all, Some(MESSAGE_CUT)).await?;
    let posts = items.split_off(context.len());
    let context = items
        .into_iter()
        .map(|mut i| {
            if in_thread {
                i.root_id = None;
            }
            i
        })
        .collect();
    let posts = unread
        .iter()
        .zip(posts)
        .map(|(p, mut item)| {
            if in_thread {
                item.root_id = None;
            }
            (p.created(), item)
        })
        .collect();
    Ok((posts, context))
}

/// A source's header.
fn header(i: usize, s: &Planned, read: &Read) -> Header {
    let shown = read.posts.len() as i64;
    let note = (read.error.is_none() && shown != s.unread).then(|| {
        format!(
            "Mattermost counted {} unread; {shown} are here (posts deleted, or written since it counted).",
            s.unread
        )
    });
    Header {
        s: i,
        kind: s.kind.to_string(),
        id: s.place.id.clone(),
        name: s.name.clone(),
        team: s.team.clone(),
        unread: s.unread,
        mentions: s.mentions,
        first_unread: read.posts.first().map(|(t, _)| rfc3339_seconds(*t)),
        muted: s.muted,
        context: read.context.iter().map(|p| Row::of(i, p)).collect(),
        error: read.error.clone(),
        note,
    }
}

/// The first page's overview: every source by part, with the totals.
fn overview(walk: &Walk, parts: &[Section]) -> Overview {
    let mut out = Vec::new();
    for part in Section::ALL.into_iter().filter(|p| parts.contains(p)) {
        let sources: Vec<Entry> = walk
            .sources
            .iter()
            .enumerate()
            .filter(|(_, s)| s.place.section == part)
            .map(|(i, s)| (i, entry_name(s), s.unread, s.mentions))
            .collect();
        if sources.is_empty() {
            continue;
        }
        out.push(Part {
            part: part.name().to_string(),
            unread: sources.iter().map(|e| e.2).sum(),
            sources,
        });
    }
    let counting = if walk.crt {
        "Counted as your Mattermost counts them: collapsed reply threads are on for you, so a channel counts \
         its unread root posts and a followed thread its unread replies (replies in threads you do not \
         follow are not unread; read_unread reads a channel's every post)."
    } else {
        "Counted as your Mattermost counts them: collapsed reply threads are off for you, so a channel counts \
         every unread post, replies included, and there are no thread sources."
    };
    Overview {
        unread: walk.sources.iter().map(|s| s.unread).sum(),
        mentions: walk.sources.iter().map(|s| s.mentions).sum(),
        sources: walk.sources.len(),
        columns: ["s", "name", "unread", "mentions"],
        parts: out,
        note: format!(
            "{counting} Muted channels come last unless they mention you. Reading the {n} sources costs \
             about {n} requests.",
            n = walk.sources.len()
        ),
    }
}

/// A source's name in the overview: the channel's, and for a thread the start of its root.
fn entry_name(s: &Planned) -> String {
    match (&s.what, &s.root) {
        (What::Thread, Some(root)) => {
            let text: String = root.message.chars().take(40).collect();
            let cut = if root.message.chars().count() > 40 {
                "…"
            } else {
                ""
            };
            format!("{}: {text}{cut}", s.name)
        }
        _ => s.name.clone(),
    }
}

/// What the walk has still to show after `p`: the sources from `p`'s on, their unread posts as read
/// where they were, else as counted, less those of `p`'s source already shown.
fn left_after(walk: &Walk, p: &Position) -> Left {
    let count = |i: usize| {
        walk.read_of(i)
            .map_or(walk.sources[i].unread, |r| r.posts.len() as i64)
    };
    let shown = match (walk.read_of(p.i), p.after) {
        (Some(r), Some(a)) => r.posts.iter().filter(|(t, _)| *t <= a).count() as i64,
        _ => 0,
    };
    Left {
        sources: walk.sources.len() - p.i,
        unread: (p.i..walk.sources.len()).map(count).sum::<i64>() - shown,
    }
}

/// On the last page: what arrived while the walk ran and was not shown, from the counts read again
/// (the person's channels and memberships, and their followed threads with unread replies, per team):
/// for each source, its unread posts counted now, less those counted when the walk began, less those
/// the walk showed that were written after it began.
async fn arrived(
    cx: &Ctx,
    walk: &Walk,
    team: Option<&str>,
    parts: &[Section],
) -> Result<Arrived, ToolError> {
    let shown_after_t0: HashMap<&str, i64> = walk
        .sources
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let n = walk.read_of(i).map_or(0, |r| {
                r.posts.iter().filter(|(t, _)| *t > walk.t0).count() as i64
            });
            (s.place.id.as_str(), n)
        })
        .collect();
    let new_in = |id: &str, unread: i64| {
        let before = walk.counted.get(id).copied().unwrap_or(0);
        let shown = shown_after_t0.get(id).copied().unwrap_or(0);
        (unread - before - shown).max(0)
    };
    let team_ids: Vec<String> = match team {
        Some(t) => vec![resolve::team_id(cx, t).await?],
        None => {
            let mut ids: Vec<String> = cx
                .my_teams()
                .await?
                .iter()
                .filter_map(|t| t.id.clone())
                .collect();
            ids.sort();
            ids
        }
    };
    let mut posts = 0;
    let mut sources = Vec::new();
    if parts.iter().any(|p| *p != Section::Threads) {
        let me = cx.my_id().await?;
        let channels = cx.read_my_channels(None).await?;
        let members = memberships(cx, &team_ids).await?;
        let mut grew = Vec::new();
        for c in channels.iter().filter(|c| !c.archived()) {
            let Some(m) = members.get(c.id()) else {
                continue;
            };
            let new = new_in(c.id(), unread_in(c, m, walk.crt).0);
            if new > 0 {
                posts += new;
                grew.push(c);
            }
        }
        let people: Vec<String> = grew
            .iter()
            .filter_map(|c| c.other_person(&me))
            .map(str::to_string)
            .collect();
        let names = cx.usernames(people).await?;
        sources.extend(grew.iter().map(|c| show::channel_label(c, &me, &names)));
    }
    if walk.crt && parts.contains(&Section::Threads) && !team_ids.is_empty() {
        let now =
            followed_threads::read_all(cx, &followed_threads::sources(&team_ids, true)).await?;
        for t in &now.threads {
            let id = t.id.as_deref().unwrap_or("");
            let new = new_in(id, t.unread_replies.unwrap_or(0));
            if new > 0 {
                posts += new;
                sources.push(format!("the thread {id}"));
            }
        }
    }
    let note = if posts == 0 {
        "Nothing arrived while the walk ran that it did not show.".to_string()
    } else {
        "Written while the walk ran, after it had read those sources: call read_inbox again without cursor \
         to read them."
            .to_string()
    };
    Ok(Arrived {
        posts,
        sources,
        note,
    })
}
