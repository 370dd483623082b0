//! The tools that change something in Mattermost: toolset `writes`, listed and callable only with
//! `MATTERMOST_ALLOW_WRITES=true`. Those whose change others will see ask the person first
//! (`crate::confirm`); those only the person sees (saved posts, followed threads, drafts, reminders)
//! never ask. The helpers they share: [`common`] (targets, names, the own-post rule, idempotent
//! retries), [`checks`] (message length, mentions, reach, credentials), [`files`] (attachments) and
//! [`posting`] (a post made once, marked).

pub mod checks;
pub mod common;
pub mod drafts;
pub mod files;
pub mod posting;
pub mod reactions;

pub mod add_channel_members;
pub mod add_reaction;
pub mod create_channel;
pub mod create_post;
pub mod delete_draft;
pub mod delete_post;
pub mod follow_thread;
pub mod join_channel;
pub mod leave_channel;
pub mod mark_channel_read;
pub mod pin_post;
pub mod remove_reaction;
pub mod save_draft;
pub mod save_post;
pub mod send_direct_message;
pub mod set_post_reminder;
pub mod set_status;
pub mod update_post;

use crate::args::{Arg, Kind};

pub(crate) use super::shared::args::{CHANNEL, POST};

/// The message a posting tool sends.
pub const MESSAGE: Arg = Arg {
    name: "message",
    kind: Kind::Text { max: 100_000 },
    required: true,
    about: "The message (Markdown), exactly as it will read.",
    shapes: None,
};

/// The thread a reply goes to.
pub const ROOT: Arg = Arg {
    name: "root",
    kind: Kind::Post,
    required: false,
    about: "A post id or permalink: its thread.",
    shapes: None,
};

/// A post's attachments.
pub const FILES: Arg = Arg {
    name: "files",
    kind: Kind::Files {
        max: files::MAX_FILES,
    },
    required: false,
    about: "Up to 10 files, each {name, content} (UTF-8) or {name, content_base64}.",
    shapes: None,
};
