//! The simulated workspace: the types it stores (teams, users, channels, posts and the rest, the
//! state the write routes keep, the integrations) and [`World::new`]. What reads and changes them
//! lives by domain in `world/`, each file holding the seeding API tests use beside what the routes
//! call: `people.rs`, `teams.rs`, `channels.rs`, `members.rs`, `unread.rs`, `posting.rs`,
//! `editing.rs`, `pending.rs`, `threads.rs`, `reactions.rs`, `files.rs`, `emoji.rs`, `drafts.rs`,
//! `preferences.rs`, `reminders.rs`, `integrations.rs`, `perms.rs` and `settings.rs`. They import
//! from this file, never the other way.
//!
//! Every change goes through these methods so that side effects match the real server's store
//! (an edit inserts a history row, a reply bumps its root's `UpdateAt`, a reaction bumps the post, ...).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::ids::new_id;
use crate::rng::Rng;

pub(crate) mod channels;
mod drafts;
mod editing;
pub(crate) mod emoji;
mod files;
mod happened;
mod integrations;
mod members;
mod pending;
mod people;
pub(crate) mod perms;
pub(crate) mod posting;
mod preferences;
mod reactions;
mod reminders;
mod settings;
mod teams;
mod threads;
mod unread;

/// The kind of a team channel created with [`World::channel`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelKind {
    /// An open channel (type `O`): any member of its team can read and join it.
    Public,
    /// A private channel (type `P`): only its members see it.
    Private,
}

/// Base of the logical clock used for creation times of teams, users and channels.
const CLOCK_BASE: i64 = 1_600_000_000_000;

#[derive(Clone, Debug)]
pub(crate) struct Team {
    pub id: String,
    pub name: String,
    pub display_name: String,
    pub open: bool,
    pub create_at: i64,
    pub update_at: i64,
    pub delete_at: i64,
}

#[derive(Clone, Debug)]
pub(crate) struct User {
    pub id: String,
    pub username: String,
    pub first_name: String,
    pub last_name: String,
    pub nickname: String,
    pub email: String,
    pub position: String,
    pub roles: String,
    pub is_bot: bool,
    pub bot_description: String,
    pub create_at: i64,
    pub update_at: i64,
    pub delete_at: i64,
    pub last_activity_at: i64,
    /// `model.User.Props` (`customStatus`, ...): sent when not empty.
    pub props: std::collections::BTreeMap<String, String>,
    /// The IANA zone the user chose by hand (`Timezone.manualTimezone`); empty: automatic, none known.
    pub manual_timezone: String,
    /// `model.User.RemoteId`: the remote cluster of a shared channel's user; sent when set
    /// (`omitempty`).
    pub remote_id: String,
}

impl User {
    pub fn is_admin(&self) -> bool {
        self.roles.split_whitespace().any(|r| r == "system_admin")
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Channel {
    pub id: String,
    pub team_id: String,
    /// "O", "P", "D" or "G".
    pub kind: &'static str,
    pub name: String,
    pub display_name: String,
    pub header: String,
    pub purpose: String,
    pub creator_id: String,
    pub create_at: i64,
    pub update_at: i64,
    pub delete_at: i64,
    pub last_post_at: i64,
    pub last_root_post_at: i64,
    pub total_msg_count: i64,
    pub total_msg_count_root: i64,
}

#[derive(Clone, Debug)]
pub(crate) struct TeamMember {
    pub team_id: String,
    pub user_id: String,
    pub delete_at: i64,
    pub create_at: i64,
}

#[derive(Clone, Debug)]
pub(crate) struct ChannelMember {
    pub channel_id: String,
    pub user_id: String,
    pub last_viewed_at: i64,
    pub msg_count: i64,
    pub msg_count_root: i64,
    pub mention_count: i64,
    /// Mentions in root posts only (`IncrementMentionCount` with `isRoot`): the count a client with
    /// collapsed reply threads shows on the channel.
    pub mention_count_root: i64,
    /// `NotifyProps["mark_unread"]`: "all", or "mention" for a muted channel.
    pub mark_unread: &'static str,
    pub last_update_at: i64,
    pub admin: bool,
}

/// `SqlPostStore.GetMaxPostSize`: the Postgres `Posts.Message` column is `VARCHAR(65535)`, so
/// `max(65535 / 4, model.PostMessageMaxRunesV2)` = 16383 characters.
pub(crate) const MAX_POST_SIZE: usize = 16_383;

#[derive(Clone, Debug)]
pub(crate) struct Post {
    pub id: String,
    pub create_at: i64,
    pub update_at: i64,
    pub edit_at: i64,
    pub delete_at: i64,
    pub is_pinned: bool,
    pub user_id: String,
    pub channel_id: String,
    pub root_id: String,
    pub original_id: String,
    pub message: String,
    pub kind: String,
    pub props: Map<String, Value>,
    pub hashtags: String,
    pub file_ids: Vec<String>,
    pub has_reactions: bool,
    /// The members SendNotifications counted a mention for when the post was created.
    pub mentions: Vec<String>,
}

#[derive(Clone, Debug)]
pub(crate) struct Reaction {
    pub user_id: String,
    pub post_id: String,
    pub channel_id: String,
    pub emoji_name: String,
    pub create_at: i64,
}

#[derive(Clone, Debug)]
pub(crate) struct FileInfo {
    pub id: String,
    pub creator_id: String,
    pub post_id: String,
    pub channel_id: String,
    pub create_at: i64,
    pub update_at: i64,
    pub delete_at: i64,
    pub name: String,
    pub extension: String,
    pub mime_type: String,
    pub content: Vec<u8>,
}

#[derive(Clone, Debug)]
pub(crate) struct ThreadMembership {
    pub user_id: String,
    pub post_id: String,
    pub following: bool,
    pub last_viewed: i64,
    pub last_updated: i64,
    pub unread_mentions: i64,
}

#[derive(Clone, Debug)]
pub(crate) struct Draft {
    pub user_id: String,
    pub channel_id: String,
    pub root_id: String,
    pub message: String,
    pub create_at: i64,
    pub update_at: i64,
}

#[derive(Clone, Debug)]
pub(crate) struct Emoji {
    pub id: String,
    pub creator_id: String,
    pub name: String,
    pub create_at: i64,
}

#[derive(Clone, Debug)]
pub(crate) struct Status {
    pub user_id: String,
    pub status: String,
    pub manual: bool,
    pub last_activity_at: i64,
    /// Seconds; set by a timed "dnd".
    pub dnd_end_time: i64,
    /// The status before "dnd" (not sent).
    pub prev_status: String,
}

/// One change the server publishes an event for on its WebSocket (`world/happened.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Happened {
    /// `app/notification.go` SendNotifications: `posted`, to the post's channel.
    Posted { post_id: String },
    /// `app/post.go` UpdatePost / the pin route: `post_edited`, to the post's channel.
    PostEdited { post_id: String },
    /// `app/post.go` DeletePost: `post_deleted`, to the post's channel (a sanitized copy for
    /// members, one with `delete_by` for admins).
    PostDeleted { post_id: String, by: String },
    /// `app/reaction.go` sendReactionEvent: `reaction_added` / `reaction_removed`.
    Reaction {
        added: bool,
        user_id: String,
        post_id: String,
        emoji: String,
        at: i64,
    },
    /// `app/channel.go` MarkChannelsAsViewed: `multiple_channels_viewed`, to the user alone.
    Viewed {
        user_id: String,
        times: Vec<(String, i64)>,
    },
    /// `app/channel.go` postJoinChannelMessage / AddChannelMember: `user_added`, to the channel.
    UserAdded { channel_id: String, user_id: String },
    /// `app/channel.go` createDirectChannel / createGroupChannel: `direct_added` or `group_added`,
    /// to the channel.
    ChannelOpened { channel_id: String, group: bool },
}

/// The release the simulated server answers as unless told otherwise: the pinned spec's.
pub const PINNED_RELEASE: &str = "11.6.0";

/// Server settings the simulated handlers consult.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub enable_custom_emoji: bool,
    pub allow_synced_drafts: bool,
    /// `ServiceSettings.CollapsedThreads`: "always_on" (the server's default), "default_on",
    /// "default_off" or "disabled". Users have no display preferences here, so the default_*
    /// values decide alone (`app/channel.go` IsCRTEnabledForUser).
    pub collapsed_threads: String,
    /// `ServiceSettings.ThreadAutoFollow` (default true).
    pub thread_auto_follow: bool,
    /// `ServiceSettings.EnableOAuthServiceProvider` (default true).
    pub enable_oauth_service_provider: bool,
    /// `ServiceSettings.EnableDynamicClientRegistration` (default false).
    pub enable_dynamic_client_registration: bool,
    /// The release the server answers as (`model.CurrentVersion`, in `X-Version-Id` and the client
    /// config): the pinned spec's by default.
    pub release: String,
}

/// Thread data derived from the posts (the real server keeps it in the Threads table).
#[derive(Clone, Debug)]
pub(crate) struct ThreadInfo {
    pub reply_count: i64,
    pub last_reply_at: i64,
    pub participants: Vec<String>,
    pub delete_at: i64,
}

/// `app/post.go` `PendingPostIDsCacheSize`: an LRU of this many pending post ids.
pub(crate) const PENDING_POST_IDS_CACHE_SIZE: usize = 25_000;
/// `app/post.go` `pendingPostIDsCacheTTL`: 30 seconds.
pub(crate) const PENDING_POST_IDS_TTL_MS: i64 = 30_000;

/// `FileSettings.MaxFileSize` default: 100 MiB.
pub(crate) const DEFAULT_MAX_FILE_SIZE: i64 = 100 * 1024 * 1024;

/// One entry of the pending-post-id cache: the post it made ("" while the first request saves).
#[derive(Clone, Debug)]
pub(crate) struct PendingEntry {
    pub post_id: String,
    pub expires_at: i64,
    pub last_used: u64,
}

/// A user preference other than `flagged_post` (those are the world's saved posts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Preference {
    pub user_id: String,
    pub category: String,
    pub name: String,
    pub value: String,
}

/// A post reminder (`PostReminders` row): `target_time` in seconds, as the client sent it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reminder {
    pub user_id: String,
    pub post_id: String,
    pub target_time: i64,
}

/// Server state the write routes keep beyond the seeded rows: the pending-post-id cache,
/// preferences, post reminders, team admins, read-only channels, settings and `system-bot`.
#[derive(Clone, Debug)]
pub(crate) struct WriteState {
    pub pending: HashMap<String, PendingEntry>,
    pub pending_uses: u64,
    pub pending_ttl_ms: i64,
    pub preferences: Vec<Preference>,
    pub reminders: Vec<Reminder>,
    /// (team id, user id) of `team_admin` members.
    pub team_admins: Vec<(String, String)>,
    /// Channels whose members may not post (moderation: `create_post` off for members).
    pub read_only: HashSet<String>,
    /// `FileSettings.MaxFileSize`.
    pub max_file_size: i64,
    /// `FileSettings.EnableFileAttachments`.
    pub enable_file_attachments: bool,
    /// `TeamSettings.EnableCustomUserStatuses`.
    pub enable_custom_user_statuses: bool,
    /// `ServiceSettings.ExperimentalEnableDefaultChannelLeaveJoinMessages` (default true).
    pub default_channel_join_leave_messages: bool,
    /// The user id of `system-bot`, once it exists.
    pub system_bot: Option<String>,
}

impl Default for WriteState {
    fn default() -> Self {
        WriteState {
            pending: HashMap::new(),
            pending_uses: 0,
            pending_ttl_ms: PENDING_POST_IDS_TTL_MS,
            preferences: Vec::new(),
            reminders: Vec::new(),
            team_admins: Vec::new(),
            read_only: HashSet::new(),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            enable_file_attachments: true,
            enable_custom_user_statuses: true,
            default_channel_join_leave_messages: true,
            system_bot: None,
        }
    }
}

/// An incoming webhook (`IncomingWebhooks` row).
#[derive(Clone, Debug)]
pub(crate) struct IncomingHook {
    pub id: String,
    pub create_at: i64,
    pub update_at: i64,
    pub delete_at: i64,
    pub user_id: String,
    pub channel_id: String,
    pub team_id: String,
    pub display_name: String,
    pub description: String,
    pub channel_locked: bool,
}

/// An outgoing webhook (`OutgoingWebhooks` row).
#[derive(Clone, Debug)]
pub(crate) struct OutgoingHook {
    pub id: String,
    pub create_at: i64,
    pub update_at: i64,
    pub delete_at: i64,
    pub creator_id: String,
    pub channel_id: String,
    pub team_id: String,
    pub display_name: String,
    pub trigger_words: Vec<String>,
    pub callback_urls: Vec<String>,
}

/// A channel bookmark of type `link` (`ChannelBookmarks` row).
#[derive(Clone, Debug)]
pub(crate) struct Bookmark {
    pub id: String,
    pub create_at: i64,
    pub update_at: i64,
    pub delete_at: i64,
    pub channel_id: String,
    pub owner_id: String,
    pub display_name: String,
    pub sort_order: i64,
    pub link_url: String,
}

/// What the integration routes keep.
#[derive(Clone, Debug, Default)]
pub(crate) struct Integrations {
    pub incoming: Vec<IncomingHook>,
    pub outgoing: Vec<OutgoingHook>,
    pub bookmarks: Vec<Bookmark>,
    /// (bot user id, owner user id).
    pub bot_owners: Vec<(String, String)>,
    /// A licence is installed (an Enterprise or Professional server).
    pub licensed: bool,
}

/// The simulated Mattermost's data. Build one with [`World::new`] and the seeding methods, or take
/// [`World::demo`]; then hand it to [`crate::Sim::start`].
#[derive(Clone, Debug)]
pub struct World {
    pub(crate) seed: u64,
    rng: Rng,
    clock: i64,
    pub(crate) teams: Vec<Team>,
    pub(crate) users: Vec<User>,
    pub(crate) channels: Vec<Channel>,
    pub(crate) team_members: Vec<TeamMember>,
    pub(crate) channel_members: Vec<ChannelMember>,
    pub(crate) posts: Vec<Post>,
    post_index: HashMap<String, usize>,
    pub(crate) reactions: Vec<Reaction>,
    pub(crate) files: Vec<FileInfo>,
    /// `flagged_post` preferences: (user id, post id), in the order they were saved.
    pub(crate) flagged: Vec<(String, String)>,
    pub(crate) thread_memberships: Vec<ThreadMembership>,
    pub(crate) drafts: Vec<Draft>,
    pub(crate) emoji: Vec<Emoji>,
    pub(crate) statuses: Vec<Status>,
    /// token → user id
    pub(crate) tokens: Vec<(String, String)>,
    pub(crate) expired_tokens: HashSet<String>,
    pub(crate) settings: Settings,
    /// Threads rows as they were when their root was deleted (`deleteThread` only sets
    /// ThreadDeleteAt, keeping ReplyCount, LastReplyAt and Participants).
    thread_snapshots: HashMap<String, ThreadInfo>,
    /// What the write routes keep (pending post ids, preferences, reminders, settings).
    pub(crate) writes: WriteState,
    /// Webhooks, bots' owners, channel bookmarks, the licence (the operation gateway's routes).
    pub(crate) integrations: Integrations,
    /// Changes the hub has yet to publish on the WebSocket (`world/happened.rs`).
    happenings: Vec<Happened>,
}

impl World {
    /// An empty world whose ids are generated deterministically from `seed`.
    pub fn new(seed: u64) -> World {
        World {
            seed,
            rng: Rng::new(seed),
            clock: CLOCK_BASE,
            teams: Vec::new(),
            users: Vec::new(),
            channels: Vec::new(),
            team_members: Vec::new(),
            channel_members: Vec::new(),
            posts: Vec::new(),
            post_index: HashMap::new(),
            reactions: Vec::new(),
            files: Vec::new(),
            flagged: Vec::new(),
            thread_memberships: Vec::new(),
            drafts: Vec::new(),
            emoji: Vec::new(),
            statuses: Vec::new(),
            tokens: Vec::new(),
            expired_tokens: HashSet::new(),
            thread_snapshots: HashMap::new(),
            settings: Settings {
                enable_oauth_service_provider: true,
                enable_dynamic_client_registration: false,
                release: PINNED_RELEASE.to_string(),
                enable_custom_emoji: true,
                allow_synced_drafts: true,
                collapsed_threads: "always_on".to_string(),
                thread_auto_follow: true,
            },
            writes: WriteState::default(),
            integrations: Integrations::default(),
            happenings: Vec::new(),
        }
    }

    fn new_id(&mut self) -> String {
        new_id(&mut self.rng)
    }

    /// The next tick of the logical clock used for the creation times of non-post entities.
    fn tick(&mut self) -> i64 {
        self.clock += 1000;
        self.clock
    }

    /// A new id from the world's generator (for rows the routes build themselves).
    pub(crate) fn fresh_id(&mut self) -> String {
        self.new_id()
    }

    /// A fresh id and creation time, for a row created through the API.
    pub(crate) fn new_row(&mut self) -> (String, i64) {
        (self.new_id(), self.tick())
    }
}
