//! §7 users: search, list, autocomplete, lookups.

use serde_json::json;

use crate::common::*;

fn many_users(n: usize) -> Fixture {
    let mut f = fixture();
    for i in 0..n {
        let id = f.world.user(&format!("user{i:04}"));
        f.world.add_to_team(&f.team, &id);
    }
    f
}

fn usernames(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|u| u["username"].as_str().unwrap().to_string())
        .collect()
}

/// §7 "limit: 0 gives UserSearchDefaultLimit = 100. Negative or above UserSearchMaxLimit = 1000
/// gives 400 (not a clamp)."
#[tokio::test]
async fn user_search_limit_over_1000_is_400_and_zero_means_100() {
    let (_sim, c) = start(many_users(120).world, "alice").await;
    assert_eq!(
        c.post("/users/search", &json!({"term": "user"}))
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        100
    );
    assert_eq!(
        c.post("/users/search", &json!({"term": "user", "limit": 0}))
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        100
    );
    assert_eq!(
        c.post("/users/search", &json!({"term": "user", "limit": 110}))
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        110
    );
    for limit in [1001, -1] {
        let r = c
            .post("/users/search", &json!({"term": "user", "limit": limit}))
            .await;
        assert_eq!(r.status, 400, "limit {limit}");
    }
}

/// §7 "No paging exists. SQL is ORDER BY Username ASC LIMIT limit"; inactive excluded unless
/// allow_inactive.
#[tokio::test]
async fn user_search_has_no_paging_and_sorts_by_username() {
    let mut f = many_users(5);
    let gone = f.world.user("user9999");
    f.world.deactivate(&gone);
    let (_sim, c) = start(f.world, "alice").await;
    let a = usernames(
        &c.post(
            "/users/search",
            &json!({"term": "user", "page": 3, "per_page": 2}),
        )
        .await
        .json(),
    );
    assert_eq!(
        a,
        vec!["user0000", "user0001", "user0002", "user0003", "user0004"]
    );
    let b = usernames(
        &c.post(
            "/users/search",
            &json!({"term": "user", "allow_inactive": true}),
        )
        .await
        .json(),
    );
    assert_eq!(b.last().map(String::as_str), Some("user9999"));
    assert_eq!(
        c.post("/users/search", &json!({"term": ""})).await.status,
        400
    );
}

/// §7 GET /users: "Default: Username ASC"; OFFSET page·per_page.
#[tokio::test]
async fn users_list_sorts_by_username_and_pages_by_offset() {
    let f = many_users(10);
    let (_sim, c) = start(f.world, "alice").await;
    let p0 = usernames(&c.get("/users?per_page=5").await.json());
    let p1 = usernames(&c.get("/users?per_page=5&page=1").await.json());
    assert_eq!(p0, vec!["alice", "bob", "carol", "user0000", "user0001"]);
    assert_eq!(p1[0], "user0002");
    assert_eq!(c.get("/users?sort=bogus").await.status, 400);
}

/// §7 "Bug: active=true&inactive=true sets a 400 error but does not return ... a 200 with a
/// garbled body."
#[tokio::test]
async fn users_active_and_inactive_together_give_a_garbled_200() {
    let (_sim, c) = start(fixture().world, "alice").await;
    let r = c.get("/users?active=true&inactive=true").await;
    assert_eq!(r.status, 200);
    assert!(
        serde_json::from_str::<serde_json::Value>(&r.text).is_err(),
        "{}",
        r.text
    );
    assert!(r.text.starts_with('[') && r.text.contains("api.context.invalid_body_param.app_error"));
}

/// §7 autocomplete: "limit: missing gives 100; above 1000 is clamped to 1000; a non-integer gives
/// 0, an empty result"; "in_channel without in_team gives an error with status 500".
#[tokio::test]
async fn autocomplete_limit_rules_and_in_channel_needs_in_team() {
    let f = many_users(120);
    let (town, team) = (f.town.clone(), f.team.clone());
    let (_sim, c) = start(f.world, "alice").await;
    assert_eq!(
        c.get("/users/autocomplete?name=user").await.json()["users"]
            .as_array()
            .unwrap()
            .len(),
        100
    );
    assert_eq!(
        c.get("/users/autocomplete?name=user&limit=5000")
            .await
            .json()["users"]
            .as_array()
            .unwrap()
            .len(),
        120
    );
    assert!(
        c.get("/users/autocomplete?name=user&limit=many")
            .await
            .json()["users"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        c.get(&format!("/users/autocomplete?in_channel={town}"))
            .await
            .status,
        500
    );
    let v = c
        .get(&format!(
            "/users/autocomplete?in_team={team}&in_channel={town}&name=user0001"
        ))
        .await
        .json();
    assert!(v["users"].as_array().unwrap().is_empty());
    assert_eq!(usernames(&v["out_of_channel"]), vec!["user0001"]);
}

/// Lookups: `me`, by id, by ids (unknown left out), by usernames, by email; unknown → 404.
#[tokio::test]
async fn user_lookups_and_missing_users() {
    let f = fixture();
    let (alice, bob) = (f.alice.clone(), f.bob.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let me = c.get("/users/me").await.json();
    assert_eq!(me["id"], alice.as_str());
    assert_eq!(me["email"], "alice@example.com");
    assert_eq!(me["first_name"], "Alice");
    assert_eq!(
        c.get(&format!("/users/{bob}")).await.json()["username"],
        "bob"
    );
    let v = c
        .post(
            "/users/ids",
            &json!([bob, "zzzzzzzzzzzzzzzzzzzzzzzzzz", alice]),
        )
        .await
        .json();
    assert_eq!(usernames(&v), vec!["alice", "bob"]);
    let v = c
        .post("/users/usernames", &json!(["carol", "nobody"]))
        .await
        .json();
    assert_eq!(usernames(&v), vec!["carol"]);
    assert_eq!(
        c.get("/users/email/bob@example.com").await.json()["id"],
        bob.as_str()
    );
    let r = c.get("/users/zzzzzzzzzzzzzzzzzzzzzzzzzz").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.error_id(), "app.user.missing_account.const");
    assert_eq!(c.get("/users/username/nobody").await.status, 404);
}
