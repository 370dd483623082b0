//! The table's rows for tools that change something in Mattermost. They are offered only when
//! `MATTERMOST_ALLOW_WRITES=true`; reading never changes anything.

use super::{CHANNEL, Call, Hints, Source, TEAM_OF_CHANNEL, Tool};
use crate::args::{Arg, Kind};
use crate::run;
use crate::tools::writing;

/// Changes only the person's own state (what they have read), and the same call twice is the same.
const OWN_STATE: Hints = Hints {
    read_only: false,
    destructive: false,
    idempotent: true,
    open_world: false,
};

pub static ROWS: &[Tool] = &[Tool {
    name: "mark_channel_read",
    title: "Mark a channel read",
    description: "Marks a channel read for you, as opening it in Mattermost does: its unread and mention \
                  counts go to zero. Use it only when the person asks; reading with the other tools never marks \
                  anything read. Followed threads in the channel keep their own unread state unless \
                  include_threads is true.",
    args: &[
        CHANNEL,
        TEAM_OF_CHANNEL,
        Arg {
            name: "include_threads",
            kind: Kind::Flag,
            required: false,
            about: "true: also mark every thread in the channel read (as a client without collapsed reply threads does).",
            shapes: None,
        },
    ],
    answer: super::Answer::One,
    hints: OWN_STATE,
    calls: &[Call {
        operation: "ViewChannel",
        params: &[
            (
                "user_id",
                Source::Fixed("me", "only the token user's own read state is changed"),
            ),
            ("body.channel_id", Source::Arg("channel")),
            (
                "body.prev_channel_id",
                Source::Omitted(
                    "it only clears push notifications of a channel being left, which a tool has no part in",
                ),
            ),
            (
                "body.collapsed_threads_supported",
                Source::Arg("include_threads"),
            ),
        ],
    }],
    run: run!(writing::mark_channel_read),
}];
