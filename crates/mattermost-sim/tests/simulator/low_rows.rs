//! The audit's LOW rows (15–30): edge cases and headers where the simulator now does what the
//! server's source does.

use std::collections::HashSet;

use serde_json::json;

use crate::common::*;

/// Row 15: `SqlTeamStore.GetTeamsByUserId` has no ORDER BY, so the order of one's teams varies.
#[tokio::test]
async fn ones_teams_come_back_in_no_particular_order() {
    let mut f = fixture();
    for i in 0..6 {
        let t = f.world.team(&format!("t{i}"), &format!("Team {i}"), true);
        f.world.add_to_team(&t, &f.alice);
    }
    let (_sim, c) = start(f.world, "alice").await;
    let mut orders = HashSet::new();
    for _ in 0..10 {
        orders.insert(ids(&c.get("/users/me/teams").await.json()));
    }
    assert!(orders.len() > 1, "the order changes between requests");
}

/// Rows 16 and 19: a followed thread's `post` comes from the thread store's columns only (no
/// metadata, reply_count 0, participants null); with collapsed threads a root without replies has
/// `participants` null and no `is_following` when the reader has no membership.
#[tokio::test]
async fn thread_posts_are_bare_rows_and_crt_fields_are_omitted_when_unset() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "root");
    f.world.react(&f.carol, &root, "+1", T0 + 1);
    f.world.reply(&root, &f.alice, T0 + 2, "reply");
    let lonely = f.world.post(&f.town, &f.bob, T0 + 3, "no replies");
    let (town, team) = (f.town.clone(), f.team.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let v = c
        .get(&format!("/users/me/teams/{team}/threads"))
        .await
        .json();
    let post = &v["threads"][0]["post"];
    assert_eq!(post["id"], root.as_str());
    assert!(post.get("metadata").is_none(), "{post}");
    assert_eq!(post["reply_count"], 0);
    assert!(post["participants"].is_null());
    let v = c
        .get(&format!("/channels/{town}/posts?collapsedThreads=true"))
        .await
        .json();
    let p = &v["posts"][&lonely];
    assert!(p["participants"].is_null(), "{p}");
    assert!(p.get("is_following").is_none(), "{p}");
    assert_eq!(v["posts"][&root]["is_following"], true);
}

/// Row 17: with every reply deleted, a thread's LastReplyAt is 0; deleting the root keeps its
/// ReplyCount and participants (`deleteThread` only sets ThreadDeleteAt).
#[tokio::test]
async fn thread_counts_after_deletions_follow_the_thread_store() {
    let mut f = fixture();
    let a = f.world.post(&f.town, &f.alice, T0, "a");
    let r = f.world.reply(&a, &f.bob, T0 + 1, "r");
    f.world.delete(&r, T0 + 2);
    let b = f.world.post(&f.town, &f.alice, T0 + 10, "b");
    f.world.reply(&b, &f.bob, T0 + 11, "r1");
    f.world.reply(&b, &f.carol, T0 + 12, "r2");
    f.world.delete(&b, T0 + 13);
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let v = c
        .get(&format!("/users/me/teams/{team}/threads/{a}"))
        .await
        .json();
    assert_eq!(v["last_reply_at"], 0, "{v}");
    let v = c
        .get(&format!("/users/me/teams/{team}/threads?deleted=true"))
        .await
        .json();
    let t = v["threads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == b.as_str())
        .cloned()
        .unwrap();
    assert_eq!(t["reply_count"], 2, "{t}");
    assert_eq!(t["participants"].as_array().map(Vec::len), Some(2));
    assert!(t["delete_at"].as_i64().unwrap() > 0);
}

/// Row 18: `SqlPostStore.Get` sets HasNext only when it fetched the thread, so with
/// `skipFetchThreads=true` there is no `has_next`.
#[tokio::test]
async fn a_thread_read_without_fetching_replies_has_no_has_next() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "root");
    f.world.reply(&root, &f.carol, T0 + 1, "r");
    let (_sim, c) = start(f.world, "alice").await;
    let v = c
        .get(&format!("/posts/{root}/thread?skipFetchThreads=true"))
        .await
        .json();
    assert!(v.get("has_next").is_none(), "{v}");
    let v = c.get(&format!("/posts/{root}/thread")).await.json();
    assert_eq!(v["has_next"], false);
}

/// Rows 20 and 21: an empty channel's ETag is the current time (`GetEtag` fails on no rows), a 304
/// carries the ETag, and every API response has nosniff, no-referrer and an empty
/// Permissions-Policy (`web/handlers.go` ServeHTTP).
#[tokio::test]
async fn empty_channel_etags_change_and_responses_carry_the_common_headers() {
    let mut f = fixture();
    let empty = f.world.channel(
        &f.team,
        "empty",
        "Empty",
        mattermost_sim::ChannelKind::Public,
    );
    f.world.join(&empty, &f.alice);
    f.world.post(&f.town, &f.bob, T0, "x");
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let e1 = c
        .get(&format!("/channels/{empty}/posts"))
        .await
        .header("etag");
    tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    let e2 = c
        .get(&format!("/channels/{empty}/posts"))
        .await
        .header("etag");
    assert_ne!(e1, e2);
    let r = c.get(&format!("/channels/{town}/posts")).await;
    let etag = r.header("etag").unwrap();
    assert_eq!(
        r.header("x-content-type-options").as_deref(),
        Some("nosniff")
    );
    assert_eq!(r.header("referrer-policy").as_deref(), Some("no-referrer"));
    assert_eq!(r.header("permissions-policy").as_deref(), Some(""));
    let again = c
        .get_with(&format!("/channels/{town}/posts"), ("If-None-Match", &etag))
        .await;
    assert_eq!(again.status, 304);
    assert_eq!(again.header("etag"), Some(etag));
}

/// Row 22: `getPostsAround` loads the threads of every post in the window when threads are
/// fetched, so a root's replies outside the window are in `posts`.
#[tokio::test]
async fn posts_before_an_anchor_bring_the_replies_of_roots_in_the_window() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "root");
    let anchor = f.world.post(&f.town, &f.bob, T0 + 10, "anchor");
    let late = f.world.reply(&root, &f.carol, T0 + 20, "late reply");
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let v = c
        .get(&format!("/channels/{town}/posts?before={anchor}"))
        .await
        .json();
    assert_eq!(strings(&v["order"]), vec![root.clone()]);
    assert!(v["posts"].get(&late).is_some(), "{v}");
}

/// Row 23: channel and team names in the path are lower-cased (`web/params.go`), and a team-less
/// (DM/GM) name resolves in any team (`getByName` matches `TeamId = ''`).
#[tokio::test]
async fn channel_names_are_case_insensitive_and_dm_names_resolve_in_a_team() {
    let mut f = fixture();
    let dm = f.world.direct(&f.alice, &f.bob);
    let (a, b) = if f.alice <= f.bob {
        (f.alice.clone(), f.bob.clone())
    } else {
        (f.bob.clone(), f.alice.clone())
    };
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .get(&format!("/teams/{team}/channels/name/Town-Square"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = c.get("/teams/name/ACME/channels/name/TOWN-SQUARE").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = c
        .get(&format!("/teams/{team}/channels/name/{a}__{b}"))
        .await;
    assert_eq!(r.json()["id"], dm.as_str());
}

/// Rows 24 and 25: an archived open team stays readable (`getTeam` checks AllowOpenInvite and the
/// type only), and an unknown `sort` of team members is not an error.
#[tokio::test]
async fn archived_open_teams_stay_readable_and_team_member_sort_is_lenient() {
    let mut f = fixture();
    let old = f.world.team("old", "Old", true);
    f.world.archive_team(&old);
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "carol").await;
    assert_eq!(c.get(&format!("/teams/{old}")).await.status, 200);
    assert_eq!(c.get("/teams/name/old").await.status, 200);
    let r = c.get(&format!("/teams/{team}/members?sort=foo")).await;
    assert_eq!(r.status, 200, "{}", r.text);
}

/// Row 26: deleting a root (`WHERE Id = ? OR RootId = ?`) also rewrites the DeleteAt and UpdateAt
/// of its replies' edit-history rows, so they show in a `since` read.
#[tokio::test]
async fn deleting_a_root_touches_its_replies_history_rows() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "root");
    let reply = f.world.reply(&root, &f.carol, T0 + 1, "reply");
    f.world.edit(&reply, T0 + 2, "reply, edited");
    let history = f.world.history_ids(&reply);
    f.world.delete(&root, T0 + 100);
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let order = c
        .get(&format!("/channels/{town}/posts?since={}", T0 + 50))
        .await
        .order();
    assert!(order.contains(&history[0]), "{order:?}");
}

/// Row 27: `ChannelMember.SanitizeForCurrentUser` hides other members' last_viewed_at and
/// last_update_at as -1.
#[tokio::test]
async fn other_members_read_times_are_hidden() {
    let mut f = fixture();
    f.world.post(&f.town, &f.bob, T0, "x");
    f.world.view(&f.bob, &f.town, T0 + 5);
    f.world.view(&f.alice, &f.town, T0 + 5);
    let (town, bob) = (f.town.clone(), f.bob.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let m = c
        .get(&format!("/channels/{town}/members/{bob}"))
        .await
        .json();
    assert_eq!(m["last_viewed_at"], -1);
    assert_eq!(m["last_update_at"], -1);
    let all = c.get(&format!("/channels/{town}/members")).await.json();
    for m in all.as_array().unwrap() {
        let mine = m["user_id"] == f.alice.as_str();
        assert_eq!(m["last_viewed_at"] == -1, !mine, "{m}");
    }
}

/// Row 28: a bad email in the path is an invalid URL parameter (`SanitizeEmail`).
#[tokio::test]
async fn a_bad_email_in_the_path_is_an_invalid_url_parameter() {
    let f = fixture();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c.get("/users/email/not-an-email").await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_id(), "api.context.invalid_url_param.app_error");
}

/// Row 29: files are served with their stored type (no charset added; scripts and HTML as
/// text/plain) and only images, video and audio inline; a PDF is an attachment.
#[tokio::test]
async fn files_keep_their_type_and_only_media_is_inline() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "files");
    let txt = f.world.attach(&p, "a.txt", b"hello");
    let pdf = f
        .world
        .attach(&p, "a.pdf", &mattermost_sim::samples::pdf(&["x"]));
    let html = f.world.attach(&p, "a.html", b"<b>hi</b>");
    let png = f
        .world
        .attach(&p, "a.png", &mattermost_sim::samples::png(4, 4));
    let (_sim, c) = start(f.world, "alice").await;
    let r = c.get(&format!("/files/{txt}")).await;
    assert_eq!(r.header("content-type").as_deref(), Some("text/plain"));
    let r = c.get(&format!("/files/{pdf}")).await;
    assert!(
        r.header("content-disposition")
            .unwrap()
            .starts_with("attachment")
    );
    let r = c.get(&format!("/files/{html}")).await;
    assert_eq!(r.header("content-type").as_deref(), Some("text/plain"));
    let r = c.get(&format!("/files/{png}")).await;
    assert!(
        r.header("content-disposition")
            .unwrap()
            .starts_with("inline")
    );
}

/// Row 30: `GetChannelsByUser` reads `last_delete_at` only with `include_deleted`.
#[tokio::test]
async fn last_delete_at_alone_does_not_bring_archived_channels() {
    let mut f = fixture();
    let old = f
        .world
        .channel(&f.team, "old", "Old", mattermost_sim::ChannelKind::Public);
    f.world.join(&old, &f.alice);
    f.world.archive(&old);
    let (_sim, c) = start(f.world, "alice").await;
    let v = c.get("/users/me/channels?last_delete_at=1").await.json();
    assert!(!ids(&v).contains(&old));
    let v = c
        .get("/users/me/channels?include_deleted=true&last_delete_at=1")
        .await
        .json();
    assert!(ids(&v).contains(&old));
    let _ = json!(null);
}
