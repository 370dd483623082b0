//! Viewing a channel (audit row 4): `app/channel.go` ViewChannel → MarkChannelsAsViewed →
//! `channel_store.go` GetChannelsWithUnreadsAndWithMentions and UpdateLastViewedAt.

use serde_json::json;

use crate::common::*;

/// Audit row 4(a): with nothing unread MarkChannelsAsViewed returns before it updates the member
/// or marks any thread read, even for a client without collapsed threads.
#[tokio::test]
async fn viewing_a_channel_with_nothing_unread_changes_nothing_and_leaves_threads_unread() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "root");
    f.world.follow(&f.alice, &root);
    f.world
        .reply(&root, &f.carol, T0 + 10, "reply alice has not read");
    f.world.view(&f.alice, &f.town, T0 + 100);
    let (town, team) = (f.town.clone(), f.team.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .post(
            "/channels/members/me/view",
            &json!({"channel_id": town, "collapsed_threads_supported": false}),
        )
        .await;
    assert_eq!(r.status, 200);
    let threads = c
        .get(&format!("/users/me/teams/{team}/threads?unread=true"))
        .await
        .json();
    assert_eq!(
        threads["threads"].as_array().map(Vec::len),
        Some(1),
        "the thread stays unread: {threads}"
    );
    let m = c.get(&format!("/channels/{town}/members/me")).await.json();
    assert_eq!(m["last_viewed_at"], T0 + 100, "the member is not touched");
}

/// Audit row 4(b): a channel the user is not a member of, or an unknown id, answers 200 with empty
/// times (the store finds no member row to select).
#[tokio::test]
async fn viewing_a_channel_one_is_not_in_or_an_unknown_one_answers_200_with_no_times() {
    let mut f = fixture();
    let lobby = f.world.channel(
        &f.team,
        "lobby",
        "Lobby",
        mattermost_sim::ChannelKind::Public,
    );
    f.world.join(&lobby, &f.bob);
    f.world.post(&lobby, &f.bob, T0, "hi");
    let (_sim, c) = start(f.world, "alice").await;
    for id in [lobby.as_str(), "zzzzzzzzzzzzzzzzzzzzzzzzzz"] {
        let r = c
            .post("/channels/members/me/view", &json!({"channel_id": id}))
            .await;
        assert_eq!(r.status, 200, "{id}: {}", r.text);
        assert_eq!(
            r.json(),
            json!({"status": "OK", "last_viewed_at_times": {}})
        );
    }
}

/// Audit row 4(c): the time answered is `max(LastPostAt, LastViewedAt)` and the stored
/// LastViewedAt never moves back (`greatest(...)`); the previous channel is viewed too.
#[tokio::test]
async fn viewing_answers_the_later_of_last_post_and_last_viewed_and_views_the_previous_channel() {
    let mut f = fixture();
    f.world.post(&f.town, &f.bob, T0, "old post");
    f.world.view(&f.alice, &f.town, T0 + 500);
    // a mention keeps the channel "unread" although LastViewedAt is past its last post
    f.world.post(&f.private, &f.bob, T0 + 10, "@alice see this");
    let (town, private) = (f.town.clone(), f.private.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .post(
            "/channels/members/me/view",
            &json!({"channel_id": town, "prev_channel_id": private}),
        )
        .await;
    let v = r.json();
    assert_eq!(v["last_viewed_at_times"][&town], T0 + 500, "{v}");
    assert_eq!(v["last_viewed_at_times"][&private], T0 + 10, "{v}");
    let m = c.get(&format!("/channels/{town}/members/me")).await.json();
    assert_eq!(m["last_viewed_at"], T0 + 500);
    let m = c
        .get(&format!("/channels/{private}/members/me"))
        .await
        .json();
    assert_eq!(
        m["mention_count"], 0,
        "the previous channel was viewed: {m}"
    );
    assert_eq!(m["last_viewed_at"], T0 + 10);
}
