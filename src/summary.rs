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
                (Some(name), _) => json!(name),
                (None, Some(id)) => usernames
                    .get(id)
                    .map(|n| json!(n))
                    .unwrap_or_else(|| json!(id)),
                (None, None) => Value::Null,
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
