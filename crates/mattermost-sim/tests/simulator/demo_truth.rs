//! The demo tells the truth: for every channel of `demo`, the counts Mattermost reports agree with
//! the posts really written, and the demo holds the things the product's tools are tried on.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use crate::common::*;

/// Every live post of a channel, read page by page: (id, create_at, user_id, message).
async fn all_posts(c: &Client, channel: &str) -> Vec<(String, i64, String, String)> {
    let mut out = Vec::new();
    for page in 0.. {
        let v = c
            .get(&format!(
                "/channels/{channel}/posts?per_page=200&page={page}"
            ))
            .await
            .json();
        let order = strings(&v["order"]);
        if order.is_empty() {
            break;
        }
        for id in order {
            let p = &v["posts"][&id];
            out.push((
                id.clone(),
                p["create_at"].as_i64().unwrap_or(0),
                p["user_id"].as_str().unwrap_or("").to_string(),
                p["message"].as_str().unwrap_or("").to_string(),
            ));
        }
    }
    out
}

/// `@demo` as a whole mention keyword (what the server's mention parser finds).
fn mentions_demo(message: &str) -> bool {
    message
        .split(|c: char| !(c.is_alphanumeric() || "@.-_:".contains(c)))
        .any(|w| {
            w.trim_end_matches(['.', '-', ':', '_'])
                .eq_ignore_ascii_case("@demo")
        })
}

/// For every channel of demo's: `total_msg_count - msg_count` is the number of posts written since
/// demo last viewed it, none of them demo's own; `mention_count` is the number of them that
/// mention demo (in a DM or group message, every post by someone else); and in team channels each
/// such post is found by a search for `@demo`, as `list_mentions` searches.
#[tokio::test]
async fn every_demo_channel_counts_agree_with_its_posts() {
    let (_sim, c) = start(mattermost_sim::World::demo(), "demo").await;
    let me = c.get("/users/me").await.json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let channels = c
        .get("/users/me/channels?include_deleted=true")
        .await
        .json();
    let channels = channels.as_array().unwrap();
    assert!(channels.len() >= 12, "{} channels", channels.len());
    let found: HashSet<String> = {
        let r = c
            .post(
                "/posts/search",
                &json!({"terms": "@demo", "include_deleted_channels": true}),
            )
            .await;
        strings(&r.json()["order"]).into_iter().collect()
    };
    let mut unread_total = 0;
    let mut mention_total = 0;
    let mut team_mentions = 0;
    for ch in channels {
        let id = ch["id"].as_str().unwrap();
        let kind = ch["type"].as_str().unwrap();
        let m = c.get(&format!("/channels/{id}/members/me")).await.json();
        let lv = m["last_viewed_at"].as_i64().unwrap();
        let unread = ch["total_msg_count"].as_i64().unwrap() - m["msg_count"].as_i64().unwrap();
        let posts = all_posts(&c, id).await;
        let after: Vec<&(String, i64, String, String)> =
            posts.iter().filter(|p| p.1 > lv).collect();
        let name = ch["name"].as_str().unwrap();
        assert_eq!(unread, after.len() as i64, "unread in {name}");
        assert!(
            !after.iter().any(|p| p.2 == me),
            "demo's own posts are never unread ({name})"
        );
        let mentioning: Vec<&&(String, i64, String, String)> = after
            .iter()
            .filter(|p| p.2 != me && (kind == "D" || kind == "G" || mentions_demo(&p.3)))
            .collect();
        assert_eq!(
            m["mention_count"].as_i64().unwrap(),
            mentioning.len() as i64,
            "mentions in {name}"
        );
        if kind == "O" || kind == "P" {
            for p in &mentioning {
                assert!(
                    found.contains(&p.0),
                    "search @demo finds {:?} in {name}",
                    p.3
                );
            }
            team_mentions += mentioning.len();
        }
        unread_total += unread;
        mention_total += mentioning.len();
    }
    assert!(unread_total > 20, "some posts are unread: {unread_total}");
    assert!(
        team_mentions >= 4,
        "unread @demo mentions in channels: {team_mentions}"
    );
    assert!(mention_total > team_mentions, "and in direct messages");
}

/// The demo holds what the tools are tried on: mentions in threads, reactions by several people
/// with several emoji (one of them demo's), attachments of every kind, a public channel demo has
/// not joined (with posts), and two of demo's channels with the same display name.
#[tokio::test]
async fn the_demo_holds_mentions_reactions_attachments_and_tricky_channels() {
    let (_sim, c) = start(mattermost_sim::World::demo(), "demo").await;
    let me = c.get("/users/me").await.json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let teams = c.get("/users/me/teams").await.json();
    let acme = teams
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "acme")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();

    // a thread that mentions demo, followed with an unread mention
    let threads = c
        .get(&format!("/users/me/teams/{acme}/threads?per_page=200"))
        .await
        .json();
    assert!(
        threads["total_unread_mentions"].as_i64().unwrap() >= 2,
        "{}",
        threads["total_unread_mentions"]
    );

    // channels: two of demo's share a display name; a public one demo has not joined has posts
    let mine = c.get("/users/me/channels").await.json();
    let mut by_display: HashMap<String, Vec<Value>> = HashMap::new();
    for ch in mine.as_array().unwrap() {
        if ch["type"] == "O" || ch["type"] == "P" {
            by_display
                .entry(ch["display_name"].as_str().unwrap().to_string())
                .or_default()
                .push(ch.clone());
        }
    }
    let same = &by_display["Random"];
    assert_eq!(same.len(), 2);
    assert_ne!(same[0]["team_id"], same[1]["team_id"]);
    let public = c
        .get(&format!("/teams/{acme}/channels?per_page=200"))
        .await
        .json();
    let mine_ids: HashSet<String> = ids(&mine).into_iter().collect();
    let unjoined: Vec<&Value> = public
        .as_array()
        .unwrap()
        .iter()
        .filter(|ch| !mine_ids.contains(ch["id"].as_str().unwrap()))
        .collect();
    assert_eq!(unjoined.len(), 1);
    assert_eq!(unjoined[0]["name"], "watercooler");
    let wid = unjoined[0]["id"].as_str().unwrap();
    assert!(c.get(&format!("/channels/{wid}/posts")).await.order().len() > 10);

    // attachments of every kind, found by extension
    let mut kinds = HashMap::new();
    for ext in ["txt", "pdf", "png", "xlsx", "docx", "pptx", "zip", "tar"] {
        let r = c
            .post("/files/search", &json!({"terms": format!("ext:{ext}")}))
            .await
            .json();
        let order = strings(&r["order"]);
        assert!(!order.is_empty(), "a .{ext} file");
        kinds.insert(ext, r["file_infos"][&order[0]].clone());
    }
    assert_eq!(kinds["png"]["width"], 2400);
    assert_eq!(kinds["png"]["height"], 1600);
    for (ext, magic) in [
        ("pdf", b"%PDF".as_slice()),
        ("png", b"\x89PNG".as_slice()),
        ("xlsx", b"PK\x03\x04".as_slice()),
        ("docx", b"PK\x03\x04".as_slice()),
        ("pptx", b"PK\x03\x04".as_slice()),
        ("zip", b"PK\x03\x04".as_slice()),
    ] {
        let id = kinds[ext]["id"].as_str().unwrap();
        let bytes = c
            .http
            .get(format!("{}/api/v4/files/{id}", c.base))
            .bearer_auth(c.token.clone().unwrap_or_default())
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        assert!(bytes.starts_with(magic), "{ext} content");
    }

    // reactions: several emoji by several people on one post, one of them demo's
    let town = mine
        .as_array()
        .unwrap()
        .iter()
        .find(|ch| ch["name"] == "town-square")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let posts = all_posts(&c, &town).await;
    let review = posts
        .iter()
        .find(|p| p.3.contains("review the release notes"))
        .expect("the review request");
    let reactions = c
        .get(&format!("/posts/{}/reactions", review.0))
        .await
        .json();
    let list = reactions.as_array().unwrap();
    let users: HashSet<&str> = list
        .iter()
        .map(|r| r["user_id"].as_str().unwrap())
        .collect();
    let emoji: HashSet<&str> = list
        .iter()
        .map(|r| r["emoji_name"].as_str().unwrap())
        .collect();
    assert!(users.len() >= 4 && emoji.len() >= 3);
    assert!(users.contains(me.as_str()));
}
