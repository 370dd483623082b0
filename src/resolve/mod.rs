//! References a model gives for channels, teams, people and posts, turned into Mattermost objects.
//!
//! Every tool that takes a channel, team, user or post accepts its id, and also:
//! - a channel by name (`town-square`, `~town-square`), display name, `@alice` (the direct message
//!   channel with alice), its URL (`https://host/team/channels/name`) or a post's permalink;
//! - a team by name or display name;
//! - a person by username (`alice`, `@alice`) or email;
//! - a post by permalink.
//!
//! Names match case-insensitively, a whole name first, then a part of one. An ambiguous name is refused
//! with every candidate and its id; an unknown one with the closest names. An id is taken as it is, with
//! no request: Mattermost's own answer then says whether it exists. The operations resolution may send
//! are declared once in `crate::calls` and added to every tool that takes that kind of argument.

mod channels;
pub(crate) mod emoji;
mod matching;
mod people;
mod posts;
mod teams;

pub(crate) use channels::{ResolvedChannel, channel, channel_id};
pub(crate) use matching::distance;
pub(crate) use people::{user, users};
pub(crate) use posts::post_id;
pub(crate) use teams::{team_id, team_of};
