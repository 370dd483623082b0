//! Who may read what: private channels for members, public channels for team members, 404s with
//! the real ids for unknown objects.

use crate::common::*;

/// A private channel is readable only by its members (403 `api.context.permissions.app_error`);
/// a public channel by any member of its team, even without joining.
#[tokio::test]
async fn private_channels_only_for_members_public_ones_for_the_team() {
    let mut f = fixture();
    let secret_post = f.world.post(&f.private, &f.alice, T0, "secret");
    let public = f.world.channel(
        &f.team,
        "lobby",
        "Lobby",
        mattermost_sim::ChannelKind::Public,
    );
    f.world.join(&public, &f.alice);
    f.world.post(&public, &f.alice, T0, "hi");
    let outsider = f.world.user("outsider");
    let _ = outsider;
    let (private, team) = (f.private.clone(), f.team.clone());
    let sim = mattermost_sim::Sim::start(f.world).await.unwrap();
    let carol = Client::new(&sim, "carol");
    for path in [
        format!("/channels/{private}"),
        format!("/channels/{private}/posts"),
        format!("/posts/{secret_post}"),
        format!("/posts/{secret_post}/thread"),
    ] {
        let r = carol.get(&path).await;
        assert_eq!(r.status, 403, "{path}");
        assert_eq!(r.error_id(), "api.context.permissions.app_error");
    }
    assert_eq!(
        carol.get(&format!("/channels/{public}/posts")).await.status,
        200,
        "team member reads a public channel"
    );
    let stranger = Client::new(&sim, "outsider");
    assert_eq!(
        stranger
            .get(&format!("/channels/{public}/posts"))
            .await
            .status,
        403,
        "not in the team"
    );
    assert_eq!(
        stranger.get(&format!("/teams/{team}")).await.status,
        200,
        "an open team is visible"
    );
}

/// Unknown ids answer 404 with the store's error ids; an invite-only team is 403 for non-members.
#[tokio::test]
async fn unknown_ids_are_404_with_real_error_ids() {
    let f = fixture();
    let other = f.other_team.clone();
    let (_sim, c) = start(f.world, "bob").await;
    let z = "zzzzzzzzzzzzzzzzzzzzzzzzzz";
    for (path, id) in [
        (
            format!("/channels/{z}"),
            "app.channel.get.existing.app_error",
        ),
        (
            format!("/channels/{z}/posts"),
            "app.channel.get.existing.app_error",
        ),
        (format!("/posts/{z}"), "app.post.get.app_error"),
        (format!("/users/{z}"), "app.user.missing_account.const"),
        (format!("/teams/{z}"), "app.team.get.find.app_error"),
        (format!("/files/{z}/info"), "app.file_info.get.app_error"),
    ] {
        let r = c.get(&path).await;
        assert_eq!(r.status, 404, "{path}");
        assert_eq!(r.error_id(), id, "{path}");
    }
    assert_eq!(c.get(&format!("/teams/{other}")).await.status, 403);
    assert_eq!(
        c.get(&format!("/users/me/teams/{other}/threads"))
            .await
            .status,
        403
    );
}
