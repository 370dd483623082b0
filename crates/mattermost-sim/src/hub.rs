//! The WebSocket hub: who is connected, what each connection was sent and still owes, and who
//! receives an event, as `server/channels/app/platform/web_hub.go` and `web_conn.go` keep them.
//!
//! - A connection (`WebConn`) has a `connection_id` and numbers the events it sends from 0
//!   (`WebConn.Sequence`, set on each event in `writePump`). The first event is `hello`, sent when
//!   the hub registers a connection that is not a reuse (`Hub.Start`, `webConnReg`; built by
//!   `createHelloMessage`: `server_version`, `connection_id`, `server_hostname`).
//! - Every event sent is also kept in the connection's dead queue, a ring of [`DEAD_QUEUE_SIZE`]
//!   (`deadQueueSize`, `addToDeadQueue`). Events for a connection whose socket is gone wait in its
//!   send queue, at most [`SEND_QUEUE_SIZE`] (`sendQueueSize`); a full queue closes and forgets the
//!   connection (`closeAndRemoveConn`).
//! - A socket that closes leaves its connection inactive (`Hub.Unregister`); the reaper forgets an
//!   inactive one whose last activity is older than [`INACTIVE_REAP_MS`] (`RemoveInactiveConnections`,
//!   every `inactiveConnReaperInterval`).
//! - A client reconnecting with `connection_id` and `sequence_number` takes over the inactive
//!   connection of that id (`CheckWebConn` → `RemoveInactiveByConnectionID`, `PopulateWebConnConfig`)
//!   without a new `hello` (its `ReuseCount` is above 0). Then `writePump`: when the sequence number is
//!   in the dead queue, everything from it is sent again (`isInDeadQueue`, `drainDeadQueue`); when the
//!   dead queue ends just before it, nothing was lost; otherwise (`hasMsgLoss`) the dead queue is
//!   cleared and the connection gets a new id, its sequence starts at 0 again and a `hello` with the
//!   new id goes first. An unknown id gets a new connection and a `hello` with a new id.
//! - Who receives an event: `WebConn.ShouldSendEvent` — a `connection_id` broadcast only that
//!   connection; `omit_connection_id` and `omit_users` are skipped; a `user_id` broadcast only that
//!   user; a `channel_id` broadcast only the channel's members (`GetAllChannelMembersForUser`); a
//!   `team_id` broadcast only the team's members; sanitized data never reaches a system admin, and
//!   sensitive data only them.

use std::collections::{BTreeMap, VecDeque};
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::sync::mpsc::UnboundedSender;

use crate::render::{self, BUILD_NUMBER, CONFIG_HASH, PostOpts};
use crate::world::{Happened, World};

/// `web_conn.go` `deadQueueSize`.
pub(crate) const DEAD_QUEUE_SIZE: usize = 128;
/// `web_conn.go` `sendQueueSize`.
pub(crate) const SEND_QUEUE_SIZE: usize = 256;
/// `web_hub.go` `inactiveConnReaperInterval` (5 minutes), the age past which an inactive
/// connection is forgotten.
pub(crate) const INACTIVE_REAP_MS: i64 = 5 * 60 * 1000;

/// `model.WebsocketBroadcast`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Broadcast {
    pub omit_users: Option<BTreeMap<String, bool>>,
    pub user_id: String,
    pub channel_id: String,
    pub team_id: String,
    pub connection_id: String,
    pub omit_connection_id: String,
    pub contains_sanitized_data: bool,
    pub contains_sensitive_data: bool,
}

impl Broadcast {
    fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("omit_users".into(), json!(self.omit_users));
        m.insert("user_id".into(), json!(self.user_id));
        m.insert("channel_id".into(), json!(self.channel_id));
        m.insert("team_id".into(), json!(self.team_id));
        m.insert("connection_id".into(), json!(self.connection_id));
        m.insert("omit_connection_id".into(), json!(self.omit_connection_id));
        if self.contains_sanitized_data {
            m.insert("contains_sanitized_data".into(), json!(true));
        }
        if self.contains_sensitive_data {
            m.insert("contains_sensitive_data".into(), json!(true));
        }
        Value::Object(m)
    }
}

/// `model.WebSocketEvent`: its type, data and broadcast (the sequence is set per connection).
#[derive(Clone, Debug)]
pub(crate) struct Event {
    pub event: &'static str,
    pub data: Map<String, Value>,
    pub broadcast: Broadcast,
}

impl Event {
    fn new(event: &'static str, broadcast: Broadcast) -> Event {
        Event {
            event,
            data: Map::new(),
            broadcast,
        }
    }

    fn add(mut self, key: &str, value: Value) -> Event {
        self.data.insert(key.to_string(), value);
        self
    }

    /// The event as `webSocketEventJSON` encodes it, with `seq`.
    pub(crate) fn encode(&self, seq: i64) -> String {
        json!({
            "event": self.event,
            "data": self.data,
            "broadcast": self.broadcast.to_json(),
            "seq": seq,
        })
        .to_string()
    }
}

/// What the socket task of an active connection is told to do.
#[derive(Debug)]
pub(crate) enum Out {
    /// Send this text frame.
    Text(String),
    /// Drop the socket without a close frame (a network cut or a dying server).
    Drop,
}

/// One `WebConn`.
struct Conn {
    key: u64,
    connection_id: String,
    user_id: String,
    /// The socket's task, while the socket is open (`Active`).
    socket: Option<UnboundedSender<Out>>,
    /// The next sequence number (`WebConn.Sequence`).
    sequence: i64,
    /// Events waiting for a socket (`send`, the active queue).
    queue: VecDeque<Event>,
    /// The events sent, with their sequence numbers (`deadQueue`, `deadQueuePointer`).
    dead: Vec<Option<(i64, Event)>>,
    dead_pointer: usize,
    reuse_count: u32,
    /// `lastUserActivityAt`: set when the connection was made.
    last_activity_ms: i64,
}

impl Conn {
    fn add_to_dead_queue(&mut self, seq: i64, event: Event) {
        self.dead[self.dead_pointer] = Some((seq, event));
        self.dead_pointer = (self.dead_pointer + 1) % DEAD_QUEUE_SIZE;
    }

    /// `_hasMsgLoss`: whether the dead queue does not end just before `seq`.
    fn has_msg_loss(&self, seq: i64) -> bool {
        let index = if self.dead_pointer == 0 {
            if self.dead[0].is_none() {
                return false;
            }
            DEAD_QUEUE_SIZE - 1
        } else {
            self.dead_pointer - 1
        };
        !matches!(&self.dead[index], Some((s, _)) if *s == seq - 1)
    }

    /// `_isInDeadQueue`.
    fn in_dead_queue(&self, seq: i64) -> Option<usize> {
        for (i, slot) in self.dead.iter().enumerate() {
            match slot {
                None => return None,
                Some((s, _)) if *s == seq => return Some(i),
                Some(_) => {}
            }
        }
        None
    }

    /// `drainDeadQueue`: the events from `index` on, in the order they were sent.
    fn dead_from(&self, index: usize) -> Vec<(i64, Event)> {
        let mut out = Vec::new();
        if self.dead[self.dead_pointer].is_none() {
            out.extend(
                self.dead[index..self.dead_pointer]
                    .iter()
                    .flatten()
                    .cloned(),
            );
            return out;
        }
        let mut at = index;
        loop {
            let Some(current) = self.dead[at].clone() else {
                break;
            };
            let old = current.0;
            out.push(current);
            at = (at + 1) % DEAD_QUEUE_SIZE;
            match &self.dead[at] {
                Some((new, _)) if old < *new => {}
                _ => break,
            }
        }
        out
    }

    /// Sends one event on the open socket: its sequence number, the dead queue, the frame
    /// (`writePump`).
    fn write(&mut self, event: Event) {
        let seq = self.sequence;
        self.sequence += 1;
        let text = event.encode(seq);
        self.add_to_dead_queue(seq, event);
        if let Some(tx) = &self.socket {
            let _ = tx.send(Out::Text(text));
        }
    }

    /// Sends again an event of the dead queue with its own sequence number (`writeMessage`).
    fn rewrite(&mut self, seq: i64, event: &Event) {
        self.sequence += 1;
        if let Some(tx) = &self.socket {
            let _ = tx.send(Out::Text(event.encode(seq)));
        }
    }
}

/// Faults a test puts on the WebSocket.
#[derive(Default)]
struct Faults {
    /// How many upgrade requests to refuse next.
    refuse_upgrades: u32,
    /// Refuse every upgrade until cleared.
    refuse_all: bool,
    /// Hold each event this long before it is delivered.
    delay: Option<Duration>,
}

/// The hub of a simulator.
#[derive(Default)]
pub(crate) struct Hub {
    conns: Vec<Conn>,
    next_key: u64,
    faults: Faults,
    /// Simulated time added to the wall clock for the reaper (`Sim::advance_websocket_clock`).
    offset_ms: i64,
    /// Connection ids ever handed out, for tests.
    pub handed_out: Vec<String>,
    /// Every upgrade request, kept apart from the REST request log (the spec has no WebSocket
    /// operation).
    pub upgrades: Vec<crate::log::LoggedRequest>,
}

/// How an upgrade went.
pub(crate) enum Registered {
    /// The connection's key, its socket's receiver was wired.
    Open(u64),
}

impl Hub {
    fn now(&self) -> i64 {
        crate::clock::now_ms() + self.offset_ms
    }

    /// Whether to refuse this upgrade (a fault).
    pub(crate) fn refuse_upgrade(&mut self) -> bool {
        if self.faults.refuse_all {
            return true;
        }
        if self.faults.refuse_upgrades > 0 {
            self.faults.refuse_upgrades -= 1;
            return true;
        }
        false
    }

    pub(crate) fn event_delay(&self) -> Option<Duration> {
        self.faults.delay
    }

    pub(crate) fn set_refuse(&mut self, next: u32, all: bool) {
        self.faults.refuse_upgrades = next;
        self.faults.refuse_all = all;
    }

    pub(crate) fn set_delay(&mut self, delay: Option<Duration>) {
        self.faults.delay = delay;
    }

    fn new_connection_id(&mut self, world: &mut World) -> String {
        let id = world.fresh_id();
        self.handed_out.push(id.clone());
        id
    }

    /// A socket opened by `user_id` (authenticated; "" while it still has to send
    /// `authentication_challenge`), asking to continue `connection_id` from `sequence`
    /// (`connectWebSocket`, `PopulateWebConnConfig`, `NewWebConn`, `HubRegister`, then the start of
    /// `writePump`).
    pub(crate) fn register(
        &mut self,
        world: &mut World,
        user_id: &str,
        asked: Option<(String, i64)>,
        socket: UnboundedSender<Out>,
    ) -> Registered {
        self.reap();
        let key = self.next_key;
        self.next_key += 1;
        let reused = match &asked {
            Some((id, seq)) if !user_id.is_empty() && !id.is_empty() => self
                .conns
                .iter()
                .position(|c| c.user_id == user_id && c.connection_id == *id && c.socket.is_none())
                .map(|i| (self.conns.remove(i), *seq)),
            _ => None,
        };
        let now = self.now();
        let mut conn = match reused {
            Some((old, seq)) => Conn {
                key,
                connection_id: old.connection_id,
                user_id: user_id.to_string(),
                socket: Some(socket),
                sequence: seq,
                queue: old.queue,
                dead: old.dead,
                dead_pointer: old.dead_pointer,
                reuse_count: old.reuse_count + 1,
                last_activity_ms: now,
            },
            None => Conn {
                key,
                connection_id: self.new_connection_id(world),
                user_id: user_id.to_string(),
                socket: Some(socket),
                sequence: 0,
                queue: VecDeque::new(),
                dead: vec![None; DEAD_QUEUE_SIZE],
                dead_pointer: 0,
                reuse_count: 0,
                last_activity_ms: now,
            },
        };
        if conn.reuse_count == 0 {
            if !conn.user_id.is_empty() {
                let hello = hello(world, &conn.user_id, &conn.connection_id);
                conn.queue.push_front(hello);
            }
        } else if conn.sequence != 0 {
            if let Some(index) = conn.in_dead_queue(conn.sequence) {
                for (seq, event) in conn.dead_from(index) {
                    conn.rewrite(seq, &event);
                }
            } else if conn.has_msg_loss(conn.sequence) {
                conn.dead = vec![None; DEAD_QUEUE_SIZE];
                conn.dead_pointer = 0;
                conn.connection_id = self.new_connection_id(world);
                conn.sequence = 0;
                let hello = hello(world, &conn.user_id, &conn.connection_id);
                conn.write(hello);
            }
        }
        while let Some(event) = conn.queue.pop_front() {
            conn.write(event);
        }
        self.conns.push(conn);
        Registered::Open(key)
    }

    /// `authentication_challenge` on a socket opened without a session: the connection now
    /// belongs to `user_id` and gets its `hello` (`websocket_router.go` ServeWebSocket →
    /// `HubRegister`).
    pub(crate) fn authenticate(&mut self, world: &World, key: u64, user_id: &str) {
        if let Some(c) = self.conns.iter_mut().find(|c| c.key == key) {
            c.user_id = user_id.to_string();
            let hello = hello(world, user_id, &c.connection_id);
            c.write(hello);
        }
    }

    /// The socket of `key` closed: its connection stays, inactive (`Hub.Unregister`).
    pub(crate) fn unregister(&mut self, key: u64) {
        if let Some(c) = self.conns.iter_mut().find(|c| c.key == key) {
            c.socket = None;
            if c.user_id.is_empty() {
                self.conns.retain(|c| c.key != key);
            }
        }
    }

    /// Drops every open socket, as a network cut does; the connections stay for a reconnect.
    pub(crate) fn drop_sockets(&mut self) -> usize {
        let mut n = 0;
        for c in &mut self.conns {
            if let Some(tx) = c.socket.take() {
                let _ = tx.send(Out::Drop);
                n += 1;
            }
        }
        n
    }

    /// A server restart: every socket dropped and every connection forgotten, so a reconnect gets a
    /// new connection id.
    pub(crate) fn restart(&mut self) {
        self.drop_sockets();
        self.conns.clear();
    }

    /// Time passes for the reaper.
    pub(crate) fn advance(&mut self, by: Duration) {
        self.offset_ms += by.as_millis() as i64;
        self.reap();
    }

    /// `RemoveInactiveConnections`.
    fn reap(&mut self) {
        let now = self.now();
        self.conns
            .retain(|c| c.socket.is_some() || now - c.last_activity_ms <= INACTIVE_REAP_MS);
    }

    /// How many sockets are open, per username-less user id.
    pub(crate) fn open_sockets(&self) -> Vec<String> {
        self.conns
            .iter()
            .filter(|c| c.socket.is_some())
            .map(|c| c.user_id.clone())
            .collect()
    }

    /// Delivers events to every connection that should receive them (`Hub.Start`, the
    /// `broadcast` case).
    pub(crate) fn deliver(&mut self, world: &World, events: &[Event]) {
        for event in events {
            let mut closed = Vec::new();
            for c in &mut self.conns {
                if c.user_id.is_empty() || !should_send(world, c, event) {
                    continue;
                }
                if c.socket.is_some() {
                    c.write(event.clone());
                } else if c.queue.len() >= SEND_QUEUE_SIZE {
                    closed.push(c.key);
                } else {
                    c.queue.push_back(event.clone());
                }
            }
            self.conns.retain(|c| !closed.contains(&c.key));
        }
    }
}

/// `WebConn.ShouldSendEvent`, for a connection of `c.user_id`.
fn should_send(world: &World, c: &Conn, event: &Event) -> bool {
    let b = &event.broadcast;
    let admin = world.user_by_id(&c.user_id).is_some_and(|u| u.is_admin());
    if b.contains_sanitized_data && admin {
        return false;
    }
    if b.contains_sensitive_data && !admin {
        return false;
    }
    if !b.connection_id.is_empty() {
        return c.connection_id == b.connection_id;
    }
    if c.connection_id == b.omit_connection_id {
        return false;
    }
    if !b.user_id.is_empty() {
        return c.user_id == b.user_id;
    }
    if let Some(omit) = &b.omit_users
        && omit.contains_key(&c.user_id)
    {
        return false;
    }
    if !b.channel_id.is_empty() {
        return world.member(&b.channel_id, &c.user_id).is_some();
    }
    if !b.team_id.is_empty() {
        return world.is_team_member(&b.team_id, &c.user_id);
    }
    true
}

/// `WebConn.createHelloMessage`.
fn hello(world: &World, user_id: &str, connection_id: &str) -> Event {
    Event::new(
        "hello",
        Broadcast {
            user_id: user_id.to_string(),
            ..Broadcast::default()
        },
    )
    .add(
        "server_version",
        json!(format!(
            "{}.{BUILD_NUMBER}.{CONFIG_HASH}.false",
            world.settings.release
        )),
    )
    .add("connection_id", json!(connection_id))
    .add("server_hostname", json!("mattermost-sim"))
}

/// A channel broadcast.
fn to_channel(channel_id: &str) -> Broadcast {
    Broadcast {
        channel_id: channel_id.to_string(),
        ..Broadcast::default()
    }
}

/// The events the server publishes for what happened (see [`Happened`]), as the world is now.
pub(crate) fn events_of(world: &World, happened: &[Happened]) -> Vec<Event> {
    let mut out = Vec::new();
    for h in happened {
        match h {
            Happened::Posted { post_id } => {
                let Some(p) = world.post_by_id(post_id) else {
                    continue;
                };
                let Some(c) = world.channel_by_id(&p.channel_id) else {
                    continue;
                };
                let post = render::post(world, p, no_opts());
                // SendNotifications: the channel's members get `posted` with the post as a JSON
                // string and the channel and sender named.
                let mut e = Event::new("posted", to_channel(&p.channel_id))
                    .add("channel_type", json!(c.kind))
                    .add("channel_display_name", json!(c.display_name))
                    .add("channel_name", json!(c.name))
                    .add(
                        "sender_name",
                        json!(format!("@{}", world.username(&p.user_id))),
                    )
                    .add("team_id", json!(c.team_id))
                    .add("set_online", json!(true))
                    .add("post", json!(post.to_string()));
                if !p.mentions.is_empty() {
                    // useAddMentionsHook: the mentioned user ids, JSON-encoded.
                    e = e.add("mentions", json!(json!(p.mentions).to_string()));
                }
                out.push(e);
            }
            Happened::PostEdited { post_id } => {
                let Some(p) = world.post_by_id(post_id) else {
                    continue;
                };
                let post = render::post(world, p, no_opts());
                out.push(
                    Event::new("post_edited", to_channel(&p.channel_id))
                        .add("post", json!(post.to_string())),
                );
            }
            Happened::PostDeleted { post_id, by } => {
                let Some(p) = world.post_by_id(post_id) else {
                    continue;
                };
                let post = render::post(world, p, no_opts()).to_string();
                out.push(
                    Event::new(
                        "post_deleted",
                        Broadcast {
                            contains_sanitized_data: true,
                            ..to_channel(&p.channel_id)
                        },
                    )
                    .add("post", json!(post)),
                );
                out.push(
                    Event::new(
                        "post_deleted",
                        Broadcast {
                            contains_sensitive_data: true,
                            ..to_channel(&p.channel_id)
                        },
                    )
                    .add("post", json!(post))
                    .add("delete_by", json!(by)),
                );
            }
            Happened::Reaction {
                added,
                user_id,
                post_id,
                emoji,
                at,
            } => {
                let Some(p) = world.post_by_id(post_id) else {
                    continue;
                };
                let reaction = json!({
                    "user_id": user_id,
                    "post_id": post_id,
                    "emoji_name": emoji,
                    "create_at": at,
                    "update_at": at,
                    "delete_at": 0,
                    "remote_id": "",
                    "channel_id": p.channel_id,
                });
                let name = if *added {
                    "reaction_added"
                } else {
                    "reaction_removed"
                };
                out.push(
                    Event::new(name, to_channel(&p.channel_id))
                        .add("reaction", json!(reaction.to_string())),
                );
            }
            Happened::Viewed { user_id, times } => {
                let times: Map<String, Value> =
                    times.iter().map(|(c, t)| (c.clone(), json!(t))).collect();
                out.push(
                    Event::new(
                        "multiple_channels_viewed",
                        Broadcast {
                            user_id: user_id.clone(),
                            ..Broadcast::default()
                        },
                    )
                    .add("channel_times", Value::Object(times)),
                );
            }
            Happened::UserAdded {
                channel_id,
                user_id,
            } => {
                let team = world
                    .channel_by_id(channel_id)
                    .map(|c| c.team_id.clone())
                    .unwrap_or_default();
                // AddChannelMember: the channel (but the added user) hears of it, and the added
                // user alone hears it too.
                let mut omit = BTreeMap::new();
                omit.insert(user_id.clone(), true);
                out.push(
                    Event::new(
                        "user_added",
                        Broadcast {
                            omit_users: Some(omit),
                            ..to_channel(channel_id)
                        },
                    )
                    .add("user_id", json!(user_id))
                    .add("team_id", json!(team)),
                );
                out.push(
                    Event::new(
                        "user_added",
                        Broadcast {
                            user_id: user_id.clone(),
                            channel_id: channel_id.clone(),
                            ..Broadcast::default()
                        },
                    )
                    .add("user_id", json!(user_id))
                    .add("team_id", json!(team)),
                );
            }
            Happened::ChannelOpened { channel_id, group } => {
                let name = if *group {
                    "group_added"
                } else {
                    "direct_added"
                };
                out.push(Event::new(name, to_channel(channel_id)));
            }
        }
    }
    out
}

fn no_opts() -> PostOpts<'static> {
    PostOpts {
        crt: false,
        extended: false,
        viewer: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::mpsc::unbounded_channel;

    fn world() -> (World, String, String, String) {
        let mut w = World::new(7);
        let alice = w.user("alice");
        let bob = w.user("bob");
        let team = w.team("t", "T", true);
        let ch = w.channel(&team, "town", "Town", crate::ChannelKind::Public);
        w.join(&ch, &alice);
        w.join(&ch, &bob);
        w.take_happenings();
        (w, alice, bob, ch)
    }

    fn frames(rx: &mut tokio::sync::mpsc::UnboundedReceiver<Out>) -> Vec<Value> {
        let mut out = Vec::new();
        while let Ok(Out::Text(t)) = rx.try_recv() {
            out.push(serde_json::from_str(&t).expect("json"));
        }
        out
    }

    fn post(w: &mut World, hub: &mut Hub, ch: &str, user: &str, n: usize) {
        for i in 0..n {
            w.post(ch, user, 1_700_000_000_000 + i as i64, "hi");
        }
        let h = w.take_happenings();
        let e = events_of(w, &h);
        hub.deliver(w, &e);
    }

    #[test]
    fn a_reconnect_within_the_dead_queue_replays_and_a_loss_gets_a_new_id() {
        let (mut w, alice, bob, ch) = world();
        let mut hub = Hub::default();
        let (tx, mut rx) = unbounded_channel();
        let Registered::Open(key) = hub.register(&mut w, &alice, None, tx);
        post(&mut w, &mut hub, &ch, &bob, 3);
        let got = frames(&mut rx);
        assert_eq!(got[0]["event"], "hello");
        let id = got[0]["data"]["connection_id"]
            .as_str()
            .expect("id")
            .to_string();
        assert_eq!(
            got.iter()
                .map(|f| f["seq"].as_i64().unwrap_or(-1))
                .collect::<Vec<_>>(),
            vec![0, 1, 2, 3]
        );
        // the client saw up to seq 1, the socket drops, two more posts wait in the send queue
        hub.unregister(key);
        post(&mut w, &mut hub, &ch, &bob, 2);
        let (tx, mut rx) = unbounded_channel();
        hub.register(&mut w, &alice, Some((id.clone(), 2)), tx);
        let got = frames(&mut rx);
        assert_eq!(
            got.iter()
                .map(|f| f["seq"].as_i64().unwrap_or(-1))
                .collect::<Vec<_>>(),
            vec![2, 3, 4, 5],
            "seq 2 and 3 again from the dead queue, then the queued ones; no hello"
        );
        assert!(got.iter().all(|f| f["event"] == "posted"));
        // a sequence number the dead queue never had: loss, a new id and a hello
        hub.drop_sockets();
        let (tx, mut rx) = unbounded_channel();
        hub.register(&mut w, &alice, Some((id.clone(), 99)), tx);
        let got = frames(&mut rx);
        assert_eq!(got[0]["event"], "hello");
        assert_eq!(got[0]["seq"], 0);
        assert_ne!(got[0]["data"]["connection_id"], json!(id));
    }

    #[test]
    fn a_person_hears_only_of_channels_they_are_in_and_not_of_what_omits_them() {
        let (mut w, alice, bob, ch) = world();
        let carol = w.user("carol");
        let mut hub = Hub::default();
        let (tx, mut rx_carol) = unbounded_channel();
        hub.register(&mut w, &carol, None, tx);
        let (tx, mut rx_bob) = unbounded_channel();
        hub.register(&mut w, &bob, None, tx);
        post(&mut w, &mut hub, &ch, &alice, 1);
        assert_eq!(frames(&mut rx_carol).len(), 1, "carol gets her hello only");
        let bob_got = frames(&mut rx_bob);
        assert_eq!(bob_got.len(), 2);
        let post: Value =
            serde_json::from_str(bob_got[1]["data"]["post"].as_str().expect("a string"))
                .expect("json");
        assert_eq!(post["message"], "hi");
        w.join(&ch, &carol);
        let h = w.take_happenings();
        let e = events_of(&w, &h);
        hub.deliver(&w, &e);
        let carol_got = frames(&mut rx_carol);
        assert_eq!(carol_got.len(), 1, "carol hears she was added, once");
        assert_eq!(carol_got[0]["broadcast"]["user_id"], json!(carol));
        assert_eq!(frames(&mut rx_bob).len(), 1, "bob hears carol was added");
    }

    #[test]
    fn the_reaper_forgets_an_inactive_connection_and_a_full_queue_closes_it() {
        let (mut w, alice, bob, ch) = world();
        let mut hub = Hub::default();
        let (tx, mut rx) = unbounded_channel();
        let Registered::Open(key) = hub.register(&mut w, &alice, None, tx);
        let id = frames(&mut rx)[0]["data"]["connection_id"]
            .as_str()
            .expect("id")
            .to_string();
        hub.unregister(key);
        hub.advance(Duration::from_millis(INACTIVE_REAP_MS as u64 + 1000));
        let (tx, mut rx) = unbounded_channel();
        hub.register(&mut w, &alice, Some((id.clone(), 1)), tx);
        let got = frames(&mut rx);
        assert_eq!(got[0]["event"], "hello");
        assert_ne!(
            got[0]["data"]["connection_id"],
            json!(id),
            "reaped: a new id"
        );
        let id = got[0]["data"]["connection_id"]
            .as_str()
            .expect("id")
            .to_string();
        hub.drop_sockets();
        post(&mut w, &mut hub, &ch, &bob, SEND_QUEUE_SIZE + 1);
        let (tx, mut rx) = unbounded_channel();
        hub.register(&mut w, &alice, Some((id.clone(), 1)), tx);
        let got = frames(&mut rx);
        assert_ne!(
            got[0]["data"]["connection_id"],
            json!(id),
            "closed when its queue overflowed"
        );
    }
}
