//! The table's rows for reading: channels, unread posts, threads, followed threads, pinned and saved
//! posts, post and file search, mentions, reactions, drafts, custom emoji and a file's text.

use super::{
    Answer, CHANNEL, Call, ME, MY_CHANNELS, READS, Source, TEAM_OF_CHANNEL, Tool, USERNAMES,
};
use crate::args::{Arg, Kind, MAX_REFERENCE};
use crate::paging::{Limit, Strategy};
use crate::run;
use crate::tools::{files, posts};

/// The team a team-wide list or search is narrowed to.
const TEAM: Arg = Arg {
    name: "team",
    kind: Kind::Team,
    required: false,
    about: "A team (id, name or display name) to narrow the list to; leave out for all your teams.",
    shapes: Some(
        "narrows the list to one team (with direct and group messages, which belong to none)",
    ),
};

const POST: Arg = Arg {
    name: "post",
    kind: Kind::Post,
    required: true,
    about: "The post: its id or its permalink.",
    shapes: None,
};

const TERMS: Arg = Arg {
    name: "terms",
    kind: Kind::Text { max: 500 },
    required: true,
    about: "What to search for, in Mattermost's search syntax: words (all must match unless match_any), \
            \"exact phrases\", prefix*, #hashtags, from:username, in:channel-name, -excluded, and dates \
            before:YYYY-MM-DD, after:YYYY-MM-DD, on:YYYY-MM-DD (UTC).",
    shapes: None,
};

const MATCH_ANY: Arg = Arg {
    name: "match_any",
    kind: Kind::Flag,
    required: false,
    about: "true: a match needs any of the words, not all of them.",
    shapes: None,
};

const INCLUDE_ARCHIVED: Arg = Arg {
    name: "include_archived",
    kind: Kind::Flag,
    required: false,
    about: "true: search archived channels too.",
    shapes: None,
};

/// The body of a post or file search, as each search tool sends it.
const fn search_body(terms: Source, any: Source, archived: Source) -> [(&'static str, Source); 6] {
    [
        ("body.terms", terms),
        ("body.is_or_search", any),
        (
            "body.time_zone_offset",
            Source::Fixed(
                "0",
                "dates in the terms are days in UTC, as every time the tools show is",
            ),
        ),
        ("body.include_deleted_channels", archived),
        (
            "body.page",
            Source::Fixed(
                "0",
                "database search answers nothing for a page above 0 (notes §5); older matches are reached with date terms",
            ),
        ),
        (
            "body.per_page",
            Source::Fixed(
                "100",
                "database search ignores it and answers at most 100 per term group; Elasticsearch reads it, so both give the newest 100",
            ),
        ),
    ]
}

const POST_SEARCH_BODY: [(&str, Source); 6] = search_body(
    Source::Arg("terms"),
    Source::Arg("match_any"),
    Source::Arg("include_archived"),
);

const POST_SEARCH_IN_TEAM: [(&str, Source); 7] = {
    let b = POST_SEARCH_BODY;
    [
        ("team_id", Source::Arg("team")),
        b[0],
        b[1],
        b[2],
        b[3],
        b[4],
        b[5],
    ]
};

const MENTION_BODY: [(&str, Source); 6] = search_body(
    Source::Fixed(
        "@<username> <first name> <mention keys> [before:<day>]",
        "the person's own mention keys: @username, their first name and their custom keys when their notification settings make them mentions",
    ),
    Source::Fixed(
        "true",
        "a post that holds any one mention key mentions the person",
    ),
    Source::Omitted(
        "mentions in archived channels are old news; they are left out as Mattermost's own mentions view does",
    ),
);

const MENTION_IN_TEAM: [(&str, Source); 7] = {
    let b = MENTION_BODY;
    [
        ("team_id", Source::Arg("team")),
        b[0],
        b[1],
        b[2],
        b[3],
        b[4],
        b[5],
    ]
};

const READ_CHANNEL: Tool = Tool {
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
        USERNAMES,
    ],
    run: run!(posts::read_channel),
};

const READ_UNREAD: Tool = Tool {
    name: "read_unread",
    title: "Read what is unread in a channel",
    description: "The posts written in a channel since you last viewed it, oldest first, with up to 3 read \
                  posts before them for context (in `context`, each marked read: true); the answer gives the \
                  first unread post, how many are unread and when you last viewed the channel. Later pages go \
                  forward by next_cursor. Nothing is marked read. A channel you never viewed is all unread: \
                  the answer says so (never_viewed) and reads it newest page first, going back. limit: default \
                  30, max 200; a page ends on a whole millisecond, so one millisecond of more posts than the \
                  limit is returned whole. Past Mattermost's cap of 1000 changed posts the unread posts are \
                  read back from the newest (up to about 10,000). Messages over 4000 characters are cut.",
    args: &[CHANNEL, TEAM_OF_CHANNEL],
    answer: Answer::List {
        strategy: Strategy::Since,
        limit: Limit {
            default: 30,
            max: 200,
        },
    },
    hints: READS,
    calls: &[
        Call {
            operation: "GetChannelMember",
            params: &[
                ("channel_id", Source::Arg("channel")),
                (
                    "user_id",
                    Source::Fixed(
                        "me",
                        "the person's own membership holds when they last viewed the channel",
                    ),
                ),
            ],
        },
        Call {
            operation: "GetPostsForChannel",
            params: &[
                ("channel_id", Source::Arg("channel")),
                (
                    "since",
                    Source::Paging(
                        "the time the channel was last viewed, for the posts changed after it",
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
                    Source::Paging("the post the previous page ended on, going forward"),
                ),
                (
                    "per_page",
                    Source::Paging(
                        "one post more than the page (at most 200), 3 for the context, or 200 to read a millisecond whole",
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
                        "deleted posts are not unread news, and only system admins may read them",
                    ),
                ),
                (
                    "collapsedThreads",
                    Source::Omitted(
                        "unread replies are news too: every post is read, not only thread roots",
                    ),
                ),
                (
                    "collapsedThreadsExtended",
                    Source::Omitted("only with collapsedThreads, which is not sent"),
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
        USERNAMES,
    ],
    run: run!(posts::read_unread),
};

const READ_THREAD: Tool = Tool {
    name: "read_thread",
    title: "Read a thread",
    description: "A whole thread, oldest first, from any post in it (a reply leads to its root): the root, \
                  then every reply, messages never cut. Replies written in the same millisecond are each \
                  shown once, in (time, id) order. limit: default 50, max 200; next_cursor reads on.",
    args: &[POST],
    answer: Answer::List {
        strategy: Strategy::Thread,
        limit: Limit {
            default: 50,
            max: 200,
        },
    },
    hints: READS,
    calls: &[
        Call {
            operation: "GetPostThread",
            params: &[
                ("post_id", Source::Arg("post")),
                (
                    "perPage",
                    Source::Paging("the page's limit (at most 200; more is a 400)"),
                ),
                (
                    "fromPost",
                    Source::Paging("the id of the last post shown, the keyset's tiebreak"),
                ),
                (
                    "fromCreateAt",
                    Source::Paging("the creation time of the last post shown"),
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
                    Source::Omitted(
                        "paging is by creation time, the thread's reading order, not by edits",
                    ),
                ),
                (
                    "updatesOnly",
                    Source::Omitted("the thread is read whole, not only what changed since a time"),
                ),
                (
                    "skipFetchThreads",
                    Source::Omitted("it would leave out the replies, which are what is read"),
                ),
                (
                    "collapsedThreads",
                    Source::Omitted(
                        "the replies are read as posts; the collapsed-threads form adds nothing here",
                    ),
                ),
                (
                    "collapsedThreadsExtended",
                    Source::Omitted("only with collapsedThreads, which is not sent"),
                ),
            ],
        },
        USERNAMES,
    ],
    run: run!(posts::read_thread),
};

const LIST_THREADS: Tool = Tool {
    name: "list_threads",
    title: "List followed threads",
    description: "The threads you follow, newest reply first (ties by root id), each with its root post \
                  (cut at 4000 characters), channel, reply count, last reply, participants and unread replies \
                  and mentions; `unread_only` keeps those with unread replies. Direct and group message \
                  threads appear once, whatever the teams. limit: default 20, max 200. The list is read \
                  whole once per cursor chain (Mattermost pages it by last reply, which moves as people \
                  reply), so later pages cost no request and show every thread followed when it was read \
                  exactly once; read_thread reads one.",
    args: &[
        TEAM,
        Arg {
            name: "unread_only",
            kind: Kind::Flag,
            required: false,
            about: "true: only threads with replies you have not read.",
            shapes: None,
        },
    ],
    answer: Answer::List {
        strategy: Strategy::FollowedThreads,
        limit: Limit {
            default: 20,
            max: 200,
        },
    },
    hints: READS,
    calls: &[
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
                        "Mattermost never reads it: every page number answers the first page again (notes §4); paging is by before and after",
                    ),
                ),
                (
                    "excludeDirect",
                    Source::Paging(
                        "true for every team after the first, so direct and group threads, which appear under every team, are read once",
                    ),
                ),
                ("unread", Source::Arg("unread_only")),
                (
                    "threadsOnly",
                    Source::Omitted(
                        "the totals it would leave out check that the walk reached every followed thread",
                    ),
                ),
                (
                    "totalsOnly",
                    Source::Omitted("the threads themselves are wanted, not only their counts"),
                ),
                (
                    "since",
                    Source::Omitted(
                        "every followed thread is wanted, not only those changed since a time",
                    ),
                ),
                (
                    "deleted",
                    Source::Omitted("a thread whose root was deleted cannot be read"),
                ),
                (
                    "extended",
                    Source::Omitted(
                        "participants are shown by username, looked up once and cached, smaller than full user objects",
                    ),
                ),
            ],
        },
        USERNAMES,
        MY_CHANNELS,
        ME,
    ],
    run: run!(posts::list_threads),
};

const LIST_PINNED_POSTS: Tool = Tool {
    name: "list_pinned_posts",
    title: "List a channel's pinned posts",
    description: "The posts pinned in a channel, newest first (ties by id). limit: default 30, max 200. \
                  Mattermost gives the list whole; each page reads it again and goes on after the last post \
                  shown, so a pin added or removed between pages neither skips nor repeats the others. \
                  Messages over 4000 characters are cut.",
    args: &[CHANNEL, TEAM_OF_CHANNEL],
    answer: Answer::List {
        strategy: Strategy::WholeList,
        limit: Limit {
            default: 30,
            max: 200,
        },
    },
    hints: READS,
    calls: &[
        Call {
            operation: "GetPinnedPosts",
            params: &[("channel_id", Source::Arg("channel"))],
        },
        USERNAMES,
    ],
    run: run!(posts::list_pinned_posts),
};

const LIST_SAVED: Tool = Tool {
    name: "list_saved",
    title: "List saved posts",
    description: "The posts you saved (flagged), newest first (ties by id), each with its channel. limit: \
                  default 30, max 200. Mattermost pages saved posts by an offset that shifts whenever a post is \
                  saved or unsaved, so the list is read whole once per cursor chain (200 a request, until a \
                  page comes back empty) and later pages cost no request. Posts in channels you can no longer \
                  read are left out by Mattermost. Messages over 4000 characters are cut.",
    args: &[],
    answer: Answer::List {
        strategy: Strategy::OffsetQuirk,
        limit: Limit {
            default: 30,
            max: 200,
        },
    },
    hints: READS,
    calls: &[
        Call {
            operation: "GetFlaggedPostsForUser",
            params: &[
                (
                    "user_id",
                    Source::Fixed("me", "the token user's own saved posts"),
                ),
                (
                    "page",
                    Source::Paging(
                        "an offset in posts, not a page number (notes §6): 0, then the posts read so far",
                    ),
                ),
                ("per_page", Source::Paging("200, Mattermost's largest page")),
                (
                    "team_id",
                    Source::Omitted(
                        "Mattermost's team filter lacks parentheses (notes §6) and lets every saved direct message post through; all saved posts are listed",
                    ),
                ),
                (
                    "channel_id",
                    Source::Omitted("all saved posts are listed, each naming its channel"),
                ),
            ],
        },
        USERNAMES,
        MY_CHANNELS,
        ME,
    ],
    run: run!(posts::list_saved),
};

const SEARCH_POSTS: Tool = Tool {
    name: "search_posts",
    title: "Search posts",
    description: "Posts matching search terms, in your channels of one team or of all your teams, newest \
                  first (ties by id), each with its channel. limit: default 20, max 200. Mattermost answers \
                  at most the 100 newest matches per term group (words; hashtags) and cannot page past them: \
                  the answer then says capped: true and gives, in `older`, the terms that reach older matches \
                  (your terms with before:YYYY-MM-DD, the day after the oldest match shown). A day of more \
                  than 100 matches cannot be listed whole. Messages over 4000 characters are cut.",
    args: &[TERMS, TEAM, MATCH_ANY, INCLUDE_ARCHIVED],
    answer: Answer::List {
        strategy: Strategy::SearchCapped,
        limit: Limit {
            default: 20,
            max: 200,
        },
    },
    hints: READS,
    calls: &[
        Call {
            operation: "SearchPosts",
            params: &POST_SEARCH_IN_TEAM,
        },
        Call {
            operation: "SearchPostsInAllTeams",
            params: &POST_SEARCH_BODY,
        },
        USERNAMES,
        MY_CHANNELS,
        ME,
    ],
    run: run!(posts::search_posts),
};

const LIST_MENTIONS: Tool = Tool {
    name: "list_mentions",
    title: "List mentions of you",
    description: "Posts by others that mention you, newest first (ties by id): @username, and your first \
                  name and your own mention keys when your notification settings make them mentions \
                  (channel-wide @channel, @all and @here are not listed). limit: default 20, max 200. It is a \
                  search, so Mattermost answers at most the 100 newest matching posts: the answer then says \
                  capped: true and gives, in `older`, a `before` day; call again with it to reach older \
                  mentions. Messages over 4000 characters are cut.",
    args: &[
        TEAM,
        Arg {
            name: "before",
            kind: Kind::Time,
            required: false,
            about: "Only mentions written before this day (UTC; RFC 3339 or 2026-11-30), to reach past the 100 newest.",
            shapes: Some("adds before:<day> to the search terms"),
        },
    ],
    answer: Answer::List {
        strategy: Strategy::SearchCapped,
        limit: Limit {
            default: 20,
            max: 200,
        },
    },
    hints: READS,
    calls: &[
        ME,
        Call {
            operation: "SearchPosts",
            params: &MENTION_IN_TEAM,
        },
        Call {
            operation: "SearchPostsInAllTeams",
            params: &MENTION_BODY,
        },
        USERNAMES,
        MY_CHANNELS,
    ],
    run: run!(posts::list_mentions),
};

const LIST_REACTIONS: Tool = Tool {
    name: "list_reactions",
    title: "List a post's reactions",
    description: "The reactions to a post, one item per emoji in the order each was first used: how many, and \
                  who reacted, by username, in the order they did. A post holds at most 500 different emoji \
                  (Mattermost's limit), so the answer comes whole, without a cursor.",
    args: &[POST],
    answer: Answer::Bounded {
        max: 500,
        reason: "one item per emoji on the post, and Mattermost allows at most 500 different emoji on a post (UniqueEmojiReactionLimitPerPost)",
    },
    hints: READS,
    calls: &[
        Call {
            operation: "GetReactions",
            params: &[("post_id", Source::Arg("post"))],
        },
        USERNAMES,
    ],
    run: run!(posts::list_reactions),
};

const LIST_DRAFTS: Tool = Tool {
    name: "list_drafts",
    title: "List drafts",
    description: "Your unsent drafts (synced drafts), most recently changed first (ties by id), each with its \
                  channel and, for a reply, its thread's root; direct and group message drafts appear once. \
                  limit: default 30, max 200. Mattermost gives the list whole per team, ordered by when each \
                  draft last changed, which moves as you type; so it is read whole once per cursor chain and \
                  later pages cost no request, each draft shown once.",
    args: &[TEAM],
    answer: Answer::List {
        strategy: Strategy::PagesWithTies,
        limit: Limit {
            default: 30,
            max: 200,
        },
    },
    hints: READS,
    calls: &[
        Call {
            operation: "GetDrafts",
            params: &[
                (
                    "user_id",
                    Source::Fixed(
                        "me",
                        "Mattermost answers the session user's drafts whatever the path says",
                    ),
                ),
                (
                    "team_id",
                    Source::Paging("the team given, or each of the user's teams in turn"),
                ),
            ],
        },
        MY_CHANNELS,
        ME,
        USERNAMES,
    ],
    run: run!(posts::list_drafts),
};

const LIST_EMOJI: Tool = Tool {
    name: "list_emoji",
    title: "List custom emoji",
    description: "This Mattermost's custom emoji, by name, each with who added it. limit: default 50, max \
                  200. Mattermost pages them by offset; the list is read whole once per cursor chain (200 a \
                  request, by name) and later pages cost no request.",
    args: &[],
    answer: Answer::List {
        strategy: Strategy::PagesWithTies,
        limit: Limit {
            default: 50,
            max: 200,
        },
    },
    hints: READS,
    calls: &[
        Call {
            operation: "GetEmojiList",
            params: &[
                (
                    "page",
                    Source::Paging("each page of 200 in turn, until a short one"),
                ),
                ("per_page", Source::Paging("200, Mattermost's largest page")),
                (
                    "sort",
                    Source::Fixed(
                        "name",
                        "without it Mattermost has no ORDER BY (notes §9) and pages overlap; names are unique, so pages by name are stable",
                    ),
                ),
            ],
        },
        USERNAMES,
    ],
    run: run!(posts::list_emoji),
};

const SEARCH_FILES: Tool = Tool {
    name: "search_files",
    title: "Search files",
    description: "Files attached to posts in your channels whose name or content matches search terms (also \
                  ext:pdf, from:, in:, before:/after:/on: dates), in one team or all your teams, newest first \
                  (ties by id): name, type, size, author, channel and post. limit: default 20, max 200. \
                  Mattermost answers at most the 100 newest matching files and cannot page past them: the \
                  answer then says capped: true and gives, in `older`, the terms that reach older files \
                  (before:YYYY-MM-DD, the day after the oldest shown). read_file reads a text file's lines.",
    args: &[TERMS, TEAM, MATCH_ANY, INCLUDE_ARCHIVED],
    answer: Answer::List {
        strategy: Strategy::SearchCapped,
        limit: Limit {
            default: 20,
            max: 200,
        },
    },
    hints: READS,
    calls: &[
        Call {
            operation: "SearchFiles",
            params: &POST_SEARCH_IN_TEAM,
        },
        Call {
            operation: "SearchFiles2",
            params: &POST_SEARCH_BODY,
        },
        USERNAMES,
        MY_CHANNELS,
        ME,
    ],
    run: run!(files::search_files),
};

const READ_FILE: Tool = Tool {
    name: "read_file",
    title: "Read a text file",
    description: "A text file's content (plain text, Markdown, CSV, JSON, code, logs; UTF-8, up to 8 MiB), \
                  paged like any list: items are its lines, numbered from 1; a line over 8 KiB comes in \
                  pieces (continues: true) and a page stops at 32 KiB of text. limit: default 100, max 200 \
                  lines; next_cursor reads on, total is the number of lines. A file that is not text (an \
                  image, a PDF, an archive) is described (name, type, size) and refused.",
    args: &[Arg {
        name: "file",
        kind: Kind::Text { max: MAX_REFERENCE },
        required: true,
        about: "The file: its id (as search_files and the file_ids of posts give it) or its link.",
        shapes: None,
    }],
    answer: Answer::List {
        strategy: Strategy::FileLines,
        limit: Limit {
            default: 100,
            max: 200,
        },
    },
    hints: READS,
    calls: &[
        Call {
            operation: "GetFileInfo",
            params: &[("file_id", Source::Arg("file"))],
        },
        Call {
            operation: "GetFile",
            params: &[("file_id", Source::Arg("file"))],
        },
    ],
    run: run!(files::read_file),
};

pub static ROWS: &[Tool] = &[
    READ_CHANNEL,
    READ_UNREAD,
    READ_THREAD,
    LIST_THREADS,
    LIST_PINNED_POSTS,
    LIST_SAVED,
    SEARCH_POSTS,
    LIST_MENTIONS,
    LIST_REACTIONS,
    LIST_DRAFTS,
    LIST_EMOJI,
    SEARCH_FILES,
    READ_FILE,
];
