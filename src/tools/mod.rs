//! Every tool, one file each, by area: its declaration, its body and its output type. The inventory
//! (`crate::inventory`) lists them; the arguments many tools share are declared here once.

pub mod api;
pub mod channels;
pub mod files;
pub mod people;
pub mod posts;
pub mod teams;
pub mod writes;

use crate::args::{Arg, Kind};

/// The channel argument every channel tool takes.
pub const CHANNEL: Arg = Arg {
    name: "channel",
    kind: Kind::Channel,
    required: true,
    about: "Id, name, display name, @user for a direct message, URL, or a post's permalink.",
    shapes: None,
};

/// The team that narrows a channel name to one team.
pub const TEAM_OF_CHANNEL: Arg = Arg {
    name: "team",
    kind: Kind::Team,
    required: false,
    about: "The channel's team, when its name is in several.",
    shapes: Some("narrows the channel name to one team"),
};

/// The team a team-wide list or search is narrowed to.
pub const TEAM: Arg = Arg {
    name: "team",
    kind: Kind::Team,
    required: false,
    about: "A team (id, name or display name); all yours when left out.",
    shapes: Some(
        "narrows the list to one team (with direct and group messages, which belong to none)",
    ),
};

/// The post a post tool reads.
pub const POST: Arg = Arg {
    name: "post",
    kind: Kind::Post,
    required: true,
    about: "The post: its id or its permalink.",
    shapes: None,
};
