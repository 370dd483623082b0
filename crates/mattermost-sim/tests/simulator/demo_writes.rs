//! Every write route on `World::demo()` as the user `demo` (what `mattermost-mcp demo` serves):
//! the writes are kept in the running simulator's memory.

use mattermost_sim::{Sim, World};
use serde_json::json;

use crate::common::*;
use crate::write_client::multipart;

#[tokio::test]
async fn every_write_route_works_on_the_demo_world_as_demo() {
    let w = World::demo();
    let id = |team: &str, channel: &str| w.channel_id(team, channel).unwrap();
    let (town, offtopic) = (id("acme", "town-square"), id("acme", "off-topic"));
    let acme = w.team_id("acme").unwrap();
    let (me, alice, bob, carol) = (
        w.user_id("demo").unwrap(),
        w.user_id("alice").unwrap(),
        w.user_id("bob").unwrap(),
        w.user_id("carol").unwrap(),
    );
    let sim = Sim::start(w).await.unwrap();
    let c = Client::new(&sim, "demo");
    let ok = |r: &Resp, status: u16, what: &str| assert_eq!(r.status, status, "{what}: {}", r.text);

    // posts, de-duplicated
    let body =
        json!({"channel_id": town, "message": "hello from the demo", "pending_post_id": "demo-1"});
    let first = c.create_post(body.clone()).await;
    ok(&first, 201, "create");
    let post = first.json()["id"].as_str().unwrap().to_string();
    ok(&c.create_post(body).await, 201, "the retry");
    let reply = c
        .create_post(json!({"channel_id": town, "root_id": post, "message": "a reply"}))
        .await;
    ok(&reply, 201, "reply");
    ok(
        &c.put(
            &format!("/posts/{post}/patch"),
            &json!({"message": "hello, edited"}),
        )
        .await,
        200,
        "patch",
    );
    let whole = c.post_json(&post).await.json();
    let mut updated = whole.clone();
    updated["message"] = json!("hello, updated");
    ok(
        &c.put(&format!("/posts/{post}"), &updated).await,
        200,
        "update",
    );
    ok(
        &c.post(&format!("/posts/{post}/pin"), &json!({})).await,
        200,
        "pin",
    );
    ok(
        &c.post(&format!("/posts/{post}/unpin"), &json!({})).await,
        200,
        "unpin",
    );
    ok(
        &c.post(
            "/reactions",
            &json!({"user_id": me, "post_id": post, "emoji_name": "shipit"}),
        )
        .await,
        200,
        "custom emoji reaction",
    );
    ok(
        &c.post(
            "/reactions",
            &json!({"user_id": me, "post_id": post, "emoji_name": "tada"}),
        )
        .await,
        200,
        "reaction",
    );
    ok(
        &c.delete(&format!("/users/me/posts/{post}/reactions/tada"))
            .await,
        200,
        "unreact",
    );
    ok(
        &c.post(
            &format!("/users/me/posts/{post}/reminder"),
            &json!({"target_time": 2_000_000_000}),
        )
        .await,
        200,
        "reminder",
    );
    let save = json!([{"user_id": me, "category": "flagged_post", "name": post, "value": "true"}]);
    ok(&c.put("/users/me/preferences", &save).await, 200, "save");
    ok(
        &c.post("/users/me/preferences/delete", &save).await,
        200,
        "unsave",
    );
    ok(
        &c.put(
            &format!("/users/me/teams/{acme}/threads/{post}/following"),
            &json!({}),
        )
        .await,
        200,
        "follow",
    );
    ok(
        &c.delete(&format!("/users/me/teams/{acme}/threads/{post}/following"))
            .await,
        200,
        "unfollow",
    );

    // files
    let (ct, body) = multipart(&[("files", Some("demo.txt"), b"demo file")]);
    let up = c
        .post_bytes(&format!("/files?channel_id={town}"), &ct, body)
        .await;
    ok(&up, 201, "upload");
    let file = ids(&up.json()["file_infos"]);
    let with_file = c
        .create_post(json!({"channel_id": town, "message": "see attached", "file_ids": file}))
        .await;
    ok(&with_file, 201, "post with a file");
    assert_eq!(strings(&with_file.json()["file_ids"]), file);

    // status, drafts
    ok(
        &c.put(
            "/users/me/status",
            &json!({"user_id": me, "status": "dnd", "dnd_end_time": 2_000_000_000}),
        )
        .await,
        200,
        "status",
    );
    ok(
        &c.put(
            "/users/me/status/custom",
            &json!({"emoji": "coffee", "text": "brb"}),
        )
        .await,
        200,
        "custom status",
    );
    ok(
        &c.delete("/users/me/status/custom").await,
        200,
        "clear custom status",
    );
    ok(
        &c.post("/drafts", &json!({"channel_id": town, "message": "unsent"}))
            .await,
        201,
        "draft",
    );
    ok(
        &c.delete(&format!("/users/me/channels/{town}/drafts")).await,
        200,
        "delete draft",
    );

    // channels and members
    let made = c.post("/channels", &json!({"team_id": acme, "name": "demo-made", "display_name": "Demo made", "type": "O"})).await;
    ok(&made, 201, "create channel");
    let made = made.json()["id"].as_str().unwrap().to_string();
    ok(
        &c.post(
            &format!("/channels/{made}/members"),
            &json!({"user_id": alice}),
        )
        .await,
        201,
        "add alice",
    );
    ok(
        &c.delete(&format!("/channels/{made}/members/{alice}")).await,
        200,
        "remove alice",
    );
    ok(
        &c.delete(&format!("/channels/{made}")).await,
        200,
        "archive",
    );
    ok(
        &c.post("/channels/direct", &json!([me, bob])).await,
        201,
        "DM",
    );
    ok(
        &c.post("/channels/group", &json!([alice, carol, bob])).await,
        201,
        "GM",
    );
    ok(
        &c.delete(&format!("/channels/{offtopic}/members/me")).await,
        200,
        "leave",
    );
    ok(
        &c.post(
            &format!("/channels/{offtopic}/members"),
            &json!({"user_id": me}),
        )
        .await,
        201,
        "join",
    );
    ok(&c.delete(&format!("/posts/{post}")).await, 200, "delete");
    ok(
        &c.delete(&format!("/teams/{acme}/members/me")).await,
        200,
        "leave the team",
    );
    let (order, posts) =
        crate::write_client::channel_posts(&Client::new(&sim, "alice"), &town).await;
    assert_eq!(posts[order[0].as_str()]["message"], "demo left the team.");
}
