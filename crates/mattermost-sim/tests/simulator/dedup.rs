//! `POST /posts` de-duplication as `app/post.go` `deduplicateCreatePost` does it (a 30 s cache of
//! pending post ids, keyed by the id alone), and the faults that let a client retry after the
//! server stored the post: a cut connection, a slow answer, a slow save.

use std::time::Duration;

use mattermost_sim::{Fault, FaultRule};
use serde_json::json;

use crate::common::*;
use crate::write_client::channel_posts;

const ROUTE: &str = "/api/v4/posts";

fn rule(fault: Fault) -> FaultRule {
    FaultRule {
        method: Some("POST".into()),
        path: ROUTE.into(),
        fault,
        times: Some(1),
    }
}

/// How many live posts of the channel carry this message.
async fn count(c: &Client, channel: &str, message: &str) -> usize {
    let (order, posts) = channel_posts(c, channel).await;
    order
        .iter()
        .filter(|id| posts[id.as_str()]["message"] == message)
        .count()
}

#[tokio::test]
async fn the_same_pending_post_id_twice_makes_one_post_and_answers_it_again() {
    let f = fixture();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let body = json!({"channel_id": town, "message": "once", "pending_post_id": "p-1"});
    let first = c.create_post(body.clone()).await;
    assert_eq!(first.status, 201);
    let total = c.get(&format!("/channels/{town}")).await.json()["total_msg_count"].clone();
    let again = c.create_post(body).await;
    assert_eq!(again.status, 201, "{}", again.text);
    let (a, b) = (first.json(), again.json());
    assert_eq!(a["id"], b["id"]);
    assert_eq!(b["pending_post_id"], "", "the stored post, not the request");
    assert!(
        b.get("metadata").is_none(),
        "GetSinglePost's post is not prepared for the client"
    );
    assert!(a.get("metadata").is_some());
    assert_eq!(count(&c, &town, "once").await, 1);
    let after = c.get(&format!("/channels/{town}")).await.json()["total_msg_count"].clone();
    assert_eq!(total, after, "nothing new was counted");
}

#[tokio::test]
async fn a_retry_while_the_first_request_is_saving_is_rejected_as_pending() {
    let f = fixture();
    let town = f.town.clone();
    let (sim, c) = start(f.world, "alice").await;
    sim.inject(rule(Fault::DelayBeforeStore(Duration::from_millis(600))));
    let body = json!({"channel_id": town, "message": "slow", "pending_post_id": "p-2"});
    let first = {
        let c = Client::new(&sim, "alice");
        let body = body.clone();
        tokio::spawn(async move { c.create_post(body).await })
    };
    tokio::time::sleep(Duration::from_millis(150)).await;
    let during = c.create_post(body.clone()).await;
    assert_eq!(during.status, 500, "{}", during.text);
    assert_eq!(
        during.error_id(),
        "api.post.deduplicate_create_post.pending"
    );
    assert_eq!(count(&c, &town, "slow").await, 0, "not saved yet");
    let first = first.await.unwrap();
    assert_eq!(first.status, 201, "{}", first.text);
    let after = c.create_post(body).await;
    assert_eq!(after.status, 201);
    assert_eq!(after.json()["id"], first.json()["id"]);
    assert_eq!(count(&c, &town, "slow").await, 1);
}

#[tokio::test]
async fn another_user_who_can_read_the_post_gets_the_first_users_post() {
    let f = fixture();
    let town = f.town.clone();
    let (sim, c) = start(f.world, "alice").await;
    let mine = c
        .create_post(json!({"channel_id": town, "message": "alice's", "pending_post_id": "shared"}))
        .await
        .json();
    let bob = Client::new(&sim, "bob");
    let r = bob
        .create_post(json!({"channel_id": town, "message": "bob's", "pending_post_id": "shared"}))
        .await;
    assert_eq!(r.status, 201);
    assert_eq!(
        r.json()["id"],
        mine["id"],
        "the cache is keyed by the pending id alone"
    );
    assert_eq!(r.json()["user_id"], mine["user_id"]);
    assert_eq!(count(&c, &town, "bob's").await, 0);
}

#[tokio::test]
async fn another_user_who_cannot_read_the_post_creates_their_own_and_takes_over_the_id() {
    let f = fixture();
    let (town, secret) = (f.town.clone(), f.private.clone());
    let (sim, alice) = start(f.world, "alice").await;
    let hidden = alice
        .create_post(
            json!({"channel_id": secret, "message": "in secret", "pending_post_id": "same"}),
        )
        .await
        .json();
    let carol = Client::new(&sim, "carol");
    let r = carol
        .create_post(json!({"channel_id": town, "message": "carol's", "pending_post_id": "same"}))
        .await;
    assert_eq!(r.status, 201);
    let theirs = r.json();
    assert_ne!(
        theirs["id"], hidden["id"],
        "an unauthorized match is ignored"
    );
    let retry = alice
        .create_post(
            json!({"channel_id": secret, "message": "in secret", "pending_post_id": "same"}),
        )
        .await;
    assert_eq!(
        retry.json()["id"],
        theirs["id"],
        "the id now names carol's post, which alice can read"
    );
}

#[tokio::test]
async fn a_create_that_fails_forgets_its_pending_id() {
    let f = fixture();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = c
        .create_post(
            json!({"channel_id": town, "message": "x".repeat(20_000), "pending_post_id": "p-3"}),
        )
        .await;
    assert_eq!(r.status, 400);
    let r = c
        .create_post(json!({"channel_id": town, "message": "fixed", "pending_post_id": "p-3"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json()["message"], "fixed");
}

#[tokio::test]
async fn a_pending_id_is_forgotten_after_its_time_to_live() {
    let mut f = fixture();
    f.world.set_pending_post_id_ttl(Duration::from_millis(300));
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let body = json!({"channel_id": town, "message": "twice", "pending_post_id": "p-4"});
    let a = c.create_post(body.clone()).await.json();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let b = c.create_post(body).await.json();
    assert_ne!(a["id"], b["id"]);
    assert_eq!(count(&c, &town, "twice").await, 2);
}

#[tokio::test]
async fn a_retry_after_the_original_was_deleted_fails_with_500() {
    let f = fixture();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let body = json!({"channel_id": town, "message": "gone", "pending_post_id": "p-5"});
    let id = c.create_post(body.clone()).await.json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(c.delete(&format!("/posts/{id}")).await.status, 200);
    let r = c.create_post(body).await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (500, "api.post.deduplicate_create_post.failed_to_get")
    );
}

#[tokio::test]
async fn after_a_cut_connection_the_retry_with_the_same_pending_id_finds_the_stored_post() {
    let f = fixture();
    let town = f.town.clone();
    let (sim, c) = start(f.world, "alice").await;
    sim.inject(rule(Fault::CutAfterStore));
    let body = json!({"channel_id": town, "message": "cut", "pending_post_id": "p-6"});
    let broken = c
        .http
        .post(format!("{}/api/v4/posts", c.base))
        .bearer_auth(c.token.clone().unwrap())
        .json(&body)
        .send()
        .await;
    assert!(
        broken.is_err(),
        "the client sees a broken connection: {broken:?}"
    );
    assert_eq!(count(&c, &town, "cut").await, 1, "the post was stored");
    let logged = sim.log().into_iter().find(|r| r.method == "POST").unwrap();
    assert_eq!(logged.status, 201, "the log keeps what the route did");
    let retry = c.create_post(body).await;
    assert_eq!(retry.status, 201);
    assert_eq!(count(&c, &town, "cut").await, 1, "exactly one post");
}

#[tokio::test]
async fn after_a_timeout_the_retry_with_the_same_pending_id_finds_the_stored_post() {
    let f = fixture();
    let town = f.town.clone();
    let (sim, c) = start(f.world, "alice").await;
    sim.inject(rule(Fault::DelayAfterStore(Duration::from_secs(2))));
    let body = json!({"channel_id": town, "message": "late", "pending_post_id": "p-7"});
    let impatient = http_client()
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let timed_out = impatient
        .post(format!("{}/api/v4/posts", c.base))
        .bearer_auth(c.token.clone().unwrap())
        .json(&body)
        .send()
        .await;
    assert!(timed_out.is_err_and(|e| e.is_timeout()));
    let retry = c.create_post(body).await;
    assert_eq!(retry.status, 201, "{}", retry.text);
    assert_eq!(count(&c, &town, "late").await, 1);
}

#[tokio::test]
async fn without_a_pending_id_every_request_makes_a_post() {
    let f = fixture();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    for _ in 0..2 {
        c.say(&town, "no id").await;
    }
    assert_eq!(count(&c, &town, "no id").await, 2);
}

#[tokio::test]
async fn delay_before_store_on_another_route_waits_before_the_route_runs() {
    let f = fixture();
    let (sim, c) = start(f.world, "alice").await;
    sim.inject(FaultRule::times(
        "/api/v4/users/{user_id}",
        Fault::DelayBeforeStore(Duration::from_millis(250)),
        1,
    ));
    let t = std::time::Instant::now();
    assert_eq!(c.get("/users/me").await.status, 200);
    assert!(t.elapsed() >= Duration::from_millis(250));
}
