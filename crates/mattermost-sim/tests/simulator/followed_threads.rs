//! §4 GET /api/v4/users/{user_id}/teams/{team_id}/threads

use std::collections::HashSet;

use crate::common::*;

/// Alice follows `n` threads in town-square whose last replies are 10 ms apart (oldest first).
async fn followed_world(n: i64, tie: bool) -> (mattermost_sim::Sim, Client, String, Vec<String>) {
    let mut f = fixture();
    let mut roots = Vec::new();
    for i in 0..n {
        let root = f.world.post(&f.town, &f.bob, T0 + i, "root");
        let at = if tie {
            T0 + 10_000
        } else {
            T0 + 10_000 + i * 10
        };
        f.world.reply(&root, &f.carol, at, "reply");
        f.world.follow(&f.alice, &root);
        roots.push(root);
    }
    let team = f.team.clone();
    let (sim, c) = start(f.world, "alice").await;
    (sim, c, team, roots)
}

fn thread_ids(v: &serde_json::Value) -> Vec<String> {
    ids(&v["threads"])
}

/// §4 "page is documented but never read. Incrementing page returns the same first page forever."
#[tokio::test]
async fn followed_threads_ignore_page() {
    let (_sim, c, team, _) = followed_world(8, false).await;
    let p0 = thread_ids(
        &c.get(&format!("/users/me/teams/{team}/threads?per_page=3"))
            .await
            .json(),
    );
    let p1 = thread_ids(
        &c.get(&format!("/users/me/teams/{team}/threads?per_page=3&page=1"))
            .await
            .json(),
    );
    let p5 = thread_ids(
        &c.get(&format!("/users/me/teams/{team}/threads?per_page=3&page=5"))
            .await
            .json(),
    );
    assert_eq!(p0.len(), 3);
    assert_eq!(p0, p1);
    assert_eq!(p0, p5);
}

/// §4 "before=X: LastReplyAt < (LastReplyAt of X), strict"; "after=X: LastReplyAt > …, strict,
/// and the order switches to ASC with no reversal".
#[tokio::test]
async fn followed_threads_page_by_before_and_after_on_last_reply_at() {
    let (_sim, c, team, roots) = followed_world(6, false).await;
    let newest_first: Vec<String> = roots.iter().rev().cloned().collect();
    let v = c
        .get(&format!("/users/me/teams/{team}/threads?per_page=2"))
        .await
        .json();
    assert_eq!(thread_ids(&v), newest_first[..2].to_vec());
    let v = c
        .get(&format!(
            "/users/me/teams/{team}/threads?per_page=2&before={}",
            newest_first[1]
        ))
        .await
        .json();
    assert_eq!(thread_ids(&v), newest_first[2..4].to_vec());
    let v = c
        .get(&format!(
            "/users/me/teams/{team}/threads?per_page=10&after={}",
            roots[2]
        ))
        .await
        .json();
    assert_eq!(
        thread_ids(&v),
        roots[3..].to_vec(),
        "after pages are oldest first"
    );
    assert_eq!(v["total"], 6, "totals ignore before/after");
}

/// §4 "ORDER BY Threads.LastReplyAt DESC, with no tiebreaker" and strict before: threads that
/// share the anchor's LastReplyAt are lost by a before walk.
#[tokio::test]
async fn followed_threads_ties_on_last_reply_at_are_shuffled_and_lost_by_before() {
    let (_sim, c, team, roots) = followed_world(6, true).await;
    let mut seen = HashSet::new();
    for _ in 0..10 {
        seen.insert(thread_ids(
            &c.get(&format!("/users/me/teams/{team}/threads"))
                .await
                .json(),
        ));
    }
    assert!(seen.len() > 1);
    let v = c
        .get(&format!(
            "/users/me/teams/{team}/threads?before={}",
            roots[0]
        ))
        .await
        .json();
    assert!(thread_ids(&v).is_empty());
}

/// §4 "per_page=0 means the store default of 30"; per_page is clamped to 200.
#[tokio::test]
async fn followed_threads_per_page_zero_means_30() {
    let (_sim, c, team, _) = followed_world(35, false).await;
    assert_eq!(
        thread_ids(
            &c.get(&format!("/users/me/teams/{team}/threads?per_page=0"))
                .await
                .json()
        )
        .len(),
        30
    );
    assert_eq!(
        thread_ids(
            &c.get(&format!("/users/me/teams/{team}/threads"))
                .await
                .json()
        )
        .len(),
        35
    );
}

/// §4 filters "ThreadTeamId = team OR ThreadTeamId = '' (DMs/GMs, unless excludeDirect)".
#[tokio::test]
async fn dm_threads_appear_under_every_team() {
    let mut f = fixture();
    let dm = f.world.direct(&f.alice, &f.bob);
    let root = f.world.post(&dm, &f.bob, T0, "dm root");
    f.world.reply(&root, &f.alice, T0 + 1, "dm reply");
    let (team, other) = (f.team.clone(), f.other_team.clone());
    let (_sim, c) = start(f.world, "alice").await;
    for t in [&team, &other] {
        let v = c.get(&format!("/users/me/teams/{t}/threads")).await.json();
        assert_eq!(thread_ids(&v), vec![root.clone()], "team {t}");
    }
    let v = c
        .get(&format!(
            "/users/me/teams/{team}/threads?excludeDirect=true"
        ))
        .await
        .json();
    assert!(thread_ids(&v).is_empty());
}

/// §4 "sending both gives 400 api.getThreadsForUser.bad_params"; both Only flags → 400.
#[tokio::test]
async fn followed_threads_before_and_after_together_is_400() {
    let (_sim, c, team, roots) = followed_world(3, false).await;
    let r = c
        .get(&format!(
            "/users/me/teams/{team}/threads?before={}&after={}",
            roots[0], roots[1]
        ))
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_id(), "api.getThreadsForUser.bad_params");
    let r = c
        .get(&format!(
            "/users/me/teams/{team}/threads?totalsOnly=true&threadsOnly=true"
        ))
        .await;
    assert_eq!(r.error_id(), "api.getThreadsForUser.bad_only_params");
    assert_eq!(
        c.get(&format!("/users/me/teams/{team}/threads?since=-1"))
            .await
            .status,
        400
    );
}

/// §4 "since filter: ... >= since. This is inclusive."; "unread filter: LastViewed < LastReplyAt".
#[tokio::test]
async fn followed_threads_since_is_inclusive_and_unread_filters() {
    let mut f = fixture();
    let a = f.world.post(&f.town, &f.bob, T0, "a");
    f.world.reply(&a, &f.carol, T0 + 100, "r");
    let b = f.world.post(&f.town, &f.bob, T0 + 1, "b");
    f.world.reply(&b, &f.carol, T0 + 200, "r");
    f.world.follow(&f.alice, &a);
    f.world.follow(&f.alice, &b);
    f.world.view_thread(&f.alice, &b, T0 + 200);
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let v = c
        .get(&format!(
            "/users/me/teams/{team}/threads?since={}",
            T0 + 200
        ))
        .await
        .json();
    assert!(
        thread_ids(&v).contains(&b),
        "LastReplyAt == since is included"
    );
    let v = c
        .get(&format!("/users/me/teams/{team}/threads?unread=true"))
        .await
        .json();
    assert_eq!(thread_ids(&v), vec![a.clone()]);
    assert_eq!(v["total"], 1);
    assert_eq!(v["total_unread_threads"], 1);
    let v = c
        .get(&format!("/users/me/teams/{team}/threads"))
        .await
        .json();
    let t = v["threads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == a.as_str())
        .unwrap()
        .clone();
    assert_eq!(t["unread_replies"], 1);
    assert!(t["post"]["id"] == a.as_str());
}
