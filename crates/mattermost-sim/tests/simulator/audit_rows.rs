//! Rows 9, 10, 11 and 13 of `shared/docs/fidelity-audit.md`: what the world's seeding methods
//! `remove_from_team`, `leave`, `pin` and `archive` must do because the real store does it
//! (`app/team.go` `LeaveTeam`, `app/channel.go` `removeUserFromChannel`, `SqlPostStore.Update`
//! through `App.PatchPost`, `app/channel.go` `DeleteChannel`).

use mattermost_sim::ChannelKind;

use crate::common::*;

/// Row 9: `LeaveTeam` removes every channel membership the user has in the team (archived channels
/// included) but not their direct or group messages.
#[tokio::test]
async fn removing_from_a_team_drops_its_channel_memberships_archived_included_but_not_dms() {
    let mut f = fixture();
    let dev = f.world.channel(&f.team, "dev", "Dev", ChannelKind::Public);
    let old = f.world.channel(&f.team, "old", "Old", ChannelKind::Public);
    for c in [&dev, &old] {
        f.world.join(c, &f.alice);
        f.world.join(c, &f.bob);
    }
    f.world.archive(&old);
    let dm = f.world.direct(&f.alice, &f.bob);
    f.world.remove_from_team(&f.team, &f.alice);
    let (alice, bob) = (f.alice.clone(), f.bob.clone());
    let (sim, c) = start(f.world, "bob").await;
    for channel in [&f.town, &f.private, &dev, &old] {
        let members = c.get(&format!("/channels/{channel}/members")).await;
        assert_eq!(members.status, 200, "{}", members.text);
        let ids: Vec<String> = members
            .json()
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["user_id"].as_str().map(String::from))
            .collect();
        assert!(ids.contains(&bob), "bob stays in {channel}");
        assert!(!ids.contains(&alice), "alice left {channel} with the team");
    }
    let a = Client::new(&sim, "alice");
    let mine = a.get("/users/me/channels").await;
    let ids = ids(&mine.json());
    assert!(ids.contains(&dm), "the DM is not the team's: {ids:?}");
    assert!(!ids.contains(&dev) && !ids.contains(&old));
}

/// Row 10: `removeUserFromChannel` deletes the user's thread memberships of that channel
/// (`Thread().DeleteMembershipsForChannel`), so a thread she followed there is gone from her list.
#[tokio::test]
async fn leaving_a_channel_drops_the_thread_memberships_of_that_channel() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "a thread in town");
    f.world.reply(&root, &f.carol, T0 + 1, "a reply");
    let elsewhere = f
        .world
        .post(&f.private, &f.bob, T0 + 2, "a thread in secret");
    f.world.reply(&elsewhere, &f.carol, T0 + 3, "a reply");
    f.world.follow(&f.alice, &root);
    f.world.follow(&f.alice, &elsewhere);
    f.world.leave(&f.town, &f.alice);
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c.get(&format!("/users/me/teams/{team}/threads")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let ids = ids(&r.json()["threads"]);
    assert_eq!(
        ids,
        vec![elsewhere],
        "only the thread of the channel she stayed in"
    );
}

/// Row 11: pinning goes through `App.PatchPost` → `UpdatePost` → `SqlPostStore.Update`: the post
/// gets a new UpdateAt, an edit-history row is inserted and the channel's LastPostAt moves up.
#[tokio::test]
async fn pinning_bumps_update_at_writes_a_history_row_and_moves_last_post_at() {
    let mut f = fixture();
    let old = f
        .world
        .post(&f.town, &f.bob, T0, "an old post worth pinning");
    f.world.post(&f.town, &f.bob, T0 + 10, "a newer post");
    f.world.pin(&old);
    let history = f.world.history_ids(&old);
    assert_eq!(history.len(), 1, "one edit-history row for the pin");
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .get(&format!("/channels/{town}/posts?since={}", T0 + 100))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let body = r.json();
    let order = strings(&body["order"]);
    assert!(
        order.contains(&old),
        "the pinned post changed after `since`"
    );
    assert!(order.contains(&history[0]), "its history row too");
    assert_eq!(body["posts"][&old]["is_pinned"], true);
    assert!(body["posts"][&old]["update_at"].as_i64().unwrap() > T0 + 100);
    assert_eq!(
        body["posts"][&old]["edit_at"], 0,
        "a pin is not an edit of the message"
    );
    assert_eq!(
        body["posts"][&history[0]]["is_pinned"], false,
        "the old version"
    );
    let ch = c.get(&format!("/channels/{town}")).await.json();
    assert!(ch["last_post_at"].as_i64().unwrap() > T0 + 100);
}

/// Row 13: `DeleteChannel` first posts a `system_channel_deleted` message ("... archived the
/// channel."), which bumps LastPostAt and TotalMsgCount and is the newest post of the channel.
#[tokio::test]
async fn archiving_posts_the_channel_deleted_message_first() {
    let mut f = fixture();
    let old = f.world.channel(&f.team, "old", "Old", ChannelKind::Public);
    f.world.join(&old, &f.alice);
    f.world.post(&old, &f.alice, T0, "last words");
    f.world.archive(&old);
    let (_sim, c) = start(f.world, "alice").await;
    let ch = c.get(&format!("/channels/{old}")).await.json();
    assert!(ch["delete_at"].as_i64().unwrap() > 0);
    assert_eq!(ch["total_msg_count"], 2, "the archive notice counts");
    assert!(ch["last_post_at"].as_i64().unwrap() > T0);
    let posts = c.get(&format!("/channels/{old}/posts")).await.json();
    let newest = &posts["posts"][strings(&posts["order"])[0].as_str()];
    assert_eq!(newest["type"], "system_channel_deleted");
    assert!(
        newest["message"]
            .as_str()
            .unwrap()
            .ends_with(" archived the channel."),
        "{newest}"
    );
    assert!(newest["create_at"].as_i64().unwrap() <= ch["delete_at"].as_i64().unwrap());
}
