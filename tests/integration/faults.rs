//! Faults: rate limits, failing and slow servers, broken connections and answers that are not
//! Mattermost's. The server keeps working, loses nothing and says what happened.

use crate::harness::{self, ids};
use crate::read_channel::tied_channel;
use mattermost_sim::{Fault, FaultRule, Sim};
use serde_json::json;
use std::collections::BTreeSet;
use std::time::Duration;

const POSTS: &str = "/api/v4/channels/{channel_id}/posts";

fn posts_requests(sim: &Sim) -> usize {
    sim.log()
        .iter()
        .filter(|r| r.path.ends_with("/posts") && r.path.contains("/channels/"))
        .count()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_429_waits_as_retry_after_says_and_the_waits_are_reported_as_progress() {
    let (world, channel, _) = tied_channel(20, 1, 21);

    let (sim, mcp) = harness::start(world, "alice").await;
    sim.inject(FaultRule::times(
        POSTS,
        Fault::RateLimited {
            retry_after_secs: 1,
        },
        2,
    ));
    let started = std::time::Instant::now();
    let r = mcp
        .call_with_progress("read_channel", json!({"channel": channel, "limit": 5}))
        .await;
    assert_eq!(r.is_error, Some(false), "{:?}", r.structured_content);
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "it waited the two seconds Retry-After asked for"
    );
    assert_eq!(
        posts_requests(&sim),
        3,
        "two refused tries, then the one that worked"
    );
    let page = r.structured_content.unwrap_or_default();
    assert_eq!(page["returned"], json!(5));
    // Progress notifications arrive asynchronously; give them a moment.
    for _ in 0..50 {
        if mcp.progress().len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let progress = mcp.progress();
    assert_eq!(
        progress.len(),
        2,
        "one progress notification per wait: {progress:?}"
    );
    assert!(
        progress[0].contains("429") && progress[0].contains("waiting 1.0 s"),
        "{progress:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_429_that_goes_on_fails_after_three_tries_saying_so() {
    let (world, channel, _) = tied_channel(20, 2, 22);
    let (sim, mcp) = harness::start(world, "alice").await;
    sim.inject(FaultRule::always(
        POSTS,
        Fault::RateLimited {
            retry_after_secs: 0,
        },
    ));
    let e = mcp
        .refused("read_channel", json!({"channel": channel}))
        .await;
    assert_eq!(e["kind"], json!("rate_limited"), "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("call again"),
        "{e}"
    );
    assert_eq!(posts_requests(&sim), 3, "at most three tries");
    assert_eq!(e["requests"], json!(3));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_retry_after_longer_than_the_cap_is_not_waited_for() {
    let (world, channel, _) = tied_channel(5, 1, 23);
    let (sim, mcp) = harness::start(world, "alice").await;
    sim.inject(FaultRule::always(
        POSTS,
        Fault::RateLimited {
            retry_after_secs: 3600,
        },
    ));
    let started = std::time::Instant::now();
    let e = mcp
        .refused("read_channel", json!({"channel": channel}))
        .await;
    assert_eq!(e["kind"], json!("rate_limited"));
    assert!(
        e["message"].as_str().unwrap_or_default().contains("3600"),
        "the error quotes Retry-After: {e}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "an hour's wait is refused, not slept"
    );
    assert_eq!(posts_requests(&sim), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn reads_are_retried_after_502_503_504_and_a_cut_connection() {
    let (world, channel, posted) = tied_channel(30, 2, 24);
    let (sim, mcp) = harness::start(world, "alice").await;
    for fault in [
        Fault::Status(502),
        Fault::Status(503),
        Fault::Status(504),
        Fault::CutMidBody,
    ] {
        sim.clear_log();
        sim.inject(FaultRule::times(POSTS, fault.clone(), 1));
        let items = mcp
            .read_all("read_channel", json!({"channel": channel, "limit": 200}))
            .await;
        assert_eq!(
            items.len(),
            posted.len(),
            "{fault:?}: the page came whole after the retry"
        );
        assert_eq!(
            posts_requests(&sim),
            2,
            "{fault:?}: one failed try and one that worked"
        );
    }
    sim.inject(FaultRule::always(POSTS, Fault::Status(503)));
    let e = mcp
        .refused("read_channel", json!({"channel": channel}))
        .await;
    assert_eq!(e["kind"], json!("mattermost_failed"), "{e}");
    assert_eq!(e["requests"], json!(3), "a bounded number of tries");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_write_is_never_retried_blindly() {
    let (world, channel, _) = tied_channel(5, 1, 25);
    let sim = Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(
        &sim.url(),
        &sim.token("alice"),
        &[("MATTERMOST_ALLOW_WRITES", "true")],
        &[],
    )
    .await;
    sim.clear_log();
    sim.inject(FaultRule::always(
        "/api/v4/channels/members/{user_id}/view",
        Fault::Status(503),
    ));
    let e = mcp
        .refused("mark_channel_read", json!({"channel": channel}))
        .await;
    assert_eq!(e["kind"], json!("mattermost_failed"), "{e}");
    let views = sim
        .log()
        .iter()
        .filter(|r| r.path.ends_with("/view"))
        .count();
    assert_eq!(views, 1, "a request that changes data is sent once");
    sim.clear_faults();
    mcp.ok("mark_channel_read", json!({"channel": channel}))
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_request_slower_than_the_timeout_fails_saying_so() {
    let (world, channel, _) = tied_channel(5, 1, 26);
    let sim = Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(
        &sim.url(),
        &sim.token("alice"),
        &[("MATTERMOST_TIMEOUT_SECS", "1")],
        &[],
    )
    .await;
    sim.inject(FaultRule::always(
        POSTS,
        Fault::Delay(Duration::from_secs(3)),
    ));
    let started = std::time::Instant::now();
    let e = mcp
        .refused("read_channel", json!({"channel": channel}))
        .await;
    assert_eq!(e["kind"], json!("timeout"), "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("MATTERMOST_TIMEOUT_SECS"),
        "{e}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "the timeout, not the server, ended it"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_call_that_runs_out_of_its_budget_says_how_far_it_got() {
    let (world, channel, _) = tied_channel(5, 1, 27);
    let sim = Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(
        &sim.url(),
        &sim.token("alice"),
        &[("MATTERMOST_CALL_BUDGET_SECS", "1")],
        &[],
    )
    .await;
    sim.inject(FaultRule::times(POSTS, Fault::Status(502), 1));
    sim.inject(FaultRule::always(
        POSTS,
        Fault::Delay(Duration::from_secs(5)),
    ));
    let started = std::time::Instant::now();
    let e = mcp
        .refused("read_channel", json!({"channel": channel}))
        .await;
    let m = e["message"].as_str().unwrap_or_default();
    assert_eq!(e["kind"], json!("timeout"), "{e}");
    assert!(
        m.contains("time budget") && m.contains("after 2 Mattermost requests"),
        "it says how far it got: {m}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the budget, not the slow server, ended it"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_list_call_that_fails_part_way_keeps_its_cursor_valid() {
    let (world, channel, posted) = tied_channel(120, 3, 28);
    let (sim, mcp) = harness::start(world, "alice").await;
    let first = mcp
        .ok("read_channel", json!({"channel": channel, "limit": 40}))
        .await;
    let cursor = first["next_cursor"]
        .as_str()
        .expect("more pages")
        .to_string();
    sim.inject(FaultRule::always(POSTS, Fault::Status(500)));
    let e = mcp
        .refused(
            "read_channel",
            json!({"channel": channel, "limit": 40, "cursor": cursor}),
        )
        .await;
    let m = e["message"].as_str().unwrap_or_default();
    assert!(
        m.contains("same cursor") && m.contains("nothing was skipped"),
        "{m}"
    );
    assert!(
        e.get("items").is_none() && e.get("next_cursor").is_none(),
        "no partial page is presented"
    );
    sim.clear_faults();
    let mut seen = ids(first["items"].as_array().map(Vec::as_slice).unwrap_or(&[]));
    seen.extend(ids(&mcp
        .read_all(
            "read_channel",
            json!({"channel": channel, "limit": 40, "cursor": cursor}),
        )
        .await));
    let unique: BTreeSet<&String> = seen.iter().collect();
    assert_eq!(
        unique.len(),
        posted.len(),
        "the same cursor, called again, loses nothing"
    );
    assert_eq!(seen.len(), posted.len(), "and repeats nothing");
}

#[tokio::test(flavor = "multi_thread")]
async fn mattermost_errors_become_errors_a_model_can_act_on() {
    let (mut world, channel, _) = tied_channel(5, 1, 29);
    let team = world.team_id("eng").unwrap_or_default();
    let bob = world.user_id("bob").unwrap_or_default();
    let secret = world.channel(
        &team,
        "secret",
        "Secret",
        mattermost_sim::ChannelKind::Private,
    );
    world.join(&secret, &bob);
    let (sim, mcp) = harness::start(world, "alice").await;

    let e = mcp
        .refused("read_channel", json!({"channel": secret}))
        .await;
    assert_eq!(e["kind"], json!("forbidden"), "{e}");
    assert!(
        e["message"].as_str().unwrap_or_default().contains(&secret),
        "names the channel: {e}"
    );

    let unknown = "zzzzzzzzzzzzzzzzzzzzzzzzzz";
    let e = mcp
        .refused("read_channel", json!({"channel": unknown}))
        .await;
    assert!(
        matches!(e["kind"].as_str(), Some("not_found" | "forbidden")),
        "{e}"
    );
    assert!(
        e["message"].as_str().unwrap_or_default().contains(unknown),
        "quotes the value: {e}"
    );

    sim.inject(FaultRule::times(POSTS, Fault::Status(500), 1));
    let e = mcp
        .refused("read_channel", json!({"channel": channel}))
        .await;
    let m = e["message"].as_str().unwrap_or_default();
    assert_eq!(e["kind"], json!("mattermost_failed"), "{e}");
    assert!(
        m.contains("request id") && e["request_id"].as_str().is_some_and(|r| !r.is_empty()),
        "quotes Mattermost's request id: {e}"
    );
    assert!(
        e["mattermost_error_id"]
            .as_str()
            .is_some_and(|r| !r.is_empty()),
        "and its error id: {e}"
    );

    sim.expire_token("alice");
    let e = mcp
        .refused("read_channel", json!({"channel": channel}))
        .await;
    assert_eq!(e["kind"], json!("unauthorized"));
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("MATTERMOST_TOKEN")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_answer_that_is_not_mattermost_is_named_as_such_with_the_url() {
    let (world, channel, _) = tied_channel(5, 1, 30);
    let (sim, mcp) = harness::start(world, "alice").await;
    for (fault, status, content_type) in [
        (Fault::Html, 502, "text/html"),
        (Fault::HtmlStatus(200), 200, "text/html; charset=utf-8"),
        (Fault::MalformedJson, 200, "application/json"),
    ] {
        sim.clear_faults();
        sim.inject(FaultRule::always(POSTS, fault.clone()));
        let e = mcp
            .refused("read_channel", json!({"channel": channel}))
            .await;
        assert_eq!(e["kind"], json!("not_mattermost"), "{fault:?}: {e}");
        let m = e["message"].as_str().unwrap_or_default();
        assert!(
            m.contains(&sim.url()) && m.contains("MATTERMOST_URL"),
            "{fault:?}: {m}"
        );
        assert!(
            m.contains(&format!("status {status}"))
                && m.contains(&format!("content type `{content_type}`")),
            "{fault:?}: the status and content type received: {m}"
        );
    }
}

/// A server that accepts connections and never answers: `initialize` still completes within 5 s, and
/// the first call says what is wrong.
#[tokio::test(flavor = "multi_thread")]
async fn an_address_that_accepts_but_never_answers_still_lets_the_client_start_and_the_first_call_says_why()
 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            open.push(socket);
        }
    });
    let started = std::time::Instant::now();
    // Requests may take 8 s: more than the 5 s a client waits for `initialize`.
    let mcp = harness::spawn(&url, "a-token", &[("MATTERMOST_TIMEOUT_SECS", "8")], &[]).await;
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "initialize answered after {took:?}"
    );
    let e = mcp
        .refused(
            "read_channel",
            json!({"channel": "abcdefghijklmnopqrstuvwxyz"}),
        )
        .await;
    assert!(
        matches!(e["kind"].as_str(), Some("timeout" | "unreachable")),
        "{e}"
    );
    let m = e["message"].as_str().unwrap_or_default();
    assert!(m.contains(&url) && m.contains("did not answer"), "{m}");
    held.abort();
}
