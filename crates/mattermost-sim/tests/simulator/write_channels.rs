//! Channel writes against `app/channel.go` and `app/team.go`: create (names, the taken-name
//! error, the creator's join message), DMs and GMs, join / add / leave / remove with the system
//! messages, archive (the notice first), and leaving a team (rows 9, 10 and 13 through the
//! routes).

use mattermost_sim::ChannelKind;
use serde_json::{Value, json};

use crate::common::*;
use crate::write_client::channel_posts;

/// The newest post of a channel.
async fn newest(c: &Client, channel: &str) -> Value {
    let (order, posts) = channel_posts(c, channel).await;
    posts[order[0].as_str()].clone()
}

#[tokio::test]
async fn creating_a_channel_makes_the_creator_its_admin_and_posts_their_join_message() {
    let f = fixture();
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .post("/channels", &json!({"team_id": team, "name": "launch", "display_name": "  Launch  ", "type": "P", "purpose": "ship it"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let ch = r.json();
    let id = ch["id"].as_str().unwrap().to_string();
    assert_eq!(
        (ch["type"].as_str(), ch["display_name"].as_str()),
        (Some("P"), Some("Launch"))
    );
    assert_eq!(ch["purpose"], "ship it");
    assert_eq!(
        ch["creator_id"],
        json!(c.get("/users/me").await.json()["id"])
    );
    let me = c.get(&format!("/channels/{id}/members/me")).await.json();
    assert_eq!(me["roles"], "channel_user channel_admin");
    let join = newest(&c, &id).await;
    assert_eq!(join["type"], "system_join_channel");
    assert_eq!(join["message"], "alice joined the channel.");
    assert_eq!(join["props"], json!({"username": "alice"}));
    let now = c.get(&format!("/channels/{id}")).await.json();
    assert_eq!(now["total_msg_count"], 0, "join messages do not count");
    assert_eq!(now["last_post_at"], join["create_at"]);
}

#[tokio::test]
async fn channel_names_are_validated_and_a_taken_name_is_refused() {
    let mut f = fixture();
    let old = f
        .world
        .channel(&f.team, "old-news", "Old", ChannelKind::Public);
    f.world.archive(&old);
    let empty_team = f.world.team("empty", "Empty", true);
    f.world.add_to_team(&empty_team, &f.alice);
    let (team, other) = (f.team.clone(), f.other_team.clone());
    let (sim, c) = start(f.world, "alice").await;
    let ok = |name: &str| json!({"team_id": team, "name": name, "display_name": "X", "type": "O"});
    let cases = [
        (
            ok("Town"),
            400,
            "model.channel.is_valid.1_or_more.app_error",
        ),
        (
            ok("-dash"),
            400,
            "model.channel.is_valid.1_or_more.app_error",
        ),
        (
            ok(&"a".repeat(40)),
            400,
            "model.channel.is_valid.name.app_error",
        ),
        (
            ok("town-square"),
            400,
            "store.sql_channel.save_channel.exists.app_error",
        ),
        (
            ok("old-news"),
            400,
            "store.sql_channel.save_channel.exists.app_error",
        ),
        (
            ok(&"n".repeat(65)),
            500,
            "app.channel.create_channel.internal_error",
        ),
        (
            json!({"team_id": team, "name": "x", "display_name": "d".repeat(65), "type": "O"}),
            400,
            "model.channel.is_valid.display_name.app_error",
        ),
        (
            json!({"team_id": team, "name": "x", "type": "O"}),
            400,
            "api.context.invalid_body_param.app_error",
        ),
        (
            json!({"name": "x", "display_name": "X", "type": "O"}),
            400,
            "api.context.invalid_body_param.app_error",
        ),
        (
            json!({"team_id": team, "name": "x", "display_name": "X", "type": "D"}),
            400,
            "api.channel.create_channel.direct_channel.app_error",
        ),
        (
            json!({"team_id": team, "name": "x", "display_name": "X", "type": "Q"}),
            400,
            "model.channel.is_valid.type.app_error",
        ),
        (
            json!({"team_id": empty_team, "name": "x", "display_name": "X", "type": "O"}),
            404,
            "app.channel.get_channels.not_found.app_error",
        ),
    ];
    for (body, status, id) in cases {
        let r = c.post("/channels", &body).await;
        assert_eq!((r.status, r.error_id()), (status, id.to_string()), "{body}");
    }
    let r = c.post_raw("/channels", "application/json", "null").await;
    assert_eq!(r.status, 400);
    let bob = Client::new(&sim, "bob");
    let r = bob
        .post(
            "/channels",
            &json!({"team_id": other, "name": "x", "display_name": "X", "type": "O"}),
        )
        .await;
    assert_eq!(r.status, 403, "not a member of that team");
    assert_eq!(c.post("/channels", &ok("a__b")).await.status, 201);
}

#[tokio::test]
async fn a_direct_channel_is_made_once_and_answered_again() {
    let f = fixture();
    let (alice, bob, carol) = (f.alice.clone(), f.bob.clone(), f.carol.clone());
    let (sim, c) = start(f.world, "alice").await;
    let r = c.post("/channels/direct", &json!([alice, bob])).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let dm = r.json();
    let (x, y) = if alice < bob {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };
    assert_eq!(dm["name"], format!("{x}__{y}"));
    assert_eq!(
        (dm["type"].as_str(), dm["display_name"].as_str()),
        (Some("D"), Some(""))
    );
    let again = c
        .post("/channels/direct", &json!([bob, alice]))
        .await
        .json();
    assert_eq!(again["id"], dm["id"]);
    let me = c.post("/channels/direct", &json!([alice])).await.json();
    assert_eq!(me["name"], format!("{alice}__{alice}"));
    let cases = [
        (
            json!([alice, "aaaaaaaaaaaaaaaaaaaaaaaaaa"]),
            400,
            "api.channel.create_direct_channel.invalid_user.app_error",
        ),
        (
            json!([alice, bob, carol]),
            400,
            "api.context.invalid_body_param.app_error",
        ),
        (
            json!([alice, "short"]),
            400,
            "api.context.invalid_body_param.app_error",
        ),
        (
            json!([bob, carol]),
            403,
            "api.context.permissions.app_error",
        ),
        (json!({"not": "a list"}), 400, "api.payload.parse.error"),
    ];
    for (body, status, id) in cases {
        let r = c.post("/channels/direct", &body).await;
        assert_eq!((r.status, r.error_id()), (status, id.to_string()), "{body}");
    }
    let b = Client::new(&sim, "bob");
    let mine = b.get("/users/me/channels").await;
    assert!(ids(&mine.json()).contains(&dm["id"].as_str().unwrap().to_string()));
}

#[tokio::test]
async fn a_group_channel_has_3_to_8_members_with_the_caller() {
    let mut f = fixture();
    let others: Vec<String> = (0..8).map(|i| f.world.user(&format!("u{i}"))).collect();
    let (bob, carol) = (f.bob.clone(), f.carol.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let r = c.post("/channels/group", &json!([bob, carol])).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let gm = r.json();
    assert_eq!(gm["type"], "G");
    assert_eq!(gm["display_name"], "alice, bob, carol");
    assert_eq!(gm["name"].as_str().unwrap().len(), 40);
    let again = c
        .post("/channels/group", &json!([carol, bob, carol]))
        .await
        .json();
    assert_eq!(again["id"], gm["id"]);
    let members = c
        .get(&format!("/channels/{}/members", gm["id"].as_str().unwrap()))
        .await
        .json();
    assert_eq!(members.as_array().map(Vec::len), Some(3));
    let eight = json!(others.clone());
    let cases = [
        (
            json!([bob]),
            400,
            "api.channel.create_group.bad_size.app_error",
        ),
        (eight, 400, "api.channel.create_group.bad_size.app_error"),
        (
            json!([bob, "aaaaaaaaaaaaaaaaaaaaaaaaaa"]),
            400,
            "api.channel.create_group.bad_user.app_error",
        ),
        (json!([]), 400, "api.context.invalid_body_param.app_error"),
    ];
    for (body, status, id) in cases {
        let r = c.post("/channels/group", &body).await;
        assert_eq!((r.status, r.error_id()), (status, id.to_string()), "{body}");
    }
    let seven = json!(others[..7]);
    assert_eq!(
        c.post("/channels/group", &seven).await.status,
        201,
        "7 others and the caller"
    );
}

#[tokio::test]
async fn joining_posts_the_join_message_and_adding_others_the_add_message() {
    let mut f = fixture();
    let open = f
        .world
        .channel(&f.team, "open", "Open", ChannelKind::Public);
    f.world.join(&open, &f.alice);
    let (alice, bob, carol) = (f.alice.clone(), f.bob.clone(), f.carol.clone());
    let outsider = f.world.user("outsider");
    let (sim, c) = start(f.world, "carol").await;
    let r = c
        .post(
            &format!("/channels/{open}/members"),
            &json!({"user_id": carol}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(
        r.json()["user_id"],
        json!(carol),
        "one member object for user_id"
    );
    let join = newest(&c, &open).await;
    assert_eq!(
        (join["type"].as_str(), join["message"].as_str()),
        (
            Some("system_join_channel"),
            Some("carol joined the channel.")
        )
    );
    let a = Client::new(&sim, "alice");
    let r = a
        .post(
            &format!("/channels/{open}/members"),
            &json!({"user_ids": [bob, alice]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let list = r.json();
    assert_eq!(
        list.as_array().map(Vec::len),
        Some(2),
        "a list for user_ids"
    );
    let bob_row = list
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["user_id"] == json!(bob))
        .unwrap();
    assert_eq!(
        bob_row["last_viewed_at"], -1,
        "another user's read state is hidden"
    );
    let add = newest(&c, &open).await;
    assert_eq!(add["type"], "system_add_to_channel");
    assert_eq!(add["message"], "bob added to the channel by alice.");
    assert_eq!(add["user_id"], json!(alice));
    assert_eq!(add["props"]["addedUserId"], json!(bob));
    let r = a
        .post(
            &format!("/channels/{open}/members"),
            &json!({"user_id": outsider}),
        )
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (404, "app.team.get_member.missing.app_error")
    );
    let r = a
        .post(
            &format!("/channels/{open}/members"),
            &json!({"user_id": "nope"}),
        )
        .await;
    assert_eq!(r.status, 400);
}

#[tokio::test]
async fn private_channels_and_dms_refuse_the_wrong_joiners() {
    let mut f = fixture();
    let dm = f.world.direct(&f.alice, &f.bob);
    let (private, carol) = (f.private.clone(), f.carol.clone());
    let (sim, c) = start(f.world, "carol").await;
    let r = c
        .post(
            &format!("/channels/{private}/members"),
            &json!({"user_id": carol}),
        )
        .await;
    assert_eq!(
        r.status, 403,
        "a private channel takes only those its members add"
    );
    let a = Client::new(&sim, "alice");
    let r = a
        .post(
            &format!("/channels/{private}/members"),
            &json!({"user_id": carol}),
        )
        .await;
    assert_eq!(r.status, 201, "a member may add");
    let r = a
        .post(
            &format!("/channels/{dm}/members"),
            &json!({"user_id": carol}),
        )
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (400, "api.channel.add_user_to_channel.type.app_error")
    );
}

#[tokio::test]
async fn leaving_posts_the_leave_message_and_drops_the_channels_thread_memberships() {
    let mut f = fixture();
    let dev = f.world.channel(&f.team, "dev", "Dev", ChannelKind::Public);
    for u in [&f.alice, &f.bob, &f.carol] {
        f.world.join(&dev, u);
    }
    let root = f.world.post(&dev, &f.bob, T0, "thread");
    f.world.reply(&root, &f.alice, T0 + 1, "reply");
    let (team, bob) = (f.team.clone(), f.bob.clone());
    let town = f.town.clone();
    let (sim, c) = start(f.world, "alice").await;
    let before = c
        .get(&format!("/users/me/teams/{team}/threads"))
        .await
        .json();
    assert_eq!(before["total"], 1);
    let r = c.delete(&format!("/channels/{dev}/members/me")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let after = c
        .get(&format!("/users/me/teams/{team}/threads"))
        .await
        .json();
    assert_eq!(
        after["total"], 0,
        "row 10: the thread membership went with the channel"
    );
    let b = Client::new(&sim, "bob");
    let left = newest(&b, &dev).await;
    assert_eq!(
        (left["type"].as_str(), left["message"].as_str()),
        (
            Some("system_leave_channel"),
            Some("@alice left the channel.")
        )
    );
    let carol = Client::new(&sim, "carol");
    let r = carol
        .delete(&format!("/channels/{dev}/members/{bob}"))
        .await;
    assert_eq!(
        r.status, 200,
        "members of a public channel may remove others"
    );
    let msg = newest(&carol, &dev).await;
    assert_eq!(msg["type"], "system_remove_from_channel");
    assert_eq!(msg["message"], "@bob removed from the channel.");
    assert_eq!(
        msg["user_id"],
        json!(sim.with_world(|w| w.user_id("carol")).unwrap())
    );
    let r = c.delete(&format!("/channels/{dev}/members/me")).await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (404, "app.channel.get_member.missing.app_error")
    );
    let r = c.delete(&format!("/channels/{town}/members/me")).await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (400, "api.channel.remove.default.app_error")
    );
}

#[tokio::test]
async fn archiving_posts_the_notice_first_and_refuses_town_square_dms_and_outsiders() {
    let mut f = fixture();
    let dev = f.world.channel(&f.team, "dev", "Dev", ChannelKind::Public);
    f.world.join(&dev, &f.alice);
    f.world.post(&dev, &f.alice, T0, "last words");
    let dm = f.world.direct(&f.alice, &f.bob);
    let town = f.town.clone();
    let (sim, c) = start(f.world, "alice").await;
    let outsider = Client::new(&sim, "carol");
    assert_eq!(
        outsider.delete(&format!("/channels/{dev}")).await.status,
        403,
        "not a member"
    );
    let r = c.delete(&format!("/channels/{dev}?permanent=true")).await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (401, "api.user.delete_channel.not_enabled.app_error")
    );
    let r = c.delete(&format!("/channels/{dev}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let ch = c.get(&format!("/channels/{dev}")).await.json();
    assert!(ch["delete_at"].as_i64().unwrap() > 0);
    assert_eq!(ch["total_msg_count"], 2, "row 13: the notice counts");
    let notice = newest(&c, &dev).await;
    assert_eq!(notice["type"], "system_channel_deleted");
    assert_eq!(notice["message"], "alice archived the channel.");
    assert!(notice["create_at"].as_i64() <= ch["delete_at"].as_i64());
    let cases = [
        (
            dev.as_str(),
            400,
            "api.channel.delete_channel.deleted.app_error",
        ),
        (
            town.as_str(),
            400,
            "api.channel.delete_channel.cannot.app_error",
        ),
        (dm.as_str(), 400, "api.channel.delete_channel.type.invalid"),
    ];
    for (ch, status, id) in cases {
        let r = c.delete(&format!("/channels/{ch}")).await;
        assert_eq!((r.status, r.error_id()), (status, id.to_string()), "{ch}");
    }
}

#[tokio::test]
async fn removing_a_team_member_leaves_the_teams_channels_and_posts_in_town_square() {
    let mut f = fixture();
    let old = f.world.channel(&f.team, "old", "Old", ChannelKind::Public);
    f.world.join(&old, &f.bob);
    f.world.archive(&old);
    let dm = f.world.direct(&f.alice, &f.bob);
    f.world.make_team_admin(&f.team, &f.alice);
    let root = f.world.user("root");
    f.world.make_admin(&root);
    let (team, bob, town, private) = (
        f.team.clone(),
        f.bob.clone(),
        f.town.clone(),
        f.private.clone(),
    );
    let (sim, c) = start(f.world, "alice").await;
    let admin = Client::new(&sim, "root");
    let carol = Client::new(&sim, "carol");
    assert_eq!(
        carol
            .delete(&format!("/teams/{team}/members/{bob}"))
            .await
            .status,
        403
    );
    let r = c.delete(&format!("/teams/{team}/members/{bob}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let notice = newest(&c, &town).await;
    assert_eq!(notice["type"], "system_remove_from_team");
    assert_eq!(notice["message"], "bob removed from the team.");
    for ch in [&town, &private, &old] {
        let members = admin.get(&format!("/channels/{ch}/members")).await;
        assert_eq!(members.status, 200, "{}", members.text);
        assert!(!members.text.contains(&bob), "row 9: bob left {ch}");
    }
    let b = Client::new(&sim, "bob");
    assert!(
        ids(&b.get("/users/me/channels").await.json()).contains(&dm),
        "the DM stays"
    );
    let r = c.delete(&format!("/teams/{team}/members/{bob}")).await;
    assert_eq!(r.status, 200, "the membership row is still there, deleted");
    let never = sim.with_world(|w| w.user("never"));
    let r = c.delete(&format!("/teams/{team}/members/{never}")).await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (400, "api.team.remove_user_from_team.missing.app_error")
    );
    let r = carol.delete(&format!("/teams/{team}/members/me")).await;
    assert_eq!(r.status, 200, "anyone may leave");
    assert_eq!(newest(&c, &town).await["message"], "carol left the team.");
}

#[tokio::test]
async fn leaving_a_team_without_town_square_fails_after_its_channels_were_left() {
    let mut f = fixture();
    let bare = f.world.team("bare", "Bare", true);
    let dev = f.world.channel(&bare, "dev", "Dev", ChannelKind::Public);
    f.world.join(&dev, &f.alice);
    f.world.join(&dev, &f.bob);
    let (sim, c) = start(f.world, "alice").await;
    let r = c.delete(&format!("/teams/{bare}/members/me")).await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (404, "app.channel.get_by_name.missing.app_error")
    );
    let b = Client::new(&sim, "bob");
    let members = b.get(&format!("/channels/{dev}/members")).await.json();
    assert_eq!(
        members.as_array().map(Vec::len),
        Some(1),
        "alice's channel membership is gone anyway"
    );
}

#[tokio::test]
async fn a_new_team_comes_with_town_square_and_off_topic() {
    let f = fixture();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .post(
            "/teams",
            &json!({"name": "newco", "display_name": "NewCo", "type": "O"}),
        )
        .await;
    assert_eq!(r.status, 201);
    let team = r.json()["id"].as_str().unwrap().to_string();
    let mine = c
        .get(&format!("/users/me/teams/{team}/channels"))
        .await
        .json();
    let mut names: Vec<&str> = mine
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    names.sort();
    assert_eq!(names, vec!["off-topic", "town-square"]);
    let town = mine
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "town-square")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(newest(&c, &town).await["message"], "alice joined the team.");
    let r = c
        .post(
            "/channels",
            &json!({"team_id": team, "name": "x", "display_name": "X", "type": "O"}),
        )
        .await;
    assert_eq!(r.status, 201, "a team with channels takes new ones");
}
