//! Posts as they are made: a root post, a reply or a system message as the seeding API makes them,
//! and what the create route saves (`App.CreatePost`, `SqlPostStore.Save`, `SaveMultiple`), with
//! the side effects on the channel's counts and those of SendNotifications (mentions, threads
//! followed); and reading a post back.

use serde_json::{Map, Value, json};

use super::Happened;
use super::{Post, User, World};

/// A post the create route has validated, ready to be saved.
#[derive(Clone, Debug)]
pub(crate) struct NewPost {
    pub channel_id: String,
    pub user_id: String,
    pub root_id: String,
    pub create_at: i64,
    pub message: String,
    pub kind: String,
    pub props: Map<String, Value>,
    /// Already without duplicates (`Post.PreCommit`).
    pub file_ids: Vec<String>,
    pub is_pinned: bool,
    pub edit_at: i64,
    pub has_reactions: bool,
    pub pending_post_id: String,
}

/// The props of a system message, from (key, text) pairs.
pub(super) fn props(pairs: &[(&str, &str)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect()
}

/// `#word` hashtags of a message, space-separated, as the server stores them.
pub(crate) fn parse_hashtags(message: &str) -> String {
    let mut tags: Vec<String> = Vec::new();
    for word in message.split_whitespace() {
        let w = word.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '-');
        if let Some(rest) = w.strip_prefix('#')
            && rest.len() >= 2
            && rest.chars().next().is_some_and(|c| c.is_alphabetic())
            && rest
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
            && !tags.iter().any(|t| t == w)
        {
            tags.push(w.to_string());
        }
    }
    tags.join(" ")
}

/// The post types `model.Post.IsJoinLeaveMessage` names: saved without counting as messages.
const JOIN_LEAVE_TYPES: &[&str] = &[
    "system_join_leave",
    "system_add_remove",
    "system_join_channel",
    "system_leave_channel",
    "system_join_team",
    "system_leave_team",
    "system_add_to_channel",
    "system_remove_from_channel",
    "system_add_to_team",
    "system_remove_from_team",
];

/// `model.Post.IsJoinLeaveMessage`.
pub(crate) fn is_join_leave(kind: &str) -> bool {
    JOIN_LEAVE_TYPES.contains(&kind)
}

impl World {
    pub(crate) fn post_by_id(&self, id: &str) -> Option<&Post> {
        self.post_index.get(id).map(|&i| &self.posts[i])
    }

    pub(super) fn post_mut(&mut self, id: &str) -> Option<&mut Post> {
        match self.post_index.get(id) {
            Some(&i) => Some(&mut self.posts[i]),
            None => None,
        }
    }

    pub(super) fn insert_post(&mut self, post: Post) {
        self.post_index.insert(post.id.clone(), self.posts.len());
        self.posts.push(post);
    }

    /// When a post was written, in milliseconds (handy in tests: tools show times to the second).
    pub fn post_created(&self, post_id: &str) -> Option<i64> {
        self.post_by_id(post_id).map(|p| p.create_at)
    }

    /// The message of a post (handy in tests).
    pub fn post_message(&self, post_id: &str) -> Option<String> {
        self.post_by_id(post_id).map(|p| p.message.clone())
    }

    /// Ids of the live (not deleted) posts of a channel, oldest first (ties in insertion order).
    pub fn post_ids_in(&self, channel_id: &str) -> Vec<String> {
        let mut v: Vec<&Post> = self
            .posts
            .iter()
            .filter(|p| p.channel_id == channel_id && p.delete_at == 0)
            .collect();
        v.sort_by_key(|p| p.create_at);
        v.into_iter().map(|p| p.id.clone()).collect()
    }

    /// Ids of the edit-history rows of a post (copies of older versions, `original_id` = post).
    pub fn history_ids(&self, post_id: &str) -> Vec<String> {
        self.posts
            .iter()
            .filter(|p| p.original_id == post_id)
            .map(|p| p.id.clone())
            .collect()
    }
}

// ----- making posts ------------------------------------------------------------------------------

impl World {
    /// Sets a prop of a stored post as the server sets it for integrations (`from_webhook`,
    /// `override_username`, ...: what `App.CreateWebhookPost` and `CreateCommandPost` add).
    pub fn set_post_prop(&mut self, post_id: &str, name: &str, value: &str) {
        if let Some(p) = self.post_mut(post_id) {
            p.props
                .insert(name.to_string(), Value::String(value.to_string()));
        }
    }

    /// A root post in a channel at `create_at_ms`, with the side effects of `CreatePostAsUser`:
    /// the members it mentions get a mention, and the poster's channel is marked viewed (not for a
    /// bot).
    pub fn post(
        &mut self,
        channel_id: &str,
        user_id: &str,
        create_at_ms: i64,
        message: &str,
    ) -> String {
        let id = self.new_post(channel_id, user_id, "", create_at_ms, message, "");
        self.poster_views_channel(channel_id, user_id, false, create_at_ms);
        id
    }

    /// A system message (type `system_join_channel` and the like): excluded from search; join and
    /// leave types do not count in TotalMsgCount; nobody is mentioned and nothing is marked viewed.
    pub fn system_post(
        &mut self,
        channel_id: &str,
        user_id: &str,
        create_at_ms: i64,
        kind: &str,
        message: &str,
    ) -> String {
        self.new_post(channel_id, user_id, "", create_at_ms, message, kind)
    }

    /// A reply in the thread of `root_id` (a reply to a reply goes to the same thread). The root's
    /// UpdateAt moves to the reply's time. As SendNotifications does with ThreadAutoFollow, the
    /// thread's participants follow it (the replier, who has also seen it; the root's author; who
    /// the root and the reply mention), unless they stopped following it; a member mentioned in the
    /// reply gets an unread mention on it. Without collapsed threads the replier's channel is marked
    /// viewed as for a root post.
    pub fn reply(
        &mut self,
        root_id: &str,
        user_id: &str,
        create_at_ms: i64,
        message: &str,
    ) -> String {
        let Some(root) = self.post_by_id(root_id) else {
            return String::new();
        };
        let root_id = if root.root_id.is_empty() {
            root.id.clone()
        } else {
            root.root_id.clone()
        };
        let channel_id = root.channel_id.clone();
        let (root_author, root_mentions) = self
            .post_by_id(&root_id)
            .map(|p| (p.user_id.clone(), p.mentions.clone()))
            .unwrap_or_default();
        let id = self.new_post(&channel_id, user_id, &root_id, create_at_ms, message, "");
        if let Some(r) = self.post_mut(&root_id) {
            r.update_at = r.update_at.max(create_at_ms);
        }
        if self.settings.thread_auto_follow {
            let mentioned = self
                .post_by_id(&id)
                .map(|p| p.mentions.clone())
                .unwrap_or_default();
            let is_dm = self
                .channel_by_id(&channel_id)
                .is_some_and(|c| c.kind == "D");
            let mut participants: Vec<String> = vec![user_id.to_string()];
            if self.member(&channel_id, &root_author).is_some() {
                participants.push(root_author.clone());
            }
            if !is_dm {
                participants.extend(root_mentions);
            }
            participants.extend(mentioned.iter().cloned());
            participants.dedup();
            let mut seen: Vec<String> = Vec::new();
            for uid in participants {
                if seen.contains(&uid) {
                    continue;
                }
                seen.push(uid.clone());
                let increment = mentioned.contains(&uid);
                if !increment
                    && self
                        .thread_membership(&uid, &root_id)
                        .is_some_and(|m| !m.following)
                {
                    continue;
                }
                let m = self.membership_mut(&uid, &root_id);
                if !m.following || increment {
                    m.following = true;
                    if increment {
                        m.unread_mentions += 1;
                    }
                    m.last_updated = m.last_updated.max(create_at_ms);
                }
                if uid == user_id {
                    m.last_viewed = m.last_viewed.max(create_at_ms);
                    m.unread_mentions = 0;
                    m.last_updated = m.last_updated.max(create_at_ms);
                }
            }
        }
        self.poster_views_channel(&channel_id, user_id, true, create_at_ms);
        id
    }

    /// Insert a post the way `SqlPostStore.Save` and SendNotifications leave the store: the
    /// channel's LastPostAt and (for counted types) TotalMsgCount move, a bot's post carries
    /// `from_bot`, and the members it mentions get MentionCount + 1. Seeding out of time order is
    /// allowed: a member who already viewed the channel past this post counts it as read.
    fn new_post(
        &mut self,
        channel_id: &str,
        user_id: &str,
        root_id: &str,
        at: i64,
        message: &str,
        kind: &str,
    ) -> String {
        let id = self.new_id();
        let mut props = Map::new();
        if self.user_by_id(user_id).is_some_and(|u| u.is_bot) {
            props.insert("from_bot".to_string(), Value::String("true".to_string()));
        }
        let mentions = if kind.starts_with("system_") {
            Vec::new()
        } else {
            self.mentioned_by(channel_id, user_id, message)
        };
        let counted = !Self::is_join_leave(kind);
        self.insert_post(Post {
            id: id.clone(),
            create_at: at,
            update_at: at,
            edit_at: 0,
            delete_at: 0,
            is_pinned: false,
            user_id: user_id.to_string(),
            channel_id: channel_id.to_string(),
            root_id: root_id.to_string(),
            original_id: String::new(),
            message: message.to_string(),
            kind: kind.to_string(),
            props,
            hashtags: parse_hashtags(message),
            file_ids: Vec::new(),
            has_reactions: false,
            mentions: mentions.clone(),
        });
        if let Some(c) = self.channel_mut(channel_id) {
            c.last_post_at = c.last_post_at.max(at);
            if counted {
                c.total_msg_count += 1;
            }
            if root_id.is_empty() {
                c.last_root_post_at = c.last_root_post_at.max(at);
                if counted {
                    c.total_msg_count_root += 1;
                }
            }
        }
        let is_root = root_id.is_empty();
        for m in self
            .channel_members
            .iter_mut()
            .filter(|m| m.channel_id == channel_id)
        {
            let already_read = at <= m.last_viewed_at;
            if already_read {
                if counted {
                    m.msg_count += 1;
                    if is_root {
                        m.msg_count_root += 1;
                    }
                }
            } else if mentions.contains(&m.user_id) {
                // `SqlChannelStore.IncrementMentionCount(channel, users, isRoot, ...)`:
                // MentionCountRoot moves only for a root post.
                m.mention_count += 1;
                if is_root {
                    m.mention_count_root += 1;
                }
                m.last_update_at = m.last_update_at.max(at);
            }
        }
        self.happened(Happened::Posted {
            post_id: id.clone(),
        });
        id
    }

    /// `model.Post.IsJoinLeaveMessage`: these types do not count in TotalMsgCount. (It leaves out
    /// `system_add_remove`, which the free [`is_join_leave`] names.)
    fn is_join_leave(kind: &str) -> bool {
        matches!(
            kind,
            "system_join_leave"
                | "system_join_channel"
                | "system_leave_channel"
                | "system_add_to_channel"
                | "system_remove_from_channel"
                | "system_join_team"
                | "system_leave_team"
                | "system_add_to_team"
                | "system_remove_from_team"
        )
    }

    /// Whether a post counts in the channel's TotalMsgCount (edit-history rows and join/leave
    /// messages do not).
    pub(super) fn counts_as_message(p: &Post) -> bool {
        p.original_id.is_empty() && !Self::is_join_leave(&p.kind)
    }

    /// Who SendNotifications mentions with a new post (the poster never counts, unlike a webhook).
    fn mentioned_by(&self, channel_id: &str, poster: &str, message: &str) -> Vec<String> {
        let Some(c) = self.channel_by_id(channel_id) else {
            return Vec::new();
        };
        let active_members: Vec<&User> = self
            .channel_members
            .iter()
            .filter(|m| m.channel_id == channel_id)
            .filter_map(|m| self.user_by_id(&m.user_id))
            .filter(|u| u.delete_at == 0)
            .collect();
        let mut ids: Vec<String> = match c.kind {
            "D" | "G" => active_members.iter().map(|u| u.id.clone()).collect(),
            _ => {
                let online = |id: &str| {
                    self.statuses
                        .iter()
                        .any(|s| s.user_id == id && s.status == "online")
                };
                let kw = crate::mentions::Keywords::for_members(
                    active_members
                        .iter()
                        .map(|u| (u.id.as_str(), u.username.as_str(), online(&u.id))),
                );
                kw.mentioned(message)
            }
        };
        ids.retain(|id| id != poster);
        ids
    }
}

// ----- what the create route saves ---------------------------------------------------------------

impl World {
    /// `SqlPostStore.Save` and what `App.CreatePost` does next: the post (a root with
    /// [`World::post`], a reply with [`World::reply`], so their side effects apply), its pending
    /// post id remembered, its files attached. When some file ids could not be attached, the post
    /// keeps the attached ones and is overwritten (UpdateAt `now`).
    pub(crate) fn save_new_post(&mut self, np: &NewPost, now: i64) -> String {
        let id = if np.root_id.is_empty() {
            self.post(&np.channel_id, &np.user_id, np.create_at, &np.message)
        } else {
            self.reply(&np.root_id, &np.user_id, np.create_at, &np.message)
        };
        if let Some(p) = self.post_mut(&id) {
            p.kind = np.kind.clone();
            p.props = np.props.clone();
            p.is_pinned = np.is_pinned;
            p.edit_at = np.edit_at;
            p.has_reactions = np.has_reactions;
        }
        if !np.pending_post_id.is_empty() {
            self.pending_set(&np.pending_post_id, &id, now);
        }
        if !np.file_ids.is_empty() {
            let attached = self.attach_files(&id, &np.channel_id, &np.user_id, &np.file_ids);
            let partial = attached.len() != np.file_ids.len();
            if let Some(p) = self.post_mut(&id) {
                p.file_ids = attached;
                if partial {
                    p.update_at = now;
                }
            }
        }
        id
    }

    /// A message saved by `App.CreatePost` without the user-facing side effects (system
    /// messages): the channel's LastPostAt moves up; join/leave types do not count as messages
    /// (`SqlPostStore.SaveMultiple`). Saved through [`World::system_post`]; should that count a
    /// join/leave message, the count is taken back here, so the rule holds either way.
    pub(crate) fn save_system_post(
        &mut self,
        channel_id: &str,
        user_id: &str,
        at: i64,
        kind: &str,
        message: &str,
        props: Map<String, Value>,
    ) -> String {
        let counts = |w: &World| {
            w.channel_by_id(channel_id)
                .map(|c| (c.total_msg_count, c.total_msg_count_root))
                .unwrap_or((0, 0))
        };
        let before = counts(self);
        let id = self.system_post(channel_id, user_id, at, kind, message);
        if let Some(p) = self.post_mut(&id) {
            p.props = props;
        }
        let after = counts(self);
        if is_join_leave(kind)
            && let Some(c) = self.channel_mut(channel_id)
        {
            c.total_msg_count -= after.0 - before.0;
            c.total_msg_count_root -= after.1 - before.1;
        }
        id
    }
}
