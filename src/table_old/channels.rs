//! The table's rows for teams and channels: the user's teams and channels, a team's public and archived
//! channels, channel search, one channel or team, members and counts.

use super::{Answer, CHANNEL, Call, ME, MY_TEAMS, READS, Source, TEAM_OF_CHANNEL, Tool, USERNAMES};
use crate::args::{Arg, Kind};
use crate::paging::{Limit, Strategy};
use crate::run;
use crate::tools::channels;

/// The page sizes of the team and channel lists.
const LISTS: Limit = Limit {
    default: 50,
    max: 200,
};

const TEAM: Arg = Arg {
    name: "team",
    kind: Kind::Team,
    required: true,
    about: "The team: its id, its name (the part of its URL) or its display name.",
    shapes: None,
};

const TEAM_CHANNEL_PAGES: [(&str, Source); 3] = [
    ("team_id", Source::Arg("team")),
    (
        "page",
        Source::Paging("each page from 0 until a short one: the list is read whole"),
    ),
    ("per_page", Source::Paging("200, Mattermost's largest page")),
];

pub static ROWS: &[Tool] = &[
    Tool {
        name: "list_teams",
        title: "Your teams",
        description: "The teams you belong to, by display name then id: id, name (the part of its URL), \
                      display name, open or invite-only, description. Archived teams are left out. limit: \
                      default 50, max 200. Mattermost gives the list whole; each page continues after the \
                      last team shown.",
        args: &[],
        answer: Answer::List {
            strategy: Strategy::WholeList,
            limit: LISTS,
        },
        hints: READS,
        calls: &[MY_TEAMS],
        run: run!(channels::list_teams),
    },
    Tool {
        name: "get_team",
        title: "A team",
        description: "One team by id, name or display name: id, name, display name, open or invite-only, \
                      description, whether it is archived, and whether you are a member. A team you are not \
                      in is found by its id or its exact name, when Mattermost lets you see it.",
        args: &[TEAM],
        answer: Answer::One,
        hints: READS,
        calls: &[
            Call {
                operation: "GetTeam",
                params: &[("team_id", Source::Arg("team"))],
            },
            MY_TEAMS,
        ],
        run: run!(channels::get_team),
    },
    Tool {
        name: "list_channels",
        title: "Your channels",
        description: "The channels you are a member of, direct and group messages included, most recently \
                      active first (last post, then id), each with its unread post count (posts since you \
                      last viewed it) and mentions; a direct message is named by the other person \
                      (@username), a group message by its members. Archived channels are left out \
                      (list_archived_channels has them). limit: default 50, max 200. The list is read once \
                      per cursor chain and kept, so its pages are one consistent picture and later pages \
                      cost no request; a chain resumed after ten minutes reads it again and continues \
                      after the last channel shown.",
        args: &[
            Arg {
                name: "team",
                kind: Kind::Team,
                required: false,
                about: "Only this team's channels (id, name or display name), with your direct and group \
                        messages, which belong to no team.",
                shapes: Some("keeps the team's channels and the direct and group messages"),
            },
            Arg {
                name: "unread_only",
                kind: Kind::Flag,
                required: false,
                about: "true: only channels with unread posts or mentions.",
                shapes: Some("keeps only channels with unread posts or mentions"),
            },
        ],
        answer: Answer::List {
            strategy: Strategy::RecentlyActive,
            limit: LISTS,
        },
        hints: READS,
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
                            "archived channels and those of archived teams are left out: this is the list of where to read; list_archived_channels has the archived ones",
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
            MY_TEAMS,
            ME,
            USERNAMES,
        ],
        run: run!(channels::list_channels),
    },
    Tool {
        name: "get_channel",
        title: "A channel",
        description: "One channel by id, name (town-square or ~town-square), display name, @username (the \
                      direct message with that person), URL or a post's permalink: id, name, display name, \
                      kind (public, private, direct, group), team, purpose, header, last post, whether it is \
                      archived, whether you are a member and, if you are, your unread posts and mentions, \
                      and how many active people are members.",
        args: &[CHANNEL, TEAM_OF_CHANNEL],
        answer: Answer::One,
        hints: READS,
        calls: &[
            Call {
                operation: "GetChannel",
                params: &[("channel_id", Source::Arg("channel"))],
            },
            Call {
                operation: "GetChannelMember",
                params: &[
                    ("channel_id", Source::Arg("channel")),
                    (
                        "user_id",
                        Source::Fixed(
                            "me",
                            "the user's own membership: whether they are in the channel, and what is unread",
                        ),
                    ),
                ],
            },
            Call {
                operation: "GetChannelStats",
                params: &[("channel_id", Source::Arg("channel"))],
            },
            MY_TEAMS,
            ME,
            USERNAMES,
        ],
        run: run!(channels::get_channel),
    },
    Tool {
        name: "search_channels",
        title: "Search channels",
        description: "Channels whose name, display name or purpose contains `term`: the public channels of \
                      your teams, joined or not, archived ones included (and marked), and your own channels, \
                      private ones and group messages included; each says whether you are a member. By \
                      display name then id. limit: default 50, max 200. Mattermost answers at most 100 \
                      public channels per team for one search term: when a team reaches that, the answer \
                      says capped: true; use a longer term, or list_team_channels to read every public \
                      channel of a team.",
        args: &[
            Arg {
                name: "term",
                kind: Kind::Text { max: 64 },
                required: true,
                about: "Part of a channel's name, display name or purpose.",
                shapes: None,
            },
            Arg {
                name: "team",
                kind: Kind::Team,
                required: false,
                about: "Only this team (id, name or display name); otherwise every team you are in.",
                shapes: Some("searches the one team instead of each of the user's teams"),
            },
        ],
        answer: Answer::List {
            strategy: Strategy::WholeList,
            limit: LISTS,
        },
        hints: READS,
        calls: &[
            Call {
                operation: "SearchChannels",
                params: &[
                    (
                        "team_id",
                        Source::Paging("the team given, or each of the user's teams in turn"),
                    ),
                    ("body.term", Source::Arg("term")),
                ],
            },
            Call {
                operation: "GetChannelsForUser",
                params: &[
                    (
                        "user_id",
                        Source::Fixed(
                            "me",
                            "the user's own channels, private ones included, are matched here",
                        ),
                    ),
                    (
                        "include_deleted",
                        Source::Fixed(
                            "true",
                            "an archived channel of the user's is found as the public search finds archived ones",
                        ),
                    ),
                    (
                        "last_delete_at",
                        Source::Omitted(
                            "all archived channels are wanted, not those archived after a time",
                        ),
                    ),
                ],
            },
            MY_TEAMS,
        ],
        run: run!(channels::search_channels),
    },
    Tool {
        name: "list_team_channels",
        title: "A team's public channels",
        description: "A team's public channels, joined or not, by display name then id: id, name, display \
                      name, purpose, header, last post. Archived channels are left out \
                      (list_archived_channels has them). limit: default 50, max 200. Mattermost pages this \
                      list by display name, which channels share, so it is read whole (200 a request) once \
                      per cursor chain and kept: later pages cost no request, and a chain resumed after ten \
                      minutes reads it again and continues after the last channel shown.",
        args: &[TEAM],
        answer: Answer::List {
            strategy: Strategy::PagesWithTies,
            limit: LISTS,
        },
        hints: READS,
        calls: &[Call {
            operation: "GetPublicChannelsForTeam",
            params: &TEAM_CHANNEL_PAGES,
        }],
        run: run!(channels::list_team_channels),
    },
    Tool {
        name: "list_archived_channels",
        title: "A team's archived channels",
        description: "A team's archived channels: the public ones and the private ones you were a member of, \
                      by display name then id. limit: default 50, max 200. Mattermost pages this list by \
                      display name, which channels share, so it is read whole (200 a request) once per \
                      cursor chain and kept: later pages cost no request, and a chain resumed after ten \
                      minutes reads it again and continues after the last channel shown.",
        args: &[TEAM],
        answer: Answer::List {
            strategy: Strategy::PagesWithTies,
            limit: LISTS,
        },
        hints: READS,
        calls: &[Call {
            operation: "GetDeletedChannelsForTeam",
            params: &TEAM_CHANNEL_PAGES,
        }],
        run: run!(channels::list_archived_channels),
    },
    Tool {
        name: "list_channel_members",
        title: "A channel's members",
        description: "The people in a channel, by username then id: id, username, name, nickname, email, the \
                      bot and deactivated flags, and channel_admin. limit: default 50, max 200. Mattermost \
                      gives channel members in no order at all, so the list is read whole once per cursor \
                      chain (every member in one request on Mattermost 11.6, then one request per 200 \
                      people for their names) and kept: later pages cost no request, and a chain resumed \
                      after ten minutes reads it again and continues after the last person shown.",
        args: &[CHANNEL, TEAM_OF_CHANNEL],
        answer: Answer::List {
            strategy: Strategy::PagesWithTies,
            limit: LISTS,
        },
        hints: READS,
        calls: &[
            Call {
                operation: "GetChannelMembers",
                params: &[
                    ("channel_id", Source::Arg("channel")),
                    (
                        "page",
                        Source::Paging(
                            "0; then each page until a short one, on a server older than 11.6 that answers per_page 0 with nothing",
                        ),
                    ),
                    (
                        "per_page",
                        Source::Paging(
                            "0, every member in one response (Mattermost 11.6), or 200 a page on older servers",
                        ),
                    ),
                ],
            },
            USERNAMES,
        ],
        run: run!(channels::list_channel_members),
    },
    Tool {
        name: "list_team_members",
        title: "A team's members",
        description: "The people in a team, by username then id: id, username, name, nickname, email, the bot \
                      flag and team_admin. Deactivated people are left out unless include_deactivated is \
                      true. limit: default 50, max 200. Mattermost pages members by offset, which skips \
                      and repeats people while the team changes, so the list is read whole (200 a request, \
                      plus one request per 200 people for their names) once per cursor chain and kept: \
                      later pages cost no request, and a chain resumed after ten minutes reads it again and \
                      continues after the last person shown.",
        args: &[
            TEAM,
            Arg {
                name: "include_deactivated",
                kind: Kind::Flag,
                required: false,
                about: "true: deactivated people are included (marked deactivated).",
                shapes: None,
            },
        ],
        answer: Answer::List {
            strategy: Strategy::PagesWithTies,
            limit: LISTS,
        },
        hints: READS,
        calls: &[
            Call {
                operation: "GetTeamMembers",
                params: &[
                    ("team_id", Source::Arg("team")),
                    (
                        "page",
                        Source::Paging(
                            "each page from 0 until a short one: the list is read whole",
                        ),
                    ),
                    ("per_page", Source::Paging("200, Mattermost's largest page")),
                    (
                        "sort",
                        Source::Omitted(
                            "Mattermost's default order (by user id) is unique; the tool orders by username itself",
                        ),
                    ),
                    ("exclude_deleted_users", Source::Arg("include_deactivated")),
                ],
            },
            USERNAMES,
        ],
        run: run!(channels::list_team_members),
    },
    Tool {
        name: "get_channel_stats",
        title: "A channel's counts",
        description: "Counts for one channel: members (active people only), guests, pinned posts and files.",
        args: &[CHANNEL, TEAM_OF_CHANNEL],
        answer: Answer::One,
        hints: READS,
        calls: &[Call {
            operation: "GetChannelStats",
            params: &[("channel_id", Source::Arg("channel"))],
        }],
        run: run!(channels::get_channel_stats),
    },
];
