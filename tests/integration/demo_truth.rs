//! The demo tells the truth: for every channel of `@demo`, the unread and mention counts that
//! `list_channels` and `get_channel` show agree with what `read_unread` and `list_mentions` return;
//! and its start log and `demo --help` name the binary that runs and say how writes are allowed.

use crate::harness::{self, Mcp};
use mattermost_sim::{Sim, World};
use serde_json::{Value, json};
use std::collections::HashMap;

async fn demo() -> (Sim, Mcp) {
    let sim = Sim::start(World::demo()).await.expect("sim");
    let mcp = harness::spawn(&sim.url(), &sim.token("demo"), &[], &[]).await;
    (sim, mcp)
}

fn count(v: &Value, field: &str) -> i64 {
    v[field].as_i64().unwrap_or(-1)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_demo_channels_unread_and_mention_counts_agree_with_what_read_unread_and_list_mentions_return()
 {
    let (_sim, mcp) = demo().await;
    let channels = mcp.read_all("list_channels", json!({"limit": 200})).await;
    assert!(
        channels.len() >= 8,
        "the demo's channels: {}",
        channels.len()
    );
    let mentions = mcp.read_all("list_mentions", json!({"limit": 200})).await;
    let mut checked_unread = 0;
    for c in &channels {
        let id = c["id"].as_str().expect("an id");
        let (unread, mentioned) = (count(c, "unread"), count(c, "mentions"));
        // get_channel shows the same counts.
        let one = mcp.ok("get_channel", json!({"channel": id})).await;
        assert_eq!(
            (count(&one, "unread"), count(&one, "mentions")),
            (unread, mentioned),
            "{id}: get_channel"
        );
        // read_unread reads exactly that many posts, none of them demo's own.
        let pages = mcp
            .pages("read_unread", json!({"channel": id, "limit": 200}))
            .await;
        let posts: Vec<Value> = pages
            .iter()
            .flat_map(|p| p["items"].as_array().cloned().unwrap_or_default())
            .collect();
        if pages[0]["never_viewed"] == json!(true) {
            continue;
        }
        assert_eq!(
            posts.len() as i64,
            unread,
            "{} ({id}): read_unread reads what list_channels counts",
            c["name"]
        );
        assert_eq!(
            count(&pages[0], "unread_count"),
            unread,
            "{id}: unread_count"
        );
        assert!(
            posts.iter().all(|p| p["by"] != json!("demo")),
            "{id}: your own posts are never unread"
        );
        checked_unread += 1;
        // Mentions: a direct or group message counts every unread post of the others; elsewhere the
        // unread posts list_mentions finds in that channel.
        let kind = c["type"].as_str().unwrap_or("");
        let expected = if kind == "direct" || kind == "group" {
            unread
        } else {
            let unread_ids: Vec<&str> = posts.iter().filter_map(|p| p["id"].as_str()).collect();
            mentions
                .iter()
                .filter(|m| {
                    m["channel_id"] == json!(id)
                        && unread_ids.contains(&m["id"].as_str().unwrap_or(""))
                })
                .count() as i64
        };
        assert_eq!(
            mentioned, expected,
            "{} ({id}): mentions agree with list_mentions",
            c["name"]
        );
    }
    assert!(
        checked_unread >= 6,
        "only {checked_unread} channels checked"
    );
    let with_unread = channels.iter().filter(|c| count(c, "unread") > 0).count();
    let with_mentions = channels.iter().filter(|c| count(c, "mentions") > 0).count();
    assert!(
        with_unread >= 2 && with_mentions >= 1,
        "the demo has unread posts ({with_unread}) and mentions ({with_mentions})"
    );
    let per_channel: HashMap<&str, usize> = mentions.iter().fold(HashMap::new(), |mut m, p| {
        *m.entry(p["channel_id"].as_str().unwrap_or("")).or_insert(0) += 1;
        m
    });
    assert!(!per_channel.is_empty(), "the demo mentions @demo");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_demo_holds_what_a_person_tries_first() {
    let (_sim, mcp) = demo().await;
    // A public channel demo has not joined, readable without joining.
    let found = mcp
        .ok("search_channels", json!({"term": "watercooler"}))
        .await;
    let water = found["items"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["name"] == json!("watercooler"))
        .expect("the watercooler channel");
    assert_eq!(water["member"], json!(false));
    let read = mcp
        .ok("read_channel", json!({"channel": water["id"], "limit": 5}))
        .await;
    assert!(
        read["returned"].as_u64().unwrap_or(0) > 0,
        "its posts read without joining"
    );
    // Two of demo's channels share a display name: the name alone is ambiguous, with both ids.
    let e = mcp
        .refused("read_unread", json!({"channel": "Random"}))
        .await;
    assert_eq!(e["kind"], json!("ambiguous"), "{e}");
    assert_eq!(e["candidates"].as_array().map(Vec::len), Some(2), "{e}");
    // Attachments of several kinds.
    let files = mcp
        .read_all(
            "search_files",
            json!({"terms": "pdf png xlsx docx pptx zip tar txt", "match_any": true, "limit": 200}),
        )
        .await;
    let types: Vec<&str> = files
        .iter()
        .filter_map(|f| f["extension"].as_str())
        .collect();
    for ext in ["pdf", "png", "xlsx", "docx", "pptx", "zip", "tar"] {
        assert!(types.contains(&ext), "a .{ext} file in the demo: {types:?}");
    }
}

/// Runs `mattermost-mcp <args>` with stdin closed and `env`; its exit code and stderr (or stdout).
fn run_demo(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(harness::BIN)
        .args(args)
        .env_clear()
        .env("MATTERMOST_MCP_LOG", "info")
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn the_demo_names_its_real_path_says_how_writes_are_allowed_and_ends_cleanly_with_stdin() {
    let path = std::fs::canonicalize(harness::BIN).expect("the binary's path");
    let (code, _, log) = run_demo(&["demo"], &[]);
    assert_eq!(code, Some(0), "the end of stdin is a normal end: {log}");
    assert!(!log.contains("ERROR"), "{log}");
    assert!(
        log.contains(&format!("the command `{} demo`", path.display())),
        "the connect hint names the binary that runs: {log}"
    );
    assert!(
        log.contains("MATTERMOST_ALLOW_WRITES=true")
            && log.contains("only this demo's simulated workspace"),
        "the start log says how writes are allowed and what they touch: {log}"
    );

    let (code, _, log) = run_demo(&["demo"], &[("MATTERMOST_ALLOW_WRITES", "true")]);
    assert_eq!(code, Some(0), "{log}");
    assert!(
        log.contains("writes are allowed") && log.contains("MATTERMOST_CONFIRM_WRITES=never"),
        "{log}"
    );

    let (code, help, _) = run_demo(&["demo", "--help"], &[]);
    assert_eq!(code, Some(0));
    assert!(
        help.contains("MATTERMOST_ALLOW_WRITES=true")
            && help.contains("simulated workspace")
            && help.contains("MATTERMOST_CONFIRM_WRITES=never"),
        "demo --help says how writes are allowed: {help}"
    );
}
