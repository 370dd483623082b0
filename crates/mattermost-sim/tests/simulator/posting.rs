//! What creating a post does to the read state (audit row 12): `app/post.go` CreatePostAsUser marks
//! the channel viewed for the poster, and `app/notification.go` SendNotifications raises the mention
//! counts of the members it mentions (`channel_store.go` IncrementMentionCount).

use serde_json::Value;

use crate::common::*;

async fn member(c: &Client, channel: &str) -> Value {
    c.get(&format!("/channels/{channel}/members/me"))
        .await
        .json()
}

async fn unread(c: &Client, channel: &str) -> i64 {
    let ch = c.get(&format!("/channels/{channel}")).await.json();
    let m = member(c, channel).await;
    ch["total_msg_count"].as_i64().unwrap_or(0) - m["msg_count"].as_i64().unwrap_or(0)
}

/// Audit row 12: a root post marks its channel viewed for the poster (MarkChannelsAsViewed), so
/// one's own posts are never unread and LastViewedAt moves to the new post.
#[tokio::test]
async fn posting_marks_the_channel_viewed_for_the_poster() {
    let mut f = fixture();
    f.world.view(&f.alice, &f.town, T0);
    f.world.post(&f.town, &f.bob, T0 + 10, "from bob");
    f.world.post(&f.town, &f.alice, T0 + 20, "from alice");
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    assert_eq!(unread(&c, &town).await, 0);
    assert_eq!(member(&c, &town).await["last_viewed_at"], T0 + 20);
}

/// Audit row 12, its exceptions: with collapsed threads on (the default `always_on`) a reply does
/// not mark the channel viewed, and neither does a bot's post (`from_bot`).
#[tokio::test]
async fn a_reply_under_collapsed_threads_and_a_bot_post_do_not_mark_the_channel_viewed() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "root by bob");
    f.world.view(&f.alice, &f.town, T0 + 5);
    f.world.reply(&root, &f.alice, T0 + 10, "alice replies");
    let bot = f.world.bot("ci");
    f.world.join(&f.town, &bot);
    f.world.view(&bot, &f.town, T0 + 5);
    f.world.post(&f.town, &bot, T0 + 20, "build passed");
    let town = f.town.clone();
    let sim = mattermost_sim::Sim::start(f.world).await.unwrap();
    let alice = Client::new(&sim, "alice");
    assert_eq!(member(&alice, &town).await["last_viewed_at"], T0 + 5);
    assert_eq!(unread(&alice, &town).await, 2);
    let bot = Client::new(&sim, "ci");
    assert_eq!(member(&bot, &town).await["last_viewed_at"], T0 + 5);
}

/// SendNotifications: `@username` mentions a member, `@channel` every member but the poster, a DM
/// post the other person, a group message every other member; the poster never mentions
/// themselves and a non-member's mention counts nowhere.
#[tokio::test]
async fn mentions_raise_the_mention_count_of_the_members_mentioned() {
    let mut f = fixture();
    f.world.post(&f.town, &f.bob, T0, "@alice, have a look");
    f.world
        .post(&f.town, &f.bob, T0 + 1, "and @bob too, @nobody.");
    f.world
        .post(&f.private, &f.bob, T0 + 2, "@carol is not here");
    f.world
        .post(&f.town, &f.carol, T0 + 3, "@channel standup now");
    let dm = f.world.direct(&f.alice, &f.bob);
    f.world.post(&dm, &f.bob, T0 + 4, "ping");
    f.world.post(&dm, &f.bob, T0 + 5, "ping again");
    let gm = f
        .world
        .group(&[f.alice.as_str(), f.bob.as_str(), f.carol.as_str()]);
    f.world.post(&gm, &f.carol, T0 + 6, "hello all");
    let (town, private) = (f.town.clone(), f.private.clone());
    let sim = mattermost_sim::Sim::start(f.world).await.unwrap();
    let alice = Client::new(&sim, "alice");
    let bob = Client::new(&sim, "bob");
    let carol = Client::new(&sim, "carol");
    assert_eq!(member(&alice, &town).await["mention_count"], 2);
    assert_eq!(member(&bob, &town).await["mention_count"], 1, "@channel");
    assert_eq!(
        member(&carol, &town).await["mention_count"],
        0,
        "carol's @channel does not count for carol"
    );
    assert_eq!(member(&alice, &private).await["mention_count"], 0);
    assert_eq!(member(&alice, &dm).await["mention_count"], 2);
    assert_eq!(member(&bob, &dm).await["mention_count"], 0);
    assert_eq!(member(&alice, &gm).await["mention_count"], 1);
    assert_eq!(member(&bob, &gm).await["mention_count"], 1);
    assert_eq!(member(&carol, &gm).await["mention_count"], 0);
}

/// SendNotifications with ThreadAutoFollow: a member mentioned in a reply follows the thread and
/// gets an unread mention on it (MaintainMembership with IncrementMentions).
#[tokio::test]
async fn a_mention_in_a_reply_makes_the_member_follow_the_thread_with_an_unread_mention() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "root");
    f.world
        .reply(&root, &f.bob, T0 + 1, "@carol what do you think?");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "carol").await;
    let v = c
        .get(&format!("/users/me/teams/{team}/threads"))
        .await
        .json();
    assert_eq!(v["total"], 1, "{v}");
    assert_eq!(v["threads"][0]["id"], root.as_str());
    assert_eq!(v["threads"][0]["unread_mentions"], 1);
    assert_eq!(v["total_unread_mentions"], 1);
}
