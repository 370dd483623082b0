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

mod channels;
#[cfg(test)]
mod governance;
mod people;
mod reading;
mod writing;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

    /// Every call the tool may make: its row's own, then those that resolving its arguments may make
    /// (declared once in `crate::names`).
    pub fn all_calls(&self) -> Vec<&'static Call> {
        let mut calls: Vec<&'static Call> = self.calls.iter().collect();
        for a in self.args {
            for c in crate::names::calls(a.kind) {
                if !calls.iter().any(|k| k.operation == c.operation) {
                    calls.push(c);
                }
            }
        }
        calls
    }

    /// The operations the tool may send.
    pub fn operations(&self) -> Vec<&'static str> {
        self.all_calls().iter().map(|c| c.operation).collect()
    }
}

/// Wraps an `async fn(&Ctx, Input) -> Result<Output, ToolError>` as a table [`Run`].
#[macro_export]
#[doc(hidden)]
macro_rules! run {
    ($f:path) => {
        |cx, input| Box::pin($f(cx, input))
    };
}

/// The channel argument every channel tool takes.
pub const CHANNEL: Arg = Arg {
    name: "channel",
    kind: Kind::Channel,
    required: true,
    about: "The channel: its id, its name (town-square or ~town-square), its display name, @username for a \
            direct message channel, its URL, or the permalink of a post in it.",
    shapes: None,
};

/// The team that narrows a channel name to one team.
pub const TEAM_OF_CHANNEL: Arg = Arg {
    name: "team",
    kind: Kind::Team,
    required: false,
    about: "The team (id, name or display name) a channel name is looked up in, when the name exists in several.",
    shapes: Some("narrows the channel name to one team"),
};

// The calls the shared helpers of `Ctx` make (`cx.me()`, `cx.my_channels()`, `cx.my_teams()`,
// `cx.usernames(..)`), declared once for every row and for name resolution.

/// The token's own user (`cx.me()`).
pub const ME: Call = Call {
    operation: "GetUser",
    params: &[(
        "user_id",
        Source::Fixed("me", "the token's own user: its id, name and mention keys"),
    )],
};

/// The user's own channels in every team, archived ones included (`cx.my_channels()`).
pub const MY_CHANNELS: Call = Call {
    operation: "GetChannelsForUser",
    params: &[
        (
            "user_id",
            Source::Fixed("me", "the channels are the token user's own"),
        ),
        (
            "include_deleted",
            Source::Fixed("true", "an archived channel can still be named and shown"),
        ),
        (
            "last_delete_at",
            Source::Omitted("all archived channels are wanted, not those archived after a time"),
        ),
    ],
};

/// The user's teams (`cx.my_teams()`).
pub const MY_TEAMS: Call = Call {
    operation: "GetTeamsForUser",
    params: &[(
        "user_id",
        Source::Fixed(
            "me",
            "the token user's own teams: their names, and which the user is in",
        ),
    )],
};

/// The usernames of the people a page shows (`cx.usernames(..)`).
pub const USERNAMES: Call = Call {
    operation: "GetUsersByIds",
    params: &[
        (
            "body",
            Source::Paging("the people the page shows who are not yet known by username"),
        ),
        (
            "since",
            Source::Omitted("every person shown is wanted, not only those changed since a time"),
        ),
    ],
};

/// Every tool, area by area, in the order `tools/list` lists them.
pub fn tools() -> &'static [&'static Tool] {
    static ALL: std::sync::OnceLock<Vec<&'static Tool>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        people::ROWS
            .iter()
            .chain(channels::ROWS.iter())
            .chain(reading::ROWS.iter())
            .chain(writing::ROWS.iter())
            .collect()
    })
}

/// The tool of that name.
pub fn find(name: &str) -> Option<&'static Tool> {
    tools().iter().copied().find(|t| t.name == name)
}
