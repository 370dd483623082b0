//! §3 GET /api/v4/posts/{post_id}/thread

use std::collections::HashSet;

use crate::common::*;

async fn thread_world(
    replies: usize,
    same_ms: bool,
) -> (mattermost_sim::Sim, Client, String, Vec<String>) {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.alice, T0, "root");
    let ids: Vec<String> = (0..replies)
        .map(|i| {
            let t = if same_ms {
                T0 + 100
            } else {
                T0 + 100 + i as i64
            };
            f.world.reply(&root, &f.bob, t, &format!("r{i}"))
        })
        .collect();
    let (sim, c) = start(f.world, "alice").await;
    (sim, c, root, ids)
}

/// §3 "perPage ... Default 0, which means the whole thread, no LIMIT"; has_next present and false.
#[tokio::test]
async fn thread_per_page_zero_means_the_whole_thread() {
    let (_sim, c, root, ids) = thread_world(250, false).await;
    let v = c.get(&format!("/posts/{root}/thread")).await.json();
    assert_eq!(strings(&v["order"]).len(), 251);
    assert_eq!(v["has_next"], false);
    let v = c
        .get(&format!("/posts/{root}/thread?perPage=0"))
        .await
        .json();
    assert_eq!(strings(&v["order"]).len(), ids.len() + 1);
}

/// §3 "A value above 200 gives 400, not a clamp. A non-integer gives 400."
#[tokio::test]
async fn thread_per_page_over_200_is_400_not_a_clamp() {
    let (_sim, c, root, _) = thread_world(3, false).await;
    for q in ["perPage=201", "perPage=abc"] {
        let r = c.get(&format!("/posts/{root}/thread?{q}")).await;
        assert_eq!(r.status, 400, "{q}");
        assert_eq!(r.error_id(), "api.context.invalid_body_param.app_error");
    }
}

/// §3 "perPage=-1 gives LIMIT 0: no replies and has_next=true".
#[tokio::test]
async fn thread_per_page_minus_one_gives_no_replies_and_has_next_true() {
    let (_sim, c, root, _) = thread_world(3, false).await;
    let v = c
        .get(&format!("/posts/{root}/thread?perPage=-1&direction=down"))
        .await
        .json();
    assert_eq!(strings(&v["order"]), vec![root]);
    assert_eq!(v["has_next"], true);
}

/// §3 "direction=down ... Cursor = CreateAt > fromCreateAt OR (CreateAt = fromCreateAt AND Id >
/// fromPost)", "on the first down page the root uses up one LIMIT slot", "Later pages: [root,
/// perPage replies]": a keyset walk loses nothing even when every reply shares a millisecond.
#[tokio::test]
async fn thread_down_walk_with_from_post_and_from_create_at_loses_nothing_to_ties() {
    let (_sim, c, root, ids) = thread_world(25, true).await;
    let first = c
        .get(&format!("/posts/{root}/thread?direction=down&perPage=10"))
        .await
        .json();
    let order = strings(&first["order"]);
    assert_eq!(order.len(), 10, "root + 9 replies on the first page");
    assert_eq!(order[0], root);
    assert_eq!(first["has_next"], true);
    let mut got: Vec<String> = order[1..].to_vec();
    let mut last = order.last().unwrap().clone();
    loop {
        let t = first["posts"]
            .get(&last)
            .and_then(|p| p["create_at"].as_i64())
            .unwrap_or(T0 + 100);
        let v = c
            .get(&format!(
                "/posts/{root}/thread?direction=down&perPage=10&fromPost={last}&fromCreateAt={t}"
            ))
            .await
            .json();
        let o = strings(&v["order"]);
        assert_eq!(o[0], root, "the requested post is always order[0]");
        got.extend(o[1..].iter().cloned());
        last = o.last().unwrap().clone();
        if v["has_next"] == false {
            break;
        }
    }
    let set: HashSet<String> = got.iter().cloned().collect();
    assert_eq!(set.len(), ids.len());
    assert_eq!(got.len(), ids.len());
}

/// §3 "If fromCreateAt is sent without fromPost, only the plain comparison is used (strict), so
/// ties are lost."
#[tokio::test]
async fn thread_from_create_at_without_from_post_loses_ties() {
    let (_sim, c, root, ids) = thread_world(5, true).await;
    let v = c
        .get(&format!(
            "/posts/{root}/thread?direction=down&fromCreateAt={}",
            T0 + 100
        ))
        .await
        .json();
    let o = strings(&v["order"]);
    assert_eq!(o, vec![root]);
    assert_eq!(ids.len(), 5);
}

/// §3 "With no direction there is no ORDER BY at all."
#[tokio::test]
async fn thread_without_direction_has_no_order() {
    let (_sim, c, root, _) = thread_world(10, false).await;
    let mut seen = HashSet::new();
    for _ in 0..8 {
        seen.insert(c.get(&format!("/posts/{root}/thread")).await.order());
    }
    assert!(seen.len() > 1);
}

/// §3 params: fromPost needs fromCreateAt; direction must be up or down; fromUpdateAt with
/// fromCreateAt is 400; updatesOnly needs fromUpdateAt.
#[tokio::test]
async fn thread_parameter_combinations_are_validated() {
    let (_sim, c, root, ids) = thread_world(3, false).await;
    for q in [
        format!("fromPost={}", ids[0]),
        "direction=sideways".to_string(),
        format!("fromUpdateAt=5&fromCreateAt={T0}"),
        "updatesOnly=true".to_string(),
        "updatesOnly=true&fromUpdateAt=5&direction=up".to_string(),
    ] {
        assert_eq!(
            c.get(&format!("/posts/{root}/thread?{q}")).await.status,
            400,
            "{q}"
        );
    }
}

/// §3 "If the requested post is a reply, order[0] is that reply and the root appears as an
/// ordinary row"; "Deleted replies are never returned".
#[tokio::test]
async fn thread_of_a_reply_starts_with_the_reply_and_skips_deleted() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.alice, T0, "root");
    let r1 = f.world.reply(&root, &f.bob, T0 + 1, "r1");
    let r2 = f.world.reply(&root, &f.bob, T0 + 2, "r2");
    f.world.delete(&r2, T0 + 3);
    let (_sim, c) = start(f.world, "alice").await;
    let o = c
        .get(&format!("/posts/{r1}/thread?direction=down"))
        .await
        .order();
    assert_eq!(o, vec![r1.clone(), root.clone()]);
    let v = c.get(&format!("/posts/{r1}/thread")).await;
    let etag = v.header("etag").unwrap();
    assert_eq!(
        c.get_with(&format!("/posts/{r1}/thread"), ("If-None-Match", &etag))
            .await
            .status,
        304
    );
}
