//! The arguments many tools share, declared once: the channel a channel tool reads and the team that
//! narrows its name, the team a team-wide list is narrowed to or a team tool reads, the post a post
//! tool reads, and the page sizes of the team and channel lists.

use crate::args::{Arg, Kind};

/// The channel argument every channel tool takes.
pub(crate) const CHANNEL: Arg = Arg {
    name: "channel",
    kind: Kind::Channel,
    required: true,
    about: "Id, name, display name, @user for a direct message, URL, or a post's permalink.",
    shapes: None,
};

/// The team that narrows a channel name to one team.
pub(crate) const TEAM_OF_CHANNEL: Arg = Arg {
    name: "team",
    kind: Kind::Team,
    required: false,
    about: "The channel's team, when its name is in several.",
    shapes: Some("narrows the channel name to one team"),
};

/// The team a team-wide list or search is narrowed to.
pub(crate) const TEAM: Arg = Arg {
    name: "team",
    kind: Kind::Team,
    required: false,
    about: "A team (id, name or display name); all yours when left out.",
    shapes: Some(
        "narrows the list to one team (with direct and group messages, which belong to none)",
    ),
};

/// The post a post tool reads.
pub(crate) const POST: Arg = Arg {
    name: "post",
    kind: Kind::Post,
    required: true,
    about: "The post: its id or its permalink.",
    shapes: None,
};

/// The team a team tool reads.
pub(crate) const ONE_TEAM: Arg = Arg {
    name: "team",
    kind: Kind::Team,
    required: true,
    about: "The team: id, name or display name.",
    shapes: None,
};

/// The page sizes of the team and channel lists.
pub(crate) const LISTS: crate::args::Limit = crate::args::Limit::new(50, 200);
