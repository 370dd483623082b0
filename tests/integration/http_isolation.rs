//! One process, many people: two people at once over HTTP see only their own posts, saved lists,
//! errors and cursors, never each other's token; and the persons the server keeps are bounded.

use crate::http::{exactly_once, two_people};
use crate::http_harness::{self as h, Generation};
use mattermost_sim::Sim;
use serde_json::{Value, json};

fn text(v: &Value) -> String {
    v.to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn two_people_at_once_get_only_their_own_results_errors_and_cursors_and_no_token_of_the_other()
 {
    let two = two_people(60);
    let sim = Sim::start(two.world).await.expect("sim");
    let server = h::spawn(&sim.url(), &[], &[]).await;
    let (alice_token, bob_token) = (sim.token("alice"), sim.token("bob"));
    let alice = h::connect(&server.endpoint(), &alice_token, Generation::Sessions).await;
    let bob = h::connect(&server.endpoint(), &bob_token, Generation::Stateless).await;

    // Each reads their own private channel and saved posts, and tries the other's channel, ten times,
    // both at once.
    let run = |c: &'static h::Client, mine: String, theirs: String| async move {
        let mut seen = Vec::new();
        for _ in 0..10 {
            let own = c
                .pages("read_channel", json!({"channel": mine, "limit": 4}))
                .await;
            let saved = c.pages("list_saved", json!({"limit": 5})).await;
            let refused = c.refused("read_channel", json!({"channel": theirs})).await;
            seen.push((h::item_ids(&own), h::item_ids(&saved), own, saved, refused));
        }
        seen
    };
    let alice: &'static h::Client = Box::leak(Box::new(alice));
    let bob: &'static h::Client = Box::leak(Box::new(bob));
    let (a, b) = tokio::join!(
        tokio::spawn(run(alice, two.alice_only.clone(), two.bob_only.clone())),
        tokio::spawn(run(bob, two.bob_only.clone(), two.alice_only.clone()))
    );
    let (a, b) = (a.expect("alice's calls"), b.expect("bob's calls"));
    let alice_posts = sim.with_world(|w| w.post_ids_in(&two.alice_only));
    let bob_posts = sim.with_world(|w| w.post_ids_in(&two.bob_only));
    for (own, saved, own_pages, saved_pages, refused) in &a {
        exactly_once(own, &alice_posts, "alice's channel");
        exactly_once(saved, &two.alice_saved, "alice's saved posts");
        for v in own_pages.iter().chain(saved_pages).chain([refused]) {
            let t = text(v);
            assert!(!t.contains("bob secret") && !t.contains(&bob_token), "{t}");
            assert!(!bob_posts.iter().any(|p| t.contains(p.as_str())), "{t}");
        }
    }
    for (own, saved, own_pages, saved_pages, refused) in &b {
        exactly_once(own, &bob_posts, "bob's channel");
        exactly_once(saved, &two.bob_saved, "bob's saved posts");
        for v in own_pages.iter().chain(saved_pages).chain([refused]) {
            let t = text(v);
            assert!(
                !t.contains("alice secret") && !t.contains(&alice_token),
                "{t}"
            );
            assert!(!alice_posts.iter().any(|p| t.contains(p.as_str())), "{t}");
        }
    }

    // Mattermost saw each private channel read only with its member's token.
    for r in sim.log().iter().filter(|r| r.status == 200) {
        if r.path.contains(&two.alice_only) {
            assert_eq!(r.username.as_deref(), Some("alice"), "{}", r.path);
        }
        if r.path.contains(&two.bob_only) {
            assert_eq!(r.username.as_deref(), Some("bob"), "{}", r.path);
        }
    }

    // A cursor made for alice is refused for bob, and the refusal tells bob nothing of alice's list.
    let first = alice.ok("list_saved", json!({"limit": 2})).await;
    let cursor = first["next_cursor"].as_str().expect("a cursor").to_string();
    let refused = bob
        .refused("list_saved", json!({"limit": 2, "cursor": cursor}))
        .await;
    assert_eq!(refused["kind"], json!("bad_cursor"), "{refused}");
    assert!(
        !two.alice_saved
            .iter()
            .any(|p| text(&refused).contains(p.as_str()))
    );

    // The log names each person by a hash prefix and username, never a token.
    let log = server.log();
    assert!(log.contains("@alice") && log.contains("@bob"));
    assert!(
        !log.contains(&alice_token) && !log.contains(&bob_token),
        "{log}"
    );
    let _ = sim;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_persons_kept_are_bounded_in_number_and_idle_time() {
    let mut two = two_people(5);
    let carol = two.world.user("carol");
    let _ = carol;
    let sim = Sim::start(two.world).await.expect("sim");
    let checks = |who: &str| {
        sim.log()
            .iter()
            .filter(|r| r.path == "/api/v4/users/me" && r.username.as_deref() == Some(who))
            .count()
    };
    let call = |endpoint: String, token: String| async move {
        let a = h::raw_call(&endpoint, Some(&token), "list_saved", json!({}), &[]).await;
        assert_eq!(a.status, 200, "{}", a.body);
    };

    // At most two persons: a third pushes out the least recently seen, who is checked again.
    let server = h::spawn(&sim.url(), &[("MATTERMOST_MCP_MAX_PEOPLE", "2")], &[]).await;
    for who in ["alice", "bob", "alice", "carol", "alice"] {
        call(server.endpoint(), sim.token(who)).await;
    }
    assert_eq!(
        checks("alice"),
        1,
        "alice stayed: she was seen more recently than bob"
    );
    call(server.endpoint(), sim.token("bob")).await;
    assert_eq!(checks("bob"), 2, "bob was forgotten when carol came");

    // A person idle past the idle time is forgotten.
    sim.clear_log();
    let idle = h::spawn(&sim.url(), &[("MATTERMOST_MCP_PERSON_IDLE_SECS", "2")], &[]).await;
    call(idle.endpoint(), sim.token("alice")).await;
    call(idle.endpoint(), sim.token("alice")).await;
    assert_eq!(checks("alice"), 1);
    tokio::time::sleep(std::time::Duration::from_millis(2300)).await;
    call(idle.endpoint(), sim.token("alice")).await;
    assert_eq!(checks("alice"), 2, "forgotten after two idle seconds");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_answers_only_the_person_who_opened_it() {
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let server = h::spawn(&sim.url(), &[], &[]).await;
    let post = |token: String, body: Value, session: Option<String>| {
        let mut r = h::http()
            .post(server.endpoint())
            .bearer_auth(token)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .body(body.to_string());
        if let Some(s) = session {
            r = r
                .header("Mcp-Session-Id", s)
                .header("MCP-Protocol-Version", "2025-11-25");
        }
        h::send(r)
    };
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let opened = post(sim.token("alice"), init, None).await;
    let session = opened.header("mcp-session-id").expect("a session");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "list_saved", "arguments": {}}});
    let bob = post(sim.token("bob"), call.clone(), Some(session.clone())).await;
    assert_eq!(bob.status, 404, "bob on alice's session: {}", bob.body);
    assert!(!bob.body.contains("alice"), "{}", bob.body);
    let alice = post(sim.token("alice"), call, Some(session.clone())).await;
    assert_eq!(alice.status, 200, "{}", alice.body);
    assert!(alice.body.contains("items"), "{}", alice.body);

    // Only its opener ends it; the end is 204 (what clients expect of a DELETE that worked).
    let end = |token: String| {
        h::send(
            h::http()
                .delete(server.endpoint())
                .bearer_auth(token)
                .header("Mcp-Session-Id", &session)
                .header("MCP-Protocol-Version", "2025-11-25"),
        )
    };
    assert_eq!(end(sim.token("bob")).await.status, 404);
    assert_eq!(end(sim.token("alice")).await.status, 204);
}
