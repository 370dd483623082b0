//! Who may read a channel's members and stats (audit row 1), and the bodies of empty reaction and
//! draft lists (audit rows 2 and 3).

use serde_json::json;

use crate::common::*;

/// Audit row 1: `api4/channel.go` getChannelMember, getChannelStats and getChannelMembers check
/// `SessionHasPermissionToChannel(read_channel)`, which only channel roles grant (team_user has
/// `read_public_channel`, not `read_channel`), and which is false for an unknown channel.
#[tokio::test]
async fn members_and_stats_of_an_unjoined_public_channel_or_an_unknown_id_are_403() {
    let mut f = fixture();
    let random = f.world.channel(
        &f.team,
        "random",
        "Random",
        mattermost_sim::ChannelKind::Public,
    );
    f.world.join(&random, &f.bob);
    f.world.post(&random, &f.bob, T0, "hello");
    let (town, bob) = (f.town.clone(), f.bob.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let z = "zzzzzzzzzzzzzzzzzzzzzzzzzz";
    for path in [
        format!("/channels/{random}/members/me"),
        format!("/channels/{random}/members/{bob}"),
        format!("/channels/{random}/stats"),
        format!("/channels/{random}/members"),
        format!("/channels/{z}/members/me"),
        format!("/channels/{z}/stats"),
        format!("/channels/{z}/members"),
    ] {
        let r = c.get(&path).await;
        assert_eq!(r.status, 403, "{path}: {}", r.text);
        assert_eq!(r.error_id(), "api.context.permissions.app_error", "{path}");
    }
    assert_eq!(
        c.get(&format!("/channels/{random}")).await.status,
        200,
        "the channel itself stays readable (read_public_channel)"
    );
    assert_eq!(
        c.get(&format!("/channels/{random}/posts")).await.status,
        200,
        "and so do its posts"
    );
    for path in [
        format!("/channels/{town}/members/me"),
        format!("/channels/{town}/stats"),
        format!("/channels/{town}/members"),
    ] {
        assert_eq!(c.get(&path).await.status, 200, "{path}");
    }
}

/// Audit row 2: `reaction_store.go` GetForPost scans into a nil slice and `api4/reaction.go`
/// getReactions marshals it, so a post without reactions answers the JSON `null`.
#[tokio::test]
async fn a_post_without_reactions_answers_null() {
    let mut f = fixture();
    let quiet = f.world.post(&f.town, &f.bob, T0, "nobody reacts");
    let liked = f.world.post(&f.town, &f.bob, T0 + 1, "liked");
    f.world.react(&f.alice, &liked, "+1", T0 + 2);
    let (_sim, c) = start(f.world, "alice").await;
    let r = c.get(&format!("/posts/{quiet}/reactions")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.text.trim(), "null");
    let r = c.get(&format!("/posts/{liked}/reactions")).await;
    assert_eq!(r.json().as_array().map(Vec::len), Some(1));
}

/// Audit row 3: `draft_store.go` GetDraftsForUser scans into a nil slice and `api4/drafts.go`
/// getDrafts encodes it, so a team without drafts answers `null` (the drafts of another team are
/// still an array).
#[tokio::test]
async fn a_team_without_drafts_answers_null() {
    let mut f = fixture();
    f.world.draft(&f.alice, &f.town, None, "in acme", T0);
    let (team, other) = (f.team.clone(), f.other_team.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let r = c.get(&format!("/users/me/teams/{other}/drafts")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.text.trim(), "null");
    let r = c.get(&format!("/users/me/teams/{team}/drafts")).await;
    assert_eq!(r.json().as_array().map(Vec::len), Some(1));
    let _ = json!(null);
}
