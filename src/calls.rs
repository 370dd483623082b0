//! Every Mattermost operation the tools call, declared as data: which operation, and where each of its
//! parameters comes from (an argument, a fixed value with its reason, the paging, or never sent, with
//! what that loses). The calls shared by many tools — the person's own user, channels and teams, the
//! usernames a page shows, and the lookups that resolve names — are declared here once; a tool's own
//! calls are declared in its file. The governance tests check every declaration against the pinned
//! spec, and the transport refuses at run time any operation the running tool did not declare.

use crate::args::Kind;

/// Where the value of one parameter of a called operation comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
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
pub(crate) struct Call {
    pub(crate) operation: &'static str,
    pub(crate) params: &'static [(&'static str, Source)],
}

// The calls the shared helpers of `Ctx` make (`cx.me()`, `cx.my_channels()`, `cx.my_teams()`,
// `cx.usernames(..)`), declared once for every tool and for name resolution.

/// The token's own user (`cx.me()`).
pub(crate) const ME: Call = Call {
    operation: "GetUser",
    params: &[(
        "user_id",
        Source::Fixed("me", "the token's own user: its id, name and mention keys"),
    )],
};

/// The user's own channels in every team, archived ones included (`cx.my_channels()`).
pub(crate) const MY_CHANNELS: Call = Call {
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
pub(crate) const MY_TEAMS: Call = Call {
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
pub(crate) const USERNAMES: Call = Call {
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

// The lookups that turn references (names, ids, permalinks) into Mattermost objects (`crate::resolve`).

pub(crate) const CHANNEL_CALLS: &[Call] = &[
    MY_CHANNELS,
    Call {
        operation: "GetChannelByName",
        params: &[
            (
                "team_id",
                Source::Paging("each of the user's teams (or the one given) in turn"),
            ),
            ("channel_name", Source::Arg("channel")),
            (
                "include_deleted",
                Source::Fixed("true", "an archived public channel can still be named"),
            ),
        ],
    },
    Call {
        operation: "GetChannelByNameForTeamName",
        params: &[
            ("team_name", Source::Arg("channel")),
            ("channel_name", Source::Arg("channel")),
            (
                "include_deleted",
                Source::Fixed(
                    "true",
                    "a channel URL of an archived channel still resolves",
                ),
            ),
        ],
    },
    Call {
        operation: "GetPost",
        params: &[
            ("post_id", Source::Arg("channel")),
            (
                "include_deleted",
                Source::Omitted("a permalink to a deleted post names no channel the user can read"),
            ),
        ],
    },
    ME,
    Call {
        operation: "GetUsersByUsernames",
        params: &[("body", Source::Arg("channel"))],
    },
];

pub(crate) const TEAM_CALLS: &[Call] = &[
    MY_TEAMS,
    Call {
        operation: "GetTeamByName",
        params: &[("name", Source::Arg("team"))],
    },
    Call {
        operation: "GetTeam",
        params: &[("team_id", Source::Arg("team"))],
    },
];

/// The lookups that turn people's names, ids and emails into people, with the search that suggests the
/// closest usernames for a name nobody has.
pub(crate) const USER_CALLS: &[Call] = &[
    Call {
        operation: "GetUsersByUsernames",
        params: &[("body", Source::Arg("user"))],
    },
    Call {
        operation: "GetUsersByIds",
        params: &[
            ("body", Source::Arg("user")),
            (
                "since",
                Source::Omitted("a person named by id is wanted whenever they last changed"),
            ),
        ],
    },
    Call {
        operation: "GetUserByEmail",
        params: &[("email", Source::Arg("user"))],
    },
    Call {
        operation: "SearchUsers",
        params: &[
            ("body.term", Source::Arg("user")),
            (
                "body.limit",
                Source::Fixed(
                    "20",
                    "enough to suggest the closest usernames for a name nobody has",
                ),
            ),
            (
                "body.allow_inactive",
                Source::Fixed("true", "a deactivated person can still be named"),
            ),
            (
                "body.team_id",
                Source::Omitted("suggestions come from the whole server"),
            ),
            (
                "body.not_in_team_id",
                Source::Omitted("not a filter suggestions need"),
            ),
            (
                "body.in_channel_id",
                Source::Omitted("suggestions come from the whole server"),
            ),
            (
                "body.not_in_channel_id",
                Source::Omitted("not a filter suggestions need"),
            ),
            (
                "body.in_group_id",
                Source::Omitted("groups need a licence; not a filter suggestions need"),
            ),
            (
                "body.group_constrained",
                Source::Omitted("groups need a licence; not a filter suggestions need"),
            ),
            (
                "body.without_team",
                Source::Omitted("not a filter suggestions need"),
            ),
        ],
    },
];

pub(crate) const POST_CALLS: &[Call] = &[];

/// The operations resolving an argument of this kind may send. A channel's resolution may resolve a
/// team (`team`, or the user's teams a name is looked up in) and a person (`@alice` for a direct
/// message channel), so it may send theirs too.
pub(crate) fn resolving(kind: Kind) -> Vec<&'static Call> {
    let groups: &[&'static [Call]] = match kind {
        Kind::Channel => &[CHANNEL_CALLS, TEAM_CALLS, USER_CALLS],
        Kind::Team => &[TEAM_CALLS],
        Kind::User | Kind::Users { .. } => &[USER_CALLS],
        Kind::Post => &[POST_CALLS],
        _ => &[],
    };
    let mut out: Vec<&'static Call> = Vec::new();
    for c in groups.iter().flat_map(|g| g.iter()) {
        if !out.iter().any(|k| k.operation == c.operation) {
            out.push(c);
        }
    }
    out
}

// The calls the writing tools share (`crate::tools::writes`): reading what a write acts on, the
// checks before sending, and the post a message becomes.

/// The post a write acts on, read to show it, to check it is the person's own, and to bind the
/// confirmation to its version.
pub(crate) const POST_READ: Call = Call {
    operation: "GetPost",
    params: &[
        ("post_id", Source::Arg("post")),
        (
            "include_deleted",
            Source::Omitted("a deleted post is not written to"),
        ),
    ],
};

/// The channel a write acts on: its name, kind, team and whether it is archived.
pub(crate) const CHANNEL_READ: Call = Call {
    operation: "GetChannel",
    params: &[("channel_id", Source::Arg("channel"))],
};

/// How many people a channel holds: whom a post, a join or a leave reaches.
pub(crate) const CHANNEL_STATS: Call = Call {
    operation: "GetChannelStats",
    params: &[("channel_id", Source::Arg("channel"))],
};

/// The server's limits: MaxPostSize and MaxFileSize.
pub(crate) const CLIENT_CONFIG: Call = Call {
    operation: "GetClientConfig",
    params: &[(
        "format",
        Source::Fixed("old", "the only format the server serves"),
    )],
};

/// The people `@mentions` name, to name those that mention nobody.
pub(crate) const MENTIONED: Call = Call {
    operation: "GetUsersByUsernames",
    params: &[("body", Source::Arg("message"))],
};

/// The closest usernames to a mention of nobody.
pub(crate) const MENTION_SUGGESTIONS: Call = Call {
    operation: "SearchUsers",
    params: &[
        ("body.term", Source::Arg("message")),
        (
            "body.limit",
            Source::Fixed("20", "enough to suggest the closest usernames"),
        ),
        (
            "body.allow_inactive",
            Source::Fixed("true", "a deactivated person can still be named"),
        ),
        (
            "body.team_id",
            Source::Omitted("suggestions come from the whole server"),
        ),
        (
            "body.not_in_team_id",
            Source::Omitted("not a filter suggestions need"),
        ),
        (
            "body.in_channel_id",
            Source::Omitted("suggestions come from the whole server"),
        ),
        (
            "body.not_in_channel_id",
            Source::Omitted("not a filter suggestions need"),
        ),
        ("body.in_group_id", Source::Omitted("groups need a licence")),
        (
            "body.group_constrained",
            Source::Omitted("groups need a licence"),
        ),
        (
            "body.without_team",
            Source::Omitted("not a filter suggestions need"),
        ),
    ],
};

/// The channel's members, to count who `@here` notifies (with their statuses).
pub(crate) const CHANNEL_MEMBERS: Call = Call {
    operation: "GetChannelMembers",
    params: &[
        ("channel_id", Source::Arg("channel")),
        (
            "page",
            Source::Paging("0 upwards, for channels of at most 1000 members"),
        ),
        ("per_page", Source::Paging("200, Mattermost's largest page")),
    ],
};

/// Who of a channel's members is online now, for `@here`.
pub(crate) const MEMBER_STATUSES: Call = Call {
    operation: "GetUsersStatusesByIds",
    params: &[(
        "body",
        Source::Paging("the channel's members, 200 a request"),
    )],
};

/// Uploading a post's files (`crate::mattermost::upload`, written by hand: a multipart body).
pub(crate) const UPLOAD_FILE: Call = Call {
    operation: "UploadFile",
    params: &[
        ("channel_id", Source::Arg("channel")),
        (
            "filename",
            Source::Omitted("the files go in the multipart body, each with its name"),
        ),
        ("body.files", Source::Arg("files")),
        (
            "body.channel_id",
            Source::Omitted("the channel goes in the query, read before the files"),
        ),
        (
            "body.client_ids",
            Source::Omitted("files are matched to their names by their order"),
        ),
    ],
};

/// Making the post, once: with a `pending_post_id` Mattermost de-duplicates, so a retry after a cut
/// connection or a timeout answers the post already made.
pub(crate) const CREATE_POST: Call = Call {
    operation: "CreatePost",
    params: &[
        (
            "set_online",
            Source::Omitted("Mattermost's default (true): posting is the person's own activity"),
        ),
        ("body.channel_id", Source::Arg("channel")),
        ("body.message", Source::Arg("message")),
        ("body.root_id", Source::Arg("root")),
        ("body.file_ids", Source::Arg("files")),
        (
            "body.props",
            Source::Fixed(
                "{\"ai_generated_by\": <the person's user id>}",
                "the post is marked as written with an AI assistant, as Mattermost marks such posts",
            ),
        ),
        (
            "body.metadata",
            Source::Omitted("priority and acknowledgements need a licence"),
        ),
        (
            "body.pending_post_id",
            Source::Fixed(
                "<the person's user id>:<32 random hex digits>, the same on each retry",
                "Mattermost's de-duplication: a retry never makes a second post",
            ),
        ),
    ],
};

/// The channel of the post a write acts on: its name, kind and team, for the question.
pub(crate) const POST_CHANNEL_READ: Call = Call {
    operation: "GetChannel",
    params: &[(
        "channel_id",
        Source::Fixed("the post's channel", "the question names where the post is"),
    )],
};
