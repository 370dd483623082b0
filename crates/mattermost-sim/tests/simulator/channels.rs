//! §8 channels: public per team, search, members, the user's channels, by name, view.

use std::collections::HashSet;

use mattermost_sim::ChannelKind;
use serde_json::json;

use crate::common::*;

/// §8 GET /teams/{team_id}/channels: "ORDER BY pc.DisplayName only. Display names are not unique,
/// so ties may change order between pages."
#[tokio::test]
async fn public_channels_sort_by_display_name_with_ties_shuffled() {
    let mut f = fixture();
    for i in 0..6 {
        f.world.channel(
            &f.team,
            &format!("general-{i}"),
            "General",
            ChannelKind::Public,
        );
    }
    let archived = f
        .world
        .channel(&f.team, "zzz-old", "Zzz Old", ChannelKind::Public);
    f.world.archive(&archived);
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let mut seen = HashSet::new();
    for _ in 0..10 {
        let v = c.get(&format!("/teams/{team}/channels")).await.json();
        let names: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["display_name"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            names,
            vec!["General"; 6]
                .into_iter()
                .map(String::from)
                .chain(["Town Square".to_string()])
                .collect::<Vec<_>>()
        );
        seen.insert(ids(&v));
    }
    assert!(
        seen.len() > 1,
        "tied display names come back in different orders"
    );
}

/// §8 channel search: "archived channels included", "ORDER BY DisplayName LIMIT 100, not 50",
/// "The response status is 200 (the spec says 201)".
#[tokio::test]
async fn channel_search_is_capped_at_100_includes_archived_and_answers_200() {
    let mut f = fixture();
    for i in 0..120 {
        let c = f.world.channel(
            &f.team,
            &format!("proj-{i:03}"),
            &format!("Project {i:03}"),
            ChannelKind::Public,
        );
        if i == 0 {
            f.world.archive(&c);
        }
    }
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .post(
            &format!("/teams/{team}/channels/search"),
            &json!({"term": "proj"}),
        )
        .await;
    assert_eq!(r.status, 200);
    let v = r.json();
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 100);
    assert_eq!(arr[0]["name"], "proj-000");
    assert!(
        arr[0]["delete_at"].as_i64().unwrap() > 0,
        "archived channel included"
    );
}

/// §8 members: "There is no ORDER BY at all" and "On 11.6, per_page=0 means no LIMIT".
#[tokio::test]
async fn channel_members_are_unsorted_and_per_page_zero_means_all() {
    let mut f = fixture();
    for i in 0..70 {
        let u = f.world.user(&format!("m{i}"));
        f.world.join(&f.town, &u);
    }
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let all = c
        .get(&format!("/channels/{town}/members?per_page=0"))
        .await
        .json();
    assert_eq!(all.as_array().unwrap().len(), 73);
    assert_eq!(
        c.get(&format!("/channels/{town}/members"))
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        60
    );
    let mut seen = HashSet::new();
    for _ in 0..5 {
        let v = c
            .get(&format!("/channels/{town}/members?per_page=10"))
            .await
            .json();
        seen.insert(
            v.as_array()
                .unwrap()
                .iter()
                .map(|m| m["user_id"].as_str().unwrap().to_string())
                .collect::<Vec<_>>(),
        );
    }
    assert!(seen.len() > 1, "page 0 differs between requests");
}

/// §8 "An empty result gives 404 app.channel.get_channels.not_found.app_error rather than []";
/// DMs (empty display name) sort first.
#[tokio::test]
async fn team_channels_for_user_is_404_when_empty_and_includes_dms() {
    let mut f = fixture();
    let dave = f.world.user("dave");
    f.world.add_to_team(&f.team, &dave);
    let dm = f.world.direct(&f.alice, &f.bob);
    let team = f.team.clone();
    let sim = mattermost_sim::Sim::start(f.world).await.unwrap();
    let r = Client::new(&sim, "dave")
        .get(&format!("/users/me/teams/{team}/channels"))
        .await;
    assert_eq!(r.status, 404);
    assert_eq!(r.error_id(), "app.channel.get_channels.not_found.app_error");
    let alice = Client::new(&sim, "alice");
    let r = alice.get(&format!("/users/me/teams/{team}/channels")).await;
    let list = ids(&r.json());
    assert_eq!(
        list[0], dm,
        "the DM's display name is empty, so it sorts first"
    );
    assert_eq!(list.len(), 3);
    let etag = r.header("etag").unwrap();
    assert_eq!(
        alice
            .get_with(
                &format!("/users/me/teams/{team}/channels"),
                ("If-None-Match", &etag)
            )
            .await
            .status,
        304
    );
}

/// §8 GET /users/{user_id}/channels: the whole list `ORDER BY Id`; with no channels the body is
/// `[` followed by error JSON, with status 200.
#[tokio::test]
async fn channels_for_user_is_one_list_and_a_user_without_channels_gets_a_broken_200() {
    let mut f = fixture();
    f.world.user("loner");
    let sim = mattermost_sim::Sim::start(f.world).await.unwrap();
    let v = Client::new(&sim, "alice")
        .get("/users/me/channels?page=1&per_page=1")
        .await
        .json();
    let list = ids(&v);
    assert_eq!(list.len(), 2, "page/per_page ignored");
    let mut sorted = list.clone();
    sorted.sort();
    assert_eq!(list, sorted);
    let r = Client::new(&sim, "loner").get("/users/me/channels").await;
    assert_eq!(r.status, 200);
    assert!(r.text.starts_with("[{"), "{}", r.text);
    assert!(serde_json::from_str::<serde_json::Value>(&r.text).is_err());
}

/// Channel by name: archived ones only with include_deleted; a private channel the user cannot
/// read answers 404 like a missing one.
#[tokio::test]
async fn channel_by_name_hides_archived_and_unreadable_private_channels() {
    let mut f = fixture();
    let old = f.world.channel(&f.team, "old", "Old", ChannelKind::Public);
    f.world.join(&old, &f.carol);
    f.world.archive(&old);
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "carol").await;
    assert_eq!(
        c.get(&format!("/teams/{team}/channels/name/old"))
            .await
            .status,
        404
    );
    assert_eq!(
        c.get(&format!(
            "/teams/{team}/channels/name/old?include_deleted=true"
        ))
        .await
        .status,
        200
    );
    let r = c.get(&format!("/teams/{team}/channels/name/secret")).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.error_id(), "app.channel.get_by_name.missing.app_error");
    assert_eq!(
        c.get("/teams/name/acme/channels/name/town-square")
            .await
            .status,
        200
    );
    let deleted = c
        .get(&format!("/teams/{team}/channels/deleted"))
        .await
        .json();
    assert_eq!(ids(&deleted), vec![old]);
}

/// §8 related: "/users/{user_id}/channel_members: page=-1 gives an NDJSON stream".
#[tokio::test]
async fn channel_memberships_page_minus_one_streams_ndjson() {
    let (_sim, c) = start(fixture().world, "alice").await;
    let r = c.get("/users/me/channel_members?page=-1").await;
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/x-ndjson")
    );
    assert_eq!(r.text.lines().count(), 2);
    let v = c.get("/users/me/channel_members?per_page=1").await.json();
    assert_eq!(v.as_array().unwrap().len(), 1);
    assert!(v[0]["team_name"].is_string());
}

/// The view route sets LastViewedAt (the channel's last post time) and answers
/// `{status, last_viewed_at_times}`; stats count active members only.
#[tokio::test]
async fn view_route_sets_last_viewed_at_and_stats_count_active_members() {
    let mut f = fixture();
    f.world.post(&f.town, &f.bob, T0 + 5, "x");
    f.world.deactivate(&f.carol);
    let (town, alice) = (f.town.clone(), f.alice.clone());
    let (sim, c) = start(f.world, "alice").await;
    let r = c.post("/channels/members/me/view", &json!({"channel_id": town, "prev_channel_id": "", "collapsed_threads_supported": true})).await;
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v["status"], "OK");
    assert!(v["last_viewed_at_times"][&town].as_i64().unwrap() >= T0 + 5);
    let m = c
        .get(&format!("/channels/{town}/members/{alice}"))
        .await
        .json();
    assert_eq!(m["last_viewed_at"], v["last_viewed_at_times"][&town]);
    assert_eq!(
        c.get(&format!("/channels/{town}/stats")).await.json()["member_count"],
        2
    );
    drop(sim);
}

/// Viewing a channel with unread posts marks its followed threads read too unless the body says the
/// client supports collapsed reply threads (`app/channel.go` `MarkChannelsAsViewed`: `updateThreads`
/// when ThreadAutoFollow and not `collapsed_threads_supported`).
#[tokio::test]
async fn viewing_a_channel_marks_its_threads_read_unless_collapsed_threads_are_supported() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.alice, T0 + 1, "root");
    f.world.follow(&f.alice, &root);
    f.world
        .reply(&root, &f.bob, T0 + 2, "a reply alice has not read");
    let (town, team) = (f.town.clone(), f.team.clone());
    let (sim, c) = start(f.world, "alice").await;
    let unread = || async {
        c.get(&format!("/users/me/teams/{team}/threads?unread=true"))
            .await
            .json()["threads"]
            .as_array()
            .map(Vec::len)
            .unwrap_or(0)
    };
    assert_eq!(unread().await, 1);
    let r = c
        .post(
            "/channels/members/me/view",
            &json!({"channel_id": town, "collapsed_threads_supported": true}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        unread().await,
        1,
        "a client with collapsed threads keeps the thread unread"
    );
    // MarkChannelsAsViewed does nothing when nothing is unread, so something new comes first
    let bob = sim.with_world(|w| w.user_id("bob").unwrap_or_default());
    sim.with_world(|w| w.post(&town, &bob, T0 + 3, "news"));
    let r = c
        .post("/channels/members/me/view", &json!({"channel_id": town}))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        unread().await,
        0,
        "without it, viewing the channel marks its threads read"
    );
    drop(sim);
}

/// POST /channels/{id}/members/ids answers the members among the ids (`[]` when none, never `null`),
/// refuses an empty list and a body that is not an array of strings (`api4/channel.go`
/// `getChannelMembersByIds`), and a channel the caller cannot read.
#[tokio::test]
async fn members_by_ids_answers_the_members_among_them() {
    let f = fixture();
    let (private, alice, bob, carol) = (
        f.private.clone(),
        f.alice.clone(),
        f.bob.clone(),
        f.carol.clone(),
    );
    let (_sim, c) = start(f.world, "alice").await;
    let path = format!("/channels/{private}/members/ids");
    let r = c.post(&path, &json!([carol, bob, alice, bob])).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let mut got: Vec<String> = r
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["user_id"].as_str().unwrap().to_string())
        .collect();
    got.sort();
    let mut want = vec![alice.clone(), bob.clone()];
    want.sort();
    assert_eq!(got, want, "carol is not in the channel; bob once");
    let none = c.post(&path, &json!([carol])).await;
    assert_eq!(none.status, 200);
    assert_eq!(none.text.trim(), "[]");
    assert_eq!(c.post(&path, &json!([])).await.status, 400);
    let bad = c.post(&path, &json!({"user_ids": [bob]})).await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.json()["id"], "api.payload.parse.error");
    let (_sim2, carol_client) = start(fixture().world, "carol").await;
    assert_eq!(
        carol_client
            .post(&format!("/channels/{private}/members/ids"), &json!([carol]))
            .await
            .status,
        403,
        "carol cannot read the private channel"
    );
}
