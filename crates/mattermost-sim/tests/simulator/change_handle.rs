//! The change handle (issue item 4): tests change the world while a reader pages; §10 "OFFSET
//! paging in general: inserts cause repeats, deletes cause skips".

use crate::common::*;

/// A post inserted between two page reads shifts the second page: its first row repeats.
#[tokio::test]
async fn a_post_inserted_while_paging_repeats_a_row() {
    let mut f = fixture();
    for i in 0..10 {
        f.world.post(&f.town, &f.bob, T0 + i * 10, "p");
    }
    let (town, bob) = (f.town.clone(), f.bob.clone());
    let (sim, c) = start(f.world, "alice").await;
    let p0 = c
        .get(&format!("/channels/{town}/posts?per_page=4"))
        .await
        .order();
    let now = sim.now_ms();
    sim.with_world(|w| w.post(&town, &bob, now, "new"));
    let p1 = c
        .get(&format!("/channels/{town}/posts?per_page=4&page=1"))
        .await
        .order();
    assert_eq!(p1[0], p0[3], "the last row of page 0 comes again");
}

/// A post deleted between two page reads makes the walk skip a row; edits and saves through the
/// handle show up at once.
#[tokio::test]
async fn a_post_deleted_while_paging_is_skipped_and_changes_show_at_once() {
    let mut f = fixture();
    let ids: Vec<String> = (0..10)
        .map(|i| f.world.post(&f.town, &f.bob, T0 + i * 10, "p"))
        .collect();
    let (town, alice) = (f.town.clone(), f.alice.clone());
    let (sim, c) = start(f.world, "alice").await;
    let p0 = c
        .get(&format!("/channels/{town}/posts?per_page=4"))
        .await
        .order();
    sim.with_world(|w| w.delete(&ids[9], T0 + 5000));
    let p1 = c
        .get(&format!("/channels/{town}/posts?per_page=4&page=1"))
        .await
        .order();
    assert_eq!(p0[3], ids[6]);
    assert_eq!(p1[0], ids[4], "ids[5] was skipped");
    sim.with_world(|w| {
        w.edit(&ids[0], T0 + 6000, "edited");
        w.save(&alice, &ids[0]);
        w.view(&alice, &town, T0 + 20);
    });
    let v = c.get(&format!("/posts/{}", ids[0])).await.json();
    assert_eq!(v["message"], "edited");
    assert_eq!(v["edit_at"], T0 + 6000);
    assert_eq!(
        c.get("/users/me/posts/flagged").await.order(),
        vec![ids[0].clone()]
    );
    let unread = c
        .get(&format!(
            "/users/me/channels/{town}/posts/unread?limit_before=0&limit_after=1"
        ))
        .await
        .order();
    assert_eq!(unread, vec![ids[3].clone()]);
}

/// `Sim::start_detached` keeps serving while the caller blocks its own thread.
#[test]
fn detached_simulator_answers_while_the_caller_blocks() {
    let sim = mattermost_sim::Sim::start_detached(fixture().world).unwrap();
    let url = format!("{}/api/v4/system/ping", sim.url());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let status = rt.block_on(async { reqwest::get(&url).await.unwrap().status().as_u16() });
    assert_eq!(status, 200);
    sim.with_world(|w| w.user("zed"));
    assert!(sim.token("zed").len() == 26);
}
