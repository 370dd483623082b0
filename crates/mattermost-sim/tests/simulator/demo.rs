//! The demo world (issue item 6): a small realistic workspace served by the same simulator.

use crate::common::*;

/// `World::demo()` has teams of both kinds, a bot, a deactivated user, thousands of posts with
/// threads, saved posts over 200 for `demo`, followed threads with unread replies, files, drafts.
#[tokio::test]
async fn demo_world_is_a_small_realistic_workspace() {
    let w = mattermost_sim::World::demo();
    let (_sim, c) = start(w, "demo").await;
    let me = c.get("/users/me").await.json();
    assert_eq!(me["username"], "demo");
    let teams = c.get("/users/me/teams").await.json();
    assert_eq!(teams.as_array().unwrap().len(), 2);
    let acme = teams
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "acme")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let chans = c
        .get(&format!(
            "/users/me/teams/{acme}/channels?include_deleted=true"
        ))
        .await
        .json();
    let kinds: std::collections::HashSet<String> = chans
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap().to_string())
        .collect();
    for k in ["O", "P", "D", "G"] {
        assert!(kinds.contains(k), "channel type {k}");
    }
    assert!(
        chans
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["delete_at"].as_i64().unwrap() > 0),
        "an archived channel"
    );
    let users = c.get("/users?per_page=200").await.json();
    let arr = users.as_array().unwrap();
    assert!(arr.len() >= 10);
    assert!(arr.iter().any(|u| u["is_bot"] == true));
    assert!(arr.iter().any(|u| u["delete_at"].as_i64().unwrap() > 0));
    let mut saved = 0;
    for page in 0.. {
        let n = c
            .get(&format!(
                "/users/me/posts/flagged?per_page=200&page={}",
                page * 200
            ))
            .await
            .order()
            .len();
        saved += n;
        if n == 0 {
            break;
        }
    }
    assert!(saved > 200, "saved {saved}");
    let threads = c
        .get(&format!("/users/me/teams/{acme}/threads"))
        .await
        .json();
    assert!(threads["total_unread_threads"].as_i64().unwrap() > 0);
    let town = chans
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "town-square")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let stats = c
        .get(&format!("/channels/{town}/posts?since=1"))
        .await
        .order()
        .len();
    assert!(stats > 300, "town-square has {stats} rows since the start");
    let drafts = c
        .get(&format!("/users/me/teams/{acme}/drafts"))
        .await
        .json();
    assert!(!drafts.as_array().unwrap().is_empty());
    let files = c
        .post(
            &format!("/teams/{acme}/files/search"),
            &serde_json::json!({"terms": "notes"}),
        )
        .await
        .json();
    assert!(!strings(&files["order"]).is_empty());
}
