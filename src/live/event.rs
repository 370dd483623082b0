//! Mattermost's WebSocket events, decoded (`model.WebSocketEvent`: `event`, `data`, `broadcast`,
//! `seq`; a post travels as a JSON string inside `data`), and what each one changes for the person
//! who hears it: which channel and thread, whether their inbox (what they have unread or are
//! mentioned in) moved, whether their list of channels did.
//!
//! The person only hears what Mattermost sends their own socket, and Mattermost sends a channel's
//! events only to its members (`WebConn.ShouldSendEvent`), so nothing here can reach a person about
//! a channel they cannot read. What the person did themselves (their own post, reaction, edit) is
//! not news to them and changes nothing here.

use serde::Deserialize;
use serde_json::{Map, Value};

/// One frame off the socket.
#[derive(Debug, Deserialize)]
pub struct Frame {
    #[serde(default)]
    pub event: Option<String>,
    #[serde(default)]
    pub data: Map<String, Value>,
    #[serde(default)]
    pub broadcast: Option<Broadcast>,
    #[serde(default)]
    pub seq: Option<i64>,
    /// Set on the answer to an action the client sent (`ping`), not on an event.
    #[serde(default)]
    pub seq_reply: Option<i64>,
}

/// `model.WebsocketBroadcast` (the fields read here).
#[derive(Debug, Default, Deserialize)]
pub struct Broadcast {
    #[serde(default)]
    pub channel_id: String,
    #[serde(default)]
    pub user_id: String,
}

/// The fields of a post read here (`model.Post`).
#[derive(Debug, Default, Deserialize)]
struct PostFields {
    #[serde(default)]
    id: String,
    #[serde(default)]
    channel_id: String,
    #[serde(default)]
    root_id: String,
    #[serde(default)]
    user_id: String,
    #[serde(default)]
    create_at: i64,
    #[serde(default)]
    update_at: i64,
}

/// The fields of a reaction read here (`model.Reaction`).
#[derive(Debug, Default, Deserialize)]
struct ReactionFields {
    #[serde(default)]
    post_id: String,
    #[serde(default)]
    user_id: String,
}

/// What an event changes for the person who hears it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Heard {
    /// The channel whose posts changed.
    pub channel: Option<String>,
    /// The thread (its root post's id) that changed.
    pub thread: Option<String>,
    /// Another post (a reply's own id) that changed, for a watch made on a reply.
    pub post: Option<String>,
    /// What the person has unread or is mentioned in may have changed.
    pub inbox: bool,
    /// The person's channels changed (one joined, a DM or group opened).
    pub list_changed: bool,
    /// The newest time the event shows of the channel's posts (for the gap fill).
    pub at: i64,
}

impl Heard {
    /// Whether the event changed nothing the person watches.
    pub fn is_nothing(&self) -> bool {
        self.channel.is_none()
            && self.thread.is_none()
            && self.post.is_none()
            && !self.inbox
            && !self.list_changed
    }
}

fn post_of(data: &Map<String, Value>) -> Option<PostFields> {
    serde_json::from_str(data.get("post")?.as_str()?).ok()
}

/// What `frame` changes for the person `me` (their user id).
pub fn heard(frame: &Frame, me: &str) -> Heard {
    let Some(event) = frame.event.as_deref() else {
        return Heard::default();
    };
    let broadcast = frame.broadcast.as_ref();
    let channel_of_broadcast = broadcast
        .map(|b| b.channel_id.clone())
        .filter(|c| !c.is_empty());
    match event {
        "posted" | "post_edited" | "post_deleted" => {
            let Some(p) = post_of(&frame.data) else {
                return Heard::default();
            };
            if p.user_id == me {
                return Heard::default();
            }
            let root = if p.root_id.is_empty() {
                p.id.clone()
            } else {
                p.root_id.clone()
            };
            Heard {
                channel: Some(p.channel_id.clone()).filter(|c| !c.is_empty()),
                thread: Some(root),
                post: (!p.root_id.is_empty()).then(|| p.id.clone()),
                // a new post by someone else is unread for the person (and may mention them)
                inbox: event == "posted",
                list_changed: false,
                at: p.update_at.max(p.create_at),
            }
        }
        "reaction_added" | "reaction_removed" => {
            let reaction: ReactionFields = frame
                .data
                .get("reaction")
                .and_then(Value::as_str)
                .and_then(|s| serde_json::from_str(s).ok())
                .unwrap_or_default();
            if reaction.user_id == me || reaction.post_id.is_empty() {
                return Heard::default();
            }
            Heard {
                channel: channel_of_broadcast,
                // the reacted post: a thread's root, or a reply watched by its own id
                thread: Some(reaction.post_id.clone()),
                post: Some(reaction.post_id),
                ..Heard::default()
            }
        }
        // the person's read state moved (here or on another device)
        "channel_viewed"
        | "multiple_channels_viewed"
        | "post_unread"
        | "thread_read_changed"
        | "thread_updated"
        | "thread_follow_changed"
        | "preferences_changed" => Heard {
            inbox: true,
            ..Heard::default()
        },
        "user_added" => {
            let added = frame
                .data
                .get("user_id")
                .and_then(Value::as_str)
                .unwrap_or_default();
            Heard {
                inbox: added == me,
                list_changed: added == me,
                ..Heard::default()
            }
        }
        "user_removed" => {
            let removed = frame
                .data
                .get("user_id")
                .and_then(Value::as_str)
                .or_else(|| broadcast.map(|b| b.user_id.as_str()))
                .unwrap_or_default();
            Heard {
                inbox: removed == me,
                list_changed: removed == me,
                ..Heard::default()
            }
        }
        "direct_added" | "group_added" | "channel_created" | "added_to_team" | "leave_team"
        | "channel_deleted" | "channel_restored" => Heard {
            inbox: true,
            list_changed: true,
            ..Heard::default()
        },
        _ => Heard::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn frame(v: Value) -> Frame {
        serde_json::from_value(v).expect("a frame")
    }

    #[test]
    fn a_reply_by_someone_else_changes_its_channel_thread_and_inbox_and_ones_own_changes_nothing() {
        let post = json!({"id": "r1", "channel_id": "c1", "root_id": "root", "user_id": "bob", "create_at": 5, "update_at": 5});
        let f = frame(json!({
            "event": "posted",
            "data": {"post": post.to_string(), "channel_type": "O"},
            "broadcast": {"channel_id": "c1", "omit_users": null, "user_id": "", "team_id": ""},
            "seq": 3,
        }));
        let h = heard(&f, "alice");
        assert_eq!(h.channel.as_deref(), Some("c1"));
        assert_eq!(h.thread.as_deref(), Some("root"));
        assert_eq!(h.post.as_deref(), Some("r1"));
        assert!(h.inbox && !h.list_changed);
        assert_eq!(h.at, 5);
        assert!(heard(&f, "bob").is_nothing(), "bob wrote it");
    }

    #[test]
    fn views_move_the_inbox_and_being_added_changes_the_list() {
        let f = frame(
            json!({"event": "multiple_channels_viewed", "data": {"channel_times": {"c": 1}}, "seq": 1}),
        );
        assert!(heard(&f, "alice").inbox);
        let f = frame(
            json!({"event": "user_added", "data": {"user_id": "alice", "team_id": "t"}, "broadcast": {"channel_id": "c"}, "seq": 1}),
        );
        assert!(heard(&f, "alice").list_changed);
        assert!(!heard(&f, "bob").list_changed);
        let f = frame(json!({"event": "typing", "data": {}, "seq": 1}));
        assert!(heard(&f, "alice").is_nothing());
    }
}
