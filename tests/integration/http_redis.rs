//! A team's deployment sharing its state in Redis (`MATTERMOST_MCP_REDIS_URL`): three `serve --http`
//! behind nginx routing round-robin (no sticky routing), each request on another instance than the
//! one before, with Debian's `redis-server` run by the test on a port of its own.
//!
//! - 2025-11-25 sessions continue on any instance, and `read_channel` and `list_saved` page to their
//!   ends with one instance killed mid-walk (the one that opened the session): every item once.
//! - One person's rate and running calls are counted once across the three instances, and a token
//!   is checked with Mattermost once for all of them (its verdict, by SHA-256, is shared).
//! - Redis going away: `/readyz` says so, each instance limits by itself (three times the rate in
//!   all), and every token is still checked with Mattermost, a refused or expired one refused.
//!
//! Without redis-server (or nginx) the tests say so loudly and are skipped; with
//! MATTERMOST_MCP_REQUIRE_REDIS=1 (as CI sets) a missing redis-server fails them instead.

use crate::http::{Two, exactly_once, two_people};
use crate::http_harness::{self as h, Generation, Instance};
use crate::http_nginx::{Nginx, free_port, nginx_binary, posts_served, start_nginx};
use mattermost_sim::{Fault, FaultRule, Sim};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn redis_binary() -> Option<PathBuf> {
    ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// Says loudly, past the test harness's capture, that the test did not run (or fails, when Redis
/// is required).
fn skip_loudly(why: &str) {
    assert!(
        std::env::var("MATTERMOST_MCP_REQUIRE_REDIS").is_err(),
        "redis-server is required here (MATTERMOST_MCP_REQUIRE_REDIS is set): {why}"
    );
    let banner = format!(
        "\n{line}\n!!! SKIPPED: the Redis multi-instance test did not run: {why}.\n!!! Install it (apt-get install -y redis-server nginx) to run it; CI installs both.\n{line}\n",
        line = "!".repeat(78)
    );
    let _ = Command::new("sh")
        .arg("-c")
        .arg("printf '%s\\n' \"$0\" >&2")
        .arg(&banner)
        .status();
}

/// Both binaries, or a loud skip.
fn binaries() -> Option<(PathBuf, PathBuf)> {
    let Some(redis) = redis_binary() else {
        skip_loudly("redis-server is not installed");
        return None;
    };
    let Some(nginx) = nginx_binary() else {
        skip_loudly("nginx is not installed");
        return None;
    };
    Some((redis, nginx))
}

/// A redis-server of the test's own, on its own port, keeping nothing on disk; killed when dropped.
struct Redis {
    binary: PathBuf,
    port: u16,
    child: Option<Child>,
}

impl Redis {
    fn start(binary: &std::path::Path, port: u16) -> Redis {
        let mut r = Redis {
            binary: binary.to_path_buf(),
            port,
            child: None,
        };
        r.restart();
        r
    }

    /// Starts it (again) on its port, and waits until it answers PING.
    fn restart(&mut self) {
        let dir = std::env::temp_dir();
        let child = Command::new(&self.binary)
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .arg("--dir")
            .arg(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        self.child = Some(child);
        for _ in 0..100 {
            if self.ping() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("redis-server did not answer on {}", self.port);
    }

    fn ping(&self) -> bool {
        let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let _ = s.set_read_timeout(Some(Duration::from_secs(1)));
        let mut buf = [0u8; 7];
        s.write_all(b"PING\r\n").is_ok() && s.read_exact(&mut buf).is_ok() && &buf == b"+PONG\r\n"
    }

    /// Redis goes away at once (SIGKILL, as a crash or a lost network would).
    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Three instances against `sim` sharing `redis`, all naming nginx's address as theirs, nginx
/// round-robin in front.
async fn three_behind_nginx(
    sim: &Sim,
    nginx: &std::path::Path,
    redis: &Redis,
    extra: &[(&str, &str)],
) -> (Vec<Instance>, Nginx, String) {
    let port = free_port();
    let public = format!("http://127.0.0.1:{port}");
    let url = redis.url();
    let mut env = vec![
        ("MATTERMOST_MCP_PUBLIC_URL", public.as_str()),
        ("MATTERMOST_MCP_REDIS_URL", url.as_str()),
    ];
    env.extend_from_slice(extra);
    let mut instances = Vec::new();
    for _ in 0..3 {
        instances.push(h::spawn(&sim.url(), &env, &[]).await);
    }
    let ports: Vec<u16> = instances.iter().map(|i| i.port).collect();
    let nginx = start_nginx(nginx, port, &ports, "");
    (instances, nginx, format!("{public}/mcp"))
}

/// The requests that checked `who`'s token with Mattermost (GET /users/me, as that person).
fn token_checks(sim: &Sim, who: Option<&str>) -> usize {
    sim.log()
        .iter()
        .filter(|r| r.method == "GET" && r.path == "/api/v4/users/me")
        .filter(|r| who.is_none() || r.username.as_deref() == who)
        .count()
}

/// Sends `n` stateless `tools/list` requests through nginx one after another; their statuses and
/// the instance that answered each.
async fn send_n(endpoint: &str, token: &str, n: usize) -> Vec<(u16, String, Option<String>)> {
    let mut out = Vec::new();
    for i in 0..n {
        let (headers, body) = h::stateless_request("tools/list", json!({}), i as u64 + 1);
        let mut req = h::http()
            .post(endpoint)
            .bearer_auth(token)
            .body(body.to_string());
        for (k, v) in headers {
            req = req.header(k, v);
        }
        let a = h::send(req).await;
        out.push((
            a.status,
            a.header("x-upstream").unwrap_or_default(),
            a.header("retry-after"),
        ));
    }
    out
}

fn count(statuses: &[(u16, String, Option<String>)], status: u16) -> usize {
    statuses.iter().filter(|(s, _, _)| *s == status).count()
}

/// Whether the instance's log shows `text` within a few seconds (its log is read as it comes).
async fn logged(instance: &Instance, text: &str) -> bool {
    for _ in 0..50 {
        if instance.log().contains(text) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

async fn readyz(instance: &Instance) -> (u16, Value) {
    let a = h::send(h::http().get(format!("{}/readyz", instance.base()))).await;
    (a.status, a.json())
}

#[tokio::test(flavor = "multi_thread")]
async fn sessions_shared_in_redis_page_every_item_once_with_the_opening_instance_killed_mid_walk() {
    let Some((redis_bin, nginx_bin)) = binaries() else {
        return;
    };
    let Two {
        world,
        shared,
        shared_posts,
        alice_saved,
        ..
    } = two_people(150);
    let sim = Sim::start(world).await.expect("sim");
    let redis = Redis::start(&redis_bin, free_port());
    let (mut instances, _nginx, endpoint) = three_behind_nginx(&sim, &nginx_bin, &redis, &[]).await;
    for i in &instances {
        let (status, body) = readyz(i).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["status"], "ready", "{body}");
        assert_eq!(body["shared_state"]["shared"], true, "{body}");
    }
    let token = sim.token("alice");
    sim.clear_log();

    // A 2025-11-25 client: initialize lands on one instance, the rest go round-robin.
    let client = h::connect(&endpoint, &token, Generation::Sessions).await;
    assert_eq!(client.protocol().as_deref(), Some("2025-11-25"));
    let opened: Vec<usize> = (0..3)
        .filter(|&i| instances[i].log().contains(" POST /mcp 200 "))
        .collect();
    assert_eq!(opened.len(), 1, "initialize was answered by one instance");
    let opener = opened[0];

    // Both lists, a page of each in turn, so both walks span the kill.
    let mut rc_args = json!({"channel": shared, "limit": 9});
    let mut ls_args = json!({"limit": 2});
    let (mut rc_ids, mut ls_ids) = (Vec::new(), Vec::new());
    let (mut rc_done, mut ls_done) = (false, false);
    let mut pages = 0;
    let mut killed_after = None;
    let mut served_before_kill = Vec::new();
    // A request sent while nginx is still finding out that the killed instance is gone can fail on its
    // way (the client's connection closed before the answer); the cursor makes sending it again safe,
    // and every item must still come exactly once. Once, right after the kill, at most.
    let mut resent = false;
    let page_of = async |tool: &str, args: &Value, just_killed: bool, resent: &mut bool| {
        let sent = client.try_call(tool, args.clone()).await;
        let r = match sent {
            Ok(r) => r,
            Err(e) if just_killed && !*resent => {
                eprintln!("{tool} failed on its way right after the kill ({e}); sent again");
                *resent = true;
                client.call(tool, args.clone()).await
            }
            Err(e) => panic!("{tool}: protocol error {e}"),
        };
        h::succeeded(tool, args, r)
    };
    while !(rc_done && ls_done) {
        let just_killed = killed_after == Some(pages);
        if !rc_done {
            let page = page_of("read_channel", &rc_args, just_killed, &mut resent).await;
            rc_ids.extend(h::item_ids(std::slice::from_ref(&page)));
            match page["next_cursor"].as_str() {
                Some(c) => rc_args["cursor"] = json!(c),
                None => rc_done = true,
            }
        }
        if !ls_done {
            let page = page_of("list_saved", &ls_args, just_killed, &mut resent).await;
            ls_ids.extend(h::item_ids(std::slice::from_ref(&page)));
            match page["next_cursor"].as_str() {
                Some(c) => ls_args["cursor"] = json!(c),
                None => ls_done = true,
            }
        }
        pages += 1;
        if pages == 6 {
            assert!(
                !rc_done && !ls_done,
                "the kill comes mid-walk, for both lists"
            );
            // The instance that opened the session dies (SIGKILL, no goodbye) between two pages.
            served_before_kill = posts_served(&instances);
            instances[opener]
                .child
                .start_kill()
                .expect("the instance is killed");
            let _ = instances[opener].child.wait().await;
            killed_after = Some(pages);
        }
        assert!(pages < 200, "the walks do not end");
    }
    assert!(killed_after.is_some(), "an instance was killed");
    assert!(
        rc_ids.len() > 6 * 9 && ls_ids.len() > 6 * 2,
        "pages came after the kill"
    );
    exactly_once(
        &rc_ids,
        &shared_posts,
        "read_channel across a killed instance",
    );
    exactly_once(&ls_ids, &alice_saved, "list_saved across a killed instance");
    let after = posts_served(&instances);
    for i in (0..3).filter(|&i| i != opener) {
        assert!(
            after[i] >= served_before_kill[i] + 4,
            "the survivor {i} served pages after the kill: {served_before_kill:?} -> {after:?}"
        );
    }
    assert!(
        served_before_kill[opener] >= 3,
        "the killed instance had served pages: {served_before_kill:?}"
    );
    eprintln!(
        "redis sessions: read_channel {} items, list_saved {} items, in {pages} rounds; instance {opener} \
         (the session's opener) killed after round {}; calls served {after:?}",
        rc_ids.len(),
        ls_ids.len(),
        killed_after.unwrap_or(0)
    );
    // alice's token was checked with Mattermost once for all three instances: the others read the
    // verdict from Redis.
    assert_eq!(
        token_checks(&sim, Some("alice")),
        1,
        "one token check for the team"
    );

    // The session is alice's on every instance: bob gets 404 with its id, alice 200.
    let session = {
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
        let a = h::send(
            h::http()
                .post(&endpoint)
                .bearer_auth(&token)
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json")
                .body(init.to_string()),
        )
        .await;
        a.header("mcp-session-id").expect("a session")
    };
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}});
    for (who, expected) in [("bob", 404), ("bob", 404), ("alice", 200), ("alice", 200)] {
        let a = h::send(
            h::http()
                .post(&endpoint)
                .bearer_auth(sim.token(who))
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json")
                .header("Mcp-Session-Id", &session)
                .header("MCP-Protocol-Version", "2025-11-25")
                .body(list.to_string()),
        )
        .await;
        assert_eq!(
            a.status,
            expected,
            "{who} on {:?}: {}",
            a.header("x-upstream"),
            a.body
        );
    }
    let _ = client.service.cancel().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn one_persons_rate_and_running_calls_are_counted_once_across_three_instances() {
    let Some((redis_bin, nginx_bin)) = binaries() else {
        return;
    };
    let mut world = two_people(3).world;
    world.user("carol");
    let sim = Sim::start(world).await.expect("sim");
    let redis = Redis::start(&redis_bin, free_port());
    // 5 a minute: a token comes back every 12 s, far longer than the requests below take.
    let (_instances, _nginx, endpoint) = three_behind_nginx(
        &sim,
        &nginx_bin,
        &redis,
        &[
            ("MATTERMOST_MCP_PERSON_RATE", "5"),
            ("MATTERMOST_MCP_PERSON_CONCURRENCY", "2"),
        ],
    )
    .await;
    sim.clear_log();

    let started = Instant::now();
    let answers = send_n(&endpoint, &sim.token("alice"), 15).await;
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(12),
        "the requests took {took:?}: too slow for the count to be exact"
    );
    let statuses: Vec<u16> = answers.iter().map(|(s, _, _)| *s).collect();
    assert_eq!(
        count(&answers, 200),
        5,
        "5 a minute for the person across all instances: {statuses:?}"
    );
    assert_eq!(count(&answers, 429), 10, "{statuses:?}");
    assert_eq!(statuses[..5], [200; 5], "the first five pass: {statuses:?}");
    let on: std::collections::BTreeSet<&String> = answers.iter().map(|(_, u, _)| u).collect();
    assert_eq!(on.len(), 3, "every instance answered: {answers:?}");
    for (_, _, retry) in answers.iter().filter(|(s, _, _)| *s == 429) {
        let secs: u64 = retry
            .as_deref()
            .and_then(|r| r.parse().ok())
            .expect("Retry-After");
        assert!((1..=12).contains(&secs), "Retry-After {secs}");
    }
    // The token was checked with Mattermost once for the three instances.
    assert_eq!(token_checks(&sim, Some("alice")), 1);
    // Another person has their own bucket.
    let bob = send_n(&endpoint, &sim.token("bob"), 6).await;
    assert_eq!(count(&bob, 200), 5, "{bob:?}");

    // A token Mattermost refuses is asked about once for the team; every instance refuses it.
    let before = token_checks(&sim, None);
    let bogus = send_n(&endpoint, "not-a-real-token-at-all", 3).await;
    assert_eq!(count(&bogus, 401), 3, "{bogus:?}");
    assert_eq!(token_checks(&sim, None) - before, 1, "one check, shared");

    // Running calls: 2 at once for a person, across instances. Two slow calls hold two instances;
    // a third call, on the third instance, is refused; once they end, calls pass again.
    sim.inject(FaultRule::always(
        "/api/v4/users/{user_id}/posts/flagged",
        Fault::Delay(Duration::from_secs(4)),
    ));
    // carol, whose bucket is full (alice's and bob's are empty now).
    let carol = sim.token("carol");
    let slow = |token: String, endpoint: String| async move {
        h::raw_call(&endpoint, Some(&token), "list_saved", json!({}), &[]).await
    };
    let first = tokio::spawn(slow(carol.clone(), endpoint.clone()));
    tokio::time::sleep(Duration::from_millis(600)).await;
    let second = tokio::spawn(slow(carol.clone(), endpoint.clone()));
    tokio::time::sleep(Duration::from_millis(600)).await;
    let third = h::raw_call(&endpoint, Some(&carol), "list_saved", json!({}), &[]).await;
    assert_eq!(third.status, 429, "{}", third.body);
    assert!(
        third.body.contains("2 calls running"),
        "names the limit: {}",
        third.body
    );
    let (first, second) = (first.await.expect("first"), second.await.expect("second"));
    assert_eq!((first.status, second.status), (200, 200));
    let upstreams = [
        first.header("x-upstream"),
        second.header("x-upstream"),
        third.header("x-upstream"),
    ];
    let distinct: std::collections::BTreeSet<_> = upstreams.iter().collect();
    assert_eq!(distinct.len(), 3, "three instances: {upstreams:?}");
    sim.clear_faults();
    let again = h::raw_call(&endpoint, Some(&carol), "list_saved", json!({}), &[]).await;
    assert_eq!(again.status, 200, "places freed: {}", again.body);
}

#[tokio::test(flavor = "multi_thread")]
async fn when_redis_goes_away_readyz_says_so_limits_fall_back_and_tokens_are_still_checked() {
    let Some((redis_bin, nginx_bin)) = binaries() else {
        return;
    };
    let mut world = two_people(3).world;
    world.user("carol");
    let sim = Sim::start(world).await.expect("sim");
    let mut redis = Redis::start(&redis_bin, free_port());
    let (instances, _nginx, endpoint) = three_behind_nginx(
        &sim,
        &nginx_bin,
        &redis,
        &[
            ("MATTERMOST_MCP_PERSON_RATE", "4"),
            ("MATTERMOST_MCP_TOKEN_CHECK_SECS", "5"),
        ],
    )
    .await;
    // alice is known everywhere while Redis is up.
    let alice = sim.token("alice");
    assert_eq!(count(&send_n(&endpoint, &alice, 3).await, 200), 3);

    redis.kill();
    for i in &instances {
        let (status, body) = readyz(i).await;
        assert_eq!(status, 200, "still serving: {body}");
        assert_eq!(body["status"], "degraded", "{body}");
        assert_eq!(body["shared_state"]["shared"], false, "{body}");
        assert!(
            body["shared_state"]["unreachable"]
                .as_str()
                .is_some_and(|w| !w.is_empty()),
            "says why: {body}"
        );
    }

    // Limits fall back to each instance's own: 4 a minute on each of the three, 12 in all.
    sim.clear_log();
    let started = Instant::now();
    let bob = send_n(&endpoint, &sim.token("bob"), 15).await;
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "bob's requests took {took:?}, past the token check interval: the count would not be exact"
    );
    let statuses: Vec<u16> = bob.iter().map(|(s, _, _)| *s).collect();
    assert_eq!(count(&bob, 200), 12, "per instance: {statuses:?}");
    assert_eq!(count(&bob, 429), 3, "{statuses:?}");
    // bob's token was checked by each instance itself, none trusting what it could not read.
    assert_eq!(token_checks(&sim, Some("bob")), 3);
    for i in &instances {
        assert!(
            logged(i, "does not answer").await,
            "each instance warned: {}",
            i.log()
        );
    }

    // Authentication holds: a made-up token is refused by every instance, each asking Mattermost.
    let before = token_checks(&sim, None);
    let bogus = send_n(&endpoint, "not-a-real-token-at-all", 3).await;
    assert_eq!(count(&bogus, 401), 3, "{bogus:?}");
    assert_eq!(token_checks(&sim, None) - before, 3);
    // alice's token expires; once her last check is older than the interval, each instance asks
    // again and refuses her.
    sim.expire_token("alice");
    tokio::time::sleep(Duration::from_millis(5_100)).await;
    let before = token_checks(&sim, Some("alice"));
    let refused = send_n(&endpoint, &alice, 3).await;
    assert_eq!(count(&refused, 401), 3, "{refused:?}");
    assert_eq!(
        token_checks(&sim, Some("alice")) - before,
        3,
        "each instance asked"
    );
    eprintln!(
        "redis gone: bob's 15 requests in {took:?}: {} passed, {} refused; token checks by bob {}",
        count(&bob, 200),
        count(&bob, 429),
        token_checks(&sim, Some("bob"))
    );

    // Redis comes back: each instance finds it again (readyz says so), and limits are shared again.
    redis.restart();
    for i in &instances {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let (status, body) = readyz(i).await;
            if status == 200 && body["status"] == "ready" {
                assert_eq!(body["shared_state"]["shared"], true, "{body}");
                break;
            }
            assert!(
                Instant::now() < deadline,
                "Redis is not found again: {body}"
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        assert!(logged(i, "answers again").await, "{}", i.log());
    }
    let carol = send_n(&endpoint, &sim.token("carol"), 7).await;
    assert_eq!(
        count(&carol, 200),
        4,
        "carol's 4 a minute are counted once across the instances again: {carol:?}"
    );
}

/// A stateless `tools/call` of `tool` through nginx, answering a confirmation when `answer` holds
/// its request state.
async fn call_answering(
    endpoint: &str,
    token: &str,
    tool: &str,
    args: Value,
    state: Option<&str>,
) -> h::Answer {
    let mut params = json!({"name": tool, "arguments": args});
    if let Some(state) = state {
        params["inputResponses"] =
            json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
        params["requestState"] = json!(state);
    }
    let (headers, mut body) = h::stateless_request("tools/call", params, 7);
    // A client that can ask the person (elicitation, in forms).
    body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] =
        json!({"elicitation": {"form": {}}});
    let mut req = h::http()
        .post(endpoint)
        .bearer_auth(token)
        .body(body.to_string());
    for (k, v) in headers {
        req = req.header(k, v);
    }
    h::send(req).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_2026_07_28_confirmation_asked_on_one_instance_is_answered_on_another_and_used_once() {
    let Some((redis_bin, nginx_bin)) = binaries() else {
        return;
    };
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let redis = Redis::start(&redis_bin, free_port());
    let (_instances, _nginx, endpoint) = three_behind_nginx(
        &sim,
        &nginx_bin,
        &redis,
        &[("MATTERMOST_ALLOW_WRITES", "true")],
    )
    .await;
    let token = sim.token("alice");
    let status_puts = |sim: &Sim| {
        sim.log()
            .iter()
            .filter(|r| r.method == "PUT" && r.path.ends_with("/status"))
            .count()
    };
    // Asked on one instance...
    let asked = call_answering(
        &endpoint,
        &token,
        "set_status",
        json!({"status": "away"}),
        None,
    )
    .await;
    let r = h::tool_result(&asked);
    assert_eq!(r["resultType"], "input_required", "{r}");
    let state = r["requestState"]
        .as_str()
        .expect("a request state")
        .to_string();
    // ...answered on the next: the write goes through, once.
    let answered = call_answering(
        &endpoint,
        &token,
        "set_status",
        json!({"status": "away"}),
        Some(&state),
    )
    .await;
    assert_ne!(asked.header("x-upstream"), answered.header("x-upstream"));
    let r = h::tool_result(&answered);
    assert_ne!(
        r["isError"],
        json!(true),
        "answered on another instance: {r}"
    );
    assert_eq!(status_puts(&sim), 1);
    // The same answer again, on each of the other instances: used already, nothing sent.
    for _ in 0..2 {
        let again = call_answering(
            &endpoint,
            &token,
            "set_status",
            json!({"status": "away"}),
            Some(&state),
        )
        .await;
        let r = h::tool_result(&again);
        assert_eq!(r["isError"], json!(true), "replayed: {r}");
        assert!(r.to_string().contains("used already"), "{r}");
    }
    assert_eq!(status_puts(&sim), 1, "one answer, one write");
}
