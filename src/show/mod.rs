//! How Mattermost's objects are shown to a model: typed items, not Mattermost's full objects. Each
//! item keeps what helps a model answer and decide what to read next (ids, names, times in RFC 3339
//! UTC, counts), and leaves out what nobody reads. Every item derives `Serialize` and `JsonSchema`, so
//! the output schemas the tools publish come from these types.

mod channel;
mod file;
mod person;
mod post;
mod small;

pub use channel::{ChannelItem, channel_label, unread_posts};
pub use file::FileItem;
pub use person::{StatusItem, UserItem};
pub use post::{MESSAGE_CUT, PostItem, Shown, authors, permalink, permalink_pattern};
pub use small::{DraftItem, EmojiItem, ReactionGroup, TeamItem, ThreadItem, draft_id, draft_key};

pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

/// Text cut to `max` characters: the text shown, and its whole length when it was cut.
pub(crate) fn cut(text: &str, max: Option<usize>) -> (String, Option<usize>) {
    let length = text.chars().count();
    match max {
        Some(max) if length > max => (text.chars().take(max).collect(), Some(length)),
        _ => (text.to_string(), None),
    }
}
