//! The table's rows for people: who the server acts as, who is there, their status.

use super::{Answer, Call, READS, Source, Tool};
use crate::args::{Arg, Kind};
use crate::paging::{Limit, Strategy};
use crate::run;
use crate::tools::people;

/// The lookups that turn the `users` argument into people (those of name resolution).
const LOOKUPS: &[Call] = crate::names::USER_CALLS;

/// The most people one call of get_users or get_status names.
pub const MAX_PEOPLE: usize = 100;

const USERS: Arg = Arg {
    name: "users",
    kind: Kind::Users { max: MAX_PEOPLE },
    required: true,
    about: "Up to 100 people, in any mix of usernames (alice or @alice), user ids and emails.",
    shapes: None,
};

const STATUSES: Call = Call {
    operation: "GetUsersStatusesByIds",
    params: &[("body", Source::Arg("users"))],
};

pub static ROWS: &[Tool] = &[
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
        name: "get_users",
        title: "Look people up",
        description: "Up to 100 people by username (alice or @alice), user id or email, in any mix: each \
                      person found once, in the order given, with id, username, name, nickname, email and \
                      the bot and deactivated flags. Names nobody has come back in not_found, each with the \
                      closest usernames; the call fails only when nobody at all is found. Bounded by its \
                      input (one person per name given), so it takes no limit or cursor; search_users finds \
                      people by part of a name.",
        args: &[USERS],
        answer: Answer::Bounded {
            max: MAX_PEOPLE,
            reason: "one person per name given, at most 100 names",
        },
        hints: READS,
        calls: LOOKUPS,
        run: run!(people::get_users),
    },
    Tool {
        name: "search_users",
        title: "Search people",
        description: "People whose username, first or last name, nickname or email starts with each word of \
                      `term`, by username. Optionally only the members of a team or a channel; deactivated \
                      people are left out unless include_deactivated is true. limit: default 20, max 200. \
                      Mattermost answers at most 1000 users for one search term: when a search reaches \
                      that, the answer says capped: true and people past the first 1000 usernames cannot be \
                      reached; use a longer term, or narrow it to a team or channel (list_team_members and \
                      list_channel_members read every member).",
        args: &[
            Arg {
                name: "term",
                kind: Kind::Text { max: 64 },
                required: true,
                about: "What to search for: the start of a username, a name, a nickname or an email (each \
                        word must match).",
                shapes: None,
            },
            Arg {
                name: "team",
                kind: Kind::Team,
                required: false,
                about: "Only people in this team (id, name or display name); also narrows a channel name.",
                shapes: None,
            },
            Arg {
                name: "channel",
                kind: Kind::Channel,
                required: false,
                about: "Only people in this channel: its id, name (town-square or ~town-square), display \
                        name, URL or the permalink of a post in it.",
                shapes: None,
            },
            Arg {
                name: "include_deactivated",
                kind: Kind::Flag,
                required: false,
                about: "true: deactivated people are included (marked deactivated).",
                shapes: None,
            },
        ],
        answer: Answer::List {
            strategy: Strategy::WholeList,
            limit: Limit {
                default: 20,
                max: 200,
            },
        },
        hints: READS,
        calls: &[Call {
            operation: "SearchUsers",
            params: &[
                ("body.term", Source::Arg("term")),
                ("body.team_id", Source::Arg("team")),
                ("body.in_channel_id", Source::Arg("channel")),
                ("body.allow_inactive", Source::Arg("include_deactivated")),
                (
                    "body.limit",
                    Source::Paging(
                        "one more than the page on the first page, then Mattermost's cap of 1000 to continue after the last username",
                    ),
                ),
                (
                    "body.not_in_team_id",
                    Source::Omitted(
                        "finding people outside a team is not what a search by name is for",
                    ),
                ),
                (
                    "body.not_in_channel_id",
                    Source::Omitted(
                        "finding people outside a channel is not what a search by name is for",
                    ),
                ),
                (
                    "body.in_group_id",
                    Source::Omitted(
                        "groups need an Enterprise licence; a team or channel narrows instead",
                    ),
                ),
                (
                    "body.group_constrained",
                    Source::Omitted(
                        "groups need an Enterprise licence; not a filter a search by name needs",
                    ),
                ),
                (
                    "body.without_team",
                    Source::Omitted(
                        "people in no team are an administrator's question, not a reader's",
                    ),
                ),
            ],
        }],
        run: run!(people::search_users),
    },
    Tool {
        name: "get_status",
        title: "Who is online",
        description: "The presence of up to 100 people (usernames, ids or emails): online, away, dnd or \
                      offline, whether they set it themselves (set_by_user), their last activity, until when \
                      Do Not Disturb lasts, and the custom status they set. Someone Mattermost holds no \
                      status for is shown offline with no last_activity (Mattermost answers an id it has no \
                      status for with a made-up offline status). Names nobody has come back in not_found \
                      with the closest usernames. Bounded by its input, so it takes no limit or cursor.",
        args: &[USERS],
        answer: Answer::Bounded {
            max: MAX_PEOPLE,
            reason: "one status per person named, at most 100 names",
        },
        hints: READS,
        calls: &[LOOKUPS[0], LOOKUPS[1], LOOKUPS[2], LOOKUPS[3], STATUSES],
        run: run!(people::get_status),
    },
];
