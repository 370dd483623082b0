//! How Mattermost's objects are shown to a model: typed items, not Mattermost's full objects. Each
//! item keeps what helps a model answer and decide what to read next (ids, names, times in RFC 3339
//! UTC, counts), and leaves out what nobody reads. Every item derives `Serialize` and `JsonSchema`, so
//! the output schemas the tools publish come from these types.

mod author;
mod channel;
mod fields;
mod file;
mod person;
mod post;
mod small;
pub(crate) mod text;

pub(crate) use author::Author;
pub use author::set_content;
pub(crate) use channel::{ChannelItem, channel_label, unread_posts};
pub(crate) use fields::is_false;
pub(crate) use file::FileItem;
pub(crate) use person::{StatusItem, UserItem};
pub(crate) use post::{MESSAGE_CUT, PostItem, Shown, authors, permalink, permalink_pattern};
pub(crate) use small::{DraftItem, EmojiItem, ReactionGroup, TeamItem, ThreadItem, draft_key};
