//! Live: the server hears Mattermost through its WebSocket — subscriptions in both protocol forms
//! over stdio and HTTP, `wait_for_activity`, no post lost across a dropped socket or a restart, one
//! person never told of another's channels, notifications without message text, the bounds, and
//! SIGTERM closing the sockets.

// `resources/subscribe` and `unsubscribe` are the 2025-11-25 form, which rmcp marks deprecated for 2026-07-28.
#![allow(deprecated)]
use crate::harness::{self, Mcp, Protocol, Recorder};
use crate::http_harness::{self, Generation};
use mattermost_sim::{ChannelKind, Sim, World};
use rmcp::model::{
    CallToolRequestParams, ProtocolVersion, ServerNotification, SubscribeRequestParams,
    SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

struct Ids {
    alice: String,
    bob: String,
    town: String,
    secret: String,
    root: String,
}

/// alice (who watches) and bob in `town`; bob and carol in the private `secret`; a thread of alice's.
fn world(extra_people: usize) -> (World, Ids) {
    let mut w = World::new(2101);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let carol = w.user("carol");
    let team = w.team("acme", "Acme", true);
    let town = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
    let secret = w.channel(&team, "secret", "Secret", ChannelKind::Private);
    for u in [&alice, &bob] {
        w.join(&town, u);
    }
    for u in [&bob, &carol] {
        w.join(&secret, u);
    }
    for i in 0..extra_people {
        let u = w.user(&format!("watcher{i}"));
        w.join(&town, &u);
    }
    let t = 1_700_000_000_000;
    w.post(&town, &bob, t, "good morning");
    let root = w.post(&town, &alice, t + 1000, "the plan for today");
    (
        w,
        Ids {
            alice,
            bob,
            town,
            secret,
            root,
        },
    )
}

fn channel_uri(id: &str) -> String {
    format!("mattermost://channels/{id}")
}

fn thread_uri(id: &str) -> String {
    format!("mattermost://posts/{id}")
}

/// The updates a recorder heard, as (arrival, URI, notification JSON).
fn heard(r: &Recorder) -> Vec<(Instant, String, String)> {
    r.updates.lock().map(|u| u.clone()).unwrap_or_default()
}

/// Waits up to `within` for an update of `uri` that arrived after `since`; when it arrived.
async fn update_of(r: &Recorder, uri: &str, since: Instant, within: Duration) -> Option<Instant> {
    let until = Instant::now() + within;
    loop {
        if let Some((at, _, _)) = heard(r)
            .into_iter()
            .find(|(at, u, _)| u == uri && *at >= since)
        {
            return Some(at);
        }
        if Instant::now() >= until {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn post_by(sim: &Sim, channel: &str, user: &str, message: &str) -> (String, Instant) {
    let now = sim.now_ms();
    let id = sim.with_world(|w| w.post(channel, user, now, message));
    (id, Instant::now())
}

fn reply_by(sim: &Sim, root: &str, user: &str, message: &str) -> (String, Instant) {
    let now = sim.now_ms();
    let id = sim.with_world(|w| w.reply(root, user, now, message));
    (id, Instant::now())
}

async fn stdio(sim: &Sim, user: &str, protocol: Protocol, env: &[(&str, &str)]) -> (Mcp, Recorder) {
    let recorder = Recorder::default();
    let mcp = harness::spawn_as(
        &sim.url(),
        &sim.token(user),
        env,
        &[],
        protocol,
        recorder.clone(),
    )
    .await;
    (mcp, recorder)
}

async fn subscribe(client: &RunningService<RoleClient, Recorder>, uri: &str) -> Result<(), String> {
    client
        .subscribe(SubscribeRequestParams::new(uri))
        .await
        .map_err(|e| e.to_string())
}

/// Waits until the sim has `n` sockets open for `user_id`.
async fn sockets(sim: &Sim, user_id: &str, n: usize) {
    let until = Instant::now() + Duration::from_secs(10);
    while sim
        .open_websockets()
        .iter()
        .filter(|u| *u == user_id)
        .count()
        != n
    {
        assert!(
            Instant::now() < until,
            "{user_id} should have {n} sockets open, has {:?}",
            sim.open_websockets()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn over_stdio_2025_a_post_and_a_reply_by_someone_else_are_notified_within_2_s_by_uri_only() {
    let (w, ids) = world(0);
    let sim = Sim::start(w).await.expect("sim");
    let (mcp, heard_by) = stdio(&sim, "alice", Protocol::Legacy, &[]).await;
    let caps = mcp.client.peer_info().expect("info").capabilities.clone();
    let resources = caps.resources.expect("resources");
    assert_eq!(resources.subscribe, Some(true), "subscribe is declared");
    assert_eq!(
        resources.list_changed,
        Some(true),
        "listChanged is declared"
    );
    let town = channel_uri(&ids.town);
    let thread = thread_uri(&ids.root);
    subscribe(&mcp.client, &town).await.expect("town");
    subscribe(&mcp.client, &thread).await.expect("the thread");
    subscribe(&mcp.client, "mattermost://me/inbox")
        .await
        .expect("the inbox");
    sockets(&sim, &ids.alice, 1).await;
    // settle: the first hello's gap read
    tokio::time::sleep(Duration::from_millis(300)).await;

    let (_, posted) = post_by(
        &sim,
        &ids.town,
        &ids.bob,
        "lunch at noon, secret word pineapple",
    );
    let at = update_of(&heard_by, &town, posted, Duration::from_secs(2))
        .await
        .expect("the channel's update within 2 s");
    eprintln!(
        "post -> notification (stdio, 2025-11-25): {:?}",
        at - posted
    );
    assert!(
        update_of(
            &heard_by,
            "mattermost://me/inbox",
            posted,
            Duration::from_secs(2)
        )
        .await
        .is_some(),
        "the inbox moved too"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (_, replied) = reply_by(&sim, &ids.root, &ids.bob, "count me in, pineapple");
    let at = update_of(&heard_by, &thread, replied, Duration::from_secs(2))
        .await
        .expect("the thread's update within 2 s");
    eprintln!(
        "reply -> notification (stdio, 2025-11-25): {:?}",
        at - replied
    );
    for (_, uri, json) in heard(&heard_by) {
        assert!(!json.contains("pineapple"), "no message text in {json}");
        assert!(
            [
                town.as_str(),
                thread.as_str(),
                "mattermost://me/inbox",
                "list_changed"
            ]
            .contains(&uri.as_str()),
            "only what was subscribed: {uri}"
        );
    }

    // A channel alice is not in: refused, and nothing of it reaches her.
    let e = subscribe(&mcp.client, &channel_uri(&ids.secret))
        .await
        .expect_err("not a member");
    assert!(e.contains("not a member") && e.contains(&ids.secret), "{e}");
    let before = Instant::now();
    post_by(&sim, &ids.secret, &ids.bob, "alice must not hear of this");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(
        heard(&heard_by)
            .iter()
            .all(|(at, u, _)| *at < before || !u.contains(&ids.secret)),
        "nothing about the private channel"
    );

    // Unsubscribed: no more updates of it; with nothing watched the socket closes (idle 1 s here is
    // the default 30 s, so only the unsubscribe is checked).
    mcp.client
        .unsubscribe(UnsubscribeRequestParams::new(town.clone()))
        .await
        .expect("unsubscribe");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (_, posted) = post_by(&sim, &ids.town, &ids.bob, "anyone?");
    assert!(
        update_of(&heard_by, &town, posted, Duration::from_millis(1500))
            .await
            .is_none(),
        "no update after unsubscribe"
    );
    // The token never went into a URL: the upgrade carries it in the header (redacted in the log).
    let upgrades = sim.websocket_upgrades();
    assert!(!upgrades.is_empty());
    let token = sim.token("alice");
    for r in &upgrades {
        assert!(r.query.iter().all(|(_, v)| !v.contains(&token)));
        assert_eq!(r.username.as_deref(), Some("alice"));
    }
    assert!(!mcp.stderr().contains(&token), "the token is never logged");
}

#[tokio::test(flavor = "multi_thread")]
async fn over_stdio_2026_listen_hears_a_post_within_2_s_and_nothing_else() {
    let (w, ids) = world(0);
    let sim = Sim::start(w).await.expect("sim");
    let (mcp, _) = stdio(&sim, "alice", Protocol::Stateless, &[]).await;
    let town = channel_uri(&ids.town);
    let filter = SubscriptionFilter::builder()
        .resource_subscriptions([town.clone(), "mattermost://files/nope".to_string()])
        .resources_list_changed()
        .build();
    let mut sub = mcp.client.listen(filter).await.expect("listen");
    assert_eq!(
        sub.acknowledged().resource_subscriptions,
        Some(vec![town.clone()]),
        "a URI that cannot be watched is left out of the acknowledgement"
    );
    sockets(&sim, &ids.alice, 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, posted) = post_by(&sim, &ids.town, &ids.bob, "the secret word is mango");
    let got = tokio::time::timeout(Duration::from_secs(2), sub.next())
        .await
        .expect("within 2 s")
        .expect("a notification")
        .expect("not ended");
    eprintln!(
        "post -> notification (stdio, 2026-07-28 listen): {:?}",
        posted.elapsed()
    );
    let text = serde_json::to_string(&got).expect("json");
    assert!(!text.contains("mango"), "{text}");
    match got {
        ServerNotification::ResourceUpdatedNotification(n) => assert_eq!(n.params.uri, town),
        other => panic!("not an update: {other:?}"),
    }
    // being added to a channel changes the list
    sim.with_world(|w| w.join(&ids.secret, &ids.alice));
    let got = tokio::time::timeout(Duration::from_secs(2), sub.next())
        .await
        .expect("within 2 s")
        .expect("a notification")
        .expect("not ended");
    assert!(
        matches!(got, ServerNotification::ResourceListChangedNotification(_)),
        "{got:?}"
    );
    sub.cancel().await.expect("cancel");
}

fn items(v: &Value) -> Vec<String> {
    v["items"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|i| i["text"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn wait_for_activity_answers_a_new_post_within_2_s_and_times_out_honestly() {
    let (w, ids) = world(0);
    let sim = Sim::start(w).await.expect("sim");
    let (mcp, _) = stdio(&sim, "alice", Protocol::Legacy, &[]).await;
    // Nothing new: an honest timeout, with a cursor to wait on.
    let started = Instant::now();
    let quiet = mcp
        .ok(
            "wait_for_activity",
            json!({"source": ids.town, "timeout_secs": 2}),
        )
        .await;
    assert!(started.elapsed() >= Duration::from_secs(2));
    assert_eq!(quiet["news"], json!(false));
    assert_eq!(quiet["returned"], json!(0));
    assert!(
        quiet["note"]
            .as_str()
            .unwrap_or_default()
            .contains("Nothing new")
    );
    let cursor = quiet["next_cursor"].as_str().expect("a cursor").to_string();

    // A post while it waits: answered within 2 s, through the cursor (nothing between the waits lost:
    // the post made before this wait began is there too).
    post_by(&sim, &ids.town, &ids.bob, "between the waits");
    let waiting = {
        let client = mcp.client.clone();
        let cursor = cursor.clone();
        let town = ids.town.clone();
        tokio::spawn(async move {
            let r = client
                .call_tool(
                    CallToolRequestParams::new("wait_for_activity").with_arguments(harness::obj(
                        json!({"source": town, "cursor": cursor, "timeout_secs": 20}),
                    )),
                )
                .await
                .expect("answered");
            (Instant::now(), r.structured_content.expect("structured"))
        })
    };
    let (answered, got) = waiting.await.expect("joined");
    assert_eq!(items(&got), vec!["between the waits"], "{got}");
    let cursor = got["next_cursor"].as_str().expect("a cursor").to_string();
    let waiting = {
        let client = mcp.client.clone();
        let town = ids.town.clone();
        tokio::spawn(async move {
            let r = client
                .call_tool(
                    CallToolRequestParams::new("wait_for_activity").with_arguments(harness::obj(
                        json!({"source": town, "cursor": cursor, "timeout_secs": 20}),
                    )),
                )
                .await
                .expect("answered");
            (Instant::now(), r.structured_content.expect("structured"))
        })
    };
    tokio::time::sleep(Duration::from_millis(800)).await;
    let _ = answered;
    let (_, posted) = post_by(&sim, &ids.town, &ids.bob, "are you there?");
    let (answered, got) = waiting.await.expect("joined");
    eprintln!("post -> wait_for_activity answer: {:?}", answered - posted);
    assert!(
        answered - posted < Duration::from_secs(2),
        "{:?}",
        answered - posted
    );
    assert_eq!(got["news"], json!(true));
    assert_eq!(items(&got), vec!["are you there?"]);

    // A thread: a reply answers it; a root post elsewhere in the channel does not.
    let waiting = {
        let client = mcp.client.clone();
        let root = ids.root.clone();
        tokio::spawn(async move {
            client
                .call_tool(
                    CallToolRequestParams::new("wait_for_activity")
                        .with_arguments(harness::obj(json!({"source": root, "timeout_secs": 20}))),
                )
                .await
                .expect("answered")
                .structured_content
                .expect("structured")
        })
    };
    tokio::time::sleep(Duration::from_millis(800)).await;
    post_by(&sim, &ids.town, &ids.bob, "not in the thread");
    tokio::time::sleep(Duration::from_millis(300)).await;
    reply_by(&sim, &ids.root, &ids.bob, "in the thread");
    let got = waiting.await.expect("joined");
    assert_eq!(got["source"], json!("thread"));
    assert_eq!(items(&got), vec!["in the thread"], "{got}");

    // Progress while it waits; cancelled, it stops at once.
    let call = mcp.call_with_progress(
        "wait_for_activity",
        json!({"source": "inbox", "timeout_secs": 60}),
    );
    let stopped = tokio::time::timeout(Duration::from_secs(7), call).await;
    assert!(stopped.is_err(), "still waiting after 7 s");
    let progress = mcp
        .progress_until(|p| p.iter().any(|m| m.contains("waited")))
        .await;
    assert!(
        progress
            .iter()
            .any(|m| m.contains("waited") && m.contains("inbox")),
        "{progress:?}"
    );
    let started = Instant::now();
    let me = mcp.ok("get_me", json!({})).await;
    assert_eq!(me["username"], json!("alice"));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "the server goes on at once"
    );
    // A channel one is not in is refused, saying why and what to do.
    let e = mcp
        .call(
            "wait_for_activity",
            json!({"source": ids.secret, "timeout_secs": 1}),
        )
        .await;
    assert_eq!(e.is_error, Some(true));
    let text = format!("{:?}", e.content);
    assert!(
        text.contains("not a member") && text.contains("join_channel"),
        "{text}"
    );
}

/// The posts the answer of a wait holds, by message.
async fn wait_on(mcp: &Mcp, source: &str, cursor: &str, secs: u64) -> Value {
    mcp.ok(
        "wait_for_activity",
        json!({"source": source, "cursor": cursor, "timeout_secs": secs}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_socket_dropped_for_60_simulated_seconds_loses_no_post_and_is_continued() {
    let (w, ids) = world(0);
    let sim = Sim::start(w).await.expect("sim");
    let (mcp, heard_by) = stdio(&sim, "alice", Protocol::Legacy, &[]).await;
    let town = channel_uri(&ids.town);
    subscribe(&mcp.client, &town).await.expect("town");
    sockets(&sim, &ids.alice, 1).await;
    let quiet = mcp
        .ok(
            "wait_for_activity",
            json!({"source": ids.town, "timeout_secs": 1}),
        )
        .await;
    let cursor = quiet["next_cursor"].as_str().expect("cursor").to_string();
    tokio::time::sleep(Duration::from_millis(1100)).await;

    // The network goes away for 60 s of simulated time: every upgrade refused meanwhile, five posts
    // written across the minute.
    sim.refuse_websocket_upgrades(0, true);
    assert_eq!(sim.drop_websockets(), 1);
    let start = sim.now_ms();
    let mut written = Vec::new();
    for i in 0..5 {
        let m = format!("during the outage {i}");
        sim.with_world(|w| w.post(&ids.town, &ids.bob, start + i * 12_000, &m));
        written.push(m);
    }
    sim.advance_websocket_clock(Duration::from_secs(60));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let back = Instant::now();
    sim.refuse_websocket_upgrades(0, false);
    sockets(&sim, &ids.alice, 1).await;
    assert_eq!(
        sim.websocket_connection_ids().len(),
        1,
        "the server continued the connection (no new id): it sent again what was missed"
    );
    assert!(
        update_of(&heard_by, &town, back, Duration::from_secs(15))
            .await
            .is_some(),
        "the subscription heard of the posts once the socket was back"
    );
    let got = wait_on(&mcp, &ids.town, &cursor, 10).await;
    assert_eq!(items(&got), written, "every post, once, in order");
    let next = got["next_cursor"].as_str().expect("cursor");
    let again = wait_on(&mcp, &ids.town, next, 1).await;
    assert_eq!(again["returned"], json!(0), "nothing twice: {again}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_restart_with_a_new_connection_id_is_filled_by_one_read_per_watched_channel() {
    let (w, ids) = world(0);
    let sim = Sim::start(w).await.expect("sim");
    let (mcp, heard_by) = stdio(&sim, "alice", Protocol::Legacy, &[]).await;
    let town = channel_uri(&ids.town);
    let thread = thread_uri(&ids.root);
    subscribe(&mcp.client, &town).await.expect("town");
    subscribe(&mcp.client, &thread).await.expect("thread");
    sockets(&sim, &ids.alice, 1).await;
    let quiet = mcp
        .ok(
            "wait_for_activity",
            json!({"source": ids.town, "timeout_secs": 1}),
        )
        .await;
    let cursor = quiet["next_cursor"].as_str().expect("cursor").to_string();
    tokio::time::sleep(Duration::from_millis(1100)).await;

    sim.refuse_websocket_upgrades(0, true);
    sim.restart_websockets();
    let now = sim.now_ms();
    sim.with_world(|w| {
        w.post(&ids.town, &ids.bob, now, "while it restarted 1");
        w.reply(&ids.root, &ids.bob, now + 1, "while it restarted 2");
    });
    tokio::time::sleep(Duration::from_millis(1000)).await;
    sim.clear_log();
    let back = Instant::now();
    sim.refuse_websocket_upgrades(0, false);
    assert!(
        update_of(&heard_by, &town, back, Duration::from_secs(15))
            .await
            .is_some(),
        "the gap fill found the channel's post"
    );
    assert!(
        update_of(&heard_by, &thread, back, Duration::from_secs(5))
            .await
            .is_some(),
        "and the thread's reply"
    );
    assert_eq!(
        sim.websocket_connection_ids().len(),
        2,
        "a new connection id"
    );
    let fills = sim
        .log()
        .iter()
        .filter(|r| r.path.ends_with("/posts") && r.query.iter().any(|(k, _)| k == "since"))
        .count();
    eprintln!("gap fill after a restart, 1 channel and 1 thread in it watched: {fills} request(s)");
    assert_eq!(fills, 1, "one read for the one channel the watches live in");
    let got = wait_on(&mcp, &ids.town, &cursor, 10).await;
    assert_eq!(
        items(&got),
        vec!["while it restarted 1", "while it restarted 2"],
        "every post, once"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_bound_of_watches_per_person_refuses_past_it_naming_the_setting() {
    let (w, ids) = world(0);
    let sim = Sim::start(w).await.expect("sim");
    let (mcp, _) = stdio(
        &sim,
        "alice",
        Protocol::Legacy,
        &[("MATTERMOST_MCP_MAX_WATCHES", "2")],
    )
    .await;
    subscribe(&mcp.client, &channel_uri(&ids.town))
        .await
        .expect("1");
    subscribe(&mcp.client, &thread_uri(&ids.root))
        .await
        .expect("2");
    let e = subscribe(&mcp.client, "mattermost://me/inbox")
        .await
        .expect_err("3 is past the bound");
    assert!(e.contains("MATTERMOST_MCP_MAX_WATCHES=2"), "{e}");
    let e = subscribe(&mcp.client, "mattermost://channels/town-square")
        .await
        .expect_err("a name");
    assert!(e.contains("26 lowercase letters"), "{e}");
}

/// rmcp's client over Streamable HTTP, recording notifications.
async fn http_client(
    endpoint: &str,
    token: &str,
    generation: Generation,
) -> (RunningService<RoleClient, Recorder>, Recorder) {
    let recorder = Recorder::default();
    let config =
        StreamableHttpClientTransportConfig::with_uri(endpoint.to_string()).auth_header(token);
    mattermost_client::tls::install();
    let transport = StreamableHttpClientTransport::from_config(config);
    let service = match generation {
        Generation::Sessions => recorder.clone().serve(transport).await,
        Generation::Stateless => {
            recorder
                .clone()
                .serve_with_lifecycle(
                    transport,
                    ClientLifecycleMode::Discover {
                        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                    },
                )
                .await
        }
    }
    .expect("connects");
    (service, recorder)
}

#[tokio::test(flavor = "multi_thread")]
async fn over_http_each_person_hears_only_their_own_channels_in_both_forms_and_sigterm_closes_the_sockets()
 {
    let (w, ids) = world(0);
    let carol = w.user_id("carol").expect("carol");
    let sim = Sim::start_detached(w).expect("sim");
    let mut server =
        http_harness::spawn(&sim.url(), &[("MATTERMOST_MCP_TOKEN_CHECK_SECS", "1")], &[]).await;
    let (alice, alice_heard) = http_client(
        &server.endpoint(),
        &sim.token("alice"),
        Generation::Sessions,
    )
    .await;
    let (carol_client, carol_heard) = http_client(
        &server.endpoint(),
        &sim.token("carol"),
        Generation::Sessions,
    )
    .await;
    let town = channel_uri(&ids.town);
    let secret = channel_uri(&ids.secret);
    subscribe(&alice, &town).await.expect("alice: town");
    subscribe(&carol_client, &secret)
        .await
        .expect("carol: secret");
    let e = subscribe(&alice, &secret)
        .await
        .expect_err("alice is not in secret");
    assert!(e.contains("not a member"), "{e}");
    // the 2026-07-28 form, alice again
    let (alice_new, _) = http_client(
        &server.endpoint(),
        &sim.token("alice"),
        Generation::Stateless,
    )
    .await;
    let mut listening = alice_new
        .listen(
            SubscriptionFilter::builder()
                .resource_subscription(town.clone())
                .build(),
        )
        .await
        .expect("listen");
    sockets(&sim, &ids.alice, 1).await;
    sockets(&sim, &carol, 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;

    let (_, posted) = post_by(&sim, &ids.town, &ids.bob, "for town: kiwi");
    let at = update_of(&alice_heard, &town, posted, Duration::from_secs(2))
        .await
        .expect("alice hears town within 2 s");
    eprintln!(
        "post -> notification (HTTP, 2025-11-25 session): {:?}",
        at - posted
    );
    let got = tokio::time::timeout(Duration::from_secs(2), listening.next())
        .await
        .expect("within 2 s")
        .expect("ok")
        .expect("a notification");
    eprintln!(
        "post -> notification (HTTP, 2026-07-28 listen): {:?}",
        posted.elapsed()
    );
    assert!(!serde_json::to_string(&got).expect("json").contains("kiwi"));
    let (_, posted) = post_by(&sim, &ids.secret, &ids.bob, "for secret: lime");
    assert!(
        update_of(&carol_heard, &secret, posted, Duration::from_secs(2))
            .await
            .is_some(),
        "carol hears secret"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        heard(&alice_heard).iter().all(|(_, u, _)| *u == town),
        "alice never hears of secret: {:?}",
        heard(&alice_heard)
    );
    assert!(
        heard(&carol_heard).iter().all(|(_, u, _)| *u == secret),
        "carol never hears of town"
    );
    assert_eq!(sim.open_websockets().len(), 2, "one socket a person");

    // A token Mattermost refuses: the person is forgotten, their socket closed.
    sim.expire_token("carol");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let refused = carol_client.list_all_tools().await;
    assert!(refused.is_err(), "401");
    sockets(&sim, &carol, 0).await;

    server.terminate();
    assert_eq!(server.exit_code(Duration::from_secs(40)).await, Some(0));
    assert!(
        sim.open_websockets().is_empty(),
        "SIGTERM closed the sockets"
    );
    drop(listening);
}

#[tokio::test(flavor = "multi_thread")]
async fn over_http_the_bound_of_persons_watching_refuses_past_it() {
    let (w, ids) = world(0);
    let sim = Sim::start_detached(w).expect("sim");
    let server =
        http_harness::spawn(&sim.url(), &[("MATTERMOST_MCP_MAX_WATCHERS", "1")], &[]).await;
    let (alice, _) = http_client(
        &server.endpoint(),
        &sim.token("alice"),
        Generation::Sessions,
    )
    .await;
    let (bob, _) = http_client(&server.endpoint(), &sim.token("bob"), Generation::Sessions).await;
    subscribe(&alice, &channel_uri(&ids.town))
        .await
        .expect("alice");
    let e = subscribe(&bob, &channel_uri(&ids.town))
        .await
        .expect_err("a second person");
    assert!(e.contains("MATTERMOST_MCP_MAX_WATCHERS=1"), "{e}");
}

/// Memory per watching person over HTTP: RSS with no one watching, then with N persons each
/// subscribed to a channel (one Mattermost socket each). A measurement for the report, not a test
/// of a speed or size: run with `--ignored --nocapture`.
#[tokio::test(flavor = "multi_thread")]
#[ignore]
async fn memory_per_watching_person_over_http() {
    let n = 100;
    let (w, ids) = world(n);
    let sim = Sim::start_detached(w).expect("sim");
    let server = http_harness::spawn(&sim.url(), &[], &[]).await;
    let pid = server.child.id().expect("pid");
    let rss = || {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| {
                    l.split_whitespace()
                        .nth(1)
                        .and_then(|k| k.parse::<u64>().ok())
                })
            })
            .unwrap_or(0)
    };
    let mut clients = Vec::new();
    for i in 0..n {
        let (c, _) = http_client(
            &server.endpoint(),
            &sim.token(&format!("watcher{i}")),
            Generation::Sessions,
        )
        .await;
        let _ = c.list_all_tools().await;
        clients.push(c);
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = rss();
    for c in &clients {
        subscribe(c, &channel_uri(&ids.town))
            .await
            .expect("subscribe");
    }
    let until = Instant::now() + Duration::from_secs(30);
    while sim.open_websockets().len() < n && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss();
    eprintln!(
        "RSS with {n} persons known and none watching: {before} KiB; with all {n} watching ({} sockets): {after} KiB; \
         {} KiB a watching person",
        sim.open_websockets().len(),
        (after.saturating_sub(before)) / n as u64
    );
}
