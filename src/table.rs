//! The tool table: one declarative row per tool. A row says everything a tool does except its paging
//! strategy's code: its name, title, description (with its default and maximum `limit` and any cap
//! Mattermost puts on the list), its arguments, what it answers and how that is paged, its four
//! annotation hints, and every Mattermost operation it calls with each parameter accounted for.
//!
//! The server lists and dispatches tools from this table only; the governance tests scan it.

use crate::args::{Arg, Kind};
use crate::context::{Ctx, Input, Output};
use crate::error::ToolError;
use crate::paging::{Limit, Strategy};
use crate::tools::{people, posts};
use std::future::Future;
use std::pin::Pin;

/// A tool's code: from the checked input to its answer.
pub type Run = for<'a> fn(
    &'a Ctx,
    Input,
) -> Pin<Box<dyn Future<Output = Result<Output, ToolError>> + Send + 'a>>;

/// What a tool answers.
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    /// One object.
    One,
    /// A list paged by cursor: `limit` and `cursor` are added to the arguments, the answer is the
    /// envelope, and `strategy` names the module that pages it.
    List { strategy: Strategy, limit: Limit },
    /// A list bounded by its input (at most `max` items, one per name given), so it needs no cursor.
    Bounded { max: usize, reason: &'static str },
}

/// The four MCP annotation hints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

/// A tool that only reads this one Mattermost (a closed world: `openWorldHint` false).
pub const READS: Hints = Hints {
    read_only: true,
    destructive: false,
    idempotent: true,
    open_world: false,
};

/// Where the value of one parameter of a called operation comes from.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    /// Set from the named argument (after name resolution, for references).
    Arg(&'static str),
    /// Always sent as this value, for this reason.
    Fixed(&'static str, &'static str),
    /// Set by the paging strategy (a position, a page size), as described.
    Paging(&'static str),
    /// Never sent: what the user loses, and why that is right.
    Omitted(&'static str),
}

/// One Mattermost operation a tool calls, by its operationId in the repaired spec, with every path,
/// query and body parameter accounted for (body fields as `body.<name>`, a whole non-object body as
/// `body`).
#[derive(Debug, Clone, Copy)]
pub struct Call {
    pub operation: &'static str,
    pub params: &'static [(&'static str, Source)],
}

#[derive(Clone, Copy)]
pub struct Tool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub args: &'static [Arg],
    pub answer: Answer,
    pub hints: Hints,
    pub calls: &'static [Call],
    pub run: Run,
}

impl Tool {
    /// The arguments as published: the row's own, then `limit` and `cursor` for a list.
    pub fn all_args(&self) -> Vec<Arg> {
        let mut args = self.args.to_vec();
        if let Answer::List { .. } = self.answer {
            args.push(Arg {
                name: "limit",
                kind: Kind::Limit,
                required: false,
                about: "Items per page; the description gives the default and maximum.",
                shapes: Some("the page size"),
            });
            args.push(Arg {
                name: "cursor",
                kind: Kind::Cursor,
                required: false,
                about: "The next_cursor of the previous page of this same call; leave out for the first page.",
                shapes: Some("where the page starts"),
            });
        }
        args
    }

    pub fn limit(&self) -> Option<Limit> {
        match self.answer {
            Answer::List { limit, .. } => Some(limit),
            _ => None,
        }
    }

    /// The operations the tool may send: those its calls name.
    pub fn operations(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.calls.iter().map(|c| c.operation)
    }
}

/// Wraps an `async fn(&Ctx, Input) -> Result<Output, ToolError>` as a table [`Run`].
macro_rules! run {
    ($f:path) => {
        |cx, input| Box::pin($f(cx, input))
    };
}

const CHANNEL: Arg = Arg {
    name: "channel",
    kind: Kind::Channel,
    required: true,
    about: "The channel: its id (26 lowercase letters and digits), as list and search tools return it.",
    shapes: None,
};

/// The table.
pub static TOOLS: &[Tool] = &[
    Tool {
        name: "get_me",
        title: "Who am I",
        description: "Who this server acts as in Mattermost: id, username, name, nickname, email, roles, \
                      locale, timezone, whether it is a bot, and the Mattermost server's version.",
        args: &[],
        answer: Answer::One,
        hints: READS,
        calls: &[Call {
            operation: "GetUser",
            params: &[("user_id", Source::Fixed("me", "the token's own user"))],
        }],
        run: run!(people::get_me),
    },
    Tool {
        name: "read_channel",
        title: "Read a channel",
        description: "A channel's posts, oldest first within a page. With no position it reads the newest \
                      page, and next_cursor goes further back; `before`/`after` page back or forward from a \
                      post (posts strictly earlier/later than its millisecond); `since` reads the posts \
                      written at or after a time, oldest first, paging forward. limit: default 30, max 200. A \
                      page ends on a whole millisecond, so when one millisecond holds more posts than the \
                      limit it is returned whole and the page exceeds the limit. Messages over 4000 \
                      characters are cut (message_length gives the full length; read_thread returns them \
                      whole).",
        args: &[
            CHANNEL,
            Arg {
                name: "before",
                kind: Kind::Post,
                required: false,
                about: "A post id: read the posts written before it, newest page first.",
                shapes: None,
            },
            Arg {
                name: "after",
                kind: Kind::Post,
                required: false,
                about: "A post id: read the posts written after it, oldest first.",
                shapes: None,
            },
            Arg {
                name: "since",
                kind: Kind::Time,
                required: false,
                about: "A time (RFC 3339, a day such as 2026-11-30, or epoch milliseconds): read the posts \
                        written at or after it, oldest first.",
                shapes: None,
            },
            Arg {
                name: "roots_only",
                kind: Kind::Flag,
                required: false,
                about: "true: only thread roots (collapsed threads), each with its reply count and participants.",
                shapes: None,
            },
        ],
        answer: Answer::List {
            strategy: Strategy::PostsByTime,
            limit: Limit {
                default: 30,
                max: 200,
            },
        },
        hints: READS,
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
                            "the other posts of the threads in a page are not used; leaving them out keeps answers small and makes reply_count computed",
                        ),
                    ),
                ],
            },
            Call {
                operation: "GetUsersByIds",
                params: &[
                    (
                        "body",
                        Source::Paging("the authors of the page not yet known by username"),
                    ),
                    (
                        "since",
                        Source::Omitted(
                            "every author is wanted, not only those changed since a time",
                        ),
                    ),
                ],
            },
        ],
        run: run!(posts::read_channel),
    },
];

/// The tool of that name.
pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.name == name)
}
