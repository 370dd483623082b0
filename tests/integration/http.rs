//! Streamable HTTP: both protocol generations with rmcp's client (and 2026-07-28 over stdio), each
//! request as the person whose bearer token it carries, the 401s and the metadata that tell a client
//! how to sign in, and the token checked once per interval by its hash.

use crate::harness::BIN;
use crate::http_harness::{self as h, Generation};
use mattermost_sim::{ChannelKind, Sim, World};
use rmcp::model::ProtocolVersion;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::json;
use std::collections::BTreeSet;

/// Two people, alice and bob, in one team: a shared channel of tied posts, a private channel each,
/// and saved posts each. Returns the world, the shared channel, its posts, and each person's
/// private channel with its posts and their saved posts.
pub struct Two {
    pub world: World,
    pub shared: String,
    pub shared_posts: Vec<String>,
    pub alice_only: String,
    pub bob_only: String,
    pub alice_saved: Vec<String>,
    pub bob_saved: Vec<String>,
}

pub fn two_people(shared_posts: usize) -> Two {
    let mut w = World::new(11);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let team = w.team("eng", "Engineering", true);
    w.add_to_team(&team, &alice);
    w.add_to_team(&team, &bob);
    let shared = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
    w.join(&shared, &alice);
    w.join(&shared, &bob);
    let alice_only = w.channel(&team, "alice-only", "Alice Only", ChannelKind::Private);
    w.join(&alice_only, &alice);
    let bob_only = w.channel(&team, "bob-only", "Bob Only", ChannelKind::Private);
    w.join(&bob_only, &bob);
    let mut t = 1_700_000_000_000i64;
    let mut posts = Vec::new();
    for i in 0..shared_posts {
        let who = if i % 3 == 0 { &bob } else { &alice };
        posts.push(w.post(&shared, who, t, &format!("shared post {i}")));
        if i % 4 != 0 {
            t += 1;
        }
    }
    let mut alice_saved = Vec::new();
    let mut bob_saved = Vec::new();
    for i in 0..25 {
        let a = w.post(&alice_only, &alice, t + i, &format!("alice secret {i}"));
        let b = w.post(&bob_only, &bob, t + i, &format!("bob secret {i}"));
        if i % 2 == 0 {
            w.save(&alice, &a);
            alice_saved.push(a);
        }
        if i % 3 == 0 {
            w.save(&bob, &b);
            bob_saved.push(b);
        }
    }
    for p in posts.iter().step_by(9) {
        w.save(&alice, p);
        alice_saved.push(p.clone());
    }
    Two {
        world: w,
        shared,
        shared_posts: posts,
        alice_only,
        bob_only,
        alice_saved,
        bob_saved,
    }
}

fn set(v: &[String]) -> BTreeSet<String> {
    v.iter().cloned().collect()
}

/// Every item exactly once: no repeats, and the set expected.
pub fn exactly_once(got: &[String], expected: &[String], what: &str) {
    let unique = set(got);
    assert_eq!(unique.len(), got.len(), "{what}: an item came twice");
    assert_eq!(unique, set(expected), "{what}: not every item, or others");
}

#[tokio::test(flavor = "multi_thread")]
async fn both_protocol_generations_page_read_channel_and_list_saved_over_http_with_rmcps_client() {
    let two = two_people(120);
    let sim = Sim::start(two.world).await.expect("sim");
    let server = h::spawn(&sim.url(), &[], &[]).await;
    for (generation, version) in [
        (Generation::Sessions, "2025-11-25"),
        (Generation::Stateless, "2026-07-28"),
    ] {
        let client = h::connect(&server.endpoint(), &sim.token("alice"), generation).await;
        assert_eq!(
            client.protocol().as_deref(),
            Some(version),
            "{generation:?}"
        );
        let channel = client
            .pages("read_channel", json!({"channel": two.shared, "limit": 7}))
            .await;
        exactly_once(&h::item_ids(&channel), &two.shared_posts, "read_channel");
        let saved = client.pages("list_saved", json!({"limit": 4})).await;
        exactly_once(&h::item_ids(&saved), &two.alice_saved, "list_saved");
        let _ = client.service.cancel().await;
    }
    let log = server.log();
    assert!(log.contains("person=") && log.contains("@alice"), "{log}");
    assert!(
        !log.contains(&sim.token("alice")),
        "the access log holds no token"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn over_stdio_the_server_speaks_2026_07_28_with_rmcps_client() {
    let two = two_people(40);
    let sim = Sim::start(two.world).await.expect("sim");
    let (url, token) = (sim.url(), sim.token("alice"));
    let cmd = tokio::process::Command::new(BIN).configure(move |c| {
        c.env_clear()
            .env("MATTERMOST_URL", &url)
            .env("MATTERMOST_TOKEN", &token)
            .env("MATTERMOST_MCP_LOG", "warn");
    });
    let transport = TokioChildProcess::new(cmd).expect("spawn");
    let client = ()
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("discover over stdio");
    assert_eq!(
        client
            .peer_info()
            .map(|i| i.protocol_version.as_str().to_string()),
        Some("2026-07-28".to_string())
    );
    let c = h::Client { service: client };
    let pages = c
        .pages("read_channel", json!({"channel": two.shared, "limit": 6}))
        .await;
    exactly_once(
        &h::item_ids(&pages),
        &two.shared_posts,
        "read_channel over stdio",
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn no_token_is_401_pointing_at_the_resource_metadata_which_names_mattermost() {
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let server = h::spawn(&sim.url(), &[], &[]).await;
    let a = h::raw_call(&server.endpoint(), None, "list_saved", json!({}), &[]).await;
    assert_eq!(a.status, 401, "{}", a.body);
    let challenge = a.header("www-authenticate").expect("a challenge");
    let metadata_url = format!("{}/.well-known/oauth-protected-resource", server.base());
    assert_eq!(
        challenge,
        format!("Bearer resource_metadata=\"{metadata_url}\"")
    );
    assert!(
        a.json()["message"]
            .as_str()
            .unwrap_or("")
            .contains("Authorization: Bearer")
    );

    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let m = h::send(h::http().get(format!("{}{path}", server.base()))).await;
        assert_eq!(m.status, 200, "{path}");
        let m = m.json();
        assert_eq!(m["resource"], json!(server.endpoint()));
        assert_eq!(m["authorization_servers"], json!([sim.url()]));
        assert_eq!(m["bearer_methods_supported"], json!(["header"]));
    }

    // The authorization server it names describes itself where RFC 8414 says (the simulator serves
    // Mattermost's metadata, with dynamic client registration when the server allows it).
    let asm = h::send(h::http().get(format!(
        "{}/.well-known/oauth-authorization-server",
        sim.url()
    )))
    .await;
    assert_eq!(asm.status, 200, "{}", asm.body);
    let asm = asm.json();
    assert_eq!(asm["issuer"], json!(sim.url()));
    assert_eq!(asm["code_challenge_methods_supported"], json!(["S256"]));
    assert!(
        asm.get("registration_endpoint").is_none(),
        "DCR is off by default"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_or_malformed_token_is_401_with_the_reason_and_no_person_is_kept() {
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let server = h::spawn(&sim.url(), &[], &[]).await;
    let a = h::raw_call(
        &server.endpoint(),
        Some("nosuchtoken0000000000000000"),
        "list_saved",
        json!({}),
        &[],
    )
    .await;
    assert_eq!(a.status, 401, "{}", a.body);
    let challenge = a.header("www-authenticate").unwrap_or_default();
    assert!(
        challenge.starts_with("Bearer error=\"invalid_token\""),
        "{challenge}"
    );
    assert!(challenge.contains("resource_metadata="), "{challenge}");
    let message = a.json()["message"].as_str().unwrap_or_default().to_string();
    assert!(message.contains("refused this token (401"), "{message}");
    assert!(
        !message.contains("nosuchtoken"),
        "the token is not repeated back"
    );
    let checks = || {
        sim.log()
            .iter()
            .filter(|r| r.path == "/api/v4/users/me")
            .count()
    };
    let asked = checks();
    for _ in 0..3 {
        let again = h::raw_call(
            &server.endpoint(),
            Some("nosuchtoken0000000000000000"),
            "list_saved",
            json!({}),
            &[],
        )
        .await;
        assert_eq!(again.status, 401, "{}", again.body);
        assert!(
            again.json()["message"]
                .as_str()
                .unwrap_or_default()
                .contains("refused this token (401")
        );
    }
    assert_eq!(
        checks(),
        asked,
        "a token refused within the check interval is refused again without asking Mattermost"
    );

    let a = h::raw_call(
        &server.endpoint(),
        None,
        "list_saved",
        json!({}),
        &[("Authorization", "Basic YTpi")],
    )
    .await;
    assert_eq!(a.status, 401);
    assert!(
        a.json()["message"]
            .as_str()
            .unwrap_or("")
            .contains("another scheme than Bearer")
    );
    assert!(!server.log().contains("nosuchtoken"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_is_checked_with_mattermost_once_per_interval_and_a_later_refusal_names_the_bearer()
{
    let two = two_people(10);
    let sim = Sim::start(two.world).await.expect("sim");
    let server = h::spawn(&sim.url(), &[("MATTERMOST_MCP_TOKEN_CHECK_SECS", "4")], &[]).await;
    let token = sim.token("alice");
    let checks = || {
        sim.log()
            .iter()
            .filter(|r| r.path == "/api/v4/users/me" && r.method == "GET")
            .count()
    };
    for _ in 0..5 {
        let r = h::tool_result(
            &h::raw_call(
                &server.endpoint(),
                Some(&token),
                "list_saved",
                json!({}),
                &[],
            )
            .await,
        );
        assert_ne!(r["isError"], json!(true), "{r}");
    }
    assert_eq!(checks(), 1, "five calls, one check");

    // Within the interval the person is trusted; Mattermost's own 401 then names the bearer.
    sim.expire_token("alice");
    let r = h::tool_result(
        &h::raw_call(
            &server.endpoint(),
            Some(&token),
            "list_saved",
            json!({}),
            &[],
        )
        .await,
    );
    assert_eq!(r["isError"], json!(true), "{r}");
    assert!(r.get("structuredContent").is_none(), "{r}");
    let error: serde_json::Value =
        serde_json::from_str(r["content"][0]["text"].as_str().unwrap_or_default())
            .expect("the error's text is JSON");
    let message = error["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        message.contains("bearer token") && !message.contains("MATTERMOST_TOKEN"),
        "{message}"
    );

    // After it, the token is checked again and refused at the door.
    tokio::time::sleep(std::time::Duration::from_millis(4100)).await;
    let a = h::raw_call(
        &server.endpoint(),
        Some(&token),
        "list_saved",
        json!({}),
        &[],
    )
    .await;
    assert_eq!(a.status, 401, "{}", a.body);
    assert_eq!(checks(), 2);
    assert!(!server.log().contains(&token));
}

#[tokio::test(flavor = "multi_thread")]
async fn mattermost_token_is_not_used_over_http_and_the_server_says_so() {
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let server = h::spawn(
        &sim.url(),
        &[("MATTERMOST_TOKEN", &sim.token("alice"))],
        &[],
    )
    .await;
    assert!(
        server
            .log()
            .contains("MATTERMOST_TOKEN is set but not used"),
        "{}",
        server.log()
    );
    let a = h::raw_call(&server.endpoint(), None, "list_saved", json!({}), &[]).await;
    assert_eq!(
        a.status, 401,
        "the environment's token is not anyone's: {}",
        a.body
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn with_stateless_set_a_2025_11_25_client_is_served_without_a_session() {
    let two = two_people(30);
    let sim = Sim::start(two.world).await.expect("sim");
    let server = h::spawn(&sim.url(), &[("MATTERMOST_MCP_STATELESS", "true")], &[]).await;
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let opened = h::send(
        h::http()
            .post(server.endpoint())
            .bearer_auth(sim.token("alice"))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .body(init.to_string()),
    )
    .await;
    assert_eq!(opened.status, 200, "{}", opened.body);
    assert!(
        opened.header("mcp-session-id").is_none(),
        "no session is opened"
    );
    let client = h::connect(
        &server.endpoint(),
        &sim.token("alice"),
        Generation::Sessions,
    )
    .await;
    assert_eq!(client.protocol().as_deref(), Some("2025-11-25"));
    let pages = client
        .pages("read_channel", json!({"channel": two.shared, "limit": 8}))
        .await;
    exactly_once(
        &h::item_ids(&pages),
        &two.shared_posts,
        "read_channel, stateless",
    );
}
