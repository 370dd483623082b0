//! Post writes against `app/post.go`: create (validations, roots, props, the AI-generated
//! marking), edit (patch and full update), delete, pin, reactions and reminders, with their side
//! effects (history rows, UpdateAt, LastPostAt, counts).

use mattermost_sim::ChannelKind;
use serde_json::{Value, json};

use crate::common::*;

async fn channel(c: &Client, id: &str) -> Value {
    let r = c.get(&format!("/channels/{id}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json()
}

#[tokio::test]
async fn creating_a_post_answers_201_with_the_post_its_pending_id_and_bumps_the_channel() {
    let f = fixture();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let before = channel(&c, &town).await;
    let r = c
        .create_post(
            json!({"channel_id": town, "message": "hello #release", "pending_post_id": "abc:123"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let p = r.json();
    assert_eq!(p["pending_post_id"], "abc:123");
    assert_eq!(p["message"], "hello #release");
    assert_eq!(p["hashtags"], "#release");
    assert_eq!(p["user_id"], json!(c.get("/users/me").await.json()["id"]));
    assert_eq!(p["create_at"], p["update_at"]);
    assert!(p["metadata"].is_object(), "prepared for the client");
    let after = channel(&c, &town).await;
    assert_eq!(
        after["total_msg_count"],
        before["total_msg_count"].as_i64().unwrap() + 1
    );
    assert_eq!(after["last_post_at"], p["create_at"]);
    let back = c.post_json(p["id"].as_str().unwrap()).await.json();
    assert_eq!(back["message"], "hello #release");
    assert_eq!(back["pending_post_id"], "", "the pending id is not stored");
}

#[tokio::test]
async fn a_reply_moves_its_root_but_replying_to_a_reply_or_across_channels_is_refused() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "root");
    let reply = f.world.reply(&root, &f.bob, T0 + 1, "first reply");
    let elsewhere = f.world.post(&f.private, &f.bob, T0 + 2, "in secret");
    let gone = f.world.post(&f.town, &f.bob, T0 + 3, "deleted root");
    f.world.delete(&gone, T0 + 4);
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .create_post(json!({"channel_id": town, "message": "a reply", "root_id": root}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let created = r.json();
    let root_now = c.post_json(&root).await.json();
    assert_eq!(root_now["update_at"], created["create_at"]);
    for (bad_root, id) in [
        (reply.as_str(), "api.post.create_post.root_id.app_error"),
        (gone.as_str(), "api.post.create_post.root_id.app_error"),
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaa",
            "api.post.create_post.root_id.app_error",
        ),
        (
            elsewhere.as_str(),
            "api.post.create_post.channel_root_id.app_error",
        ),
    ] {
        let r = c
            .create_post(json!({"channel_id": town, "message": "x", "root_id": bad_root}))
            .await;
        assert_eq!(
            (r.status, r.error_id()),
            (400, id.to_string()),
            "{bad_root}"
        );
    }
}

#[tokio::test]
async fn the_message_may_be_16383_characters_and_no_more() {
    let f = fixture();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let config = c.get("/config/client?format=old").await.json();
    assert_eq!(config["MaxPostSize"], "16383");
    let fits = "é".repeat(16383);
    let r = c
        .create_post(json!({"channel_id": town, "message": fits}))
        .await;
    assert_eq!(r.status, 201);
    let over = "a".repeat(16384);
    let r = c
        .create_post(json!({"channel_id": town, "message": over}))
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_id(), "model.post.is_valid.message_length.app_error");
}

#[tokio::test]
async fn posting_needs_create_post_an_open_channel_and_a_writable_one() {
    let mut f = fixture();
    let open = f
        .world
        .channel(&f.team, "open", "Open", ChannelKind::Public);
    let old = f.world.channel(&f.team, "old", "Old", ChannelKind::Public);
    let quiet = f
        .world
        .channel(&f.team, "quiet", "Quiet", ChannelKind::Public);
    for ch in [&old, &quiet] {
        f.world.join(ch, &f.carol);
    }
    f.world.archive(&old);
    f.world.set_read_only(&quiet, true);
    let boss = f.world.user("boss");
    f.world.make_admin(&boss);
    let private = f.private.clone();
    let (sim, c) = start(f.world, "carol").await;
    let cases = [
        (private.as_str(), 403, "api.context.permissions.app_error"),
        (open.as_str(), 403, "api.context.permissions.app_error"),
        (quiet.as_str(), 403, "api.context.permissions.app_error"),
        (
            old.as_str(),
            400,
            "api.post.create_post.can_not_post_to_deleted.error",
        ),
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaa",
            403,
            "api.context.permissions.app_error",
        ),
    ];
    for (ch, status, id) in cases {
        let r = c
            .create_post(json!({"channel_id": ch, "message": "hi"}))
            .await;
        assert_eq!((r.status, r.error_id()), (status, id.to_string()), "{ch}");
    }
    let admin = Client::new(&sim, "boss");
    let r = admin
        .create_post(json!({"channel_id": quiet, "message": "announcement"}))
        .await;
    assert_eq!(
        r.status, 201,
        "a system admin still posts in a read-only channel"
    );
}

#[tokio::test]
async fn bodies_types_and_ids_the_server_refuses() {
    let f = fixture();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c.post_raw("/posts", "application/json", "{not json").await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (400, "api.context.invalid_body_param.app_error")
    );
    let r = c
        .create_post(json!({"channel_id": town, "message": 5}))
        .await;
    assert_eq!(r.status, 400);
    let cases = [
        (
            json!({"channel_id": town, "message": "x", "type": "system_join_channel"}),
            "api.context.invalid_param.app_error",
        ),
        (
            json!({"channel_id": town, "message": "x", "type": "bogus"}),
            "model.post.is_valid.type.app_error",
        ),
        (
            json!({"channel_id": town, "message": "x", "id": "aaaaaaaaaaaaaaaaaaaaaaaaaa"}),
            "app.post.save.existing.app_error",
        ),
    ];
    for (body, id) in cases {
        let r = c.create_post(body.clone()).await;
        assert_eq!((r.status, r.error_id()), (400, id.to_string()), "{body}");
    }
    let r = c
        .create_post(json!({"channel_id": town, "message": "/me waves", "type": "me", "props": {"add_channel_member": {"x": 1}, "keep": true}}))
        .await;
    assert_eq!(r.status, 201);
    let p = r.json();
    assert_eq!(p["type"], "me");
    assert_eq!(
        p["props"],
        json!({"keep": true}),
        "add_channel_member is sanitized away"
    );
}

#[tokio::test]
async fn only_a_system_admins_create_at_is_kept() {
    let mut f = fixture();
    f.world.make_admin(&f.bob);
    let town = f.town.clone();
    let (sim, c) = start(f.world, "alice").await;
    let r = c
        .create_post(json!({"channel_id": town, "message": "x", "create_at": T0}))
        .await;
    assert_ne!(r.json()["create_at"], json!(T0));
    let admin = Client::new(&sim, "bob");
    let r = admin
        .create_post(json!({"channel_id": town, "message": "x", "create_at": T0}))
        .await;
    assert_eq!(r.json()["create_at"], json!(T0));
}

#[tokio::test]
async fn the_ai_generated_marking_names_the_author_or_a_bot_and_nobody_else() {
    let mut f = fixture();
    let helper = f.world.bot("helper-bot");
    let (alice, bob) = (f.alice.clone(), f.bob.clone());
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    for who in [&alice, &helper] {
        let r = c
            .create_post(json!({"channel_id": town, "message": "drafted by AI",
                "props": {"ai_generated_by": who, "ai_generated_by_username": "spoofed"}}))
            .await;
        assert_eq!(r.status, 201, "{}", r.text);
        let name = if who == &alice { "alice" } else { "helper-bot" };
        assert_eq!(r.json()["props"]["ai_generated_by"], json!(who));
        assert_eq!(
            r.json()["props"]["ai_generated_by_username"],
            name,
            "the server writes the username"
        );
    }
    let r = c
        .create_post(json!({"channel_id": town, "message": "x", "props": {"ai_generated_by": bob}}))
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.error_id(),
        "api.post.fill_in_post_props.invalid_ai_generated_user.app_error"
    );
    let r = c
        .create_post(json!({"channel_id": town, "message": "x", "props": {"ai_generated_by": "aaaaaaaaaaaaaaaaaaaaaaaaaa"}}))
        .await;
    assert_eq!(r.status, 201);
    assert!(
        r.json()["props"].get("ai_generated_by").is_none(),
        "an unknown user id is dropped"
    );
    let r = c
        .create_post(json!({"channel_id": town, "message": "x", "props": {"ai_generated_by_username": "whoever"}}))
        .await;
    assert_eq!(
        r.json()["props"]["ai_generated_by_username"],
        "whoever",
        "not checked without ai_generated_by"
    );
}

#[tokio::test]
async fn a_bots_post_carries_from_bot() {
    let mut f = fixture();
    let bot = f.world.bot("ci-bot");
    f.world.add_to_team(&f.team, &bot);
    f.world.join(&f.town, &bot);
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "ci-bot").await;
    let r = c
        .create_post(json!({"channel_id": town, "message": "build green"}))
        .await;
    assert_eq!(r.json()["props"]["from_bot"], "true");
}

#[tokio::test]
async fn patching_the_message_sets_edit_at_writes_history_and_moves_last_post_at() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.alice, T0, "tpyo");
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .put(
            &format!("/posts/{p}/patch"),
            &json!({"message": "typo fixed"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let edited = r.json();
    assert_eq!(edited["message"], "typo fixed");
    assert!(edited["edit_at"].as_i64().unwrap() > T0);
    assert_eq!(edited["edit_at"], edited["update_at"]);
    let history = c.get(&format!("/posts/{p}/edit_history")).await.json();
    assert_eq!(history[0]["message"], "tpyo");
    assert_eq!(history[0]["original_id"], json!(p));
    let ch = channel(&c, &town).await;
    assert_eq!(ch["last_post_at"], edited["update_at"]);
}

#[tokio::test]
async fn editing_anothers_post_needs_edit_others_posts() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "bob's words");
    f.world.make_admin(&f.carol);
    let (sim, c) = start(f.world, "alice").await;
    let r = c
        .put(
            &format!("/posts/{p}/patch"),
            &json!({"message": "alice's words"}),
        )
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (403, "api.context.permissions.app_error")
    );
    let admin = Client::new(&sim, "carol");
    let r = admin
        .put(
            &format!("/posts/{p}/patch"),
            &json!({"message": "moderated"}),
        )
        .await;
    assert_eq!(r.status, 200);
    let r = c
        .put(
            "/posts/aaaaaaaaaaaaaaaaaaaaaaaaaa/patch",
            &json!({"message": "x"}),
        )
        .await;
    assert_eq!(r.status, 403, "a missing post is a permission error here");
}

#[tokio::test]
async fn a_full_update_takes_pinned_and_props_from_the_body_and_checks_the_id() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.alice, T0, "keep");
    f.world.pin_at(&p, T0 + 1);
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .put(
            &format!("/posts/{p}"),
            &json!({"id": "bbbbbbbbbbbbbbbbbbbbbbbbbb", "message": "x"}),
        )
        .await;
    assert_eq!(r.status, 400);
    let r = c
        .put(&format!("/posts/{p}"), &json!({"id": p, "message": "keep"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v = r.json();
    assert_eq!(v["is_pinned"], false, "absent is_pinned unpins");
    assert_eq!(v["edit_at"], 0, "same message: no edit");
    assert_eq!(
        c.get(&format!("/posts/{p}/edit_history"))
            .await
            .json()
            .as_array()
            .map(Vec::len),
        Some(2)
    );
}

#[tokio::test]
async fn system_messages_and_archived_channels_cannot_be_edited() {
    let mut f = fixture();
    let sys = f.world.system_post(
        &f.town,
        &f.alice,
        T0,
        "system_join_channel",
        "alice joined the channel.",
    );
    let old = f.world.channel(&f.team, "old", "Old", ChannelKind::Public);
    f.world.join(&old, &f.alice);
    let p = f.world.post(&old, &f.alice, T0, "frozen");
    f.world.archive(&old);
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .put(&format!("/posts/{sys}/patch"), &json!({"message": "x"}))
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (400, "api.post.update_post.system_message.app_error")
    );
    let r = c
        .put(&format!("/posts/{p}/patch"), &json!({"message": "x"}))
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (
            400,
            "api.post.patch_post.can_not_update_post_in_deleted.error"
        )
    );
}

#[tokio::test]
async fn deleting_a_root_takes_its_replies_saved_marks_and_thread_drafts() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.alice, T0, "root");
    let reply = f.world.reply(&root, &f.bob, T0 + 1, "reply");
    f.world.save(&f.bob, &root);
    f.world
        .draft(&f.bob, &f.town, Some(&root), "unsent reply", T0 + 2);
    let team = f.team.clone();
    let (sim, c) = start(f.world, "alice").await;
    let r = c.delete(&format!("/posts/{root}")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json(), json!({"status": "OK"}));
    for id in [&root, &reply] {
        assert_eq!(c.post_json(id).await.status, 404);
    }
    let b = Client::new(&sim, "bob");
    let saved = b.get("/users/me/posts/flagged").await.json();
    assert!(
        strings(&saved["order"]).is_empty(),
        "the saved mark went with the post"
    );
    let drafts = b.get(&format!("/users/me/teams/{team}/drafts")).await;
    assert!(!drafts.text.contains("unsent reply"), "{}", drafts.text);
    let r = c.delete(&format!("/posts/{root}")).await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (404, "app.post.get.app_error")
    );
}

#[tokio::test]
async fn deleting_anothers_post_needs_a_team_or_system_admin_and_permanent_is_off() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "bob's");
    f.world.make_team_admin(&f.team, &f.carol);
    let (sim, c) = start(f.world, "alice").await;
    assert_eq!(c.delete(&format!("/posts/{p}")).await.status, 403);
    let r = c.delete(&format!("/posts/{p}?permanent=true")).await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (501, "api.post.delete_post.not_enabled.app_error")
    );
    let team_admin = Client::new(&sim, "carol");
    assert_eq!(team_admin.delete(&format!("/posts/{p}")).await.status, 200);
    let mine = c
        .say(
            &sim.with_world(|w| w.channel_id("acme", "town-square"))
                .unwrap(),
            "mine",
        )
        .await;
    assert_eq!(c.delete(&format!("/posts/{mine}")).await.status, 200);
}

#[tokio::test]
async fn pinning_through_the_route_is_an_update_anyone_who_reads_may_make() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "pin me");
    let sys = f.world.system_post(
        &f.town,
        &f.bob,
        T0 + 1,
        "system_join_channel",
        "bob joined the channel.",
    );
    let secret = f.world.post(&f.private, &f.bob, T0 + 2, "secret");
    let town = f.town.clone();
    let (sim, c) = start(f.world, "carol").await;
    let r = c.post(&format!("/posts/{p}/pin"), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let post = c.post_json(&p).await.json();
    assert_eq!(post["is_pinned"], true);
    assert_eq!(post["edit_at"], 0);
    let pinned = c.get(&format!("/channels/{town}/pinned")).await.json();
    assert_eq!(strings(&pinned["order"]), vec![p.clone()]);
    let ch = channel(&c, &town).await;
    assert_eq!(ch["last_post_at"], post["update_at"]);
    let r = c.post(&format!("/posts/{p}/unpin"), &json!({})).await;
    assert_eq!(r.status, 200);
    assert_eq!(
        sim.with_world(|w| w.history_ids(&p)).len(),
        2,
        "a history row per pin and unpin"
    );
    let r = c.post(&format!("/posts/{sys}/pin"), &json!({})).await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (400, "api.post.update_post.system_message.app_error")
    );
    assert_eq!(
        c.post(&format!("/posts/{secret}/pin"), &json!({}))
            .await
            .status,
        403
    );
}

#[tokio::test]
async fn reactions_need_a_known_emoji_and_bump_the_post() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "react to me");
    f.world.emoji(&f.bob, "party-parrot");
    let (alice, bob) = (f.alice.clone(), f.bob.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .post(
            "/reactions",
            &json!({"user_id": alice, "post_id": p, "emoji_name": "+1"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v = r.json();
    assert_eq!(
        (v["emoji_name"].as_str(), v["delete_at"].as_i64()),
        (Some("+1"), Some(0))
    );
    assert_eq!(
        v["channel_id"],
        json!(c.post_json(&p).await.json()["channel_id"])
    );
    let post = c.post_json(&p).await.json();
    assert_eq!(post["has_reactions"], true);
    assert!(post["update_at"].as_i64().unwrap() > T0);
    assert_eq!(
        c.post(
            "/reactions",
            &json!({"user_id": alice, "post_id": p, "emoji_name": "party-parrot"})
        )
        .await
        .status,
        200
    );
    let cases = [
        (
            json!({"user_id": alice, "post_id": p, "emoji_name": "no_such_emoji"}),
            404,
            "app.emoji.get_by_name.no_result",
        ),
        (
            json!({"user_id": bob, "post_id": p, "emoji_name": "+1"}),
            403,
            "api.reaction.save_reaction.user_id.app_error",
        ),
        (
            json!({"user_id": alice, "post_id": "short", "emoji_name": "+1"}),
            400,
            "api.reaction.save_reaction.invalid.app_error",
        ),
        (
            json!({"user_id": alice, "post_id": p, "emoji_name": ""}),
            400,
            "api.reaction.save_reaction.invalid.app_error",
        ),
    ];
    for (body, status, id) in cases {
        let r = c.post("/reactions", &body).await;
        assert_eq!((r.status, r.error_id()), (status, id.to_string()), "{body}");
    }
    let reactions = c.get(&format!("/posts/{p}/reactions")).await.json();
    assert_eq!(reactions.as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn a_post_takes_at_most_50_distinct_emoji() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "popular");
    let names = [
        "smile", "tada", "eyes", "heart", "rocket", "fire", "100", "clap", "wave", "ok_hand",
    ];
    let pool: Vec<String> = {
        let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        v.extend(
            [
                "+1", "-1", "joy", "sob", "thinking", "pray", "muscle", "star", "sunny", "zap",
            ]
            .map(String::from),
        );
        v.extend(
            [
                "apple",
                "pear",
                "tangerine",
                "lemon",
                "banana",
                "watermelon",
                "grapes",
                "strawberry",
                "melon",
                "cherries",
            ]
            .map(String::from),
        );
        v.extend(
            [
                "dog",
                "cat",
                "mouse",
                "hamster",
                "rabbit",
                "fox_face",
                "bear",
                "panda_face",
                "koala",
                "tiger",
            ]
            .map(String::from),
        );
        v.extend(
            [
                "cow", "pig", "frog", "monkey", "chicken", "penguin", "bird", "eagle", "duck",
                "owl",
            ]
            .map(String::from),
        );
        v
    };
    assert_eq!(pool.len(), 50);
    for (i, e) in pool.iter().enumerate() {
        let who = if i % 2 == 0 { &f.alice } else { &f.carol };
        f.world.react(who, &p, e, T0 + 1 + i as i64);
    }
    let alice = f.alice.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .post(
            "/reactions",
            &json!({"user_id": alice, "post_id": p, "emoji_name": "wolf"}),
        )
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (400, "app.reaction.save.save.too_many_reactions")
    );
    let r = c
        .post(
            "/reactions",
            &json!({"user_id": alice, "post_id": p, "emoji_name": "tiger"}),
        )
        .await;
    assert_eq!(
        r.status, 200,
        "an emoji already on the post is not a new one"
    );
}

#[tokio::test]
async fn removing_a_reaction_recomputes_has_reactions_and_anothers_needs_an_admin() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.carol, T0, "x");
    f.world.react(&f.alice, &p, "tada", T0 + 1);
    f.world.react(&f.bob, &p, "eyes", T0 + 2);
    let (alice, bob) = (f.alice.clone(), f.bob.clone());
    f.world.make_admin(&f.carol);
    let (sim, c) = start(f.world, "alice").await;
    let r = c
        .delete(&format!("/users/{bob}/posts/{p}/reactions/eyes"))
        .await;
    assert_eq!(r.status, 403);
    let r = c
        .delete(&format!("/users/{alice}/posts/{p}/reactions/tada"))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        c.post_json(&p).await.json()["has_reactions"],
        true,
        "bob's is left"
    );
    let admin = Client::new(&sim, "carol");
    assert_eq!(
        admin
            .delete(&format!("/users/{bob}/posts/{p}/reactions/eyes"))
            .await
            .status,
        200
    );
    assert!(
        c.post_json(&p).await.json().get("has_reactions").is_none(),
        "omitted when false"
    );
    let r = c
        .delete(&format!("/users/me/posts/{p}/reactions/bad%20name"))
        .await;
    assert_eq!(r.status, 404, "the route's emoji_name regex does not match");
}

#[tokio::test]
async fn reactions_in_an_archived_channel_are_refused() {
    let mut f = fixture();
    let old = f.world.channel(&f.team, "old", "Old", ChannelKind::Public);
    f.world.join(&old, &f.alice);
    let p = f.world.post(&old, &f.alice, T0, "x");
    f.world.react(&f.alice, &p, "tada", T0 + 1);
    f.world.archive(&old);
    let alice = f.alice.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .post(
            "/reactions",
            &json!({"user_id": alice, "post_id": p, "emoji_name": "+1"}),
        )
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (403, "api.reaction.save.archived_channel.app_error")
    );
    let r = c
        .delete(&format!("/users/me/posts/{p}/reactions/tada"))
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (403, "api.reaction.delete.archived_channel.app_error")
    );
}

#[tokio::test]
async fn a_reminder_is_stored_in_seconds_without_validation() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "remind me");
    let secret = f.world.post(&f.private, &f.bob, T0, "secret");
    let (sim, c) = start(f.world, "carol").await;
    let r = c
        .post(
            &format!("/users/me/posts/{p}/reminder"),
            &json!({"target_time": 1_700_000_000}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = c
        .post(
            &format!("/users/me/posts/{p}/reminder"),
            &json!({"target_time": 5}),
        )
        .await;
    assert_eq!(
        r.status, 200,
        "a past time is accepted; the second one replaces the first"
    );
    let carol = sim.with_world(|w| w.user_id("carol")).unwrap();
    assert_eq!(
        sim.with_world(|w| w.reminders_of(&carol)),
        vec![(p.clone(), 5)]
    );
    let r = c
        .post(
            &format!("/users/me/posts/{p}/reminder"),
            &json!({"target_time": "soon"}),
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        c.post(
            &format!("/users/me/posts/{secret}/reminder"),
            &json!({"target_time": 1})
        )
        .await
        .status,
        403
    );
    let bob = sim.with_world(|w| w.user_id("bob")).unwrap();
    assert_eq!(
        c.post(
            &format!("/users/{bob}/posts/{p}/reminder"),
            &json!({"target_time": 1})
        )
        .await
        .status,
        403
    );
}

#[tokio::test]
async fn channel_and_team_admins_keep_create_post_as_the_permission_migrations_leave_them() {
    let mut f = fixture();
    f.world.make_team_admin(&f.team, &f.carol);
    let (team, private, bob_id) = (f.team.clone(), f.private.clone(), f.bob.clone());
    let (sim, alice) = start(f.world, "alice").await;
    let made = alice
        .post(
            "/channels",
            &json!({"team_id": team, "name": "news", "display_name": "News", "type": "O"}),
        )
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let bob = Client::new(&sim, "bob");
    let joined = bob
        .post(
            &format!("/channels/{made}/members"),
            &json!({"user_id": bob_id}),
        )
        .await;
    assert_eq!(joined.status, 201);
    sim.with_world(|w| w.set_read_only(&made, true));
    assert_eq!(
        bob.create_post(json!({"channel_id": made, "message": "x"}))
            .await
            .status,
        403
    );
    let r = alice
        .create_post(json!({"channel_id": made, "message": "from the channel admin"}))
        .await;
    assert_eq!(r.status, 201, "the creator is a channel admin: {}", r.text);
    let team_admin = Client::new(&sim, "carol");
    let r = team_admin
        .create_post(json!({"channel_id": private, "message": "from the team admin"}))
        .await;
    assert_eq!(
        r.status, 201,
        "team_admin has create_post on every channel of the team: {}",
        r.text
    );
}

#[tokio::test]
async fn from_12_0_a_persons_post_loses_the_identity_props_of_integrations_and_keeps_the_ai_mark() {
    // model/post.go SanitizeProps: 12.0 strips from_webhook, from_bot, from_oauth_app, from_plugin,
    // override_username and override_icon_url from posts made with a token or a session; 11.x keeps
    // what it does not reserve. ai_generated_by (the author's own id) is on no list.
    let props = json!({"ai_generated_by": "", "from_webhook": "true", "override_username": "ceo",
        "override_icon_url": "https://example.com/i.png", "from_bot": "true", "note": "kept"});
    for (release, stripped) in [("11.6.0", false), ("12.0.0", true)] {
        let mut f = fixture();
        f.world.set_release(release);
        let alice = f.alice.clone();
        let town = f.town.clone();
        let (_sim, c) = start(f.world, "alice").await;
        let mut p = props.clone();
        p["ai_generated_by"] = json!(alice);
        let r = c
            .create_post(json!({"channel_id": town, "message": "drafted by AI", "props": p}))
            .await;
        assert_eq!(r.status, 201, "{release}: {}", r.text);
        let got = r.json()["props"].clone();
        assert_eq!(
            got["ai_generated_by"],
            json!(alice),
            "{release}: the mark stays"
        );
        assert_eq!(got["note"], json!("kept"), "{release}");
        for prop in [
            "from_webhook",
            "override_username",
            "override_icon_url",
            "from_bot",
        ] {
            assert_eq!(
                got.get(prop).is_none(),
                stripped,
                "{release}: {prop} in {got}"
            );
        }
        let v = c.get("/users/me").await;
        assert!(
            v.header("x-version-id")
                .is_some_and(|h| h.starts_with(&format!("{release}."))),
            "{release}: X-Version-Id {:?}",
            v.header("x-version-id")
        );
    }
}
