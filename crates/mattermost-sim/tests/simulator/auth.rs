//! §10 "Auth": bearer and token prefixes, missing/unknown/expired tokens, query tokens.

use crate::common::*;

async fn raw_get(sim: &mattermost_sim::Sim, auth: Option<&str>, path: &str) -> (u16, String) {
    let mut rb = http_client()
        .build()
        .unwrap()
        .get(format!("{}/api/v4{path}", sim.url()));
    if let Some(a) = auth {
        rb = rb.header("Authorization", a);
    }
    let r = rb.send().await.unwrap();
    let s = r.status().as_u16();
    (s, r.text().await.unwrap())
}

/// §10 "Authorization: Bearer <token>. The prefix is checked case-insensitively over 6
/// characters"; "Authorization: Token <token>"; an invalid token gives 401 session_expired.
#[tokio::test]
async fn bearer_and_token_prefixes_are_case_insensitive_and_bad_tokens_get_401() {
    let sim = mattermost_sim::Sim::start(fixture().world).await.unwrap();
    let t = sim.token("alice");
    for auth in [
        format!("Bearer {t}"),
        format!("bearer {t}"),
        format!("BEARER {t}"),
        format!("Token {t}"),
        format!("token {t}"),
    ] {
        assert_eq!(
            raw_get(&sim, Some(&auth), "/users/me").await.0,
            200,
            "{auth}"
        );
    }
    for auth in [
        None,
        Some("Bearer nope".to_string()),
        Some(t.clone()),
        Some(format!("Basic {t}")),
    ] {
        let (s, body) = raw_get(&sim, auth.as_deref(), "/users/me").await;
        assert_eq!(s, 401, "{auth:?}");
        assert!(body.contains("api.context.session_expired.app_error"));
    }
}

/// Expired tokens and deactivated users (their sessions are revoked) get 401; a token in the query
/// string is rejected with `api.context.token_provided.app_error`.
#[tokio::test]
async fn expired_tokens_deactivated_users_and_query_tokens_get_401() {
    let mut f = fixture();
    f.world.deactivate(&f.carol);
    let sim = mattermost_sim::Sim::start(f.world).await.unwrap();
    let bob = Client::new(&sim, "bob");
    assert_eq!(bob.get("/users/me").await.status, 200);
    sim.expire_token("bob");
    let r = bob.get("/users/me").await;
    assert_eq!(r.status, 401);
    assert_eq!(r.error_id(), "api.context.session_expired.app_error");
    assert_eq!(
        Client::new(&sim, "carol").get("/users/me").await.status,
        401
    );
    let t = sim.token("alice");
    let (s, body) = raw_get(&sim, None, &format!("/users/me?access_token={t}")).await;
    assert_eq!(s, 401);
    assert!(body.contains("api.context.token_provided.app_error"));
    assert_eq!(
        raw_get(&sim, None, "/nope").await.0,
        404,
        "unknown routes are 404 even without a session"
    );
}
