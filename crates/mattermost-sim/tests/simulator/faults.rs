//! Fault injection (issue item 4): 429, 5xx, delays, cut bodies, malformed JSON, HTML pages.

use std::time::Duration;

use mattermost_sim::{Fault, FaultRule};

use crate::common::*;

const ROUTE: &str = "/api/v4/channels/{channel_id}/posts";

async fn sim_with_posts() -> (mattermost_sim::Sim, Client, String) {
    let mut f = fixture();
    for i in 0..30 {
        f.world.post(
            &f.town,
            &f.alice,
            T0 + i,
            "a fairly long message to make the body bigger",
        );
    }
    let town = f.town.clone();
    let (sim, c) = start(f.world, "alice").await;
    (sim, c, town)
}

/// §10 "Rate limiting": "The 429 body is plain text `limit exceeded`, not AppError JSON", with
/// X-RateLimit-* and Retry-After.
#[tokio::test]
async fn rate_limited_fault_is_plain_text_429_with_retry_after() {
    let (sim, c, town) = sim_with_posts().await;
    sim.inject(FaultRule {
        method: Some("GET".into()),
        path: ROUTE.into(),
        fault: Fault::RateLimited {
            retry_after_secs: 3,
        },
        times: Some(1),
    });
    let r = c.get(&format!("/channels/{town}/posts")).await;
    assert_eq!(r.status, 429);
    assert_eq!(r.text.trim(), "limit exceeded");
    assert_eq!(r.header("retry-after").as_deref(), Some("3"));
    assert_eq!(r.header("x-ratelimit-remaining").as_deref(), Some("0"));
    assert!(r.header("x-ratelimit-limit").is_some() && r.header("x-ratelimit-reset").is_some());
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));
    assert_eq!(
        c.get(&format!("/channels/{town}/posts")).await.status,
        200,
        "times: Some(1) is used up"
    );
}

/// Status faults answer AppError JSON with that status.
#[tokio::test]
async fn status_faults_answer_app_error_json() {
    let (sim, c, town) = sim_with_posts().await;
    for code in [500u16, 502, 503, 504] {
        sim.inject(FaultRule::times(ROUTE, Fault::Status(code), 1));
        let r = c.get(&format!("/channels/{town}/posts")).await;
        assert_eq!(r.status, code);
        assert_eq!(r.json()["status_code"], code);
        assert!(r.header("x-request-id").is_some());
    }
}

/// A response slower than the client's timeout.
#[tokio::test]
async fn delay_fault_is_slower_than_the_client_timeout() {
    let (sim, _c, town) = sim_with_posts().await;
    sim.inject(FaultRule::times(
        ROUTE,
        Fault::Delay(Duration::from_millis(800)),
        1,
    ));
    let http = http_client()
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    let url = format!("{}/api/v4/channels/{town}/posts", sim.url());
    let err = http.get(&url).bearer_auth(sim.token("alice")).send().await;
    assert!(err.is_err_and(|e| e.is_timeout()));
    let ok = http
        .get(&url)
        .bearer_auth(sim.token("alice"))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status().as_u16(), 200);
}

/// A connection cut mid-body: headers and a Content-Length arrive, the body does not complete.
#[tokio::test]
async fn cut_mid_body_fault_breaks_the_body_read() {
    let (sim, _c, town) = sim_with_posts().await;
    sim.inject(FaultRule::times(ROUTE, Fault::CutMidBody, 1));
    let url = format!("{}/api/v4/channels/{town}/posts", sim.url());
    let r = http_client()
        .build()
        .unwrap()
        .get(&url)
        .bearer_auth(sim.token("alice"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert!(r.content_length().unwrap_or(0) > 0);
    assert!(r.bytes().await.is_err(), "the body must not complete");
}

/// Malformed JSON: 200 with a truncated body; HTML: a proxy's 502 page.
#[tokio::test]
async fn malformed_json_and_html_faults() {
    let (sim, c, town) = sim_with_posts().await;
    sim.inject(FaultRule::times(
        &format!("/api/v4/channels/{town}/posts"),
        Fault::MalformedJson,
        1,
    ));
    let r = c.get(&format!("/channels/{town}/posts")).await;
    assert_eq!(r.status, 200);
    assert!(serde_json::from_str::<serde_json::Value>(&r.text).is_err());
    sim.inject(FaultRule::always(ROUTE, Fault::Html));
    let r = c.get(&format!("/channels/{town}/posts")).await;
    assert_eq!(r.status, 502);
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    assert!(r.text.contains("<html>"));
    sim.clear_faults();
    assert_eq!(c.get(&format!("/channels/{town}/posts")).await.status, 200);
}
