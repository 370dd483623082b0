//! Channel search in a team (audit row 8): `api4/channel.go` searchChannelsForTeam →
//! `app/channel.go` SearchChannels → `channel_store.go` SearchInTeam.

use serde_json::json;

use crate::common::*;

/// Audit row 8: the store matches `LIKE %term%` on Name, DisplayName or Purpose OR a prefix full
/// text query (`word:* & word:*`) over the three fields joined, and the app trims the term.
#[tokio::test]
async fn channel_search_matches_words_across_name_display_name_and_purpose() {
    let mut f = fixture();
    let eng = f.world.channel(
        &f.team,
        "eng",
        "Engineering",
        mattermost_sim::ChannelKind::Public,
    );
    f.world.set_purpose(&eng, "team stuff");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    for term in ["eng team", "  engineering  ", "Team Engineer"] {
        let r = c
            .post(
                &format!("/teams/{team}/channels/search"),
                &json!({"term": term}),
            )
            .await;
        assert_eq!(r.status, 200);
        assert_eq!(ids(&r.json()), vec![eng.clone()], "{term:?}");
    }
}

/// Audit row 8: a user without list_team_channels (not a team member) is answered by
/// GetTeamMember's 404 `app.team.get_member.missing.app_error`.
#[tokio::test]
async fn channel_search_by_a_non_member_of_the_team_is_404_missing_member() {
    let mut f = fixture();
    f.world.user("outsider");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "outsider").await;
    let r = c
        .post(
            &format!("/teams/{team}/channels/search"),
            &json!({"term": "town"}),
        )
        .await;
    assert_eq!(r.status, 404, "{}", r.text);
    assert_eq!(r.error_id(), "app.team.get_member.missing.app_error");
}

/// Audit row 14: `getDeletedChannelsForTeam` skips the membership check for `manage_system`, and
/// `GetDeleted` then lists every archived channel of the team or without a team.
#[tokio::test]
async fn an_admin_lists_every_archived_channel_of_the_team_and_archived_direct_ones() {
    let mut f = fixture();
    let admin = f.world.user("admin");
    f.world.make_admin(&admin);
    f.world.add_to_team(&f.team, &admin);
    let old_private = f.world.channel(
        &f.team,
        "old-secret",
        "Old Secret",
        mattermost_sim::ChannelKind::Private,
    );
    f.world.join(&old_private, &f.bob);
    f.world.archive(&old_private);
    let old_public = f.world.channel(
        &f.team,
        "old-public",
        "Old Public",
        mattermost_sim::ChannelKind::Public,
    );
    f.world.archive(&old_public);
    let dm = f.world.direct(&f.alice, &f.bob);
    f.world.archive(&dm);
    let team = f.team.clone();
    let sim = mattermost_sim::Sim::start(f.world).await.unwrap();
    let admin_client = Client::new(&sim, "admin");
    let mut got = ids(&admin_client
        .get(&format!("/teams/{team}/channels/deleted"))
        .await
        .json());
    got.sort();
    let mut want = vec![old_private.clone(), old_public.clone(), dm.clone()];
    want.sort();
    assert_eq!(got, want);
    let carol = Client::new(&sim, "carol");
    assert_eq!(
        ids(&carol
            .get(&format!("/teams/{team}/channels/deleted"))
            .await
            .json()),
        vec![old_public]
    );
}
