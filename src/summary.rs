//! How posts (and later other objects) are shown to a model: a summary, not Mattermost's full object.
//! A post is its id, time (RFC 3339 UTC), author's username, message (a long one cut, with its full
//! length), thread (root id, reply count), file ids and permalink.

use crate::mattermost::types;
use crate::time::rfc3339;
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// Messages longer than this many characters are cut in lists.
pub const MESSAGE_CUT: usize = 4000;

/// The user ids a summary of these posts needs usernames for.
pub fn authors<'a>(posts: impl IntoIterator<Item = &'a types::Post>) -> Vec<String> {
    posts
        .into_iter()
        .filter_map(|p| p.user_id.clone())
        .collect()
}

/// A post's permalink. `_redirect` lets Mattermost find the team, so no team lookup is needed.
pub fn permalink(base_url: &str, post_id: &str) -> String {
    format!("{base_url}/_redirect/pl/{post_id}")
}

/// The summary of a post; `cut` is the message length beyond which the message is cut.
pub fn post(
    p: &types::Post,
    usernames: &HashMap<String, String>,
    base_url: &str,
    cut: Option<usize>,
) -> Value {
    let mut out = Map::new();
    let id = p.id.clone().unwrap_or_default();
    out.insert("id".into(), json!(id));
    out.insert("time".into(), json!(rfc3339(p.create_at.unwrap_or(0))));
    let user = p.user_id.clone().unwrap_or_default();
    match usernames.get(&user) {
        Some(name) => out.insert("author".into(), json!(name)),
        None => out.insert("author_id".into(), json!(user)),
    };
    let message = p.message.clone().unwrap_or_default();
    let length = message.chars().count();
    match cut {
        Some(max) if length > max => {
            let shown: String = message.chars().take(max).collect();
            out.insert("message".into(), json!(shown));
            out.insert("message_length".into(), json!(length));
            out.insert("message_cut".into(), json!(true));
        }
        _ => {
            out.insert("message".into(), json!(message));
        }
    }
    if let Some(kind) = p.type_.as_deref().filter(|t| !t.is_empty()) {
        out.insert("type".into(), json!(kind));
    }
    if let Some(root) = p.root_id.as_deref().filter(|r| !r.is_empty()) {
        out.insert("root_id".into(), json!(root));
    }
    if let Some(n) = p.reply_count.filter(|n| *n > 0) {
        out.insert("reply_count".into(), json!(n));
    }
    if let Some(participants) = p.participants.as_ref().filter(|l| !l.is_empty()) {
        let names: Vec<Value> = participants
            .iter()
            .map(|u| match (&u.username, &u.id) {
                (Some(name), _) if !name.is_empty() => json!(name),

                (_, Some(id)) => usernames
                    .get(id)
                    .map(|n| json!(n))
                    .unwrap_or_else(|| json!(id)),
                (_, None) => Value::Null,
            })
            .filter(|v| !v.is_null())
            .collect();
        out.insert("participants".into(), Value::Array(names));
    }
    if let Some(files) = p.file_ids.as_ref().filter(|l| !l.is_empty()) {
        out.insert("file_ids".into(), json!(files));
    }
    if let Some(edited) = p.edit_at.filter(|t| *t > 0) {
        out.insert("edited".into(), json!(rfc3339(edited)));
    }
    if p.is_pinned == Some(true) {
        out.insert("pinned".into(), json!(true));
    }
    out.insert("permalink".into(), json!(permalink(base_url, &id)));
    Value::Object(out)
}

/// A person: id, username, name, nickname, position-free basics, bot and deactivated flags.
pub fn user(u: &types::User) -> Value {
    let name = [
        u.first_name.as_deref().unwrap_or(""),
        u.last_name.as_deref().unwrap_or(""),
    ]
    .join(" ");
    let mut out = Map::new();
    out.insert("id".into(), json!(u.id));
    out.insert("username".into(), json!(u.username));
    if !name.trim().is_empty() {
        out.insert("name".into(), json!(name.trim()));
    }
    if let Some(n) = u.nickname.as_deref().filter(|n| !n.is_empty()) {
        out.insert("nickname".into(), json!(n));
    }
    if let Some(e) = u.email.as_deref().filter(|e| !e.is_empty()) {
        out.insert("email".into(), json!(e));
    }
    if u.is_bot == Some(true) {
        out.insert("is_bot".into(), json!(true));
    }
    if u.delete_at.unwrap_or(0) > 0 {
        out.insert("deactivated".into(), json!(true));
    }
    Value::Object(out)
}

/// A team: id, name (its URL name), display name, whether anyone may join, description.
pub fn team(t: &types::Team) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(t.id));
    out.insert("name".into(), json!(t.name));
    out.insert("display_name".into(), json!(t.display_name));
    out.insert(
        "type".into(),
        json!(match t.type_.as_deref() {
            Some("O") => "open",
            Some("I") => "invite_only",
            _ => "unknown",
        }),
    );
    if let Some(d) = t.description.as_deref().filter(|d| !d.is_empty()) {
        out.insert("description".into(), json!(d));
    }
    if t.delete_at.unwrap_or(0) > 0 {
        out.insert("archived".into(), json!(true));
    }
    Value::Object(out)
}

/// A channel: id, name, display name, kind, team, purpose, archived flag, last post time.
/// `team_name` is the team's URL name when known.
pub fn channel(c: &types::Channel, team_name: Option<&str>) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(c.id));
    out.insert("name".into(), json!(c.name));
    out.insert("display_name".into(), json!(c.display_name));
    out.insert("type".into(), json!(crate::names::channel_kind(c)));
    if let Some(t) = c.team_id.as_deref().filter(|t| !t.is_empty()) {
        out.insert("team_id".into(), json!(t));
    }
    if let Some(t) = team_name {
        out.insert("team".into(), json!(t));
    }
    if let Some(p) = c.purpose.as_deref().filter(|p| !p.is_empty()) {
        out.insert("purpose".into(), json!(p));
    }
    if let Some(h) = c.header.as_deref().filter(|h| !h.is_empty()) {
        out.insert("header".into(), json!(h));
    }
    if c.delete_at.unwrap_or(0) > 0 {
        out.insert("archived".into(), json!(true));
    }
    if let Some(t) = c.last_post_at.filter(|t| *t > 0) {
        out.insert("last_post".into(), json!(rfc3339(t)));
    }
    Value::Object(out)
}

/// How many posts of a channel the user has not read: the channel's total less the member's count.
pub fn unread_posts(c: &types::Channel, m: &types::ChannelMember) -> i64 {
    (c.total_msg_count.unwrap_or(0) - m.msg_count.unwrap_or(0)).max(0)
}

/// One of the user's channels: [`channel`], with a direct message named by the other person
/// (`display_name` `@bob`, `with` `bob`), and, from the user's membership, the unread posts, the
/// mentions and when the user last viewed it.
pub fn my_channel(
    c: &types::Channel,
    team_name: Option<&str>,
    with: Option<&str>,
    member: Option<&types::ChannelMember>,
) -> Value {
    let mut v = channel(c, team_name);
    if let Some(out) = v.as_object_mut() {
        if let Some(name) = with {
            out.insert("display_name".into(), json!(format!("@{name}")));
            out.insert("with".into(), json!(name));
        }
        if let Some(m) = member {
            out.insert("unread".into(), json!(unread_posts(c, m)));
            out.insert("mentions".into(), json!(m.mention_count.unwrap_or(0)));
            if let Some(t) = m.last_viewed_at.filter(|t| *t > 0) {
                out.insert("last_viewed".into(), json!(rfc3339(t)));
            }
        }
    }
    v
}

/// A person's presence: who (id, username), `status` (online, away, dnd, offline), whether they set
/// it themselves, their last activity, when Do Not Disturb ends, and their custom status.
pub fn status(u: &types::User, s: Option<&types::Status>) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(u.id));
    out.insert("username".into(), json!(u.username));
    let presence = s.and_then(|s| s.status.as_deref()).unwrap_or("offline");
    out.insert("status".into(), json!(presence));
    out.insert(
        "set_by_user".into(),
        json!(s.and_then(|s| s.manual).unwrap_or(false)),
    );
    if let Some(t) = s.and_then(|s| s.last_activity_at).filter(|t| *t > 0) {
        out.insert("last_activity".into(), json!(rfc3339(t)));
    }
    if let Some(secs) = s.and_then(|s| s.dnd_end_time).filter(|t| *t > 0) {
        out.insert(
            "dnd_until".into(),
            json!(rfc3339(secs.saturating_mul(1000))),
        );
    }
    if let Some(custom) = custom_status(u) {
        out.insert("custom_status".into(), custom);
    }
    if u.delete_at.unwrap_or(0) > 0 {
        out.insert("deactivated".into(), json!(true));
    }
    Value::Object(out)
}

/// The custom status a person set (`props.customStatus`, a JSON text): emoji, text and when it ends.
fn custom_status(u: &types::User) -> Option<Value> {
    let raw = u.props.as_ref()?.get("customStatus")?.as_str()?;
    let parsed: Value = serde_json::from_str(raw).ok()?;
    let text = parsed["text"].as_str().unwrap_or("");
    let emoji = parsed["emoji"].as_str().unwrap_or("");
    if text.is_empty() && emoji.is_empty() {
        return None;
    }
    let mut out = Map::new();
    out.insert("text".into(), json!(text));
    if !emoji.is_empty() {
        out.insert("emoji".into(), json!(emoji));
    }
    if let Some(until) = parsed["expires_at"]
        .as_str()
        .filter(|t| !t.is_empty() && !t.starts_with("0001-"))
    {
        out.insert("until".into(), json!(until));
    }
    Some(Value::Object(out))
}

/// A channel as a post, thread, file or draft names it: `~name` for a team channel, `@username` for a
/// direct message (when the other person's username is known), the display name of a group message.
pub fn channel_label(c: &types::Channel, me: &str, usernames: &HashMap<String, String>) -> String {
    let name = c.name.as_deref().unwrap_or("");
    match c.type_.as_deref() {
        Some("D") => {
            let other = name.split("__").find(|id| *id != me).unwrap_or(me);
            match usernames.get(other) {
                Some(u) => format!("@{u}"),
                None => name.to_string(),
            }
        }
        Some("G") => c.display_name.clone().unwrap_or_default(),
        _ => format!("~{name}"),
    }
}

/// Adds where an item is: its channel's id and, when known, its label ([`channel_label`]).
pub fn with_channel(mut v: Value, channel_id: &str, label: Option<&str>) -> Value {
    if let Some(out) = v.as_object_mut() {
        out.insert("channel_id".into(), json!(channel_id));
        if let Some(l) = label {
            out.insert("channel".into(), json!(l));
        }
    }
    v
}

fn username_or_id(usernames: &HashMap<String, String>, id: &str) -> Value {
    usernames
        .get(id)
        .map(|n| json!(n))
        .unwrap_or_else(|| json!(id))
}

/// A followed thread: its root post ([`post`], cut), replies, last reply, participants by username,
/// and what is unread in it.
pub fn thread(t: &types::UserThread, usernames: &HashMap<String, String>, base_url: &str) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(t.id));
    out.insert("reply_count".into(), json!(t.reply_count.unwrap_or(0)));
    out.insert(
        "last_reply".into(),
        json!(rfc3339(t.last_reply_at.unwrap_or(0))),
    );
    if let Some(v) = t.last_viewed_at.filter(|v| *v > 0) {
        out.insert("last_viewed".into(), json!(rfc3339(v)));
    }
    out.insert(
        "unread_replies".into(),
        json!(t.unread_replies.unwrap_or(0)),
    );
    out.insert(
        "unread_mentions".into(),
        json!(t.unread_mentions.unwrap_or(0)),
    );
    let participants: Vec<Value> = t
        .participants
        .iter()
        .flatten()
        .filter_map(|u| u.id.as_deref())
        .map(|id| username_or_id(usernames, id))
        .collect();
    out.insert("participants".into(), Value::Array(participants));
    if let Some(root) = &t.post {
        let mut shown = post(root, usernames, base_url, Some(MESSAGE_CUT));
        if let Some(o) = shown.as_object_mut() {
            // The thread's own fields say these.
            o.remove("reply_count");
            o.remove("participants");
        }
        out.insert("root".into(), shown);
    }
    Value::Object(out)
}

/// A file: id, name, type, size, who posted it and when, the post it is attached to.
pub fn file(f: &types::FileInfo, usernames: &HashMap<String, String>, base_url: &str) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(f.id));
    out.insert("name".into(), json!(f.name));
    if let Some(e) = f.extension.as_deref().filter(|e| !e.is_empty()) {
        out.insert("extension".into(), json!(e));
    }
    if let Some(m) = f.mime_type.as_deref().filter(|m| !m.is_empty()) {
        out.insert("mime_type".into(), json!(m));
    }
    out.insert("size".into(), json!(f.size.unwrap_or(0)));
    out.insert("time".into(), json!(rfc3339(f.create_at.unwrap_or(0))));
    let user = f.user_id.clone().unwrap_or_default();
    match usernames.get(&user) {
        Some(name) => out.insert("author".into(), json!(name)),
        None => out.insert("author_id".into(), json!(user)),
    };
    if let Some(p) = f.post_id.as_deref().filter(|p| !p.is_empty()) {
        out.insert("post_id".into(), json!(p));
        out.insert("permalink".into(), json!(permalink(base_url, p)));
    }
    Value::Object(out)
}

/// A draft: where it is (its thread, when it is a reply), its message (a long one cut) and when it
/// was last changed. Drafts have no id of their own: `id` is the channel id, with `:` and the root
/// id for a reply's draft.
pub fn draft(d: &types::GetDraftsResponseItem) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(draft_id(d)));
    if let Some(root) = d.root_id.as_deref().filter(|r| !r.is_empty()) {
        out.insert("root_id".into(), json!(root));
    }
    let message = d.message.clone().unwrap_or_default();
    let length = message.chars().count();
    if length > MESSAGE_CUT {
        let shown: String = message.chars().take(MESSAGE_CUT).collect();
        out.insert("message".into(), json!(shown));
        out.insert("message_length".into(), json!(length));
        out.insert("message_cut".into(), json!(true));
    } else {
        out.insert("message".into(), json!(message));
    }
    if let Some(files) = d.file_ids.as_ref().filter(|f| !f.is_empty()) {
        out.insert("file_ids".into(), json!(files));
    }
    out.insert("updated".into(), json!(rfc3339(d.update_at.unwrap_or(0))));
    Value::Object(out)
}

/// The id [`draft`] shows for a draft.
pub fn draft_id(d: &types::GetDraftsResponseItem) -> String {
    let channel = d.channel_id.as_deref().unwrap_or("");
    match d.root_id.as_deref().filter(|r| !r.is_empty()) {
        Some(root) => format!("{channel}:{root}"),
        None => channel.to_string(),
    }
}

/// A custom emoji: id, name (as `:name:` is typed), who added it and when.
pub fn emoji(e: &types::Emoji, usernames: &HashMap<String, String>) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(e.id));
    out.insert("name".into(), json!(e.name));
    let creator = e.creator_id.clone().unwrap_or_default();
    match usernames.get(&creator) {
        Some(name) => out.insert("creator".into(), json!(name)),
        None => out.insert("creator_id".into(), json!(creator)),
    };
    out.insert("created".into(), json!(rfc3339(e.create_at.unwrap_or(0))));
    Value::Object(out)
}

/// A post's reactions, one item per emoji in the order each was first used (ties by name): how many
/// and who, by username, in the order they reacted.
pub fn reactions(rs: &[types::Reaction], usernames: &HashMap<String, String>) -> Vec<Value> {
    let mut sorted: Vec<&types::Reaction> = rs.iter().collect();
    sorted.sort_by(|a, b| {
        (a.create_at, &a.emoji_name, &a.user_id).cmp(&(b.create_at, &b.emoji_name, &b.user_id))
    });
    let mut groups: Vec<(String, i64, Vec<Value>)> = Vec::new();
    for r in sorted {
        let emoji = r.emoji_name.clone().unwrap_or_default();
        let who = username_or_id(usernames, r.user_id.as_deref().unwrap_or(""));
        match groups.iter_mut().find(|g| g.0 == emoji) {
            Some(g) => g.2.push(who),
            None => groups.push((emoji, r.create_at.unwrap_or(0), vec![who])),
        }
    }
    groups
        .into_iter()
        .map(|(emoji, first, users)| {
            json!({"emoji": emoji, "count": users.len(), "users": users, "first": rfc3339(first)})
        })
        .collect()
}
