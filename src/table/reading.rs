//! The table's rows for reading: channels, threads, saved and pinned posts, search.

use super::{Answer, CHANNEL, Call, READS, Source, TEAM_OF_CHANNEL, Tool};
use crate::args::{Arg, Kind};
use crate::paging::{Limit, Strategy};
use crate::run;
use crate::tools::posts;

pub static ROWS: &[Tool] = &[Tool {
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
        TEAM_OF_CHANNEL,
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
                    Source::Omitted("every author is wanted, not only those changed since a time"),
                ),
            ],
        },
    ],
    run: run!(posts::read_channel),
}];
