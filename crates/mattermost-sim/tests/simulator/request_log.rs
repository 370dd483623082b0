//! The request log (issue item 5): method, path, query, body, status, user, redacted headers.

use mattermost_sim::{Fault, FaultRule};
use serde_json::json;

use crate::common::*;

/// Every request is logged in arrival order, including those answered by a fault or a 401.
#[tokio::test]
async fn request_log_records_every_request_including_faults_and_401s() {
    let f = fixture();
    let (town, team) = (f.town.clone(), f.team.clone());
    let (sim, c) = start(f.world, "alice").await;
    c.get(&format!("/channels/{town}/posts?per_page=7&before="))
        .await;
    c.post(
        &format!("/teams/{team}/posts/search"),
        &json!({"terms": "x"}),
    )
    .await;
    sim.inject(FaultRule::times("/api/v4/users/me", Fault::Status(503), 1));
    c.get("/users/me").await;
    Client::anonymous(&sim).get("/users/me").await;
    let log = sim.log();
    assert_eq!(log.len(), 4);
    assert_eq!(log[0].method, "GET");
    assert_eq!(log[0].path, format!("/api/v4/channels/{town}/posts"));
    assert_eq!(log[0].param("per_page"), Some("7"));
    assert_eq!(log[0].param("before"), Some(""));
    assert_eq!(log[0].username.as_deref(), Some("alice"));
    assert_eq!(log[0].header("authorization"), Some("<redacted>"));
    assert_eq!(log[1].method, "POST");
    assert_eq!(log[1].body.as_deref(), Some(r#"{"terms":"x"}"#));
    assert_eq!(log[2].status, 503);
    assert_eq!(log[3].status, 401);
    assert_eq!(log[3].username, None);
    sim.clear_log();
    assert!(sim.log().is_empty());
}
