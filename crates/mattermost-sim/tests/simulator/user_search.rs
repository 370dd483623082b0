//! User search (audit row 5): `user_store.go` generateSearchQuery and `api4/user.go` searchUsers.

use serde_json::{Value, json};

use crate::common::*;

fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|u| u["username"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Audit row 5: every word is a `LIKE '%word%'` substring match (leading `@` trimmed) over
/// username, names, nickname and email.
#[tokio::test]
async fn user_search_matches_a_word_anywhere_in_a_name() {
    let mut f = fixture();
    f.world.user("jason");
    let (_sim, c) = start(f.world, "alice").await;
    let v = c
        .post("/users/search", &json!({"term": "aso"}))
        .await
        .json();
    assert_eq!(names(&v), vec!["jason"]);
    let v = c
        .post("/users/search", &json!({"term": "@ASo n"}))
        .await
        .json();
    assert_eq!(names(&v), vec!["jason"]);
}

/// Audit row 5: `in_channel_id` needs read_channel (403 for a public channel one has not joined),
/// `team_id` needs view_team (403), and with `in_channel_id` the team is ignored.
#[tokio::test]
async fn user_search_needs_read_channel_for_in_channel_and_view_team_for_team() {
    let mut f = fixture();
    let lobby = f.world.channel(
        &f.team,
        "lobby",
        "Lobby",
        mattermost_sim::ChannelKind::Public,
    );
    f.world.join(&lobby, &f.bob);
    let other = f.other_team.clone();
    let (_sim, c) = start(f.world, "carol").await;
    let r = c
        .post(
            "/users/search",
            &json!({"term": "b", "in_channel_id": lobby}),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.text);
    let r = c
        .post("/users/search", &json!({"term": "a", "team_id": other}))
        .await;
    assert_eq!(r.status, 403, "{}", r.text);
}

/// Audit row 5: with `in_channel_id` set, `app/user.go` SearchUsers calls SearchUsersInChannel and
/// never reads `team_id`.
#[tokio::test]
async fn user_search_in_a_channel_ignores_the_team_id() {
    let mut f = fixture();
    let dave = f.world.user("dave");
    f.world.join(&f.private, &dave);
    // dave is in no team: were `team_id` read, the search in the other team would not find him.
    // (Removing him from a team would now also remove him from its channels: audit row 9.)
    let (other, private) = (f.other_team.clone(), f.private.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let v = c
        .post(
            "/users/search",
            &json!({"term": "dav", "in_channel_id": private, "team_id": other}),
        )
        .await
        .json();
    assert_eq!(names(&v), vec!["dave"]);
}
