//! User-level writes: statuses and custom statuses (`app/platform/status.go`, `app/status.go`),
//! saved posts and other preferences (`api4/preference.go`), following threads (`api4/user.go`)
//! and drafts (`api4/drafts.go`).

use mattermost_sim::ChannelKind;
use serde_json::{Value, json};

use crate::common::*;

/// An expiry far enough ahead, in RFC 3339 as Go writes it.
const FUTURE: &str = "2031-06-01T12:00:00Z";

#[tokio::test]
async fn setting_a_status_answers_it_and_a_timed_dnd_keeps_the_minute() {
    let f = fixture();
    let (alice, bob) = (f.alice.clone(), f.bob.clone());
    let (sim, c) = start(f.world, "alice").await;
    let r = c
        .put(
            "/users/me/status",
            &json!({"user_id": alice, "status": "online"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        (r.json()["status"].as_str(), r.json()["manual"].as_bool()),
        (Some("online"), Some(false))
    );
    let r = c
        .put(
            "/users/me/status",
            &json!({"user_id": alice, "status": "away"}),
        )
        .await;
    assert_eq!(r.json()["manual"], true);
    let r = c
        .put(
            "/users/me/status",
            &json!({"user_id": alice, "status": "dnd", "dnd_end_time": 1_800_000_123}),
        )
        .await;
    assert_eq!(
        (
            r.json()["status"].as_str(),
            r.json()["dnd_end_time"].as_i64()
        ),
        (Some("dnd"), Some(1_800_000_120))
    );
    let back = c.get(&format!("/users/{alice}/status")).await.json();
    assert_eq!(back["status"], "dnd");
    let cases = [
        (json!({"user_id": alice, "status": "busy"}), 400),
        (json!({"user_id": bob, "status": "online"}), 400),
        (json!({"user_id": alice, "status": 5}), 400),
    ];
    for (body, status) in cases {
        assert_eq!(
            c.put("/users/me/status", &body).await.status,
            status,
            "{body}"
        );
    }
    let carol = Client::new(&sim, "carol");
    let r = carol
        .put(
            &format!("/users/{bob}/status"),
            &json!({"user_id": bob, "status": "away"}),
        )
        .await;
    assert_eq!(r.status, 403);
}

#[tokio::test]
async fn a_custom_status_lives_in_the_users_props_and_is_validated() {
    let mut f = fixture();
    f.world.emoji(&f.bob, "party-parrot");
    let (_sim, c) = start(f.world, "alice").await;
    let future = FUTURE;
    let r = c
        .put("/users/me/status/custom", &json!({"emoji": "calendar", "text": "In a meeting", "duration": "one_hour", "expires_at": future}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let me = c.get("/users/me").await.json();
    let cs: Value = serde_json::from_str(me["props"]["customStatus"].as_str().unwrap()).unwrap();
    assert_eq!(
        cs,
        json!({"emoji": "calendar", "text": "In a meeting", "duration": "one_hour", "expires_at": future})
    );
    let r = c
        .put(
            "/users/me/status/custom",
            &json!({"text": "t".repeat(120), "expires_at": future}),
        )
        .await;
    assert_eq!(r.status, 200);
    let cs: Value = serde_json::from_str(
        c.get("/users/me").await.json()["props"]["customStatus"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(cs["text"].as_str().map(|t| t.chars().count()), Some(100));
    assert_eq!(
        cs["duration"], "date_and_time",
        "a future expiry without a duration"
    );
    assert_eq!(
        c.put("/users/me/status/custom", &json!({"emoji": "party-parrot"}))
            .await
            .status,
        200
    );
    let cases = [
        (
            json!({"duration": "one_hour"}),
            "api.context.invalid_body_param.app_error",
        ),
        (
            json!({"text": "x", "duration": "one_hour"}),
            "api.context.invalid_body_param.app_error",
        ),
        (
            json!({"text": "x", "expires_at": "2001-01-01T00:00:00Z"}),
            "api.context.invalid_body_param.app_error",
        ),
        (
            json!({"text": "x", "duration": "forever", "expires_at": future}),
            "api.context.invalid_body_param.app_error",
        ),
        (
            json!({"text": "x", "expires_at": "tomorrow"}),
            "api.context.invalid_body_param.app_error",
        ),
        (
            json!({"emoji": "no_such_emoji", "text": "x"}),
            "api.custom_status.set_custom_statuses.emoji_not_found",
        ),
    ];
    for (body, id) in cases {
        let r = c.put("/users/me/status/custom", &body).await;
        assert_eq!((r.status, r.error_id()), (400, id.to_string()), "{body}");
    }
    assert_eq!(c.delete("/users/me/status/custom").await.status, 200);
    assert_eq!(c.get("/users/me").await.json()["props"]["customStatus"], "");
}

#[tokio::test]
async fn custom_statuses_off_answer_501() {
    let mut f = fixture();
    f.world.set_custom_user_statuses_enabled(false);
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .put("/users/me/status/custom", &json!({"text": "x"}))
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (501, "api.custom_status.disabled")
    );
    assert_eq!(c.delete("/users/me/status/custom").await.status, 501);
}

#[tokio::test]
async fn saving_a_post_is_a_flagged_post_preference_and_unsaving_deletes_it() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "save me");
    let secret = f.world.post(&f.private, &f.bob, T0, "secret");
    let (carol, bob) = (f.carol.clone(), f.bob.clone());
    let (sim, c) = start(f.world, "carol").await;
    let save = json!([{"user_id": carol, "category": "flagged_post", "name": p, "value": "true"}]);
    let r = c.put("/users/me/preferences", &save).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let flagged = c.get("/users/me/posts/flagged").await.json();
    assert_eq!(strings(&flagged["order"]), vec![p.clone()]);
    let r = c.post("/users/me/preferences/delete", &save).await;
    assert_eq!(r.status, 200);
    assert!(strings(&c.get("/users/me/posts/flagged").await.json()["order"]).is_empty());
    let cases = [
        (
            json!([{"user_id": carol, "category": "flagged_post", "name": "aaaaaaaaaaaaaaaaaaaaaaaaaa", "value": "true"}]),
            400,
            "api.context.invalid_body_param.app_error",
        ),
        (
            json!([{"user_id": carol, "category": "flagged_post", "name": secret, "value": "true"}]),
            403,
            "api.context.permissions.app_error",
        ),
        (
            json!([{"user_id": bob, "category": "display_settings", "name": "x", "value": "y"}]),
            403,
            "api.preference.update_preferences.set.app_error",
        ),
        (
            json!([{"user_id": carol, "category": "c".repeat(33), "name": "x", "value": "y"}]),
            400,
            "model.preference.is_valid.category.app_error",
        ),
        (json!([]), 400, "api.context.invalid_body_param.app_error"),
        (
            json!({"not": "a list"}),
            400,
            "api.context.invalid_body_param.app_error",
        ),
    ];
    for (body, status, id) in cases {
        let r = c.put("/users/me/preferences", &body).await;
        assert_eq!((r.status, r.error_id()), (status, id.to_string()), "{body}");
    }
    let many: Vec<Value> = (0..101)
        .map(|i| json!({"user_id": carol, "category": "x", "name": format!("n{i}"), "value": "v"}))
        .collect();
    assert_eq!(
        c.put("/users/me/preferences", &json!(many)).await.status,
        400
    );
    let r = c.put("/users/me/preferences", &json!([{"user_id": carol, "category": "display_settings", "name": "use_military_time", "value": "true"}])).await;
    assert_eq!(r.status, 200);
    assert_eq!(
        sim.with_world(|w| w.preference(&carol, "display_settings", "use_military_time")),
        Some("true".into())
    );
    let other = Client::new(&sim, "bob");
    assert_eq!(
        other
            .put(&format!("/users/{carol}/preferences"), &save)
            .await
            .status,
        403
    );
}

#[tokio::test]
async fn following_a_thread_marks_it_read_and_unfollowing_drops_it_from_the_list() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "a thread");
    f.world.reply(&root, &f.carol, T0 + 1, "a reply");
    let secret = f.world.post(&f.private, &f.bob, T0, "secret");
    let team = f.team.clone();
    let (_sim, c) = start(f.world, "carol").await;
    let list = |c: &Client| {
        let path = format!("/users/me/teams/{team}/threads");
        let c = Client {
            http: c.http.clone(),
            base: c.base.clone(),
            token: c.token.clone(),
        };
        async move { c.get(&path).await.json() }
    };
    let r = c
        .delete(&format!("/users/me/teams/{team}/threads/{root}/following"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(list(&c).await["total"], 0);
    let r = c
        .put(
            &format!("/users/me/teams/{team}/threads/{root}/following"),
            &json!({}),
        )
        .await;
    assert_eq!(r.status, 200);
    let threads = list(&c).await;
    assert_eq!(threads["total"], 1);
    assert_eq!(
        threads["threads"][0]["unread_replies"], 0,
        "following marks it viewed now"
    );
    assert_eq!(
        c.put(
            &format!("/users/me/teams/{team}/threads/{secret}/following"),
            &json!({})
        )
        .await
        .status,
        403
    );
    assert_eq!(
        c.put(
            &format!("/users/me/teams/short/threads/{root}/following"),
            &json!({})
        )
        .await
        .status,
        400
    );
}

#[tokio::test]
async fn drafts_are_upserted_per_channel_and_root_and_deleted() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.bob, T0, "a thread");
    let old = f.world.channel(&f.team, "old", "Old", ChannelKind::Public);
    f.world.join(&old, &f.alice);
    f.world.archive(&old);
    let (town, team, private) = (f.town.clone(), f.team.clone(), f.private.clone());
    let (sim, c) = start(f.world, "alice").await;
    let r = c
        .post(
            "/drafts",
            &json!({"channel_id": town, "message": "half a thought", "create_at": T0}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let d = r.json();
    assert_eq!(d["create_at"], T0, "the client's create_at for a new draft");
    assert!(d["metadata"].is_object());
    assert!(d.get("file_ids").is_none(), "omitted when empty");
    let r = c
        .post(
            "/drafts",
            &json!({"channel_id": town, "message": "a whole thought"}),
        )
        .await;
    let d2 = r.json();
    assert!(d2["update_at"].as_i64() >= d["update_at"].as_i64());
    let thread = c
        .post(
            "/drafts",
            &json!({"channel_id": town, "root_id": root, "message": "reply draft"}),
        )
        .await;
    assert_eq!(thread.status, 201);
    let listed = c
        .get(&format!("/users/me/teams/{team}/drafts"))
        .await
        .json();
    let messages: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert_eq!(messages.len(), 2, "{listed}");
    assert!(messages.contains(&"a whole thought") && messages.contains(&"reply draft"));
    let r = c
        .delete(&format!("/users/me/channels/{town}/drafts/{root}"))
        .await;
    assert_eq!(r.status, 200);
    let r = c
        .post("/drafts", &json!({"channel_id": town, "message": ""}))
        .await;
    assert_eq!(
        (r.status, r.text.trim()),
        (201, "null"),
        "an empty message deletes the draft"
    );
    let listed = c.get(&format!("/users/me/teams/{team}/drafts")).await.text;
    assert!(
        !listed.contains("thought") && !listed.contains("reply draft"),
        "{listed}"
    );
    assert_eq!(
        c.delete(&format!("/users/me/channels/{town}/drafts"))
            .await
            .status,
        200,
        "no draft is fine"
    );
    let cases = [
        (
            json!({"channel_id": old, "message": "x"}),
            400,
            "api.draft.create_draft.can_not_draft_to_deleted.error",
        ),
        (
            json!({"channel_id": town, "message": "x".repeat(16384)}),
            400,
            "model.draft.is_valid.message_length.app_error",
        ),
        (
            json!({"channel_id": town, "message": "x", "root_id": "nope"}),
            400,
            "model.draft.is_valid.root_id.app_error",
        ),
    ];
    for (body, status, id) in cases {
        let r = c.post("/drafts", &body).await;
        assert_eq!((r.status, r.error_id()), (status, id.to_string()), "{body}");
    }
    let carol = Client::new(&sim, "carol");
    assert_eq!(
        carol
            .post("/drafts", &json!({"channel_id": private, "message": "x"}))
            .await
            .status,
        403
    );
    sim.with_world(|w| w.set_synced_drafts_enabled(false));
    let r = c
        .post("/drafts", &json!({"channel_id": town, "message": "x"}))
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (501, "api.drafts.disabled.app_error")
    );
    assert_eq!(
        c.delete(&format!("/users/me/channels/{town}/drafts"))
            .await
            .status,
        501
    );
}
