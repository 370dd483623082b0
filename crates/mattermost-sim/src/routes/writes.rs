//! The write routes, each mirroring the `api4` handler and `App` function named in its docs, with
//! the real status codes, error ids, response shapes and side effects: posts (create with the
//! pending-post-id de-duplication, edit, delete, pin), reactions, saved posts and other
//! preferences, thread following, channel membership, channels (create, DM, GM, archive), team
//! membership, statuses, drafts, post reminders and file uploads. The submodules hold them by area
//! (`replies.rs` the answers and errors they share); this module only names them for the router.

mod channels;
mod decode;
mod drafts;
mod members;
mod posts;
mod prefs;
mod reactions;
mod replies;
mod teams;
mod uploads;
mod users;

pub(crate) use channels::{archive_channel, create_channel, create_direct, create_group};
pub(crate) use drafts::{delete_draft, upsert_draft};
pub(crate) use members::{add_channel_member, remove_channel_member, remove_team_member};
pub(crate) use posts::{
    create_post, delete_post, patch_post, pin_post, set_reminder, unpin_post, update_post,
};
pub(crate) use prefs::{delete_preferences, follow_thread, unfollow_thread, update_preferences};
pub(crate) use reactions::{delete_reaction, save_reaction};
pub(crate) use teams::{archive_team, create_team};
pub(crate) use uploads::upload_files;
pub(crate) use users::{remove_custom_status, update_custom_status, update_status};
