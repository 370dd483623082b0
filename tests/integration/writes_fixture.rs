//! The world the write tests stand on, a server with writes allowed driven by rmcp's client in either
//! protocol form, and a direct connection to read back what a write did (as the person, outside any
//! tool).

use crate::harness::{self, Answer, Mcp, Protocol, Recorder};
use mattermost_mcp::config::{Config, Secret};
use mattermost_mcp::mattermost::{Mattermost, MmError, as_person, types};
use mattermost_sim::{ChannelKind, LoggedRequest, Sim, World};
use progenitor_client::ResponseValue;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub const T0: i64 = 1_700_000_000_000;

/// The ids of the write world.
#[derive(Clone)]
pub struct Ids {
    pub town: String,
    pub alice: String,
    pub bob: String,
    /// bob's thread root in town-square, with 2 replies (alice reacted :smile: to it).
    pub bob_root: String,
    /// a reply in bob's thread.
    pub bob_reply: String,
    /// alice's own post in town-square.
    pub alice_post: String,
    /// alice's own thread root in town-square, with 2 replies by bob.
    pub alice_root: String,
}

/// alice, bob, carol and dave in team eng; town-square (alice, bob, carol), off-topic (bob only), the
/// private secret (alice, bob); a thread of bob's, a post and a thread of alice's.
pub fn world() -> (World, Ids) {
    let mut w = World::new(1101);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let carol = w.user("carol");
    let dave = w.user("dave");
    let team = w.team("eng", "Engineering", true);
    for u in [&alice, &bob, &carol, &dave] {
        w.add_to_team(&team, u);
    }
    let town = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
    for u in [&alice, &bob, &carol] {
        w.join(&town, u);
    }
    let off_topic = w.channel(&team, "off-topic", "Off-Topic", ChannelKind::Public);
    w.join(&off_topic, &bob);
    let secret = w.channel(&team, "secret", "Secret", ChannelKind::Private);
    w.join(&secret, &alice);
    w.join(&secret, &bob);
    let bob_root = w.post(&town, &bob, T0, "Who takes the release?");
    let bob_reply = w.reply(&bob_root, &carol, T0 + 1, "not me");
    w.reply(&bob_root, &bob, T0 + 2, "anyone?");
    w.react(&alice, &bob_root, "smile", T0 + 5);
    let alice_post = w.post(&town, &alice, T0 + 10, "my own words");
    let alice_root = w.post(&town, &alice, T0 + 20, "my thread");
    w.reply(&alice_root, &bob, T0 + 21, "reply one");
    w.reply(&alice_root, &bob, T0 + 22, "reply two");
    (
        w,
        Ids {
            town,
            alice,
            bob,
            bob_root,
            bob_reply,
            alice_post,
            alice_root,
        },
    )
}

/// A running simulator and a server with writes allowed, as alice.
pub struct Env {
    pub sim: Arc<Sim>,
    pub mcp: Mcp,
    pub ids: Ids,
    /// The simulator's request count when the client last answered a question.
    pub log_at_answer: Arc<AtomicUsize>,
}

impl Env {
    /// Calls a tool that must succeed; answers its result and the requests it made (method and path).
    pub async fn ok(
        &self,
        tool: &str,
        args: serde_json::Value,
    ) -> (serde_json::Value, Vec<String>) {
        self.sim.clear_log();
        let v = self.mcp.ok(tool, args).await;
        let log = self
            .sim
            .log()
            .iter()
            .map(|r| format!("{} {}", r.method, r.path))
            .collect();
        (v, log)
    }

    /// The requests since the log was last cleared.
    pub fn log(&self) -> Vec<LoggedRequest> {
        self.sim.log()
    }

    /// The requests made after the client answered the last question.
    pub fn after_answer(&self) -> Vec<String> {
        self.sim
            .log()
            .iter()
            .skip(self.log_at_answer.load(Ordering::SeqCst))
            .map(|r| format!("{} {}", r.method, r.path))
            .collect()
    }
}

/// Whether a request changes something, by the catalog's classification of its operation (the
/// transport's retry rule).
pub fn is_write(method: &str, path: &str) -> bool {
    let m = method.parse().unwrap_or(reqwest::Method::GET);
    let op = mattermost_mcp::mattermost::operations::of_request(method, path)
        .map_or("", |e| e.id.as_str());
    !mattermost_mcp::mattermost::transport::reads(op, &m)
}

/// The requests among `log` that change something.
pub fn writes_in(log: &[LoggedRequest]) -> Vec<String> {
    log.iter()
        .filter(|r| is_write(&r.method, &r.path))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

/// Starts the world and a server with writes allowed (and `env`), as alice, with a client speaking
/// `protocol` that answers questions as `answer`.
pub async fn start(protocol: Protocol, answer: Answer, env: &[(&str, &str)]) -> Env {
    start_with(world(), protocol, answer, env).await
}

pub async fn start_with(
    (world, ids): (World, Ids),
    protocol: Protocol,
    answer: Answer,
    env: &[(&str, &str)],
) -> Env {
    let sim = Arc::new(Sim::start(world).await.expect("the simulator starts"));
    let log_at_answer = Arc::new(AtomicUsize::new(usize::MAX));
    let (s, at) = (sim.clone(), log_at_answer.clone());
    let recorder = Recorder {
        answer,
        on_answer: Some(Arc::new(move || at.store(s.log().len(), Ordering::SeqCst))),
        ..Recorder::default()
    };
    let mut all = vec![("MATTERMOST_ALLOW_WRITES", "true")];
    all.extend_from_slice(env);
    let mcp = harness::spawn_as(
        &sim.url(),
        &sim.token("alice"),
        &all,
        &[],
        protocol,
        recorder,
    )
    .await;
    sim.clear_log();
    Env {
        sim,
        mcp,
        ids,
        log_at_answer,
    }
}

/// A connection to the simulator as one person, outside any tool, to read back what a write did.
pub struct Direct {
    pub mm: Mattermost,
    token: Secret,
}

impl Direct {
    pub fn new(sim: &Sim, user: &str) -> Direct {
        let config = Config::from(|k| match k {
            "MATTERMOST_URL" => Some(sim.url()),
            "MATTERMOST_TOKEN" => Some(sim.token(user)),
            _ => None,
        })
        .expect("config");
        Direct {
            mm: config.connect().expect("client"),
            token: config.token,
        }
    }

    pub async fn send<T>(
        &self,
        operation: &'static str,
        request: impl Future<
            Output = Result<ResponseValue<T>, progenitor_client::Error<types::AppError>>,
        >,
    ) -> Result<T, MmError> {
        as_person(
            &self.token,
            &[operation],
            mattermost_mcp::mattermost::send(request),
        )
        .await
        .map(ResponseValue::into_inner)
    }

    pub async fn post(&self, id: &str) -> types::Post {
        self.send("GetPost", self.mm.api().get_post().post_id(id).send())
            .await
            .expect("the post reads back")
    }
}
