//! The HTTP server's defences, each shown to hold: Host and Origin allow-lists (403), the body limit
//! (413), each person's rate and concurrency (429 with Retry-After), health and readiness, in-flight
//! calls finished on SIGTERM, TLS with rustls, and loopback unless told otherwise.

use crate::http::two_people;
use crate::http_harness::{self as h, Generation};
use mattermost_sim::{Fault, FaultRule, Sim};
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread")]
async fn hosts_and_origins_outside_the_allow_list_are_403_and_listed_ones_pass() {
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let server = h::spawn(
        &sim.url(),
        &[("MATTERMOST_MCP_ALLOWED_ORIGINS", "http://localhost:6274")],
        &[],
    )
    .await;
    let token = sim.token("alice");
    let e = server.endpoint();
    let a = h::raw_call(
        &e,
        Some(&token),
        "list_saved",
        json!({}),
        &[("Host", "evil.example:80")],
    )
    .await;
    assert_eq!(a.status, 403, "{}", a.body);
    assert_eq!(a.json()["error"], json!("host_not_allowed"));
    assert!(
        a.json()["message"]
            .as_str()
            .unwrap_or("")
            .contains("\"evil.example\"")
    );

    let a = h::raw_call(
        &e,
        Some(&token),
        "list_saved",
        json!({}),
        &[("Origin", "https://evil.example")],
    )
    .await;
    assert_eq!(a.status, 403, "{}", a.body);
    assert_eq!(a.json()["error"], json!("origin_not_allowed"));
    let a = h::raw_call(
        &e,
        Some(&token),
        "list_saved",
        json!({}),
        &[("Origin", "null")],
    )
    .await;
    assert_eq!(a.status, 403);

    for origin in ["http://localhost:6274", &server.base()] {
        let a = h::raw_call(
            &e,
            Some(&token),
            "list_saved",
            json!({}),
            &[("Origin", origin)],
        )
        .await;
        assert_eq!(a.status, 200, "{origin}: {}", a.body);
    }
    let a = h::raw_call(
        &e,
        Some(&token),
        "list_saved",
        json!({}),
        &[("Host", "localhost")],
    )
    .await;
    assert_eq!(
        a.status, 200,
        "loopback names are allowed on a loopback server"
    );

    // Probes carry whatever Host the orchestrator gives; health answers them.
    let a = h::send(
        h::http()
            .get(format!("{}/healthz", server.base()))
            .header("Host", "10.1.2.3:8080"),
    )
    .await;
    assert_eq!(a.status, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_body_past_the_limit_is_413() {
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let server = h::spawn(
        &sim.url(),
        &[("MATTERMOST_MCP_MAX_BODY_BYTES", "2048")],
        &[],
    )
    .await;
    let token = sim.token("alice");
    let small = h::raw_call(
        &server.endpoint(),
        Some(&token),
        "list_saved",
        json!({}),
        &[],
    )
    .await;
    assert_eq!(small.status, 200, "{}", small.body);
    let big = h::raw_call(
        &server.endpoint(),
        Some(&token),
        "read_channel",
        json!({"channel": "x".repeat(5000)}),
        &[],
    )
    .await;
    assert_eq!(big.status, 413, "{}", big.body);
}

#[tokio::test(flavor = "multi_thread")]
async fn past_a_persons_rate_the_answer_is_429_with_retry_after_and_others_are_not_slowed() {
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let server = h::spawn(&sim.url(), &[("MATTERMOST_MCP_PERSON_RATE", "3")], &[]).await;
    let (alice, bob) = (sim.token("alice"), sim.token("bob"));
    for _ in 0..3 {
        let a = h::raw_call(
            &server.endpoint(),
            Some(&alice),
            "list_saved",
            json!({}),
            &[],
        )
        .await;
        assert_eq!(a.status, 200, "{}", a.body);
    }
    let a = h::raw_call(
        &server.endpoint(),
        Some(&alice),
        "list_saved",
        json!({}),
        &[],
    )
    .await;
    assert_eq!(a.status, 429, "{}", a.body);
    let wait: u64 = a
        .header("retry-after")
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert!((1..=21).contains(&wait), "{wait}");
    assert!(
        a.json()["message"]
            .as_str()
            .unwrap_or("")
            .contains("MATTERMOST_MCP_PERSON_RATE")
    );
    let b = h::raw_call(&server.endpoint(), Some(&bob), "list_saved", json!({}), &[]).await;
    assert_eq!(b.status, 200, "bob has his own rate: {}", b.body);
}

#[tokio::test(flavor = "multi_thread")]
async fn past_a_persons_concurrent_calls_the_answer_is_429_while_the_running_call_finishes() {
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let server = h::spawn(
        &sim.url(),
        &[("MATTERMOST_MCP_PERSON_CONCURRENCY", "1")],
        &[],
    )
    .await;
    let token = sim.token("alice");
    let warm = h::raw_call(
        &server.endpoint(),
        Some(&token),
        "list_saved",
        json!({}),
        &[],
    )
    .await;
    assert_eq!(warm.status, 200);
    sim.inject(FaultRule::everywhere(Fault::Delay(Duration::from_millis(
        1500,
    ))));
    // Two calls at once: whichever arrives second is refused while the first runs.
    let call = || {
        let (endpoint, t) = (server.endpoint(), token.clone());
        tokio::spawn(
            async move { h::raw_call(&endpoint, Some(&t), "list_saved", json!({}), &[]).await },
        )
    };
    let (one, two) = (call(), call());
    let (one, two) = (one.await.expect("a call"), two.await.expect("a call"));
    let (done, refused) = if one.status == 429 {
        (two, one)
    } else {
        (one, two)
    };
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert_eq!(refused.header("retry-after").as_deref(), Some("1"));
    assert!(
        refused.json()["message"]
            .as_str()
            .unwrap_or("")
            .contains("MATTERMOST_MCP_PERSON_CONCURRENCY")
    );
    let r = h::tool_result(&done);
    assert_ne!(r["isError"], json!(true), "{r}");
    sim.clear_faults();
    let again = h::raw_call(
        &server.endpoint(),
        Some(&token),
        "list_saved",
        json!({}),
        &[],
    )
    .await;
    assert_eq!(
        again.status, 200,
        "the place is free once the call's answer was sent"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn healthz_is_alive_and_readyz_follows_mattermost() {
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let server = h::spawn(&sim.url(), &[], &[]).await;
    let get = |p: &str| h::http().get(format!("{}{p}", server.base()));
    assert_eq!(h::send(get("/healthz")).await.status, 200);
    assert_eq!(h::send(get("/readyz")).await.status, 200);
    sim.inject(FaultRule::always("/api/v4/system/ping", Fault::Status(503)));
    tokio::time::sleep(Duration::from_millis(2200)).await;
    let r = h::send(get("/readyz")).await;
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(r.header("retry-after").as_deref(), Some("5"));
    assert_eq!(
        h::send(get("/healthz")).await.status,
        200,
        "alive all the same"
    );
    assert_eq!(h::send(get("/nothing")).await.status, 404);

    // A Mattermost that does not answer at all.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    let lone = h::spawn(&url, &[], &[]).await;
    let r = h::send(h::http().get(format!("{}/readyz", lone.base()))).await;
    assert_eq!(r.status, 503, "{}", r.body);
    // Anyone may ask: the answer names no address; the log says why.
    assert!(!r.body.contains(&url), "{}", r.body);
    assert!(lone.log().contains("could not connect"), "{}", lone.log());
}

#[tokio::test(flavor = "multi_thread")]
async fn sigterm_lets_the_call_in_flight_finish_then_the_server_exits_cleanly() {
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let mut server = h::spawn(&sim.url(), &[], &[]).await;
    let token = sim.token("alice");
    let client = h::connect(&server.endpoint(), &token, Generation::Sessions).await;
    client.ok("list_saved", json!({})).await;
    sim.inject(FaultRule::everywhere(Fault::Delay(Duration::from_millis(
        4000,
    ))));
    let (endpoint, t) = (server.endpoint(), token.clone());
    let in_flight = tokio::spawn(async move {
        h::raw_call(&endpoint, Some(&t), "list_saved", json!({}), &[]).await
    });
    let session_call = tokio::spawn(async move { client.ok("list_saved", json!({})).await });
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server.terminate();
    let r = h::tool_result(&in_flight.await.expect("the call in flight"));
    assert_ne!(r["isError"], json!(true), "{r}");
    let s = session_call.await.expect("the session's call in flight");
    assert!(s["items"].is_array(), "{s}");
    assert_eq!(
        server.exit_code(Duration::from_secs(20)).await,
        Some(0),
        "{}",
        server.log()
    );
    assert!(
        server.log().contains("waiting for 2 call(s) in flight"),
        "{}",
        server.log()
    );
    let after = h::http()
        .get(format!("{}/healthz", server.base()))
        .send()
        .await;
    assert!(after.is_err(), "nothing listens any more");
}

#[tokio::test(flavor = "multi_thread")]
async fn tls_with_rustls_from_tls_cert_and_tls_key() {
    let dir = std::env::temp_dir().join(format!("mm-mcp-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let (ca, cert, key) = crate::harness::certificates(&dir);
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let server = h::spawn(
        &sim.url(),
        &[],
        &[
            "--tls-cert",
            cert.to_str().unwrap_or(""),
            "--tls-key",
            key.to_str().unwrap_or(""),
        ],
    )
    .await;
    let pem = std::fs::read(&ca).expect("the CA");
    mattermost_client::tls::install();
    let https = reqwest::Client::builder()
        .no_proxy()
        .add_root_certificate(reqwest::Certificate::from_pem(&pem).expect("a certificate"))
        .build()
        .expect("client");
    let base = format!("https://127.0.0.1:{}", server.port);
    let health = https
        .get(format!("{base}/healthz"))
        .send()
        .await
        .unwrap_or_else(|e| panic!("https answers: {e:?}"));
    assert_eq!(health.status(), 200);
    let meta: serde_json::Value = https
        .get(format!("{base}/.well-known/oauth-protected-resource"))
        .send()
        .await
        .expect("metadata")
        .json()
        .await
        .expect("json");
    assert_eq!(meta["resource"], json!(format!("{base}/mcp")));
    let plain = h::http()
        .get(format!("http://127.0.0.1:{}/healthz", server.port))
        .send()
        .await;
    assert!(
        plain.map(|r| r.status() != 200).unwrap_or(true),
        "no plain HTTP on the TLS port"
    );

    let config =
        rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
            format!("{base}/mcp"),
        )
        .auth_header(sim.token("alice"));
    let transport = rmcp::transport::StreamableHttpClientTransport::with_client(https, config);
    let client = h::Client {
        service: rmcp::ServiceExt::serve((), transport)
            .await
            .expect("an MCP session over TLS"),
    };
    client.ok("list_saved", json!({})).await;

    let (code, log) = h::refuses_to_start(
        &[("MATTERMOST_URL", &sim.url())],
        &[
            "--http",
            "127.0.0.1:0",
            "--tls-cert",
            "/nonexistent/cert.pem",
            "--tls-key",
            key.to_str().unwrap_or(""),
        ],
    )
    .await;
    assert_eq!(code, Some(2), "{log}");
    assert!(log.contains("/nonexistent/cert.pem"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn beyond_loopback_only_when_told_with_the_public_address() {
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let (code, log) =
        h::refuses_to_start(&[("MATTERMOST_URL", &sim.url())], &["--http", "0.0.0.0:0"]).await;
    assert_eq!(code, Some(2), "{log}");
    assert!(log.contains("MATTERMOST_MCP_PUBLIC_URL"), "{log}");
    assert_eq!(
        mattermost_mcp::serve::settings::DEFAULT_ADDR,
        "127.0.0.1:8080"
    );
    assert!(
        mattermost_mcp::serve::settings::parse_addr("9000").is_ok_and(|a| a.ip().is_loopback()),
        "a port alone is on loopback"
    );
}
