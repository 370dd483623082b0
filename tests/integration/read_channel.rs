//! read_channel: every post exactly once, at every limit, with millisecond ties, while people post.

use crate::harness::{self, ids};
use mattermost_sim::{ChannelKind, Sim, World};
use serde_json::json;
use std::collections::BTreeSet;

/// A channel of `n` posts in bursts of 1 to `max_tie` posts sharing one millisecond.
pub fn tied_channel(n: usize, max_tie: u64, seed: u64) -> (World, String, Vec<String>) {
    let mut w = World::new(seed);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let team = w.team("eng", "Engineering", true);
    w.add_to_team(&team, &alice);
    w.add_to_team(&team, &bob);
    let channel = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
    w.join(&channel, &alice);
    w.join(&channel, &bob);
    let mut state = seed | 1;
    let mut t = 1_700_000_000_000i64;
    let mut posted = Vec::new();
    while posted.len() < n {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let burst = 1 + (state % max_tie) as usize;
        for _ in 0..burst.min(n - posted.len()) {
            let who = if posted.len() % 3 == 0 { &bob } else { &alice };
            posted.push(w.post(&channel, who, t, &format!("post {}", posted.len())));
        }
        t += 1 + (state % 3) as i64;
    }
    (w, channel, posted)
}

fn gets_of_posts(sim: &Sim) -> usize {
    sim.log()
        .iter()
        .filter(|r| {
            r.method == "GET" && r.path.ends_with("/posts") && r.path.contains("/channels/")
        })
        .count()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_channel_of_1000_tied_posts_reads_every_post_exactly_once_at_limits_1_7_30_and_200() {
    let (world, channel, posted) = tied_channel(1000, 12, 7);
    let (sim, mcp) = harness::start(world, "alice").await;
    let expected: BTreeSet<String> = posted.iter().cloned().collect();
    for limit in [1u32, 7, 30, 200] {
        sim.clear_log();
        let pages = mcp
            .pages("read_channel", json!({"channel": channel, "limit": limit}))
            .await;
        let items: Vec<_> = pages
            .iter()
            .flat_map(|p| p["items"].as_array().cloned().unwrap_or_default())
            .collect();
        let got = ids(&items);
        let unique: BTreeSet<String> = got.iter().cloned().collect();
        assert_eq!(unique.len(), got.len(), "limit {limit}: a post came twice");
        assert_eq!(unique, expected, "limit {limit}: posts missing or foreign");
        // Pages go back in time, each oldest first, and no page crosses into the millisecond of another.
        let mut newer_than = i64::MAX;
        for p in &pages {
            let times: Vec<i64> = p["items"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|i| {
                    mattermost_mcp::time::parse(i["time"].as_str().unwrap_or_default()).unwrap_or(0)
                })
                .collect();
            assert!(
                times.windows(2).all(|w| w[0] <= w[1]),
                "limit {limit}: a page is oldest first"
            );
            if let Some(last) = times.last() {
                assert!(
                    *last < newer_than,
                    "limit {limit}: pages go back in time on whole milliseconds"
                );
            }
            if let Some(first) = times.first() {
                newer_than = *first;
            }
            if p["has_more"] == json!(true) {
                assert!(
                    p["returned"].as_u64().unwrap_or(0) <= u64::from(limit)
                        || times.iter().all(|t| *t == times[0]),
                    "limit {limit}: only a page of one millisecond exceeds the limit"
                );
            }
        }
        let requests = gets_of_posts(&sim);
        let summed: u64 = pages
            .iter()
            .map(|p| p["requests"].as_u64().unwrap_or(0))
            .sum();
        eprintln!(
            "read_channel 1000 tied posts at limit {limit}: {} pages, {requests} post requests, {summed} requests in all",
            pages.len()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn reading_1000_posts_at_limit_200_takes_at_most_ceil_n_over_l_plus_one_requests_plus_overflows()
 {
    let (world, channel, _) = tied_channel(1000, 12, 11);
    let (sim, mcp) = harness::start(world, "alice").await;
    let pages = mcp
        .pages("read_channel", json!({"channel": channel, "limit": 200}))
        .await;
    let requests = gets_of_posts(&sim);
    // At limit 200 no millisecond (at most 12 posts) overflows a page.
    assert!(
        requests <= 1000usize.div_ceil(200) + 1,
        "{requests} requests for 1000 posts at limit 200"
    );
    assert_eq!(requests, pages.len(), "one post request per page");
    let lookups = sim
        .log()
        .iter()
        .filter(|r| r.path == "/api/v4/users/ids")
        .count();
    assert_eq!(lookups, 1, "authors are looked up once, then known by name");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_limit_of_1_over_tied_milliseconds_reads_each_millisecond_whole() {
    let (world, channel, posted) = tied_channel(60, 5, 3);
    let (sim, mcp) = harness::start(world, "alice").await;
    let pages = mcp
        .pages("read_channel", json!({"channel": channel, "limit": 1}))
        .await;
    let got: Vec<String> = pages
        .iter()
        .flat_map(|p| ids(p["items"].as_array().map(Vec::as_slice).unwrap_or(&[])))
        .collect();
    assert_eq!(got.len(), posted.len());
    let overflowing = pages
        .iter()
        .filter(|p| p["returned"].as_u64().unwrap_or(0) > 1)
        .count();
    assert!(overflowing > 0, "some millisecond holds several posts");
    let requests = gets_of_posts(&sim);
    assert!(
        requests <= posted.len() + 1 + overflowing,
        "{requests} requests: at most one per page, plus one per overflowing millisecond, plus the end"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn paging_back_while_people_post_loses_nothing_that_was_there() {
    let (world, channel, posted) = tied_channel(400, 6, 5);
    let (sim, mcp) = harness::start(world, "alice").await;
    let mut seen = Vec::new();
    let mut args = json!({"channel": channel, "limit": 25});
    let mut round = 0;
    loop {
        let page = mcp.ok("read_channel", args.clone()).await;
        harness::check_envelope(&page);
        seen.extend(ids(page["items"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[])));
        // Someone posts a few messages, some in one millisecond, between every two pages.
        sim.with_world(|w| {
            let bob = w.user_id("bob").unwrap_or_default();
            let now = 1_800_000_000_000 + round * 10;
            for k in 0..3 {
                w.post(
                    &channel,
                    &bob,
                    now + (k / 2),
                    "a new post while someone reads",
                );
            }
        });
        round += 1;
        match page.get("next_cursor").and_then(|c| c.as_str()) {
            Some(c) => args["cursor"] = json!(c),
            None => break,
        }
    }
    let unique: BTreeSet<&String> = seen.iter().collect();
    assert_eq!(unique.len(), seen.len(), "no post came twice");
    for id in &posted {
        assert!(
            unique.contains(id),
            "post {id}, there from start to end, was lost"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn before_after_and_since_read_the_posts_around_a_post_and_a_time() {
    let (world, channel, posted) = tied_channel(120, 4, 9);
    let (_sim, mcp) = harness::start(world, "alice").await;
    let all = mcp
        .read_all("read_channel", json!({"channel": channel, "limit": 50}))
        .await;
    let times: std::collections::HashMap<String, String> = all
        .iter()
        .map(|i| {
            (
                i["id"].as_str().unwrap_or_default().to_string(),
                i["time"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let pivot = &posted[60];
    let pivot_time = times[pivot].clone();
    let before = mcp
        .read_all(
            "read_channel",
            json!({"channel": channel, "before": pivot, "limit": 13}),
        )
        .await;
    assert!(
        before
            .iter()
            .all(|i| i["time"].as_str() < Some(pivot_time.as_str()))
    );
    let after = mcp
        .read_all(
            "read_channel",
            json!({"channel": channel, "after": pivot, "limit": 13}),
        )
        .await;
    assert!(
        after
            .iter()
            .all(|i| i["time"].as_str() > Some(pivot_time.as_str()))
    );
    let same_ms = all
        .iter()
        .filter(|i| i["time"].as_str() == Some(pivot_time.as_str()))
        .count();
    assert_eq!(
        before.len() + after.len() + same_ms,
        posted.len(),
        "before and after leave out only the pivot's millisecond"
    );
    let since = mcp
        .read_all(
            "read_channel",
            json!({"channel": channel, "since": pivot_time, "limit": 13}),
        )
        .await;
    assert_eq!(
        since.len(),
        after.len() + same_ms,
        "since reads the pivot's millisecond and all after it"
    );
    let ordered: Vec<&str> = since
        .iter()
        .map(|i| i["time"].as_str().unwrap_or_default())
        .collect();
    assert!(
        ordered.windows(2).all(|w| w[0] <= w[1]),
        "since reads oldest first, forward"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn since_past_1000_changed_posts_reaches_every_post_written_since_and_nothing_else() {
    let (mut world, channel, posted) = tied_channel(1400, 4, 13);
    // The posts are written from 1_700_000_000_000 on; `since` falls after the first 200 of them.
    let t0 = 1_700_000_000_000i64;
    let since_ms = t0 + 300;
    let mut expected: BTreeSet<String> = posted
        .iter()
        .filter(|id| world.post_message(id).is_some())
        .cloned()
        .collect();
    // Edits made later (their history rows change after `since`), to old and new posts; a deletion.
    let (old, new, gone) = (posted[3].clone(), posted[900].clone(), posted[1000].clone());
    world.edit(&old, t0 + 10_000, "an old post edited since");
    world.edit(&new, t0 + 10_001, "a new post edited");
    world.delete(&gone, t0 + 10_002);
    let (sim, mcp) = harness::start(world, "alice").await;
    let all = mcp
        .read_all("read_channel", json!({"channel": channel, "limit": 200}))
        .await;
    let times: std::collections::HashMap<String, i64> = all
        .iter()
        .map(|i| {
            (
                i["id"].as_str().unwrap_or_default().to_string(),
                mattermost_mcp::time::parse(i["time"].as_str().unwrap_or_default()).unwrap_or(0),
            )
        })
        .collect();
    expected.retain(|id| times.get(id).is_some_and(|t| *t >= since_ms));
    assert!(
        expected.len() > 1000,
        "more posts since the time than Mattermost's since cap"
    );
    sim.clear_log();
    let pages = mcp.pages("read_channel", json!({"channel": channel, "since": mattermost_mcp::time::rfc3339(since_ms), "limit": 200})).await;
    let got: Vec<String> = pages
        .iter()
        .flat_map(|p| ids(p["items"].as_array().map(Vec::as_slice).unwrap_or(&[])))
        .collect();
    let unique: BTreeSet<String> = got.iter().cloned().collect();
    assert_eq!(unique.len(), got.len(), "no post twice");
    assert_eq!(
        unique, expected,
        "every post written since the time, none before, no deleted post, no history row"
    );
    assert!(!unique.contains(&gone) && !unique.contains(&old));
    let requests = gets_of_posts(&sim);
    let walk = sim
        .log()
        .iter()
        .filter(|r| r.param("since").is_some())
        .count();
    assert_eq!(walk, 1, "one since read, which came back at the cap");
    eprintln!(
        "since past the cap: {} posts in {} pages, {requests} post requests",
        got.len(),
        pages.len()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_post_with_reactions_shows_them_on_read_channel_and_read_thread_with_no_other_request() {
    let mut w = World::new(17);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let carol = w.user("carol");
    let team = w.team("eng", "Engineering", true);
    for u in [&alice, &bob, &carol] {
        w.add_to_team(&team, u);
    }
    let channel = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
    for u in [&alice, &bob, &carol] {
        w.join(&channel, u);
    }
    let t0 = 1_700_000_000_000i64;
    let root = w.post(&channel, &bob, t0, "ship it?");
    w.reply(&root, &carol, t0 + 10, "yes");
    w.post(&channel, &carol, t0 + 20, "no reactions here");
    w.react(&carol, &root, "tada", t0 + 30);
    w.react(&alice, &root, "+1", t0 + 40);
    w.react(&bob, &root, "+1", t0 + 50);
    let (sim, mcp) = harness::start(w, "alice").await;
    let expected = json!({"tada": 1, "+1": 2});
    // read_channel reads the posts and the authors' usernames; read_thread then the thread alone.
    for (tool, args, requests) in [
        ("read_channel", json!({"channel": channel, "limit": 10}), 2),
        ("read_thread", json!({"post": root, "limit": 10}), 1),
    ] {
        sim.clear_log();
        let page = mcp.ok(tool, args).await;
        let items = page["items"].as_array().cloned().unwrap_or_default();
        let shown = items
            .iter()
            .find(|i| i["id"] == json!(root))
            .unwrap_or_else(|| panic!("{tool} shows the post: {page}"));
        assert_eq!(shown["reactions"], expected, "{tool}");
        assert_eq!(
            shown["my_reactions"],
            json!(["+1"]),
            "{tool}: the ones you used"
        );
        assert!(
            items
                .iter()
                .filter(|i| i["id"] != json!(root))
                .all(|i| i.get("reactions").is_none()),
            "{tool}: a post without reactions has none shown"
        );
        let log = sim.log();
        assert!(
            log.iter().all(|r| !r.path.ends_with("/reactions")),
            "{tool}: the reactions come with the posts"
        );
        assert_eq!(
            page["requests"].as_u64(),
            Some(log.len() as u64),
            "{tool}: every request counted"
        );
        assert_eq!(log.len(), requests, "{tool}: no request for the reactions");
    }
}
