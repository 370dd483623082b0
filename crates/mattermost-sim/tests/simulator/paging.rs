//! §10 generic rules: page/per_page parsing, path ids, error shape and common headers.

use crate::common::*;

async fn channel_with_posts(n: i64) -> (mattermost_sim::Sim, Client, String) {
    let mut f = fixture();
    for i in 0..n {
        f.world
            .post(&f.town, &f.alice, T0 + i * 10, &format!("post {i}"));
    }
    let town = f.town.clone();
    let (sim, c) = start(f.world, "alice").await;
    (sim, c, town)
}

/// mattermost-list-semantics.md §10 "per_page": default 60, above 200 silently clamped to 200,
/// not an integer or negative → 60.
#[tokio::test]
async fn per_page_defaults_to_60_and_clamps_silently_to_200() {
    let (_sim, c, town) = channel_with_posts(250).await;
    assert_eq!(
        c.get(&format!("/channels/{town}/posts"))
            .await
            .order()
            .len(),
        60
    );
    let r = c.get(&format!("/channels/{town}/posts?per_page=500")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.order().len(), 200);
    assert_eq!(
        c.get(&format!("/channels/{town}/posts?per_page=abc"))
            .await
            .order()
            .len(),
        60
    );
    assert_eq!(
        c.get(&format!("/channels/{town}/posts?per_page=-3"))
            .await
            .order()
            .len(),
        60
    );
    assert_eq!(
        c.get(&format!(
            "/channels/{town}/posts?per_page=99999999999999999999"
        ))
        .await
        .order()
        .len(),
        60
    );
    assert_eq!(
        c.get(&format!("/channels/{town}/posts?pageSize=5"))
            .await
            .order()
            .len(),
        60,
        "pageSize is not read"
    );
}

/// §10 "per_page=0 is kept as 0" and §1 page mode "per_page=0 gives LIMIT 0, an empty list".
#[tokio::test]
async fn per_page_zero_gives_an_empty_channel_page() {
    let (_sim, c, town) = channel_with_posts(5).await;
    let r = c.get(&format!("/channels/{town}/posts?per_page=0")).await;
    assert_eq!(r.status, 200);
    assert!(r.order().is_empty());
}

/// §10 "page": not an integer → 0; negative → 0 only on routes without `{user_id}`; on
/// `/users/{user_id}/...` a negative page reaches SQL (a 500 on the saved-posts route).
#[tokio::test]
async fn negative_page_becomes_zero_except_on_user_routes() {
    let (_sim, c, town) = channel_with_posts(5).await;
    let first = c
        .get(&format!("/channels/{town}/posts?per_page=2"))
        .await
        .order();
    let neg = c
        .get(&format!("/channels/{town}/posts?per_page=2&page=-4"))
        .await
        .order();
    let junk = c
        .get(&format!("/channels/{town}/posts?per_page=2&page=x"))
        .await
        .order();
    assert_eq!(first, neg);
    assert_eq!(first, junk);
    let r = c.get("/users/me/posts/flagged?page=-1").await;
    assert_eq!(r.status, 500);
}

/// §10 "Path ids ... are validated by router regexes": a 26-character check gives 400
/// `api.context.invalid_url_param.app_error`; a segment that fails the route's regex is no route (404).
#[tokio::test]
async fn path_ids_are_validated_26_chars_or_400() {
    let (_sim, c, _town) = channel_with_posts(1).await;
    let r = c.get("/channels/tooshort/posts").await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_id(), "api.context.invalid_url_param.app_error");
    let r = c.get("/channels/not-alnum-at-all/posts").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.error_id(), "api.context.404.app_error");
    let r = c.get("/posts/aaaaaaaaaaaaaaaaaaaaaaaaaa").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.error_id(), "app.post.get.app_error");
}

/// §10 "before and after post ids must pass model.IsValidId ... otherwise 400
/// api.context.invalid_body_param.app_error".
#[tokio::test]
async fn before_and_after_must_be_valid_ids() {
    let (_sim, c, town) = channel_with_posts(1).await;
    for q in ["before=abc", "after=abc"] {
        let r = c.get(&format!("/channels/{town}/posts?{q}")).await;
        assert_eq!(r.status, 400, "{q}");
        assert_eq!(r.error_id(), "api.context.invalid_body_param.app_error");
    }
}

/// §10 "Error shape": AppError JSON with id, message, detailed_error (wiped to ""), request_id,
/// status_code; and "Headers on every API response": X-Request-Id, X-Version-Id, Expires: 0 on GET.
#[tokio::test]
async fn errors_are_app_error_json_and_every_response_has_version_and_request_id() {
    let (_sim, c, town) = channel_with_posts(1).await;
    let r = c.get("/channels/tooshort").await;
    let v = r.json();
    for k in [
        "id",
        "message",
        "detailed_error",
        "request_id",
        "status_code",
    ] {
        assert!(v.get(k).is_some(), "missing {k}: {v}");
    }
    assert_eq!(v["detailed_error"], "");
    assert_eq!(v["status_code"], 400);
    assert_eq!(
        r.header("x-request-id").as_deref(),
        v["request_id"].as_str()
    );
    let ok = c.get(&format!("/channels/{town}")).await;
    assert_eq!(ok.status, 200);
    let version = ok.header("x-version-id").unwrap();
    assert!(
        version.starts_with("11.6.0.") && version.ends_with(".false"),
        "{version}"
    );
    assert_eq!(ok.header("x-request-id").map(|s| s.len()), Some(26));
    assert_eq!(ok.header("expires").as_deref(), Some("0"));
    assert!(
        ok.header("content-type")
            .unwrap()
            .starts_with("application/json")
    );
}

/// §10 "Booleans": channel-posts flags use ParseBool (`True` works) while the thread handler
/// compares with the literal "true" (`True` is ignored).
#[tokio::test]
async fn thread_flags_need_the_literal_true_while_channel_flags_parse_bool() {
    let mut f = fixture();
    let root = f.world.post(&f.town, &f.alice, T0, "root");
    f.world.reply(&root, &f.bob, T0 + 5, "reply");
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let crt = c
        .get(&format!("/channels/{town}/posts?collapsedThreads=True"))
        .await;
    assert_eq!(
        crt.order(),
        vec![root.clone()],
        "CRT (ParseBool) lists roots only"
    );
    let t1 = c
        .get(&format!("/posts/{root}/thread?skipFetchThreads=True"))
        .await;
    let t2 = c
        .get(&format!("/posts/{root}/thread?skipFetchThreads=true"))
        .await;
    assert_eq!(t1.order().len(), 2, "True is not the literal true");
    assert_eq!(t2.order().len(), 1);
}

/// §10 "no panics": junk input gets an AppError, never a dropped connection.
#[tokio::test]
async fn junk_input_gets_app_errors_not_panics() {
    let (_sim, c, town) = channel_with_posts(3).await;
    let huge = "9".repeat(40);
    for path in [
        format!("/channels/{town}/posts?page={huge}&per_page=200"),
        format!("/channels/{town}/posts?since={huge}"),
        format!("/channels/{town}/posts?page=9223372036854775807&per_page=200"),
        format!("/users/me/channels/{town}/posts/unread?limit_before={huge}&limit_after=-1"),
        "/users/me/posts/flagged?page=9223372036854775807&per_page=200".to_string(),
        "/emoji?page=9223372036854775807".to_string(),
        "/channels/%ZZ/posts".to_string(),
    ] {
        let r = c.get(&path).await;
        assert!(r.status < 600, "{path}");
    }
    for (path, body) in [
        ("/users/search", "{"),
        ("/users/ids", "[1,2"),
        ("/posts/search", "nope"),
        ("/users/status/ids", "{}"),
    ] {
        let r = c.post_raw(path, "application/json", body).await;
        assert_eq!(r.status, 400, "{path}");
        assert!(r.json()["id"].is_string());
    }
}
