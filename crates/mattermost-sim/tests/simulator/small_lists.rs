//! §9 smaller lists: emoji, statuses, reactions, pinned, teams, drafts, files; ping and config.

use std::collections::HashSet;

use serde_json::json;

use crate::common::*;

/// §9 emoji: "With no sort there is no ORDER BY. sort=name gives ORDER BY Name ... Any other sort
/// value gives 400."
#[tokio::test]
async fn emoji_are_unsorted_unless_sort_name() {
    let mut f = fixture();
    for n in ["zeta", "alpha", "mike", "bravo", "kilo", "echo"] {
        f.world.emoji(&f.bob, n);
    }
    let (_sim, c) = start(f.world, "alice").await;
    let names = |v: serde_json::Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(c.get("/emoji?sort=name").await.json()),
        vec!["alpha", "bravo", "echo", "kilo", "mike", "zeta"]
    );
    let mut seen = HashSet::new();
    for _ in 0..8 {
        seen.insert(names(c.get("/emoji").await.json()));
    }
    assert!(seen.len() > 1);
    let r = c.get("/emoji?sort=create_at").await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_id(), "api.context.invalid_url_param.app_error");
    assert_eq!(c.get("/emoji/name/kilo").await.json()["name"], "kilo");
    assert_eq!(c.get("/emoji/name/nothere").await.status, 404);
}

/// §9 "Needs EnableCustomEmoji" (501 otherwise).
#[tokio::test]
async fn emoji_list_needs_custom_emoji_enabled() {
    let mut f = fixture();
    f.world.set_custom_emoji_enabled(false);
    let (_sim, c) = start(f.world, "alice").await;
    assert_eq!(c.get("/emoji").await.status, 501);
}

/// §9 statuses by ids: "An empty array or a bad id gives 400. Duplicates are removed ... Unknown
/// ids come back as synthetic offline entries."
#[tokio::test]
async fn unknown_status_ids_come_back_offline() {
    let mut f = fixture();
    f.world.set_status(&f.bob, "dnd");
    let bob = f.bob.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let ghost = "gggggggggggggggggggggggggg";
    let v = c
        .post("/users/status/ids", &json!([ghost, bob, ghost]))
        .await
        .json();
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 2);
    assert_eq!(arr[0]["user_id"], bob.as_str());
    assert_eq!(arr[0]["status"], "dnd");
    assert_eq!(arr[1]["user_id"], ghost);
    assert_eq!(arr[1]["status"], "offline");
    assert_eq!(c.post("/users/status/ids", &json!([])).await.status, 400);
    assert_eq!(
        c.post("/users/status/ids", &json!(["short"])).await.status,
        400
    );
}

/// §9 reactions: "the whole list ... ORDER BY CreateAt"; pinned: "order is CreateAt ASC (oldest
/// first), unlike every other PostList".
#[tokio::test]
async fn reactions_are_by_create_at_and_pinned_posts_are_oldest_first() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "p");
    f.world.react(&f.carol, &p, "tada", T0 + 30);
    f.world.react(&f.alice, &p, "+1", T0 + 10);
    f.world.react(&f.bob, &p, "eyes", T0 + 20);
    let old = f.world.post(&f.town, &f.bob, T0 + 100, "old pin");
    let new = f.world.post(&f.town, &f.bob, T0 + 200, "new pin");
    f.world.pin(&new);
    f.world.pin(&old);
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let v = c.get(&format!("/posts/{p}/reactions")).await.json();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["emoji_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["+1", "eyes", "tada"]);
    let pinned = c.get(&format!("/channels/{town}/pinned")).await;
    assert_eq!(pinned.order(), vec![old, new]);
    let post = c.get(&format!("/posts/{p}")).await.json();
    assert_eq!(post["has_reactions"], true);
    assert_eq!(post["metadata"]["reactions"].as_array().unwrap().len(), 3);
}

/// §9 GET /teams: "ORDER BY DisplayName only (ties possible). Archived teams are not filtered out."
#[tokio::test]
async fn teams_sort_by_display_name_with_ties_and_archived_teams_included() {
    let mut f = fixture();
    let mut ids_made = Vec::new();
    for i in 0..6 {
        ids_made.push(f.world.team(&format!("dup{i}"), "Dup", true));
    }
    f.world.archive_team(&ids_made[0]);
    let (_sim, c) = start(f.world, "alice").await;
    let mut seen = HashSet::new();
    for _ in 0..10 {
        let v = c.get("/teams").await.json();
        let list = ids(&v);
        assert!(list.contains(&ids_made[0]), "archived team listed");
        assert!(
            !v.as_array().unwrap().iter().any(|t| t["name"] == "hidden"),
            "invite-only teams not listed for a user"
        );
        seen.insert(list);
    }
    assert!(seen.len() > 1);
    let v = c.get("/teams?include_total_count=true").await.json();
    assert_eq!(v["total_count"], 7);
}

/// §9 drafts: "not deleted, only channels the user is a member of ... ORDER BY UpdateAt DESC";
/// the handler serves the session user whatever the path's user id (`api4/drafts.go` getDrafts).
#[tokio::test]
async fn drafts_are_update_at_desc_for_the_session_user() {
    let mut f = fixture();
    f.world.draft(&f.alice, &f.town, None, "older", T0);
    f.world.draft(&f.alice, &f.private, None, "newer", T0 + 10);
    f.world.draft(&f.bob, &f.town, None, "bob's", T0 + 20);
    let (team, bob) = (f.team.clone(), f.bob.clone());
    let (_sim, c) = start(f.world, "alice").await;
    let v = c
        .get(&format!("/users/me/teams/{team}/drafts"))
        .await
        .json();
    let msgs: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(msgs, vec!["newer", "older"]);
    let v = c
        .get(&format!("/users/{bob}/teams/{team}/drafts"))
        .await
        .json();
    assert_eq!(
        v.as_array().unwrap()[0]["message"],
        "newer",
        "path user id is not read"
    );
}

/// File infos of a post (ORDER BY CreateAt, ETag), file info and content.
#[tokio::test]
async fn file_infos_info_and_content() {
    let mut f = fixture();
    let p = f.world.post(&f.town, &f.bob, T0, "files");
    let a = f.world.attach(&p, "a.txt", b"hello a");
    let (_sim, c) = start(f.world, "alice").await;
    let r = c.get(&format!("/posts/{p}/files/info")).await;
    assert_eq!(ids(&r.json()), vec![a.clone()]);
    let etag = r.header("etag").unwrap();
    assert_eq!(
        c.get_with(&format!("/posts/{p}/files/info"), ("If-None-Match", &etag))
            .await
            .status,
        304
    );
    let info = c.get(&format!("/files/{a}/info")).await.json();
    assert_eq!(info["size"], 7);
    assert_eq!(info["mime_type"], "text/plain");
    assert_eq!(info["extension"], "txt");
    let content = c.get(&format!("/files/{a}")).await;
    assert_eq!(content.text, "hello a");
    assert!(
        content
            .header("content-disposition")
            .unwrap()
            .starts_with("attachment")
    );
}

/// `GET /system/ping` needs no session; `GET /config/client` wants `format=old` (501 without).
#[tokio::test]
async fn ping_and_client_config() {
    let f = fixture();
    let sim = mattermost_sim::Sim::start(f.world).await.unwrap();
    let anon = Client::anonymous(&sim);
    let v = anon.get("/system/ping").await.json();
    assert_eq!(v["status"], "OK");
    let r = anon.get("/config/client").await;
    assert_eq!(r.status, 501);
    assert_eq!(r.error_id(), "api.config.client.old_format.app_error");
    let v = Client::new(&sim, "alice")
        .get("/config/client?format=old")
        .await
        .json();
    assert_eq!(v["Version"], "11.6.0");
    assert_eq!(v["SiteURL"], sim.url());
    assert_eq!(v["EnableCustomEmoji"], "true");
    assert_eq!(v["AllowSyncedDrafts"], "true");
    assert!(v["MaxPostSize"].is_string());
}
