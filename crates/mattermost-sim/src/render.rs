//! JSON shapes of the real server's models (`model.User`, `model.Post`, `model.PostList`, ...),
//! with the field names and order of their Go struct tags.

use serde_json::{Map, Value, json};

use crate::world::{
    Channel, ChannelMember, Emoji, FileInfo, Post, Reaction, Status, Team, TeamMember, User, World,
};

/// `model.CurrentVersion` of the simulated server.
pub const CURRENT_VERSION: &str = crate::world::PINNED_RELEASE;
pub const BUILD_NUMBER: &str = "11.6.0";
pub const BUILD_HASH: &str = "5f3b2a9c1d7e4b6a8c0d2e4f6a8b0c1d3e5f7a9b";
pub const CONFIG_HASH: &str = "c0f1e2d3a4b5968778695a4b3c2d1e0f";

/// `model.Etag(parts...)`: the current version followed by `.part` for each part.
pub fn etag(parts: &[String]) -> String {
    let mut s = CURRENT_VERSION.to_string();
    for p in parts {
        s.push('.');
        s.push_str(p);
    }
    s
}

/// `model.User.Timezone`: automatic (as the web app sets it first) until the user chose a zone.
fn timezone(u: &User) -> Value {
    if u.manual_timezone.is_empty() {
        json!({"automaticTimezone": "", "manualTimezone": "", "useAutomaticTimezone": "true"})
    } else {
        json!({"automaticTimezone": "", "manualTimezone": u.manual_timezone, "useAutomaticTimezone": "false"})
    }
}

/// A user as another user sees it (sanitized), or the full record for oneself.
pub fn user(u: &User, is_self: bool) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), json!(u.id));
    m.insert("create_at".into(), json!(u.create_at));
    m.insert("update_at".into(), json!(u.update_at));
    m.insert("delete_at".into(), json!(u.delete_at));
    m.insert("username".into(), json!(u.username));
    m.insert("auth_data".into(), json!(""));
    m.insert("auth_service".into(), json!(""));
    m.insert("email".into(), json!(u.email));
    if is_self {
        m.insert("email_verified".into(), json!(true));
    }
    m.insert("nickname".into(), json!(u.nickname));
    m.insert("first_name".into(), json!(u.first_name));
    m.insert("last_name".into(), json!(u.last_name));
    m.insert("position".into(), json!(u.position));
    m.insert("roles".into(), json!(u.roles));
    if is_self {
        m.insert(
            "notify_props".into(),
            json!({"channel": "true", "comments": "never", "desktop": "mention", "desktop_sound": "true",
                   "email": "true", "first_name": "false", "mention_keys": "", "push": "mention",
                   "push_status": "away"}),
        );
        m.insert("last_password_update".into(), json!(u.create_at));
    }
    m.insert("last_picture_update".into(), json!(0));
    if is_self {
        m.insert("failed_attempts".into(), json!(0));
    }
    m.insert("locale".into(), json!("en"));
    m.insert("timezone".into(), timezone(u));
    if is_self {
        m.insert("mfa_active".into(), json!(false));
    }
    if u.is_bot {
        m.insert("is_bot".into(), json!(true));
        m.insert("bot_description".into(), json!(u.bot_description));
    }
    m.insert("disable_welcome_email".into(), json!(false));
    if !u.props.is_empty() {
        m.insert("props".into(), json!(u.props));
    }
    if !u.remote_id.is_empty() {
        m.insert("remote_id".into(), json!(u.remote_id));
    }
    Value::Object(m)
}

/// A `model.User` with only its id set, as thread participants are sent without `extended`.
pub fn bare_user(id: &str) -> Value {
    json!({
        "id": id, "create_at": 0, "update_at": 0, "delete_at": 0, "username": "", "auth_data": "",
        "auth_service": "", "email": "", "nickname": "", "first_name": "", "last_name": "",
        "position": "", "roles": "", "locale": "", "timezone": null, "disable_welcome_email": false
    })
}

pub fn team(t: &Team) -> Value {
    json!({
        "id": t.id,
        "create_at": t.create_at,
        "update_at": t.update_at,
        "delete_at": t.delete_at,
        "display_name": t.display_name,
        "name": t.name,
        "description": "",
        "email": "",
        "type": if t.open { "O" } else { "I" },
        "company_name": "",
        "allowed_domains": "",
        "invite_id": "",
        "allow_open_invite": t.open,
        "last_team_icon_update": 0,
        "scheme_id": null,
        "group_constrained": null,
        "policy_id": null,
        "cloud_limits_archived": false
    })
}

pub fn team_member(m: &TeamMember, admin: bool) -> Value {
    json!({
        "team_id": m.team_id,
        "user_id": m.user_id,
        "roles": if admin { "team_user team_admin" } else { "team_user" },
        "delete_at": m.delete_at,
        "scheme_guest": false,
        "scheme_user": true,
        "scheme_admin": admin,
        "explicit_roles": "",
        "create_at": m.create_at
    })
}

pub fn channel(c: &Channel) -> Value {
    json!({
        "id": c.id,
        "create_at": c.create_at,
        "update_at": c.update_at,
        "delete_at": c.delete_at,
        "team_id": c.team_id,
        "type": c.kind,
        "display_name": c.display_name,
        "name": c.name,
        "header": c.header,
        "purpose": c.purpose,
        "last_post_at": c.last_post_at,
        "total_msg_count": c.total_msg_count,
        "extra_update_at": 0,
        "creator_id": c.creator_id,
        "scheme_id": null,
        "props": null,
        "group_constrained": null,
        "shared": null,
        "total_msg_count_root": c.total_msg_count_root,
        "policy_id": null,
        "last_root_post_at": c.last_root_post_at
    })
}

/// A member as `ChannelMember.SanitizeForCurrentUser` leaves it for `viewer`: another user's
/// `last_viewed_at` and `last_update_at` are -1.
pub fn channel_member_for(m: &ChannelMember, viewer: &str) -> Value {
    let mut v = channel_member(m);
    if m.user_id != viewer
        && let Some(o) = v.as_object_mut()
    {
        o.insert("last_viewed_at".into(), json!(-1));
        o.insert("last_update_at".into(), json!(-1));
    }
    v
}

pub fn channel_member(m: &ChannelMember) -> Value {
    json!({
        "channel_id": m.channel_id,
        "user_id": m.user_id,
        "roles": if m.admin { "channel_user channel_admin" } else { "channel_user" },
        "last_viewed_at": m.last_viewed_at,
        "msg_count": m.msg_count,
        "mention_count": m.mention_count,
        "mention_count_root": m.mention_count_root,
        "urgent_mention_count": 0,
        "msg_count_root": m.msg_count_root,
        "notify_props": {
            "channel_auto_follow_threads": "off", "desktop": "default", "email": "default",
            "ignore_channel_mentions": "default", "mark_unread": m.mark_unread, "push": "default"
        },
        "last_update_at": m.last_update_at,
        "scheme_guest": false,
        "scheme_user": true,
        "scheme_admin": m.admin,
        "explicit_roles": ""
    })
}

/// A PNG's width and height from its IHDR chunk.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
    let h = u32::from_be_bytes([bytes[20], bytes[21], bytes[22], bytes[23]]);
    Some((w, h))
}

/// A `model.FileInfo`; an image carries `width`, `height` and `has_preview_image` (omitted when
/// zero, as their `omitempty` tags do).
pub fn file_info(f: &FileInfo) -> Value {
    let mut v = file_info_base(f);
    if let (Some((w, h)), Some(o)) = (png_size(&f.content), v.as_object_mut()) {
        o.insert("width".into(), json!(w));
        o.insert("height".into(), json!(h));
        o.insert("has_preview_image".into(), json!(true));
    }
    v
}

fn file_info_base(f: &FileInfo) -> Value {
    let mut v = json!({
        "id": f.id,
        "user_id": f.creator_id,
        "post_id": f.post_id,
        "channel_id": f.channel_id,
        "create_at": f.create_at,
        "update_at": f.update_at,
        "delete_at": f.delete_at,
        "name": f.name,
        "extension": f.extension,
        "size": f.content.len(),
        "mime_type": f.mime_type,
        "mini_preview": null,
        "remote_id": "",
        "archived": false
    });
    // `post_id` is `omitempty`: a file not attached yet has none.
    if f.post_id.is_empty()
        && let Some(m) = v.as_object_mut()
    {
        m.remove("post_id");
    }
    v
}

pub fn reaction(r: &Reaction) -> Value {
    json!({
        "user_id": r.user_id,
        "post_id": r.post_id,
        "emoji_name": r.emoji_name,
        "create_at": r.create_at,
        "update_at": r.create_at,
        "delete_at": 0,
        "remote_id": "",
        "channel_id": r.channel_id
    })
}

pub fn emoji(e: &Emoji) -> Value {
    json!({
        "id": e.id,
        "creator_id": e.creator_id,
        "name": e.name,
        "create_at": e.create_at,
        "update_at": e.create_at,
        "delete_at": 0
    })
}

pub fn status(s: &Status) -> Value {
    json!({
        "user_id": s.user_id,
        "status": s.status,
        "manual": s.manual,
        "last_activity_at": s.last_activity_at,
        "dnd_end_time": s.dnd_end_time
    })
}

/// Options for rendering posts in a list.
#[derive(Clone, Copy, Default)]
pub struct PostOpts<'a> {
    /// Collapsed reply threads: root posts carry `participants`, `last_reply_at`, `is_following`.
    pub crt: bool,
    /// Expand participants to full users (`collapsedThreadsExtended`).
    pub extended: bool,
    /// The reader, for `is_following`.
    pub viewer: Option<&'a str>,
}

/// A post as `PreparePostForClient` sends it: `metadata` with its files and reactions.
pub fn post(w: &World, p: &Post, opts: PostOpts) -> Value {
    let root = if p.root_id.is_empty() {
        p.id.as_str()
    } else {
        p.root_id.as_str()
    };
    let info = if p.original_id.is_empty() {
        w.thread_info(root)
    } else {
        None
    };
    let reply_count = info.as_ref().map(|i| i.reply_count).unwrap_or(0);
    let mut m = Map::new();
    m.insert("id".into(), json!(p.id));
    m.insert("create_at".into(), json!(p.create_at));
    m.insert("update_at".into(), json!(p.update_at));
    m.insert("edit_at".into(), json!(p.edit_at));
    m.insert("delete_at".into(), json!(p.delete_at));
    m.insert("is_pinned".into(), json!(p.is_pinned));
    m.insert("user_id".into(), json!(p.user_id));
    m.insert("channel_id".into(), json!(p.channel_id));
    m.insert("root_id".into(), json!(p.root_id));
    m.insert("original_id".into(), json!(p.original_id));
    m.insert("message".into(), json!(p.message));
    m.insert("type".into(), json!(p.kind));
    m.insert("props".into(), Value::Object(p.props.clone()));
    m.insert("hashtags".into(), json!(p.hashtags));
    m.insert(
        "file_ids".into(),
        if p.file_ids.is_empty() {
            Value::Null
        } else {
            json!(p.file_ids)
        },
    );
    m.insert("pending_post_id".into(), json!(""));
    if p.has_reactions {
        m.insert("has_reactions".into(), json!(true));
    }
    m.insert("reply_count".into(), json!(reply_count));
    let crt_root = opts.crt && p.root_id.is_empty();
    if crt_root {
        let info = info.clone();
        m.insert(
            "last_reply_at".into(),
            json!(info.as_ref().map(|i| i.last_reply_at).unwrap_or(0)),
        );
        // a root without a Threads row has no participants (null); is_following is omitted
        // without a membership (`IsFollowing *bool` with omitempty)
        let participants: Value = match info {
            Some(i) => Value::Array(
                i.participants
                    .iter()
                    .map(|id| {
                        if opts.extended {
                            w.user_by_id(id)
                                .map(|u| user(u, false))
                                .unwrap_or_else(|| bare_user(id))
                        } else {
                            bare_user(id)
                        }
                    })
                    .collect(),
            ),
            None => Value::Null,
        };
        m.insert("participants".into(), participants);
        if let Some(t) = opts.viewer.and_then(|v| w.thread_membership(v, &p.id)) {
            m.insert("is_following".into(), json!(t.following));
        }
    } else {
        m.insert("last_reply_at".into(), json!(0));
        m.insert("participants".into(), Value::Null);
    }
    let mut meta = Map::new();
    let files: Vec<Value> = w
        .files
        .iter()
        .filter(|f| f.post_id == p.id && (f.delete_at == 0 || p.delete_at != 0))
        .map(file_info)
        .collect();
    if !files.is_empty() {
        meta.insert("files".into(), Value::Array(files));
    }
    let reactions: Vec<Value> = w
        .reactions
        .iter()
        .filter(|r| r.post_id == p.id)
        .map(reaction)
        .collect();
    if !reactions.is_empty() {
        meta.insert("reactions".into(), Value::Array(reactions));
    }
    m.insert("metadata".into(), Value::Object(meta));
    Value::Object(m)
}

/// `model.PostList` JSON. `posts` holds every id in `extra` plus those in `order`.
pub struct PostListOut {
    pub order: Vec<String>,
    pub extra: Vec<String>,
    pub next_post_id: String,
    pub prev_post_id: String,
    pub has_next: Option<bool>,
}

impl PostListOut {
    pub fn new(order: Vec<String>) -> PostListOut {
        PostListOut {
            order,
            extra: Vec::new(),
            next_post_id: String::new(),
            prev_post_id: String::new(),
            has_next: None,
        }
    }

    /// All ids of the `posts` map (order first, then the extras), without duplicates.
    pub fn all_ids(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        self.order
            .iter()
            .chain(self.extra.iter())
            .filter(|id| seen.insert((*id).clone()))
            .cloned()
            .collect()
    }

    pub fn render(&self, w: &World, opts: PostOpts) -> Value {
        let mut posts = Map::new();
        for id in self.all_ids() {
            if let Some(p) = w.post_by_id(&id) {
                posts.insert(id.clone(), post(w, p, opts));
            }
        }
        let mut m = Map::new();
        m.insert("order".into(), json!(self.order));
        m.insert("posts".into(), Value::Object(posts));
        m.insert("next_post_id".into(), json!(self.next_post_id));
        m.insert("prev_post_id".into(), json!(self.prev_post_id));
        if let Some(h) = self.has_next {
            m.insert("has_next".into(), json!(h));
        }
        m.insert("first_inaccessible_post_time".into(), json!(0));
        Value::Object(m)
    }

    /// `PostList.Etag()`: `Etag(order[0], id of the newest UpdateAt, that UpdateAt)`.
    pub fn etag(&self, w: &World) -> String {
        let mut id = "0".to_string();
        let mut t = 0i64;
        for pid in self.all_ids() {
            if let Some(p) = w.post_by_id(&pid)
                && (p.update_at > t || (p.update_at == t && p.id > id))
            {
                t = p.update_at;
                id = p.id.clone();
            }
        }
        let first = self.order.first().cloned().unwrap_or_default();
        etag(&[first, id, t.to_string()])
    }
}
