//! §6 GET /api/v4/users/{user_id}/posts/flagged (saved posts)

use crate::common::*;

/// §6 "Bug: page is an offset in posts ... page=1&per_page=60 returns rows 2..61".
#[tokio::test]
async fn saved_posts_take_page_as_an_offset_in_posts() {
    let mut f = fixture();
    let ids: Vec<String> = (0..10)
        .map(|i| f.world.post(&f.town, &f.bob, T0 + i * 10, "p"))
        .collect();
    for id in &ids {
        f.world.save(&f.alice, id);
    }
    let (_sim, c) = start(f.world, "alice").await;
    let newest: Vec<String> = ids.iter().rev().cloned().collect();
    let p0 = c
        .get("/users/me/posts/flagged?per_page=4&page=0")
        .await
        .order();
    let p1 = c
        .get("/users/me/posts/flagged?per_page=4&page=1")
        .await
        .order();
    assert_eq!(p0, newest[0..4].to_vec());
    assert_eq!(
        p1,
        newest[1..5].to_vec(),
        "page 1 starts at the second post, repeating three"
    );
    let v = c.get("/users/me/posts/flagged").await.json();
    assert!(v.is_object(), "one PostList, not an array of them");
    assert_eq!(v["next_post_id"], "");
}

/// §6 "The team filter is appended as AND B.TeamId = ? OR B.TeamId = '' without parentheses. So
/// with team_id, every flagged DM/GM post passes even when the channel-membership condition
/// fails" and "After LIMIT ... drops posts whose channel is ... unreadable": pages come back short.
#[tokio::test]
async fn saved_posts_team_filter_lacks_parentheses_so_left_group_posts_shorten_pages() {
    let mut f = fixture();
    let gm = f.world.group(&[&f.alice, &f.bob, &f.carol]);
    let mut town_ids = Vec::new();
    for i in 0..6 {
        let t = f.world.post(&f.town, &f.bob, T0 + i * 10, "town");
        let g = f.world.post(&gm, &f.bob, T0 + i * 10 + 5, "group");
        f.world.save(&f.alice, &t);
        f.world.save(&f.alice, &g);
        town_ids.push(t);
    }
    f.world.leave(&gm, &f.alice);
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let with_team = c
        .get(&format!(
            "/users/me/posts/flagged?team_id={team}&per_page=4"
        ))
        .await
        .order();
    assert_eq!(
        with_team.len(),
        2,
        "4 rows counted, the 2 group posts dropped after the LIMIT: {with_team:?}"
    );
    let without = c.get("/users/me/posts/flagged?per_page=4").await.order();
    assert_eq!(
        without.len(),
        4,
        "without team_id the membership test runs in SQL"
    );
    assert!(without.iter().all(|id| town_ids.contains(id)));
}

/// §6 "channel_id takes precedence over team_id".
#[tokio::test]
async fn saved_posts_channel_id_wins_over_team_id() {
    let mut f = fixture();
    let a = f.world.post(&f.town, &f.bob, T0, "a");
    let b = f.world.post(&f.private, &f.bob, T0 + 1, "b");
    f.world.save(&f.alice, &a);
    f.world.save(&f.alice, &b);
    let (town, other) = (f.town.clone(), f.other_team.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let o = c
        .get(&format!(
            "/users/me/posts/flagged?channel_id={town}&team_id={other}"
        ))
        .await
        .order();
    assert_eq!(o, vec![a]);
    let r = c
        .get(&format!(
            "/users/{}/posts/flagged",
            "bbbbbbbbbbbbbbbbbbbbbbbbbb"
        ))
        .await;
    assert_eq!(r.status, 403);
}
