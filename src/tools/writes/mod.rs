//! The tools that change something in Mattermost: toolset `writes`, listed and callable only with
//! `MATTERMOST_ALLOW_WRITES=true`. Those whose change others will see ask the person first
//! (`crate::confirm`); those only the person sees (saved posts, followed threads, drafts, reminders)
//! never ask. The helpers they share: [`common`] (targets, names, the own-post rule, idempotent
//! retries), [`checks`] (message length, mentions, reach, credentials), [`files`] (attachments) and
//! [`posting`] (a post made once, marked).

pub(crate) mod checks;
pub(crate) mod common;
pub(crate) mod drafts;
pub(crate) mod files;
pub(crate) mod posting;
pub(crate) mod reactions;

pub(crate) mod add_channel_members;
pub(crate) mod add_reaction;
pub(crate) mod create_channel;
pub(crate) mod create_post;
pub(crate) mod delete_draft;
pub(crate) mod delete_post;
pub(crate) mod follow_thread;
pub(crate) mod join_channel;
pub(crate) mod leave_channel;
pub(crate) mod mark_channel_read;
pub(crate) mod pin_post;
pub(crate) mod remove_reaction;
pub(crate) mod save_draft;
pub(crate) mod save_post;
pub(crate) mod send_direct_message;
pub(crate) mod set_post_reminder;
pub(crate) mod set_status;
pub(crate) mod update_post;

use crate::args::{Arg, Kind};

pub(crate) use super::shared::args::{CHANNEL, POST};

/// The message a posting tool sends.
pub(crate) const MESSAGE: Arg = Arg {
    name: "message",
    kind: Kind::Text { max: 100_000 },
    required: true,
    about: "The message (Markdown), exactly as it will read.",
    shapes: None,
};

/// The thread a reply goes to.
pub(crate) const ROOT: Arg = Arg {
    name: "root",
    kind: Kind::Post,
    required: false,
    about: "A post id or permalink: its thread.",
    shapes: None,
};

/// A post's attachments.
pub(crate) const FILES: Arg = Arg {
    name: "files",
    kind: Kind::Files {
        max: files::MAX_FILES,
    },
    required: false,
    about: "Up to 10 files, each {name, content} (UTF-8) or {name, content_base64}.",
    shapes: None,
};
