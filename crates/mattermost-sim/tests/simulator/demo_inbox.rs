//! The demo's inbox (issue 19): what `demo` missed is as large and as varied as a busy person's, counted
//! as a client with collapsed reply threads counts it; and the simulator keeps the counts such a client
//! reads (root mentions, muted channels, the collapsed-threads preference) as the server does.

use crate::common::*;
use mattermost_sim::{ChannelKind, World};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};

/// `demo`'s channels with something unread, as a client with collapsed reply threads counts them
/// (`calculateUnreadCount`: root posts, root mentions), by channel id: (team id, type, unread, mentions,
/// muted, last post).
async fn unread_channels(c: &Client) -> HashMap<String, (String, String, i64, i64, bool, i64)> {
    let channels = c.get("/users/me/channels").await.json();
    let teams = c.get("/users/me/teams").await.json();
    let mut members: HashMap<String, Value> = HashMap::new();
    for t in teams.as_array().unwrap() {
        let tid = t["id"].as_str().unwrap();
        for m in c
            .get(&format!("/users/me/teams/{tid}/channels/members"))
            .await
            .json()
            .as_array()
            .unwrap()
        {
            members.insert(m["channel_id"].as_str().unwrap().to_string(), m.clone());
        }
    }
    let mut out = HashMap::new();
    for ch in channels.as_array().unwrap() {
        if ch["delete_at"].as_i64().unwrap() > 0 {
            continue;
        }
        let id = ch["id"].as_str().unwrap();
        let Some(m) = members.get(id) else { continue };
        let unread =
            ch["total_msg_count_root"].as_i64().unwrap() - m["msg_count_root"].as_i64().unwrap();
        let mentions = m["mention_count_root"].as_i64().unwrap();
        if unread > 0 || mentions > 0 {
            out.insert(
                id.to_string(),
                (
                    ch["team_id"].as_str().unwrap().to_string(),
                    ch["type"].as_str().unwrap().to_string(),
                    unread,
                    mentions,
                    m["notify_props"]["mark_unread"] == "mention",
                    ch["last_post_at"].as_i64().unwrap(),
                ),
            );
        }
    }
    out
}

#[tokio::test]
async fn the_demo_inbox_is_a_busy_persons() {
    let w = World::demo();
    let (_sim, c) = start(w, "demo").await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let unread = unread_channels(&c).await;
    let teams: HashSet<&str> = unread
        .values()
        .map(|v| v.0.as_str())
        .filter(|t| !t.is_empty())
        .collect();
    assert!(unread.len() >= 40, "{} unread channels", unread.len());
    assert_eq!(teams.len(), 2, "across both teams");
    let kinds: HashSet<&str> = unread.values().map(|v| v.1.as_str()).collect();
    for k in ["O", "P", "D", "G"] {
        assert!(kinds.contains(k), "an unread channel of type {k}");
    }
    let roots: i64 = unread.values().map(|v| v.2).sum();
    let mentioned = unread
        .values()
        .filter(|v| v.3 > 0 && (v.1 == "O" || v.1 == "P"))
        .count();
    assert!(mentioned >= 5, "channels that mention demo: {mentioned}");
    let muted = unread.values().filter(|v| v.4).count();
    assert!(muted >= 3, "muted channels with unread posts: {muted}");
    // last posts at different times, recent, none at the demo's start
    let last: HashSet<i64> = unread.values().map(|v| v.5 / 60_000).collect();
    assert!(
        last.len() >= unread.len() - 2,
        "last posts at different minutes"
    );
    assert!(
        unread
            .values()
            .all(|v| v.5 < now - 30_000 && v.5 > now - 30 * 86_400_000),
        "last posts in the last month, none at the demo's start"
    );
    // followed threads with unread replies, some mentioning demo
    let mut replies = 0;
    let mut threads = 0;
    let mut thread_mentions = 0;
    let mut seen = HashSet::new();
    for t in teams {
        let list = c
            .get(&format!(
                "/users/me/teams/{t}/threads?unread=true&per_page=200"
            ))
            .await
            .json();
        for th in list["threads"].as_array().unwrap() {
            if seen.insert(th["id"].as_str().unwrap().to_string()) {
                threads += 1;
                replies += th["unread_replies"].as_i64().unwrap();
                thread_mentions += th["unread_mentions"].as_i64().unwrap();
            }
        }
    }
    println!(
        "demo inbox: {} unread channels ({muted} muted, {mentioned} mentioning demo), {roots} unread root \
         posts; {threads} followed threads with {replies} unread replies ({thread_mentions} mentions)",
        unread.len()
    );
    assert!(
        threads >= 30,
        "{threads} followed threads with unread replies"
    );
    assert!(
        thread_mentions >= 3,
        "mentions in threads: {thread_mentions}"
    );
    assert!(
        roots + replies >= 1200,
        "unread posts: {roots} root posts and {replies} replies"
    );
    // people active recently, not in 2020
    let users: Vec<String> = c
        .get("/users?per_page=200")
        .await
        .json()
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["delete_at"] == 0 && u["is_bot"] != true)
        .map(|u| u["id"].as_str().unwrap().to_string())
        .collect();
    let statuses = c.post("/users/status/ids", &json!(users)).await.json();
    for s in statuses.as_array().unwrap() {
        let at = s["last_activity_at"].as_i64().unwrap();
        assert!(at > now - 86_400_000, "active in the last day: {s}");
    }
}

/// `IncrementMentionCount(..., isRoot, ...)`: a mention in a reply counts in `mention_count`, not in
/// `mention_count_root`; viewing the channel clears both.
#[tokio::test]
async fn a_mention_in_a_reply_counts_only_in_mention_count() {
    let mut w = World::new(11);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let team = w.team("t", "T", true);
    let ch = w.channel(&team, "c", "C", ChannelKind::Public);
    w.join(&ch, &alice);
    w.join(&ch, &bob);
    w.view(&alice, &ch, T0);
    let root = w.post(&ch, &bob, T0 + 1, "@alice a question");
    w.reply(&root, &bob, T0 + 2, "and @alice another");
    let (_sim, c) = start(w, "alice").await;
    let m = c.get(&format!("/channels/{ch}/members/me")).await.json();
    assert_eq!(m["mention_count"], 2);
    assert_eq!(m["mention_count_root"], 1);
    assert_eq!(m["msg_count_root"], 0);
    c.post(
        "/channels/members/me/view",
        &json!({"channel_id": ch, "collapsed_threads_supported": true}),
    )
    .await;
    let m = c.get(&format!("/channels/{ch}/members/me")).await.json();
    assert_eq!(
        (m["mention_count"].clone(), m["mention_count_root"].clone()),
        (json!(0), json!(0))
    );
}

/// Muting sets the membership's `mark_unread` to `mention`, as the client's "Mute channel" does.
#[tokio::test]
async fn a_muted_channel_marks_unread_on_mention_only() {
    let mut w = World::new(12);
    let alice = w.user("alice");
    let team = w.team("t", "T", true);
    let ch = w.channel(&team, "c", "C", ChannelKind::Public);
    w.join(&ch, &alice);
    let other = w.channel(&team, "d", "D", ChannelKind::Public);
    w.join(&other, &alice);
    w.mute(&ch, &alice);
    let (_sim, c) = start(w, "alice").await;
    let m = c.get(&format!("/channels/{ch}/members/me")).await.json();
    assert_eq!(m["notify_props"]["mark_unread"], "mention");
    let m = c.get(&format!("/channels/{other}/members/me")).await.json();
    assert_eq!(m["notify_props"]["mark_unread"], "all");
}

/// `IsCRTEnabledForUser`: with `default_off` a user who turned collapsed threads on gets them (their
/// own reply does not mark the channel read), one who did not keeps them off.
#[tokio::test]
async fn the_collapsed_threads_preference_decides_under_a_default_setting() {
    let mut w = World::new(13);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let team = w.team("t", "T", true);
    let ch = w.channel(&team, "c", "C", ChannelKind::Public);
    w.join(&ch, &alice);
    w.join(&ch, &bob);
    w.set_collapsed_threads("default_off");
    w.set_preference(&alice, "display_settings", "collapsed_reply_threads", "on");
    w.view(&alice, &ch, T0);
    w.view(&bob, &ch, T0);
    let root = w.post(&ch, &bob, T0 + 1, "a root");
    w.reply(&root, &alice, T0 + 3, "alice replies");
    w.reply(&root, &bob, T0 + 4, "bob replies");
    let (sim, c) = start(w, "alice").await;
    // alice (on): her own reply leaves the channel unread as it was
    let m = c.get(&format!("/channels/{ch}/members/me")).await.json();
    assert_eq!(m["last_viewed_at"], T0);
    let cb = Client::new(&sim, "bob");
    // bob (off, the default): his own reply marked the channel read as of it
    let m = cb.get(&format!("/channels/{ch}/members/me")).await.json();
    assert_eq!(m["last_viewed_at"], T0 + 4);
}
