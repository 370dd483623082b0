//! §5 post and file search.

use serde_json::json;

use crate::common::*;

async fn search_world(n: i64) -> (mattermost_sim::Sim, Client, String, Vec<String>) {
    let mut f = fixture();
    let ids: Vec<String> = (0..n)
        .map(|i| {
            f.world
                .post(&f.town, &f.bob, T0 + i * 10, &format!("deploy number {i}"))
        })
        .collect();
    let team = f.team.clone();
    let (sim, c) = start(f.world, "alice").await;
    (sim, c, team, ids)
}

/// §5 "page > 0 returns an empty result straight away".
#[tokio::test]
async fn search_answers_page_zero_only() {
    let (_sim, c, team, _) = search_world(10).await;
    let r = c
        .post(
            &format!("/teams/{team}/posts/search"),
            &json!({"terms": "deploy", "page": 0}),
        )
        .await;
    assert_eq!(r.order().len(), 10);
    let r = c
        .post(
            &format!("/teams/{team}/posts/search"),
            &json!({"terms": "deploy", "page": 1}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert!(r.order().is_empty());
    assert_eq!(
        r.header("cache-control").as_deref(),
        Some("no-cache, no-store, must-revalidate")
    );
}

/// §5 "per_page is ignored" and "page 0 holds at most the 100 newest matches per group".
#[tokio::test]
async fn search_ignores_per_page_and_returns_at_most_the_100_newest() {
    let (_sim, c, team, ids) = search_world(150).await;
    let r = c
        .post(
            &format!("/teams/{team}/posts/search"),
            &json!({"terms": "deploy", "per_page": 10}),
        )
        .await;
    let order = r.order();
    assert_eq!(order.len(), 100);
    let newest: Vec<String> = ids.iter().rev().take(100).cloned().collect();
    assert_eq!(order, newest);
    let v = r.json();
    assert!(v["matches"].is_null());
    assert_eq!(v["next_post_id"], "");
}

/// §5 "splits the terms into at most two groups: plain words and hashtags ... (up to 200 if terms
/// mix words and hashtags)".
#[tokio::test]
async fn search_caps_each_term_group_separately() {
    let mut f = fixture();
    for i in 0..120 {
        f.world.post(&f.town, &f.bob, T0 + i, "plain words here");
        f.world
            .post(&f.town, &f.bob, T0 + 1000 + i, "tagged #launch");
    }
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .post(
            &format!("/teams/{team}/posts/search"),
            &json!({"terms": "words #launch", "is_or_search": true}),
        )
        .await;
    assert_eq!(r.order().len(), 200);
}

/// §5 "terms (required; empty gives 400)"; a body that is not JSON → 400 invalid_body.
#[tokio::test]
async fn search_terms_are_required() {
    let (_sim, c, team, _) = search_world(1).await;
    let r = c
        .post(
            &format!("/teams/{team}/posts/search"),
            &json!({"terms": ""}),
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_id(), "api.context.invalid_body_param.app_error");
    let r = c
        .post_raw(
            &format!("/teams/{team}/posts/search"),
            "application/json",
            "terms=x",
        )
        .await;
    assert_eq!(r.error_id(), "api.post.search_posts.invalid_body.app_error");
}

/// §5 "only channels the user is a member of (archived ones only with include_deleted_channels)";
/// DMs are searched from any team; all-team search covers every team.
#[tokio::test]
async fn search_covers_member_channels_and_archived_only_on_request() {
    let mut f = fixture();
    let archived = f
        .world
        .channel(&f.team, "old", "Old", mattermost_sim::ChannelKind::Public);
    f.world.join(&archived, &f.alice);
    let in_archived = f.world.post(&archived, &f.alice, T0, "needle archived");
    f.world.archive(&archived);
    let not_member = f.world.channel(
        &f.team,
        "elsewhere",
        "Elsewhere",
        mattermost_sim::ChannelKind::Public,
    );
    f.world.join(&not_member, &f.bob);
    f.world.post(&not_member, &f.bob, T0, "needle elsewhere");
    let dm = f.world.direct(&f.alice, &f.carol);
    let in_dm = f.world.post(&dm, &f.carol, T0 + 1, "needle dm");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .post(
            &format!("/teams/{team}/posts/search"),
            &json!({"terms": "needle"}),
        )
        .await;
    assert_eq!(r.order(), vec![in_dm.clone()]);
    let r = c
        .post(
            &format!("/teams/{team}/posts/search"),
            &json!({"terms": "needle", "include_deleted_channels": true}),
        )
        .await;
    assert_eq!(r.order(), vec![in_dm.clone(), in_archived]);
    let r = c
        .post("/posts/search", &json!({"terms": "needle from:carol"}))
        .await;
    assert_eq!(r.order(), vec![in_dm]);
}

/// §5 files: "Same body and the same rules"; the handler decodes a JSON `SearchParameter`
/// (`api4/file.go` `searchFiles`), not the multipart form the spec documents; page > 0 is empty.
#[tokio::test]
async fn file_search_reads_a_json_body_and_answers_page_zero_only() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "see attached");
    let file = f.world.attach(&p, "quarterly-report.txt", b"revenue grew");
    f.world.attach(&p, "other.csv", b"a,b");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .post(
            &format!("/teams/{team}/files/search"),
            &json!({"terms": "quarterly"}),
        )
        .await;
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(strings(&v["order"]), vec![file.clone()]);
    assert_eq!(v["file_infos"][&file]["name"], "quarterly-report.txt");
    assert_eq!(v["next_file_info_id"], "");
    let r = c
        .post(
            &format!("/teams/{team}/files/search"),
            &json!({"terms": "quarterly", "page": 1}),
        )
        .await;
    assert!(strings(&r.json()["order"]).is_empty());
    let r = c.post("/files/search", &json!({"terms": "ext:csv"})).await;
    assert_eq!(strings(&r.json()["order"]).len(), 1);
    let multipart =
        "--b\r\nContent-Disposition: form-data; name=\"terms\"\r\n\r\nquarterly\r\n--b--\r\n";
    let r = c
        .post_raw(
            &format!("/teams/{team}/files/search"),
            "multipart/form-data; boundary=b",
            multipart,
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_id(), "api.post.search_files.invalid_body.app_error");
}
