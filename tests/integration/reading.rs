//! The reading tools over the simulator: every list read to its end at limit 1, a middle limit and the
//! maximum, over more items than Mattermost's page of 200 and with ties in their sort keys; every item
//! exactly once, the same pages for the same arguments, nothing lost while a writer changes the list,
//! and the request counts the strategies promise.

use crate::harness::{self, Mcp, ids};
use mattermost_sim::{ChannelKind, Sim, World};
use serde_json::{Value, json};
use std::collections::BTreeSet;

pub const T0: i64 = 1_700_000_000_000;

/// alice and bob in team eng, both in its channel town-square.
pub struct Base {
    pub w: World,
    pub alice: String,
    pub bob: String,
    pub team: String,
    pub channel: String,
}

pub fn base(seed: u64) -> Base {
    let mut w = World::new(seed);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let team = w.team("eng", "Engineering", true);
    w.add_to_team(&team, &alice);
    w.add_to_team(&team, &bob);
    let channel = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
    w.join(&channel, &alice);
    w.join(&channel, &bob);
    Base {
        w,
        alice,
        bob,
        team,
        channel,
    }
}

/// `n` posts by `author` from `start`, `tie` to a millisecond; their ids and times in order.
pub fn tied_posts(
    w: &mut World,
    channel: &str,
    author: &str,
    n: usize,
    tie: usize,
    start: i64,
    text: &str,
) -> Vec<(String, i64)> {
    (0..n)
        .map(|i| {
            let t = start + (i / tie) as i64;
            (w.post(channel, author, t, &format!("{text} {i}")), t)
        })
        .collect()
}

pub fn set(ids: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    ids.into_iter().collect()
}

fn items(page: &Value) -> Vec<Value> {
    page["items"].as_array().cloned().unwrap_or_default()
}

fn ms(item: &Value, field: &str) -> i64 {
    mattermost_mcp::time::parse(item[field].as_str().unwrap_or_default()).unwrap_or(0)
}

/// Reads `tool` to its end at each limit: every id of `expected` exactly once and nothing else; the
/// middle limit is read twice and must give the same pages. Returns the ids in reading order at the
/// first limit.
pub async fn every_item_once(
    mcp: &Mcp,
    tool: &str,
    args: Value,
    limits: [u32; 3],
    expected: &BTreeSet<String>,
) -> Vec<String> {
    let mut first = Vec::new();
    for (i, limit) in limits.into_iter().enumerate() {
        let mut a = args.clone();
        a["limit"] = json!(limit);
        let pages = mcp.pages(tool, a.clone()).await;
        let got: Vec<String> = pages.iter().flat_map(|p| ids(&items(p))).collect();
        let unique = set(got.clone());
        assert_eq!(
            unique.len(),
            got.len(),
            "{tool} at limit {limit}: an item came twice"
        );
        assert_eq!(
            &unique, expected,
            "{tool} at limit {limit}: items missing or foreign"
        );
        for p in &pages {
            assert!(
                p["returned"].as_u64().unwrap_or(0) <= u64::from(limit)
                    || tool.starts_with("read_"),
                "{tool} at limit {limit}: a page exceeds the limit"
            );
        }
        if i == 1 {
            let again: Vec<Vec<String>> = mcp
                .pages(tool, a)
                .await
                .iter()
                .map(|p| ids(&items(p)))
                .collect();
            let once: Vec<Vec<String>> = pages.iter().map(|p| ids(&items(p))).collect();
            assert_eq!(
                once, again,
                "{tool} at limit {limit}: the same arguments give the same pages"
            );
        }
        if i == 0 {
            first = got;
        }
    }
    first
}

/// Pages `tool` at `limit`, running `between` (with the page number) after every page; all ids seen.
pub async fn page_while(
    mcp: &Mcp,
    tool: &str,
    args: Value,
    limit: u32,
    mut between: impl FnMut(usize),
) -> Vec<String> {
    let mut args = args;
    args["limit"] = json!(limit);
    let mut seen = Vec::new();
    for round in 0.. {
        let page = mcp.ok(tool, args.clone()).await;
        harness::check_envelope(&page);
        seen.extend(ids(&items(&page)));
        between(round);
        match page.get("next_cursor").and_then(Value::as_str) {
            Some(c) => args["cursor"] = json!(c),
            None => break,
        }
    }
    seen
}

/// Every id of `kept` is in `seen` exactly once, and nothing is seen twice.
pub fn kept_exactly_once(seen: &[String], kept: &BTreeSet<String>, what: &str) {
    let unique = set(seen.iter().cloned());
    assert_eq!(unique.len(), seen.len(), "{what}: an item came twice");
    for id in kept {
        assert!(
            unique.contains(id),
            "{what}: {id}, there from start to end, was lost"
        );
    }
}

fn requests_to(sim: &Sim, method: &str, ends: &str) -> usize {
    sim.log()
        .iter()
        .filter(|r| r.method == method && r.path.ends_with(ends))
        .count()
}

// ---- read_unread ----

/// 300 read posts, then alice views the channel at the last of them, then `unread` unread posts; the
/// first unread millisecond holds 3 posts. Returns the world, the channel, read and unread ids.
fn unread_world(unread: usize, seed: u64) -> (World, String, Vec<(String, i64)>, Vec<String>) {
    let mut b = base(seed);
    let read = tied_posts(&mut b.w, &b.channel, &b.bob, 300, 4, T0, "read");
    let viewed = read.last().map(|r| r.1).unwrap_or(T0);
    b.w.view(&b.alice, &b.channel, viewed);
    let unread: Vec<String> =
        tied_posts(&mut b.w, &b.channel, &b.bob, unread, 3, viewed + 1, "new")
            .into_iter()
            .map(|p| p.0)
            .collect();
    (b.w, b.channel, read, unread)
}

#[tokio::test(flavor = "multi_thread")]
async fn read_unread_reads_every_unread_post_once_with_read_context_at_limits_1_13_200() {
    let (world, channel, read, unread) = unread_world(250, 41);
    let (sim, mcp) = harness::start(world, "alice").await;
    let first = mcp
        .ok("read_unread", json!({"channel": channel, "limit": 13}))
        .await;
    assert_eq!(first["unread_count"], json!(250));
    assert_eq!(first["total"], json!(250));
    let context = first["context"].as_array().cloned().unwrap_or_default();
    assert_eq!(
        context.len(),
        3,
        "three read posts before the first unread one"
    );
    let read_ids = set(read.iter().map(|r| r.0.clone()));
    for c in &context {
        assert_eq!(c["read"], json!(true));
        assert!(read_ids.contains(c["id"].as_str().unwrap_or_default()));
    }
    let first_items = items(&first);
    assert_eq!(first["first_unread"]["id"], first_items[0]["id"]);
    // The first unread millisecond (3 posts) is whole on the first page.
    let t = harness::created_ms(&sim, &first_items[0]);
    assert_eq!(
        first_items
            .iter()
            .filter(|i| harness::created_ms(&sim, i) == t)
            .count(),
        3
    );
    let order = every_item_once(
        &mcp,
        "read_unread",
        json!({"channel": channel}),
        [1, 13, 200],
        &set(unread.clone()),
    )
    .await;
    assert_eq!(order.first(), unread.first(), "oldest unread first");
}

#[tokio::test(flavor = "multi_thread")]
async fn read_unread_past_1000_changed_posts_reaches_every_post() {
    let (world, channel, _, unread) = unread_world(1200, 43);
    let (sim, mcp) = harness::start(world, "alice").await;
    let pages = mcp
        .pages("read_unread", json!({"channel": channel, "limit": 200}))
        .await;
    let got: Vec<String> = pages.iter().flat_map(|p| ids(&items(p))).collect();
    assert_eq!(got.len(), 1200);
    assert_eq!(set(got), set(unread));
    assert_eq!(pages[0]["unread_count"], json!(1200));
    let requests = requests_to(&sim, "GET", "/posts");
    eprintln!(
        "read_unread 1200 unread posts at limit 200: {} pages, {requests} post requests",
        pages.len()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn read_unread_of_a_channel_never_viewed_reads_it_all_newest_page_first() {
    let mut b = base(47);
    let posted = tied_posts(&mut b.w, &b.channel, &b.bob, 230, 5, T0, "hello");
    let (_sim, mcp) = harness::start(b.w, "alice").await;
    let first = mcp
        .ok(
            "read_unread",
            json!({"channel": "town-square", "limit": 20}),
        )
        .await;
    assert_eq!(first["never_viewed"], json!(true));
    assert!(
        first["note"]
            .as_str()
            .unwrap_or_default()
            .contains("never viewed")
    );
    let expected = set(posted.iter().map(|p| p.0.clone()));
    every_item_once(
        &mcp,
        "read_unread",
        json!({"channel": "town-square"}),
        [1, 20, 200],
        &expected,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn read_unread_while_people_post_and_delete_loses_no_unread_post() {
    let (world, channel, _, unread) = unread_world(120, 53);
    let (sim, mcp) = harness::start(world, "alice").await;
    let doomed: Vec<String> = unread.iter().rev().take(5).cloned().collect();
    let c = channel.clone();
    let seen = page_while(
        &mcp,
        "read_unread",
        json!({"channel": channel}),
        10,
        |round| {
            sim.with_world(|w| {
                let bob = w.user_id("bob").unwrap_or_default();
                for k in 0..3 {
                    w.post(
                        &c,
                        &bob,
                        T0 + 10_000_000 + round as i64 * 10 + k / 2,
                        "later",
                    );
                }
                if round == 1 {
                    for id in &doomed {
                        w.delete(id, T0 + 9_000_000);
                    }
                }
            })
        },
    )
    .await;
    let kept = set(unread.iter().filter(|id| !doomed.contains(id)).cloned());
    kept_exactly_once(&seen, &kept, "read_unread while people post");
}

// ---- read_thread ----

/// A root by alice and `n` replies by bob, ten to a millisecond; one reply is 5000 characters long.
fn thread_world(n: usize, seed: u64) -> (World, String, Vec<String>) {
    let mut b = base(seed);
    let root = b.w.post(&b.channel, &b.alice, T0, "the root");
    let mut all = vec![root.clone()];
    for i in 0..n {
        let text = if i == 7 {
            "x".repeat(5000)
        } else {
            format!("reply {i}")
        };
        all.push(b.w.reply(&root, &b.bob, T0 + 1 + (i / 10) as i64, &text));
    }
    // Noise: another thread in the same channel.
    let other = b.w.post(&b.channel, &b.bob, T0 + 5, "another root");
    b.w.reply(&other, &b.alice, T0 + 6, "not in the thread");
    (b.w, root, all)
}

#[tokio::test(flavor = "multi_thread")]
async fn read_thread_reads_a_thread_of_450_tied_replies_whole_from_its_root_or_a_reply() {
    let (world, root, all) = thread_world(450, 59);
    let (sim, mcp) = harness::start(world, "alice").await;
    let expected = set(all.clone());
    let order = every_item_once(
        &mcp,
        "read_thread",
        json!({"post": root}),
        [1, 37, 200],
        &expected,
    )
    .await;
    assert_eq!(order.first(), Some(&root), "the root comes first");
    // From a reply deep in the thread: the same thread, from its root.
    let from_reply = every_item_once(
        &mcp,
        "read_thread",
        json!({"post": all[300]}),
        [1, 37, 200],
        &expected,
    )
    .await;
    assert_eq!(
        from_reply, order,
        "a reply reads the same thread in the same order"
    );
    sim.clear_log();
    let pages = mcp
        .pages("read_thread", json!({"post": root, "limit": 200}))
        .await;
    assert_eq!(
        requests_to(&sim, "GET", "/thread"),
        pages.len(),
        "one request per page: 451 posts at limit 200 in {} pages",
        pages.len()
    );
    let whole: Vec<Value> = pages.iter().flat_map(items).collect();
    let long = whole
        .iter()
        .find(|i| i["id"] == json!(all[8]))
        .expect("the long reply");
    assert_eq!(
        long["text"].as_str().map(str::len),
        Some(5000),
        "messages are not cut"
    );
    let times: Vec<i64> = whole.iter().map(|i| ms(i, "time")).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "oldest first");
}

#[tokio::test(flavor = "multi_thread")]
async fn read_thread_while_people_reply_loses_no_reply() {
    let (world, root, all) = thread_world(120, 61);
    let (sim, mcp) = harness::start(world, "alice").await;
    let r = root.clone();
    let seen = page_while(&mcp, "read_thread", json!({"post": root}), 15, |round| {
        sim.with_world(|w| {
            let bob = w.user_id("bob").unwrap_or_default();
            w.reply(&r, &bob, T0 + 1_000 + round as i64, "a new reply");
        })
    })
    .await;
    kept_exactly_once(&seen, &set(all), "read_thread while people reply");
}

// ---- list_threads ----

/// alice follows 250 threads in eng, 30 in direct messages with bob and 25 in team ops, last replied to
/// ten to a millisecond; alice has read the replies of every third eng thread.
struct Threads {
    w: World,
    eng: Vec<String>,
    direct: Vec<String>,
    ops: Vec<String>,
    read: Vec<String>,
}

fn followed_threads(seed: u64) -> Threads {
    let mut b = base(seed);
    let ops = b.w.team("ops", "Operations", true);
    b.w.add_to_team(&ops, &b.alice);
    b.w.add_to_team(&ops, &b.bob);
    let oncall = b.w.channel(&ops, "oncall", "On call", ChannelKind::Public);
    b.w.join(&oncall, &b.alice);
    b.w.join(&oncall, &b.bob);
    let dm = b.w.direct(&b.alice, &b.bob);
    let mut n = 0i64;
    let mut make = |w: &mut World, channel: &str, count: usize| -> Vec<String> {
        (0..count)
            .map(|_| {
                let root = w.post(channel, &b.alice, T0 + n, "a root");
                w.reply(&root, &b.bob, T0 + 100_000 + n / 10, "a reply");
                n += 1;
                root
            })
            .collect()
    };
    let eng = make(&mut b.w, &b.channel, 250);
    let direct = make(&mut b.w, &dm, 30);
    let ops_threads = make(&mut b.w, &oncall, 25);
    let read: Vec<String> = eng.iter().step_by(3).cloned().collect();
    for r in &read {
        b.w.view_thread(&b.alice, r, T0 + 900_000);
    }
    Threads {
        w: b.w,
        eng,
        direct,
        ops: ops_threads,
        read,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn list_threads_lists_every_followed_thread_once_direct_ones_once_at_limits_1_23_200() {
    let t = followed_threads(67);
    let (sim, mcp) = harness::start(t.w, "alice").await;
    let all = set(t.eng.iter().chain(&t.direct).chain(&t.ops).cloned());
    sim.clear_log();
    let first = mcp.ok("list_threads", json!({"limit": 23})).await;
    let first_requests = requests_to(&sim, "GET", "/threads");
    let order = every_item_once(&mcp, "list_threads", json!({}), [1, 23, 200], &all).await;
    // Newest reply first, ties by id.
    let whole = mcp.read_all("list_threads", json!({"limit": 200})).await;
    let keys: Vec<(i64, String)> = whole
        .iter()
        .map(|i| {
            (
                -ms(i, "last_reply"),
                i["id"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] < w[1]),
        "newest reply first, ties by id"
    );
    assert_eq!(ids(&whole), order, "every limit reads the same order");
    assert_eq!(first["total"], json!(all.len()));
    let root = &whole[0]["root"];
    assert_eq!(root["by"], json!("alice"));
    assert!(
        whole[0]["participants"]
            .as_array()
            .is_some_and(|p| p.contains(&json!("bob")))
    );
    // One team: its threads and the direct ones.
    let eng = set(t.eng.iter().chain(&t.direct).cloned());
    every_item_once(
        &mcp,
        "list_threads",
        json!({"team": "eng"}),
        [1, 23, 200],
        &eng,
    )
    .await;
    // Unread only: the eng threads alice has not read, and all the others.
    let unread = set(all.iter().filter(|id| !t.read.contains(id)).cloned());
    let got = set(ids(&mcp
        .read_all("list_threads", json!({"unread_only": true, "limit": 200}))
        .await));
    assert_eq!(got, unread);
    // Later pages of a chain cost no request.
    sim.clear_log();
    let pages = mcp.pages("list_threads", json!({"limit": 50})).await;
    let requests = requests_to(&sim, "GET", "/threads");
    eprintln!(
        "list_threads {} threads (2 teams + direct, 10 per millisecond): first page {first_requests} thread requests; \
         {} pages at limit 50: {requests} thread requests",
        all.len(),
        pages.len()
    );
    assert_eq!(
        requests, 3,
        "the whole chain: 2 requests for the 280 threads of eng, 1 for ops"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn list_threads_while_people_reply_and_unfollow_lists_each_remaining_thread_once() {
    let t = followed_threads(71);
    let (sim, mcp) = harness::start(t.w, "alice").await;
    let unfollowed: Vec<String> = t.eng.iter().skip(100).take(10).cloned().collect();
    let moved: Vec<String> = t.eng.iter().take(20).cloned().collect();
    let seen = page_while(&mcp, "list_threads", json!({}), 20, |round| {
        sim.with_world(|w| {
            let alice = w.user_id("alice").unwrap_or_default();
            let bob = w.user_id("bob").unwrap_or_default();
            if round == 0 {
                for id in &unfollowed {
                    w.unfollow(&alice, id);
                }
            }
            // An old thread gets a reply and jumps to the top.
            if let Some(id) = moved.get(round) {
                w.reply(id, &bob, T0 + 5_000_000 + round as i64, "a late reply");
            }
        })
    })
    .await;
    let kept = set(t
        .eng
        .iter()
        .chain(&t.direct)
        .chain(&t.ops)
        .filter(|id| !unfollowed.contains(id))
        .cloned());
    kept_exactly_once(&seen, &kept, "list_threads while people reply");
}

// ---- list_pinned_posts ----

#[tokio::test(flavor = "multi_thread")]
async fn list_pinned_posts_lists_230_tied_pins_newest_first_once_at_limits_1_17_200() {
    let mut b = base(73);
    let posts = tied_posts(&mut b.w, &b.channel, &b.bob, 260, 6, T0, "pin me");
    let pinned: Vec<String> = posts.iter().take(230).map(|p| p.0.clone()).collect();
    for id in &pinned {
        b.w.pin(id);
    }
    let (sim, mcp) = harness::start(b.w, "alice").await;
    let order = every_item_once(
        &mcp,
        "list_pinned_posts",
        json!({"channel": "~town-square"}),
        [1, 17, 200],
        &set(pinned.clone()),
    )
    .await;
    let times: Vec<i64> = posts.iter().take(230).map(|p| p.1).collect();
    let newest = times.iter().max().copied().unwrap_or(0);
    let first_time = posts.iter().find(|p| p.0 == order[0]).map(|p| p.1);
    assert_eq!(first_time, Some(newest), "newest first");
    sim.clear_log();
    let pages = mcp
        .pages(
            "list_pinned_posts",
            json!({"channel": "~town-square", "limit": 100}),
        )
        .await;
    assert_eq!(
        requests_to(&sim, "GET", "/pinned"),
        pages.len(),
        "one request per page of a whole list"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn list_pinned_posts_while_pins_come_and_go_lists_each_remaining_pin_once() {
    let mut b = base(79);
    let posts = tied_posts(&mut b.w, &b.channel, &b.bob, 120, 4, T0, "pin me");
    let pinned: Vec<String> = posts.iter().take(100).map(|p| p.0.clone()).collect();
    for id in &pinned {
        b.w.pin(id);
    }
    let unpinned_later: Vec<String> = pinned.iter().skip(10).step_by(9).cloned().collect();
    let channel = b.channel.clone();
    let (sim, mcp) = harness::start(b.w, "alice").await;
    let late: Vec<String> = posts.iter().skip(100).map(|p| p.0.clone()).collect();
    let seen = page_while(
        &mcp,
        "list_pinned_posts",
        json!({"channel": channel}),
        9,
        |round| {
            sim.with_world(|w| {
                if let Some(id) = late.get(round) {
                    w.pin(id);
                }
                if let Some(id) = unpinned_later.get(round) {
                    w.delete(id, T0 + 8_000_000);
                }
            })
        },
    )
    .await;
    let kept = set(pinned
        .iter()
        .filter(|p| !unpinned_later.contains(p))
        .cloned());
    kept_exactly_once(&seen, &kept, "list_pinned_posts while pins change");
}

// ---- list_saved ----

fn saved_world(n: usize, seed: u64) -> (World, Vec<String>) {
    let mut b = base(seed);
    let posts = tied_posts(&mut b.w, &b.channel, &b.bob, n, 5, T0, "save me");
    let saved: Vec<String> = posts.into_iter().map(|p| p.0).collect();
    for id in &saved {
        b.w.save(&b.alice, id);
    }
    (b.w, saved)
}

#[tokio::test(flavor = "multi_thread")]
async fn list_saved_reads_205_tied_saved_posts_in_exactly_3_requests_and_each_once() {
    let (world, saved) = saved_world(205, 83);
    let (sim, mcp) = harness::start(world, "alice").await;
    let expected = set(saved);
    for limit in [1u32, 30, 200] {
        sim.clear_log();
        let pages = mcp.pages("list_saved", json!({"limit": limit})).await;
        let got: Vec<String> = pages.iter().flat_map(|p| ids(&items(p))).collect();
        assert_eq!(got.len(), 205, "limit {limit}");
        assert_eq!(set(got), expected, "limit {limit}");
        let flagged: Vec<_> = sim
            .log()
            .into_iter()
            .filter(|r| r.path.ends_with("/posts/flagged"))
            .collect();
        let offsets: Vec<&str> = flagged
            .iter()
            .map(|r| r.param("page").unwrap_or(""))
            .collect();
        eprintln!(
            "list_saved 205 at limit {limit}: {} pages, flagged requests at offsets {offsets:?}",
            pages.len()
        );
        assert_eq!(
            flagged.len(),
            3,
            "205 saved posts: 200, the rest, then an empty page"
        );
        assert!(flagged.iter().all(|r| r.param("per_page") == Some("200")));
        assert_eq!(pages[0]["total"], json!(205));
        assert!(pages[0]["items"][0]["channel"] == json!("~town-square"));
    }
    every_item_once(&mcp, "list_saved", json!({}), [1, 30, 200], &expected).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn list_saved_while_posts_are_saved_and_unsaved_lists_each_remaining_once() {
    let (world, saved) = saved_world(150, 89);
    let (sim, mcp) = harness::start(world, "alice").await;
    let unsaved: Vec<String> = saved.iter().skip(5).step_by(11).cloned().collect();
    let seen = page_while(&mcp, "list_saved", json!({}), 12, |round| {
        sim.with_world(|w| {
            let alice = w.user_id("alice").unwrap_or_default();
            if let Some(id) = unsaved.get(round) {
                w.unsave(&alice, id);
            }
            let c = w.channel_id("eng", "town-square").unwrap_or_default();
            let fresh = w.post(&c, &alice, T0 + 7_000_000 + round as i64, "saved later");
            w.save(&alice, &fresh);
        })
    })
    .await;
    let kept = set(saved.iter().filter(|p| !unsaved.contains(p)).cloned());
    kept_exactly_once(&seen, &kept, "list_saved while saves change");
}

// ---- search_posts ----

#[tokio::test(flavor = "multi_thread")]
async fn search_posts_reads_every_match_once_past_mattermosts_cap() {
    let mut b = base(97);
    let few = tied_posts(&mut b.w, &b.channel, &b.bob, 80, 4, T0, "rollout");
    // 151 matches over five days, three to a millisecond: past the cap, one date window more.
    let many: Vec<String> = (0..151)
        .map(|i| {
            let t = T0 + (i as i64 / 3) * 8_000_000;
            b.w.post(&b.channel, &b.bob, t, &format!("deploy number {i}"))
        })
        .collect();
    tied_posts(&mut b.w, &b.channel, &b.bob, 30, 2, T0, "unrelated chatter");
    let (_sim, mcp) = harness::start(b.w, "alice").await;
    let expected = set(few.iter().map(|p| p.0.clone()));
    let first = mcp
        .ok("search_posts", json!({"terms": "rollout", "limit": 7}))
        .await;
    assert!(first.get("capped").is_none(), "80 matches are not capped");
    assert_eq!(first["total"], json!(80));
    every_item_once(
        &mcp,
        "search_posts",
        json!({"terms": "rollout"}),
        [1, 7, 200],
        &expected,
    )
    .await;
    every_item_once(
        &mcp,
        "search_posts",
        json!({"terms": "rollout", "team": "eng"}),
        [1, 7, 200],
        &expected,
    )
    .await;
    let first = mcp
        .ok("search_posts", json!({"terms": "deploy", "limit": 200}))
        .await;
    assert!(first.get("capped").is_none(), "no day holds 100");
    assert!(
        first.get("total").is_none(),
        "past the cap the total is known at the end"
    );
    every_item_once(
        &mcp,
        "search_posts",
        json!({"terms": "deploy"}),
        [1, 7, 200],
        &set(many),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn search_posts_while_matches_come_and_go_lists_each_remaining_match_once() {
    let mut b = base(101);
    let posts = tied_posts(&mut b.w, &b.channel, &b.bob, 90, 3, T0, "incident");
    let channel = b.channel.clone();
    let (sim, mcp) = harness::start(b.w, "alice").await;
    let removed: Vec<String> = posts
        .iter()
        .skip(40)
        .step_by(7)
        .map(|p| p.0.clone())
        .collect();
    let seen = page_while(
        &mcp,
        "search_posts",
        json!({"terms": "incident"}),
        8,
        |round| {
            sim.with_world(|w| {
                let bob = w.user_id("bob").unwrap_or_default();
                w.post(&channel, &bob, T0 + 1_000 + round as i64, "incident update");
                if let Some(id) = removed.get(round) {
                    w.delete(id, T0 + 9_000_000);
                }
            })
        },
    )
    .await;
    let kept = set(posts
        .iter()
        .map(|p| p.0.clone())
        .filter(|p| !removed.contains(p)));
    kept_exactly_once(&seen, &kept, "search_posts while matches change");
}

// ---- list_mentions ----

#[tokio::test(flavor = "multi_thread")]
async fn list_mentions_lists_true_mentions_by_others_once_past_mattermosts_cap() {
    let mut b = base(103);
    let mut mentions = Vec::new();
    // 132 mentions over three days, four to a millisecond: past the cap of 100.
    for i in 0..132 {
        let t = T0 + (i / 4) as i64 * 7_200_000;
        mentions.push(b.w.post(&b.channel, &b.bob, t, &format!("hey @alice, item {i}")));
    }
    b.w.post(&b.channel, &b.bob, T0 + 50, "ping @alicebob please");
    b.w.post(&b.channel, &b.alice, T0 + 51, "note to self @alice");
    let (_sim, mcp) = harness::start(b.w, "alice").await;
    let first = mcp.ok("list_mentions", json!({"limit": 10})).await;
    assert!(first.get("capped").is_none(), "no day holds 100");
    assert_eq!(first["mention_keys"], json!(["@alice"]));
    let shown = mcp.read_all("list_mentions", json!({"limit": 200})).await;
    assert_eq!(shown.len(), 132);
    assert!(shown.iter().all(|p| p["by"] == json!("bob")));
    assert!(
        shown
            .iter()
            .all(|p| { p["text"].as_str().unwrap_or_default().contains("@alice,") })
    );
    let got = every_item_once(
        &mcp,
        "list_mentions",
        json!({}),
        [1, 30, 200],
        &set(mentions.clone()),
    )
    .await;
    assert_eq!(got.len(), 132);
    // `before` bounds the walk: the mentions before the day of the newest.
    let newest = mcp.ok("list_mentions", json!({"limit": 1})).await;
    let day = newest["items"][0]["time"].as_str().unwrap_or_default()[..10].to_string();
    let older = mcp
        .read_all("list_mentions", json!({"before": day, "limit": 200}))
        .await;
    assert!(!older.is_empty() && older.len() < 132);
    assert!(
        older
            .iter()
            .all(|p| p["time"].as_str().unwrap_or_default()[..10] < *day),
        "only mentions before {day}"
    );
}

// ---- list_reactions ----

#[tokio::test(flavor = "multi_thread")]
async fn list_reactions_groups_a_posts_reactions_by_emoji_with_usernames() {
    let mut b = base(107);
    let carol = b.w.user("carol");
    b.w.join(&b.channel, &carol);
    let post = b.w.post(&b.channel, &b.alice, T0, "ship it");
    b.w.react(&b.bob, &post, "+1", T0 + 10);
    b.w.react(&carol, &post, "+1", T0 + 10);
    b.w.react(&b.alice, &post, "tada", T0 + 5);
    b.w.react(&carol, &post, "eyes", T0 + 20);
    let (_sim, mcp) = harness::start(b.w, "alice").await;
    let answer = mcp.ok("list_reactions", json!({"post": post})).await;
    assert!(
        answer.get("next_cursor").is_none(),
        "bounded by the post: no cursor"
    );
    assert_eq!(answer["reactions"], json!(4));
    let emoji: Vec<&str> = answer["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| i["emoji"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        emoji,
        ["tada", "+1", "eyes"],
        "in the order each emoji was first used"
    );
    assert_eq!(answer["items"][1]["count"], json!(2));
    let users = set(answer["items"][1]["users"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|u| u.as_str().unwrap_or_default().to_string()));
    assert_eq!(
        users,
        set(["bob".to_string(), "carol".to_string()]),
        "who reacted, by username"
    );
    let e = mcp
        .refused("list_reactions", json!({"post": "not-a-post"}))
        .await;
    assert_eq!(e["kind"], json!("bad_argument"));
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("`not-a-post`")
    );
}

// ---- list_drafts ----

#[tokio::test(flavor = "multi_thread")]
async fn list_drafts_lists_every_draft_once_direct_ones_once_across_teams() {
    let mut b = base(109);
    let ops = b.w.team("ops", "Operations", true);
    b.w.add_to_team(&ops, &b.alice);
    let oncall = b.w.channel(&ops, "oncall", "On call", ChannelKind::Public);
    b.w.join(&oncall, &b.alice);
    let dm = b.w.direct(&b.alice, &b.bob);
    let roots = tied_posts(&mut b.w, &b.channel, &b.bob, 220, 1, T0, "root");
    let mut expected = Vec::new();
    for (i, (root, _)) in roots.iter().enumerate() {
        b.w.draft(
            &b.alice,
            &b.channel,
            Some(root),
            "a reply in progress",
            T0 + 1_000 + (i / 7) as i64,
        );
        expected.push(format!("{}:{root}", b.channel));
    }
    b.w.draft(&b.alice, &dm, None, "to bob", T0 + 1_000);
    expected.push(dm.clone());
    b.w.draft(&b.alice, &oncall, None, "on call note", T0 + 1_001);
    expected.push(oncall.clone());
    b.w.draft(&b.bob, &b.channel, None, "bob's own", T0 + 1_002);
    let (sim, mcp) = harness::start(b.w, "alice").await;
    let expected = set(expected);
    every_item_once(&mcp, "list_drafts", json!({}), [1, 40, 200], &expected).await;
    let dm_draft = mcp
        .read_all("list_drafts", json!({"limit": 200}))
        .await
        .into_iter()
        .find(|d| d["id"] == json!(dm))
        .expect("the direct message draft");
    assert_eq!(dm_draft["channel"], json!("@bob"));
    sim.clear_log();
    let pages = mcp.pages("list_drafts", json!({"limit": 40})).await;
    assert_eq!(
        requests_to(&sim, "GET", "/drafts"),
        2,
        "one read per team for the whole chain ({} pages)",
        pages.len()
    );
    let eng_only = set(expected.iter().filter(|d| **d != oncall).cloned());
    every_item_once(
        &mcp,
        "list_drafts",
        json!({"team": "eng"}),
        [1, 40, 200],
        &eng_only,
    )
    .await;
}

// ---- list_emoji ----

#[tokio::test(flavor = "multi_thread")]
async fn list_emoji_lists_450_emoji_by_name_once_in_3_requests_for_a_chain() {
    let mut b = base(113);
    let mut made = Vec::new();
    for i in 0..450 {
        made.push(b.w.emoji(&b.bob, &format!("emoji-{:03}", (i * 7) % 450)));
    }
    let (sim, mcp) = harness::start(b.w, "alice").await;
    let order = every_item_once(&mcp, "list_emoji", json!({}), [1, 50, 200], &set(made)).await;
    let whole = mcp.read_all("list_emoji", json!({"limit": 200})).await;
    assert_eq!(ids(&whole), order);
    let names: Vec<&str> = whole
        .iter()
        .map(|e| e["name"].as_str().unwrap_or_default())
        .collect();
    assert!(names.windows(2).all(|w| w[0] < w[1]), "by name");
    assert_eq!(whole[0]["creator"], json!("bob"));
    sim.clear_log();
    let pages = mcp.pages("list_emoji", json!({"limit": 50})).await;
    let log = sim.log();
    let emoji: Vec<_> = log.iter().filter(|r| r.path == "/api/v4/emoji").collect();
    assert_eq!(
        emoji.len(),
        3,
        "200, 200 and 50, for all {} pages",
        pages.len()
    );
    assert!(emoji.iter().all(|r| r.param("sort") == Some("name")));
    sim.with_world(|w| {
        w.set_custom_emoji_enabled(false);
        w.set_synced_drafts_enabled(false);
    });
    for tool in ["list_emoji", "list_drafts"] {
        let e = mcp.refused(tool, json!({})).await;
        assert_eq!(e["kind"], json!("disabled"), "{tool}");
        assert!(
            e["message"]
                .as_str()
                .unwrap_or_default()
                .contains("turned off"),
            "{tool}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn list_threads_reads_a_millisecond_of_200_replies_whole_and_reports_a_larger_one_it_cannot()
{
    for (group, seed) in [(200usize, 139u64), (230, 149)] {
        let mut b = base(seed);
        let mut all = Vec::new();
        for i in 0..group + 30 {
            let root = b.w.post(&b.channel, &b.alice, T0 + i as i64, "a root");
            let at = if i < group {
                T0 + 500_000
            } else {
                T0 + 400_000 + i as i64
            };
            b.w.reply(&root, &b.bob, at, "a reply");
            all.push(root);
        }
        let (sim, mcp) = harness::start(b.w, "alice").await;
        let pages = mcp.pages("list_threads", json!({"limit": 200})).await;
        let got: Vec<String> = pages.iter().flat_map(|p| ids(&items(p))).collect();
        assert_eq!(set(got.clone()).len(), got.len(), "no thread twice");
        let requests = requests_to(&sim, "GET", "/threads");
        eprintln!(
            "list_threads {} threads, {group} replied in one millisecond: {} found, {requests} thread requests",
            group + 30,
            got.len()
        );
        if group == 200 {
            assert_eq!(
                set(got),
                set(all),
                "a millisecond of exactly 200 threads is read whole"
            );
            assert!(pages[0].get("incomplete_millisecond").is_none());
            assert_eq!(
                requests, 3,
                "the page, the older threads and the millisecond oldest first"
            );
        } else if got.len() < all.len() {
            assert!(
                pages[0].get("incomplete_millisecond").is_some(),
                "a millisecond Mattermost cannot give whole is reported"
            );
        }
    }
}

// ---- what the real server answers ----

#[tokio::test(flavor = "multi_thread")]
async fn list_reactions_of_a_post_without_reactions_is_an_empty_list_though_mattermost_answers_null()
 {
    let mut b = base(151);
    let post = b.w.post(&b.channel, &b.bob, T0, "nobody reacted");
    let (sim, mcp) = harness::start(b.w, "alice").await;
    let answer = mcp.ok("list_reactions", json!({"post": post})).await;
    assert_eq!(answer["items"], json!([]));
    assert_eq!(answer["returned"], json!(0));
    assert_eq!(answer["reactions"], json!(0));
    assert_eq!(answer["post_id"], json!(post));
    assert_eq!(
        requests_to(&sim, "GET", "/reactions"),
        1,
        "one request, answered `null`"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn list_drafts_across_teams_when_one_team_has_none_lists_the_others_though_mattermost_answers_null()
 {
    let mut b = base(157);
    let ops = b.w.team("ops", "Operations", true);
    b.w.add_to_team(&ops, &b.alice);
    let oncall = b.w.channel(&ops, "oncall", "On call", ChannelKind::Public);
    b.w.join(&oncall, &b.alice);
    // Drafts in eng only, and none in a direct message (which every team would list).
    b.w.draft(&b.alice, &b.channel, None, "a draft in eng", T0);
    let (sim, mcp) = harness::start(b.w, "alice").await;
    let all = mcp.read_all("list_drafts", json!({"limit": 200})).await;
    assert_eq!(ids(&all), [b.channel.clone()]);
    assert_eq!(all[0]["text"], json!("a draft in eng"));
    assert_eq!(
        requests_to(&sim, "GET", "/drafts"),
        2,
        "both teams read, ops answered `null`"
    );
    let none = mcp.ok("list_drafts", json!({"team": "ops"})).await;
    assert_eq!(none["items"], json!([]));
    assert_eq!(none["total"], json!(0));
}

#[tokio::test(flavor = "multi_thread")]
async fn read_unread_of_a_public_channel_not_joined_is_refused_as_not_member_naming_read_channel() {
    let mut b = base(163);
    let random =
        b.w.channel(&b.team, "random", "Random", ChannelKind::Public);
    b.w.join(&random, &b.bob);
    let posted = tied_posts(&mut b.w, &random, &b.bob, 5, 1, T0, "in random");
    let (_sim, mcp) = harness::start(b.w, "alice").await;
    for given in ["random", random.as_str()] {
        let e = mcp.refused("read_unread", json!({"channel": given})).await;
        assert_eq!(e["kind"], json!("not_member"), "{given}: {e}");
        let m = e["message"].as_str().unwrap_or_default();
        assert!(
            m.contains("read_channel") && m.contains("join_channel"),
            "{given}: names what to do instead: {m}"
        );
        assert!(
            !m.contains("403") && !m.contains("app_error") && !m.contains("permission"),
            "{given}: no raw refusal reaches the model: {m}"
        );
    }
    let by_name = mcp
        .refused("read_unread", json!({"channel": "random"}))
        .await;
    assert!(
        by_name["message"]
            .as_str()
            .unwrap_or_default()
            .contains("public channel ~random"),
        "a channel found by name is named: {by_name}"
    );
    // read_channel reads it without joining (read_public_channel, which every team member holds).
    let read = mcp
        .read_all("read_channel", json!({"channel": "random", "limit": 200}))
        .await;
    assert_eq!(set(ids(&read)), set(posted.into_iter().map(|p| p.0)));
}

#[tokio::test(flavor = "multi_thread")]
async fn search_posts_matches_as_its_description_says() {
    let mut b = base(167);
    let day = 86_400_000;
    let meetings = b.w.post(&b.channel, &b.bob, T0, "meetings tomorrow");
    let ask =
        b.w.post(&b.channel, &b.bob, T0 + 1, "ask Alice about the budget");
    let first = b.w.post(&b.channel, &b.bob, T0 + 2, "deploy the first");
    let second = b.w.post(&b.channel, &b.bob, T0 + day, "deploy the second");
    let (_sim, mcp) = harness::start(b.w, "alice").await;
    let found = |terms: &str, team: Option<&str>| {
        let mut args = json!({"terms": terms, "limit": 200});
        if let Some(t) = team {
            args["team"] = json!(t);
        }
        let mcp = &mcp;
        async move { set(ids(&mcp.read_all("search_posts", args).await)) }
    };
    assert_eq!(
        found("meeting", None).await,
        set([meetings.clone()]),
        "a word finds its other forms"
    );
    assert_eq!(
        found("the meetings", None).await,
        set([meetings.clone()]),
        "stop words are ignored"
    );
    assert_eq!(
        found("@alice", None).await,
        set([ask.clone()]),
        "@name matches the word name"
    );
    assert_eq!(
        found("meetings in:town-square", None).await,
        set([meetings.clone()]),
        "without team, in: searches the channel's team"
    );
    assert_eq!(
        found("meetings in:town-square", Some("eng")).await,
        set([meetings.clone()]),
        "in a team, in: names its channel"
    );
    assert_eq!(
        found("deploy -on:2023-11-14", None).await,
        set([second.clone()]),
        "-on: excludes the day"
    );
    assert_eq!(found("deploy", None).await, set([first, second]));
    let listed = mcp.list_all_tools().await;
    let text = |name: &str| {
        let t = listed
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} is listed"));
        serde_json::to_string(t).unwrap_or_default()
    };
    for name in ["search_posts", "search_files"] {
        let t = text(name);
        assert!(
            t.contains("full text") || t.contains("Full-text"),
            "{name} says its words match as full text: {t}"
        );
        for said in [
            "in:channel (searches its team)",
            "- excludes",
            "your time zone",
        ] {
            assert!(t.contains(said), "{name} says `{said}`: {t}");
        }
    }
    assert!(text("search_posts").contains("@name matches the word name"));
    assert!(text("search_posts").contains("stop words ignored"));
    assert!(text("search_posts").contains("as full text"));
    assert!(text("search_posts").contains("from:person (team members)"));
}

#[tokio::test(flavor = "multi_thread")]
async fn list_mentions_whose_cap_is_filled_by_posts_that_only_name_the_word_still_reaches_older_mentions()
 {
    let mut b = base(173);
    // 10 true mentions, then 120 newer posts that hold the word alice but mention nobody, an hour apart:
    // Mattermost searches `@alice` as the word `alice`, and its 100 newest matches are all these.
    let mentions: Vec<String> = (0..10)
        .map(|i| {
            b.w.post(
                &b.channel,
                &b.bob,
                T0 + i * 3_600_000,
                &format!("@alice look {i}"),
            )
        })
        .collect();
    for i in 0..120 {
        b.w.post(
            &b.channel,
            &b.bob,
            T0 + (20 + i) * 3_600_000,
            &format!("ask alice about item {i}"),
        );
    }
    let (_sim, mcp) = harness::start(b.w, "alice").await;
    let all = mcp.read_all("list_mentions", json!({"limit": 200})).await;
    assert_eq!(set(ids(&all)), set(mentions));
}
