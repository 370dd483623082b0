//! §2 GET /api/v4/users/{user_id}/channels/{channel_id}/posts/unread

use std::collections::HashSet;

use crate::common::*;

/// §2 "Why same-millisecond posts are lost ... Around the anchor": when several posts share the
/// first unread post's millisecond, one is picked and the others are in neither half.
#[tokio::test]
async fn unread_loses_the_other_posts_of_the_first_unread_millisecond() {
    let mut f = fixture();
    f.world.post(&f.town, &f.bob, T0, "read");
    let ties: Vec<String> = (0..4)
        .map(|i| f.world.post(&f.town, &f.bob, T0 + 100, &format!("tie {i}")))
        .collect();
    let later = f.world.post(&f.town, &f.bob, T0 + 200, "later");
    f.world.view(&f.alice, &f.town, T0 + 50);
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let mut anchors = HashSet::new();
    for _ in 0..12 {
        let order = c
            .get(&format!("/users/me/channels/{town}/posts/unread"))
            .await
            .order();
        let present: Vec<&String> = ties.iter().filter(|t| order.contains(t)).collect();
        assert_eq!(
            present.len(),
            1,
            "exactly one post of the tied millisecond survives: {order:?}"
        );
        assert!(order.contains(&later));
        anchors.insert(present[0].clone());
    }
    assert!(
        anchors.len() > 1,
        "which tied post becomes the anchor is arbitrary"
    );
}

/// §2 "At the read boundary: a post with CreateAt == LastViewedAt counts as read (strict >)".
#[tokio::test]
async fn a_post_in_the_last_viewed_millisecond_counts_as_read() {
    let mut f = fixture();
    let _at_boundary = f.world.post(&f.town, &f.bob, T0 + 100, "seen?");
    let next = f.world.post(&f.town, &f.bob, T0 + 101, "unread");
    f.world.view(&f.alice, &f.town, T0 + 100);
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let order = c
        .get(&format!(
            "/users/me/channels/{town}/posts/unread?limit_before=0&limit_after=1"
        ))
        .await
        .order();
    assert_eq!(
        order,
        vec![next],
        "the anchor is the first post strictly after LastViewedAt"
    );
}

/// §2 "limit_after=0 gives 400 api.context.invalid_url_param.app_error"; "limit_after counts the
/// anchor itself".
#[tokio::test]
async fn unread_limit_after_zero_is_400_and_limit_after_counts_the_anchor() {
    let mut f = fixture();
    let ids: Vec<String> = (0..6)
        .map(|i| f.world.post(&f.town, &f.bob, T0 + i * 10, "p"))
        .collect();
    f.world.view(&f.alice, &f.town, T0 + 15);
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .get(&format!(
            "/users/me/channels/{town}/posts/unread?limit_after=0"
        ))
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_id(), "api.context.invalid_url_param.app_error");
    let order = c
        .get(&format!(
            "/users/me/channels/{town}/posts/unread?limit_before=1&limit_after=2"
        ))
        .await
        .order();
    assert_eq!(order, vec![ids[3].clone(), ids[2].clone(), ids[1].clone()]);
}

/// §2 "If order is empty (never viewed, or nothing unread), the handler falls back to
/// GetPostsPage(page 0, per_page=limit_before)" and sets an ETag there.
#[tokio::test]
async fn never_viewed_falls_back_to_the_newest_limit_before_posts() {
    let mut f = fixture();
    let ids: Vec<String> = (0..10)
        .map(|i| f.world.post(&f.town, &f.bob, T0 + i * 10, "p"))
        .collect();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .get(&format!(
            "/users/me/channels/{town}/posts/unread?limit_before=3"
        ))
        .await;
    assert_eq!(
        r.order(),
        vec![ids[9].clone(), ids[8].clone(), ids[7].clone()]
    );
    let etag = r.header("etag").expect("fallback sets an ETag");
    let again = c
        .get_with(
            &format!("/users/me/channels/{town}/posts/unread?limit_before=3"),
            ("If-None-Match", &etag),
        )
        .await;
    assert_eq!(again.status, 304);
}

/// §2 step 3: the whole thread of the first unread post goes into `posts`, not `order`.
#[tokio::test]
async fn unread_puts_the_anchor_thread_in_posts_only() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "root");
    let reply = f.world.reply(&root, &f.carol, T0 + 100, "reply");
    let far = f.world.reply(&root, &f.carol, T0 + 100_000, "far reply");
    f.world.view(&f.alice, &f.town, T0 + 50);
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let v = c
        .get(&format!(
            "/users/me/channels/{town}/posts/unread?limit_before=0&limit_after=1"
        ))
        .await
        .json();
    assert_eq!(strings(&v["order"]), vec![reply]);
    assert!(v["posts"].get(&root).is_some());
    assert!(v["posts"].get(&far).is_some());
}
