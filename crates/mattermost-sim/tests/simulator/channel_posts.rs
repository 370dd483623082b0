//! §1 GET /api/v4/channels/{channel_id}/posts: modes, strictness, ties, `posts` extras, since, ETag.

use std::collections::HashSet;

use crate::common::*;

/// §1 "Which mode runs": after wins over before.
#[tokio::test]
async fn after_wins_over_before() {
    let mut f = fixture();
    let ids: Vec<String> = (0..10)
        .map(|i| f.world.post(&f.town, &f.alice, T0 + i * 10, "p"))
        .collect();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let both = c
        .get(&format!(
            "/channels/{town}/posts?after={}&before={}",
            ids[2], ids[8]
        ))
        .await;
    let after_only = c
        .get(&format!("/channels/{town}/posts?after={}", ids[2]))
        .await;
    assert_eq!(both.order(), after_only.order());
    assert!(both.order().contains(&ids[9]), "before was ignored");
}

/// §1 "order is always newest-first in every mode" (the after result is reversed).
#[tokio::test]
async fn order_is_newest_first_in_every_mode() {
    let mut f = fixture();
    let ids: Vec<String> = (0..10)
        .map(|i| f.world.post(&f.town, &f.alice, T0 + i * 10, "p"))
        .collect();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let newest_first: Vec<String> = ids.iter().rev().cloned().collect();
    assert_eq!(
        c.get(&format!("/channels/{town}/posts")).await.order(),
        newest_first
    );
    assert_eq!(
        c.get(&format!(
            "/channels/{town}/posts?after={}&per_page=3",
            ids[2]
        ))
        .await
        .order(),
        vec![ids[5].clone(), ids[4].clone(), ids[3].clone()]
    );
    assert_eq!(
        c.get(&format!(
            "/channels/{town}/posts?before={}&per_page=3",
            ids[7]
        ))
        .await
        .order(),
        vec![ids[6].clone(), ids[5].clone(), ids[4].clone()]
    );
    assert_eq!(
        c.get(&format!("/channels/{town}/posts?since=1"))
            .await
            .order(),
        newest_first
    );
}

/// §1 "before / after modes": `CreateAt <` / `>` the anchor's CreateAt, strict, so every other
/// post in the anchor's millisecond is in neither direction.
#[tokio::test]
async fn before_and_after_are_strict_and_lose_the_anchor_millisecond() {
    let mut f = fixture();
    let early = f.world.post(&f.town, &f.alice, T0, "early");
    let a = f.world.post(&f.town, &f.alice, T0 + 100, "tie a");
    let b = f.world.post(&f.town, &f.alice, T0 + 100, "tie b");
    let c2 = f.world.post(&f.town, &f.alice, T0 + 100, "tie c");
    let late = f.world.post(&f.town, &f.alice, T0 + 200, "late");
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let before = c
        .get(&format!("/channels/{town}/posts?before={b}"))
        .await
        .order();
    let after = c
        .get(&format!("/channels/{town}/posts?after={b}"))
        .await
        .order();
    assert_eq!(before, vec![early]);
    assert_eq!(after, vec![late]);
    for tie in [&a, &c2] {
        assert!(
            !before.contains(tie) && !after.contains(tie),
            "same-millisecond post {tie} must be lost"
        );
    }
}

/// §1 "ORDER BY CreateAt DESC only, with no tiebreaker" and §10 "ties may change order between
/// queries": a group of same-millisecond posts comes back in different orders.
#[tokio::test]
async fn ties_are_reshuffled_on_every_request() {
    let mut f = fixture();
    for i in 0..8 {
        f.world.post(&f.town, &f.alice, T0, &format!("tie {i}"));
    }
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let mut seen = HashSet::new();
    for _ in 0..10 {
        seen.insert(c.get(&format!("/channels/{town}/posts")).await.order());
    }
    assert!(
        seen.len() > 1,
        "a tied group must not come back in one fixed order"
    );
}

/// §1 page mode "getParentsPosts adds the root posts of replies in the window to posts, but not to
/// order. Unless skipFetchThreads is set, it also adds every other reply of those threads".
#[tokio::test]
async fn posts_map_holds_thread_posts_that_are_not_in_order() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.alice, T0, "old root");
    let r1 = f.world.reply(&root, &f.bob, T0 + 10, "old reply");
    for i in 0..5 {
        f.world.post(&f.town, &f.carol, T0 + 100 + i, "filler");
    }
    let r2 = f.world.reply(&root, &f.bob, T0 + 1000, "new reply");
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c.get(&format!("/channels/{town}/posts?per_page=1")).await;
    assert_eq!(r.order(), vec![r2.clone()]);
    let posts = r.json()["posts"].clone();
    assert!(posts.get(&root).is_some(), "root is in posts");
    assert!(
        posts.get(&r1).is_some(),
        "the other reply of the thread is in posts"
    );
    let skip = c
        .get(&format!(
            "/channels/{town}/posts?per_page=1&skipFetchThreads=true"
        ))
        .await
        .json();
    assert!(skip["posts"].get(&root).is_some());
    assert!(
        skip["posts"].get(&r1).is_none(),
        "skipFetchThreads fetches parents only"
    );
}

/// §1 since mode: "a CTE `UpdateAt > since ... LIMIT 1000`, with no ORDER BY inside", so which 1000
/// is arbitrary, and there is no truncation signal.
#[tokio::test]
async fn since_is_capped_at_1000_rows_chosen_arbitrarily() {
    let mut f = fixture();
    for i in 0..1100 {
        f.world.post(&f.town, &f.alice, T0 + i, "p");
    }
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let a = c.get(&format!("/channels/{town}/posts?since=1")).await;
    let b = c.get(&format!("/channels/{town}/posts?since=1")).await;
    assert_eq!(a.order().len(), 1000);
    assert_eq!(b.order().len(), 1000);
    let sa: HashSet<String> = a.order().into_iter().collect();
    let sb: HashSet<String> = b.order().into_iter().collect();
    assert_ne!(
        sa, sb,
        "the 1000 rows are not the oldest nor the newest, just any 1000"
    );
    assert_eq!(a.json()["next_post_id"], "");
    assert_eq!(a.json()["prev_post_id"], "");
}

/// §1 since mode: "There is no DeleteAt filter, so deleted posts are returned" and "edit-history
/// rows also appear in since results, as deleted posts with original_id set".
#[tokio::test]
async fn since_returns_deleted_posts_and_edit_history_rows() {
    let mut f = fixture();
    let kept = f.world.post(&f.town, &f.alice, T0, "v1");
    let gone = f.world.post(&f.town, &f.alice, T0 + 1, "bye");
    f.world.edit(&kept, T0 + 500, "v2");
    f.world.delete(&gone, T0 + 600);
    let history = f.world.history_ids(&kept);
    assert_eq!(history.len(), 1);
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .get(&format!("/channels/{town}/posts?since={}", T0 + 100))
        .await;
    let order = r.order();
    assert!(
        order.contains(&kept) && order.contains(&gone) && order.contains(&history[0]),
        "{order:?}"
    );
    let v = r.json();
    assert!(v["posts"][&gone]["delete_at"].as_i64().unwrap() > 0);
    assert_eq!(v["posts"][&history[0]]["original_id"], kept.as_str());
    assert_eq!(v["posts"][&history[0]]["message"], "v1");
    assert_eq!(v["posts"][&history[0]]["delete_at"], T0 + 500);
    let page = c.get(&format!("/channels/{town}/posts")).await.order();
    assert_eq!(page, vec![kept], "page mode hides both");
}

/// §1 "ETag": the same for every page/before/after value, so the page-0 ETag with page 1 gives 304.
#[tokio::test]
async fn etag_is_channel_wide_so_page_zero_etag_gives_304_on_page_one() {
    let mut f = fixture();
    for i in 0..10 {
        f.world.post(&f.town, &f.alice, T0 + i, "p");
    }
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let p0 = c.get(&format!("/channels/{town}/posts?per_page=3")).await;
    let etag = p0.header("etag").expect("etag");
    let p1 = c
        .get_with(
            &format!("/channels/{town}/posts?per_page=3&page=1"),
            ("If-None-Match", &etag),
        )
        .await;
    assert_eq!(p1.status, 304);
    assert!(p1.text.is_empty());
    let since = c
        .get_with(
            &format!("/channels/{town}/posts?since=1"),
            ("If-None-Match", &etag),
        )
        .await;
    assert_eq!(since.status, 200, "since mode computes no ETag");
}

/// §1 "include_deleted=true needs system admin; otherwise 403".
#[tokio::test]
async fn include_deleted_needs_a_system_admin() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.alice, T0, "x");
    f.world.delete(&p, T0 + 1);
    f.world.make_admin(&f.bob);
    let town = f.town.clone();
    let sim = mattermost_sim::Sim::start(f.world).await.unwrap();
    let alice = Client::new(&sim, "alice");
    let bob = Client::new(&sim, "bob");
    let r = alice
        .get(&format!("/channels/{town}/posts?include_deleted=true"))
        .await;
    assert_eq!(r.status, 403);
    assert_eq!(r.error_id(), "api.context.permissions.app_error");
    let r = bob
        .get(&format!("/channels/{town}/posts?include_deleted=true"))
        .await;
    assert_eq!(r.order(), vec![p]);
}

/// §1 "The anchor subquery does not filter by channel or by DeleteAt. A deleted anchor works ...
/// an unknown anchor makes the subquery NULL, which gives an empty page with no error".
#[tokio::test]
async fn deleted_anchor_works_and_unknown_anchor_gives_an_empty_page() {
    let mut f = fixture();
    let ids: Vec<String> = (0..5)
        .map(|i| f.world.post(&f.town, &f.alice, T0 + i * 10, "p"))
        .collect();
    f.world.delete(&ids[2], T0 + 999);
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .get(&format!("/channels/{town}/posts?before={}", ids[2]))
        .await;
    assert_eq!(r.order(), vec![ids[1].clone(), ids[0].clone()]);
    let r = c
        .get(&format!(
            "/channels/{town}/posts?before=aaaaaaaaaaaaaaaaaaaaaaaaaa"
        ))
        .await;
    assert_eq!(r.status, 200);
    assert!(r.order().is_empty());
}

/// §1 "Cursors": before page 0 sets next_post_id = before; a short page gives prev_post_id "";
/// page mode prev is the first post strictly older than the page.
#[tokio::test]
async fn cursor_ids_follow_add_cursor_ids_for_post_list() {
    let mut f = fixture();
    let ids: Vec<String> = (0..6)
        .map(|i| f.world.post(&f.town, &f.alice, T0 + i * 10, "p"))
        .collect();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let v = c
        .get(&format!(
            "/channels/{town}/posts?before={}&per_page=2",
            ids[4]
        ))
        .await
        .json();
    assert_eq!(v["next_post_id"], ids[4].as_str());
    assert_eq!(v["prev_post_id"], ids[1].as_str());
    let v = c
        .get(&format!(
            "/channels/{town}/posts?before={}&per_page=10",
            ids[4]
        ))
        .await
        .json();
    assert_eq!(v["prev_post_id"], "", "short page ends the walk");
    let v = c
        .get(&format!("/channels/{town}/posts?per_page=2"))
        .await
        .json();
    assert_eq!(v["next_post_id"], "");
    assert_eq!(v["prev_post_id"], ids[3].as_str());
    let v = c
        .get(&format!(
            "/channels/{town}/posts?after={}&per_page=2",
            ids[1]
        ))
        .await
        .json();
    assert_eq!(v["prev_post_id"], ids[1].as_str());
    assert_eq!(v["next_post_id"], ids[4].as_str());
    assert!(
        v.get("has_next").is_none(),
        "has_next only on the thread endpoint"
    );
}

/// §1 "With CRT": root posts only, thread metadata (reply_count, participants, is_following).
#[tokio::test]
async fn collapsed_threads_list_roots_only_with_thread_metadata() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.alice, T0, "root");
    f.world.reply(&root, &f.bob, T0 + 5, "r1");
    f.world.reply(&root, &f.carol, T0 + 6, "r2");
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let v = c
        .get(&format!("/channels/{town}/posts?collapsedThreads=true"))
        .await
        .json();
    assert_eq!(strings(&v["order"]), vec![root.clone()]);
    let p = &v["posts"][&root];
    assert_eq!(p["reply_count"], 2);
    assert_eq!(p["participants"].as_array().unwrap().len(), 2);
    assert_eq!(p["is_following"], true);
    assert_eq!(p["last_reply_at"], T0 + 6);
}
