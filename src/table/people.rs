//! The table's rows for people: who the server acts as, who is there, their status.

use super::{Answer, Call, READS, Source, Tool};
use crate::run;
use crate::tools::people;

pub static ROWS: &[Tool] = &[Tool {
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
}];
