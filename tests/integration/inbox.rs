//! `read_inbox` on the demo's inbox (issue 19): walked to its end at limits 1, 30 and 200, it gives every
//! unread post of every source exactly once — the same set each time, the set `read_unread` and
//! `read_thread` give source by source — marks nothing read, costs the requests it says, holds a page
//! of 200 posts to 150 bytes a post, and stays honest while people post, leave and the plan is lost.

use crate::harness::{self, Mcp, created_ms};
use mattermost_sim::{ChannelKind, Sim, World};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

async fn demo_with(world: World) -> (Sim, Mcp) {
    let sim = Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(&sim.url(), &sim.token("demo"), &[], &[]).await;
    (sim, mcp)
}

async fn demo() -> (Sim, Mcp) {
    demo_with(World::demo()).await
}

fn rows(page: &Value) -> Vec<Value> {
    page["items"].as_array().cloned().unwrap_or_default()
}

/// A row's source index and post id.
fn row(r: &Value) -> (u64, String) {
    (
        r[0].as_u64().expect("s"),
        r[1].as_str().expect("id").to_string(),
    )
}

fn text_of(r: &rmcp::model::CallToolResult) -> String {
    r.content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// Milliseconds of an RFC 3339 time as the tools write it (`2026-12-01T10:11:12.345Z`).
fn ms(t: &str) -> i64 {
    let d = |a: usize, b: usize| t[a..b].parse::<i64>().expect("digits");
    let (y, m, day) = (d(0, 4), d(5, 7), d(8, 10));
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let millis = if t.len() > 20 { d(20, 23) } else { 0 };
    ((days * 86_400 + d(11, 13) * 3600 + d(14, 16) * 60 + d(17, 19)) * 1000) + millis
}

/// Every badge a person sees: each channel's unread, mentions and last view (`list_channels`), each
/// followed thread's unread replies, mentions and last view (`list_threads`).
async fn badges(mcp: &Mcp) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for c in mcp.read_all("list_channels", json!({"limit": 200})).await {
        out.insert(
            format!("channel {}", c["id"].as_str().unwrap()),
            json!([c["unread"], c["mentions"], c["last_viewed"]]),
        );
    }
    for t in mcp.read_all("list_threads", json!({"limit": 200})).await {
        out.insert(
            format!("thread {}", t["id"].as_str().unwrap()),
            json!([t["unread_replies"], t["unread_mentions"], t["last_viewed"]]),
        );
    }
    out
}

/// What is unread source by source, read with `read_unread` and `read_thread` as the person would:
/// source id → the unread post ids. With collapsed reply threads (`crt`), a channel's unread root
/// posts and a followed thread's replies after its last view; without, every unread post of a channel.
async fn unread_by_source(sim: &Sim, mcp: &Mcp, crt: bool) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for c in mcp
        .read_all("list_channels", json!({"unread_only": true, "limit": 200}))
        .await
    {
        let id = c["id"].as_str().unwrap().to_string();
        let posts = mcp
            .read_all("read_unread", json!({"channel": id, "limit": 200}))
            .await;
        let ids: BTreeSet<String> = posts
            .iter()
            .filter(|p| !crt || p.get("root_id").is_none())
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect();
        if !ids.is_empty() {
            out.insert(id, ids);
        }
    }
    if !crt {
        return out;
    }
    for t in mcp
        .read_all("list_threads", json!({"unread_only": true, "limit": 200}))
        .await
    {
        let root = t["id"].as_str().unwrap().to_string();
        let viewed = t["last_viewed"].as_str().map_or(0, ms);
        let replies: BTreeSet<String> = mcp
            .read_all("read_thread", json!({"post": root, "limit": 200}))
            .await
            .iter()
            .filter(|p| p.get("root_id").is_some() && created_ms(sim, p) > viewed)
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect();
        if !replies.is_empty() {
            out.insert(root, replies);
        }
    }
    out
}

/// Asserts the walk's posts are the expected ones source by source, naming what differs.
fn assert_same(
    got: &BTreeMap<String, BTreeSet<String>>,
    expected: &BTreeMap<String, BTreeSet<String>>,
    what: &str,
) {
    let empty = BTreeSet::new();
    let sources: BTreeSet<&String> = got.keys().chain(expected.keys()).collect();
    let differ: Vec<String> = sources
        .into_iter()
        .filter_map(|s| {
            let (g, e) = (
                got.get(s).unwrap_or(&empty),
                expected.get(s).unwrap_or(&empty),
            );
            let missing: Vec<&String> = e.difference(g).collect();
            let extra: Vec<&String> = g.difference(e).collect();
            (!missing.is_empty() || !extra.is_empty())
                .then(|| format!("{s}: missing {missing:?}, extra {extra:?}"))
        })
        .collect();
    assert!(
        differ.is_empty(),
        "{what}: the posts of each source are what read_unread and read_thread give, but {} sources \
         differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// One walk of `read_inbox` to its end.
struct Walk {
    pages: Vec<Value>,
    /// source index → its header
    headers: BTreeMap<u64, Value>,
    /// source id → the post ids given for it, in order
    posts: BTreeMap<String, Vec<String>>,
    calls: usize,
    requests: u64,
    bytes: usize,
    /// (posts, bytes of the text copy) of each page
    sizes: Vec<(usize, usize)>,
}

impl Walk {
    fn given(&self) -> usize {
        self.posts.values().map(Vec::len).sum()
    }

    fn sets(&self) -> BTreeMap<String, BTreeSet<String>> {
        self.posts
            .iter()
            .map(|(k, v)| (k.clone(), v.iter().cloned().collect()))
            .collect()
    }
}

/// Walks `read_inbox` to its end with `args`, calling `between(page number)` after each page, and
/// checks what every walk must hold: each header once, before its posts; the overview on the first
/// page only; short cursors; at most `limit` posts a page, unless one millisecond holds more.
async fn walk_with(mcps: &[&Mcp], args: Value, mut between: impl FnMut(usize)) -> Walk {
    let mut args = harness::obj(args);
    let limit = args.get("limit").and_then(Value::as_u64);
    let mut w = Walk {
        pages: Vec::new(),
        headers: BTreeMap::new(),
        posts: BTreeMap::new(),
        calls: 0,
        requests: 0,
        bytes: 0,
        sizes: Vec::new(),
    };
    loop {
        let mcp = mcps[w.calls % mcps.len()];
        let r = mcp.result("read_inbox", Value::Object(args.clone())).await;
        assert_ne!(r.is_error, Some(true), "read_inbox failed: {:?}", r.content);
        let text = text_of(&r);
        w.bytes += text.len();
        let page = r.structured_content.clone().expect("structured");
        harness::check_envelope(&page);
        w.calls += 1;
        w.requests += page["requests"].as_u64().unwrap();
        w.sizes.push((rows(&page).len(), text.len()));
        assert_eq!(
            page.get("overview").is_some(),
            w.pages.is_empty(),
            "the overview opens the first page only"
        );
        if let Some(c) = page["next_cursor"].as_str() {
            assert!(c.len() <= 80, "a cursor of {} characters: {c}", c.len());
            assert!(c.split('.').all(|g| g.len() <= 8), "grouped: {c}");
        }
        for h in page["sources"].as_array().into_iter().flatten() {
            let s = h["s"].as_u64().unwrap();
            assert!(
                w.headers.insert(s, h.clone()).is_none(),
                "the header of source {s} comes once"
            );
        }
        for item in rows(&page) {
            let (s, id) = row(&item);
            let h = w
                .headers
                .get(&s)
                .unwrap_or_else(|| panic!("source {s}'s header comes with or before its posts"));
            w.posts
                .entry(h["id"].as_str().unwrap().to_string())
                .or_default()
                .push(id);
        }
        if let Some(l) = limit {
            let n = rows(&page).len() as u64;
            assert!(n <= l, "{n} posts at limit {l}");
        }
        let next = page["next_cursor"].as_str().map(str::to_string);
        w.pages.push(page);
        between(w.pages.len());
        match next {
            Some(c) => {
                args.insert("cursor".into(), json!(c));
            }
            None => return w,
        }
        assert!(w.pages.len() < 5000, "read_inbox does not reach its end");
    }
}

async fn walk(mcp: &Mcp, args: Value) -> Walk {
    walk_with(&[mcp], args, |_| {}).await
}

/// How many requests of the log went to paths matching `what`.
fn count(sim: &Sim, what: impl Fn(&str) -> bool) -> usize {
    sim.log().iter().filter(|r| what(&r.path)).count()
}

#[tokio::test(flavor = "multi_thread")]
async fn read_inbox_walks_the_demo_inbox_to_its_end_at_limits_1_30_and_200_each_unread_post_once() {
    let (sim, mcp) = demo().await;
    let before = badges(&mcp).await;
    let expected = unread_by_source(&sim, &mcp, true).await;
    let expected_posts: usize = expected.values().map(BTreeSet::len).sum();
    assert!(
        expected.len() >= 70 && expected_posts >= 1200,
        "the demo's inbox: {} sources, {expected_posts} posts",
        expected.len()
    );
    let teams = 2;
    for limit in [200, 30, 1] {
        sim.clear_log();
        let w = walk(&mcp, json!({"limit": limit})).await;
        let distinct: BTreeSet<&String> = w.posts.values().flatten().collect();
        assert_eq!(
            w.given(),
            distinct.len(),
            "limit {limit}: a post given twice"
        );
        assert_same(&w.sets(), &expected, &format!("limit {limit}"));
        // every source of the overview comes, in its order, with its header
        let overview = &w.pages[0]["overview"];
        let listed: Vec<u64> = overview["parts"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|p| {
                p["sources"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e[0].as_u64().unwrap())
            })
            .collect();
        assert_eq!(
            listed,
            (0..listed.len() as u64).collect::<Vec<_>>(),
            "the overview lists every source in the walk's order"
        );
        assert_eq!(
            w.headers.len(),
            listed.len(),
            "every source's header comes once"
        );
        assert_eq!(overview["sources"].as_u64(), Some(listed.len() as u64));
        let parts: Vec<&str> = overview["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["part"].as_str().unwrap())
            .collect();
        assert_eq!(
            parts,
            ["direct", "mentions", "channels", "threads", "muted"]
        );
        // what the walk cost: `requests` counts every request, and each source costs one
        assert_eq!(
            w.requests as usize,
            sim.log().len(),
            "limit {limit}: `requests` counts every request"
        );
        let threads = w.headers.values().filter(|h| h["kind"] == "thread").count();
        let channels = w.headers.len() - threads;
        assert_eq!(
            count(&sim, |p| p.starts_with("/api/v4/channels/")
                && p.ends_with("/posts")),
            channels,
            "limit {limit}: one read of each channel's posts"
        );
        assert_eq!(
            count(&sim, |p| p.ends_with("/thread")),
            threads,
            "limit {limit}: one read of each thread"
        );
        assert_eq!(
            count(&sim, |p| p == "/api/v4/users/me/channels"),
            2,
            "the channels, to plan and to count what arrived"
        );
        assert_eq!(
            count(&sim, |p| p.ends_with("/channels/members")),
            2 * teams,
            "the memberships per team, to plan and to count what arrived"
        );
        assert_eq!(
            count(&sim, |p| p.ends_with("/threads")),
            2 * teams,
            "the followed threads per team, to plan and to count what arrived"
        );
        let users = count(&sim, |p| p == "/api/v4/users/ids");
        assert!(users <= 4, "usernames looked up {users} times");
        assert_eq!(
            w.requests as usize,
            w.headers.len()
                + 2
                + 4 * teams
                + users
                + count(&sim, |p| p.starts_with("/api/v4/config"))
                + count(&sim, |p| p == "/api/v4/users/me/teams")
                + count(&sim, |p| p == "/api/v4/users/me"),
            "limit {limit}: one request per source, and the plan's and the end's"
        );
        let last = w.pages.last().unwrap();
        assert_eq!(last["new"]["posts"], json!(0), "nothing arrived: {last}");
        println!(
            "read_inbox at limit {limit}: {} calls, {} requests, {} bytes, {} posts in {} sources",
            w.calls,
            w.requests,
            w.bytes,
            w.given(),
            w.headers.len()
        );
    }
    assert_eq!(before, badges(&mcp).await, "nothing was marked read");
}

/// The calls, requests and bytes a full walk takes at the default limit, beside what the route the
/// old `catch_up` prompt asked for takes on the same demo: `list_channels` (unread only) and
/// `read_unread` per channel, then `list_threads` (unread only) and `read_thread` per thread, each
/// list to its end.
#[tokio::test(flavor = "multi_thread")]
async fn read_inbox_costs_fewer_calls_and_requests_than_the_old_route() {
    let (_sim, mcp) = demo().await;
    let inbox = walk(&mcp, json!({})).await;
    /// Calls, requests and bytes of text copy.
    #[derive(Default)]
    struct Cost(usize, u64, usize);
    /// Every page of a list, adding what it cost; the items of all pages.
    async fn all(mcp: &Mcp, cost: &mut Cost, tool: &str, args: Value) -> Vec<Value> {
        let mut args = harness::obj(args);
        let mut items = Vec::new();
        loop {
            let r = mcp.result(tool, Value::Object(args.clone())).await;
            let page = r.structured_content.clone().expect("structured");
            cost.0 += 1;
            cost.1 += page["requests"].as_u64().unwrap();
            cost.2 += text_of(&r).len();
            items.extend(rows(&page));
            match page["next_cursor"].as_str() {
                Some(c) => {
                    args.insert("cursor".into(), json!(c));
                }
                None => return items,
            }
        }
    }
    let mut old = Cost::default();
    for c in all(
        &mcp,
        &mut old,
        "list_channels",
        json!({"unread_only": true}),
    )
    .await
    {
        all(&mcp, &mut old, "read_unread", json!({"channel": c["id"]})).await;
    }
    for t in all(&mcp, &mut old, "list_threads", json!({"unread_only": true})).await {
        all(&mcp, &mut old, "read_thread", json!({"post": t["id"]})).await;
    }
    println!(
        "read_inbox at its default limit: {} calls, {} requests, {} bytes for {} posts in {} sources",
        inbox.calls,
        inbox.requests,
        inbox.bytes,
        inbox.given(),
        inbox.headers.len()
    );
    println!(
        "the old route (list_channels + read_unread per channel + list_threads + read_thread per \
         thread): {} calls, {} requests, {} bytes",
        old.0, old.1, old.2
    );
    assert!(
        inbox.calls * 5 < old.0,
        "{} calls against {}",
        inbox.calls,
        old.0
    );
    assert!(
        inbox.requests < old.1,
        "{} requests against {}",
        inbox.requests,
        old.1
    );
    assert!(
        inbox.bytes < old.2,
        "{} bytes against {}",
        inbox.bytes,
        old.2
    );
}

/// A channel as the issue measures `read_channel` on: 199 posts of about 45 characters, 47 of them
/// replies, 39 with reactions.
fn busy_channel() -> (World, String) {
    let mut w = World::new(4545);
    let names = ["demo", "alice", "bob", "carol", "dave"];
    let ids: Vec<String> = names.iter().map(|n| w.user(n)).collect();
    let team = w.team("acme", "Acme", true);
    let ch = w.channel(&team, "busy", "Busy", ChannelKind::Public);
    for id in &ids {
        w.join(&ch, id);
    }
    let words = [
        "The nightly build finished without any errors",
        "Yesterday's deploy is ready in staging, thanks all",
        "Ticket ENG-4412 needs one more review today",
        "The call with Initech moved to Thursday :tada:",
        "The billing export failed twice overnight",
        "Sprint planning still needs an owner this week",
    ];
    let t0 = 1_765_000_000_000i64;
    let mut roots = Vec::new();
    for k in 0..199i64 {
        let who = &ids[(k as usize % 4) + 1];
        let text = words[k as usize % words.len()];
        let id = if k % 4 == 3 && !roots.is_empty() {
            let root: &String = &roots[roots.len() - 1];
            w.reply(root, who, t0 + k * 60_000, text)
        } else {
            let id = w.post(&ch, who, t0 + k * 60_000, text);
            roots.push(id.clone());
            id
        };
        if k % 5 == 1 {
            w.react(&ids[2], &id, "+1", t0 + k * 60_000 + 1);
        }
    }
    w.view(&ids[0], &ch, t0 - 1);
    (w, ch)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_of_200_posts_costs_at_most_150_bytes_a_post_in_read_inbox_and_read_channel() {
    let (sim, mcp) = demo().await;
    let w = walk(&mcp, json!({"limit": 200})).await;
    for (i, (posts, bytes)) in w.sizes.iter().enumerate() {
        println!(
            "read_inbox page {i}: {posts} posts, {bytes} bytes, {} a post",
            bytes / posts
        );
        assert!(
            *bytes <= 150 * 200,
            "page {i}: {bytes} bytes for a page of 200"
        );
        if *posts == 200 {
            assert!(
                bytes / posts <= 150,
                "page {i}: {} bytes a post",
                bytes / posts
            );
        }
    }
    let per_post = w.bytes / w.given();
    println!(
        "read_inbox at limit 200, the whole walk: {} bytes for {} posts, {per_post} a post, headers, context and overview included",
        w.bytes,
        w.given()
    );
    assert!(per_post <= 150, "{per_post} bytes a post over the walk");
    drop((sim, mcp));

    let (world, ch) = busy_channel();
    let (_sim, mcp) = demo_with(world).await;
    let r = mcp
        .result("read_channel", json!({"channel": ch, "limit": 200}))
        .await;
    let text = text_of(&r);
    let page: Value = serde_json::from_str(&text).unwrap();
    let items = page["items"].as_array().unwrap();
    let replies = items.iter().filter(|p| p.get("root_id").is_some()).count();
    let reacted = items
        .iter()
        .filter(|p| p.get("reactions").is_some())
        .count();
    let chars: usize = items
        .iter()
        .map(|p| p["text"].as_str().unwrap().chars().count())
        .sum();
    println!(
        "read_channel at limit 200: {} posts ({replies} replies, {reacted} with reactions, {} characters a message): {} bytes a post",
        items.len(),
        chars / items.len(),
        text.len() / items.len()
    );
    assert_eq!((items.len(), replies, reacted), (199, 49, 40));
    assert!(
        text.len() / items.len() <= 150,
        "{} bytes a post",
        text.len() / items.len()
    );
    // the same channel's unread posts through read_inbox
    let w = walk(&mcp, json!({"limit": 200})).await;
    let (posts, bytes) = w.sizes[0];
    println!(
        "read_inbox of that channel at limit 200: {posts} posts, {} bytes a post",
        bytes / posts
    );
    assert!(bytes / posts <= 150);
}

/// A post written while the walk runs is shown when its source comes later, and counted as new on the
/// last page when its source was already read; a source the person left meanwhile says why it could
/// not be read, and the walk goes on to its end.
#[tokio::test(flavor = "multi_thread")]
async fn posts_arriving_and_sources_lost_during_a_walk_are_shown_or_said() {
    let (sim, mcp) = demo().await;
    let expected = unread_by_source(&sim, &mcp, true).await;
    let first = mcp.ok("read_inbox", json!({"limit": 1})).await;
    let parts = first["overview"]["parts"].as_array().unwrap().clone();
    let part = |name: &str| {
        parts
            .iter()
            .find(|p| p["part"] == json!(name))
            .map(|p| p["sources"].as_array().unwrap().clone())
            .unwrap_or_default()
    };
    // the last source of all (a muted channel, read at the very end), and a private channel read late
    // (to leave before it is read: a private channel is read only by its members)
    let last = part("muted").last().cloned().expect("a muted channel");
    let left = part("channels")
        .into_iter()
        .find(|e| e[1] == json!("~prototype-ui"))
        .expect("~prototype-ui is unread");
    assert!(
        left[0].as_u64().unwrap() > 40,
        "read after the second page: {left}"
    );
    let name = |e: &Value| e[1].as_str().unwrap().to_string();
    let (last, left) = (name(&last), name(&left));
    let mut written = Vec::new();
    let w = walk_with(&[&mcp], json!({"limit": 30}), |page| {
        if page != 2 {
            return;
        }
        // after the second page: a post in the first source (read already), one in the last source
        // (not yet read), and demo leaves a channel not yet read
        let now = sim.now_ms();
        let ids = sim.with_world(|w| {
            let alice = w.user_id("alice").unwrap();
            let demo = w.user_id("demo").unwrap();
            let dm = w.direct(&demo, &alice);
            let a = w.post(&dm, &alice, now, "one more thing, sorry");
            let last_channel = channel_named(w, &last);
            let b = w.post(&last_channel, &alice, now + 1, "and here too");
            let gone = channel_named(w, &left);
            w.leave(&gone, &demo);
            (a, b, gone)
        });
        written.push(ids);
    })
    .await;
    let (a, b, gone) = written.pop().expect("posts were written");
    let given: BTreeSet<&String> = w.posts.values().flatten().collect();
    assert!(
        given.contains(&b),
        "the post in a source not yet read is shown"
    );
    assert!(
        !given.contains(&a),
        "the post in a source read already is not"
    );
    let end = w.pages.last().unwrap();
    assert_eq!(
        end["new"]["posts"],
        json!(1),
        "and is counted as new: {}",
        end["new"]
    );
    assert!(
        end["new"]["sources"]
            .as_array()
            .unwrap()
            .contains(&json!("@alice")),
        "{}",
        end["new"]
    );
    let h = w
        .headers
        .values()
        .find(|h| h["id"] == json!(gone))
        .expect("its header");
    assert!(
        h["error"].as_str().is_some_and(|e| !e.is_empty()),
        "the source demo left says why: {h}"
    );
    // everything else is what was unread when the walk began
    for (source, ids) in &expected {
        if *source == gone {
            continue;
        }
        let got: BTreeSet<String> = w
            .posts
            .get(source)
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .collect();
        let extra: Vec<&String> = got.difference(ids).filter(|p| **p != b).collect();
        assert!(
            extra.is_empty() && ids.is_subset(&got),
            "{source}: {extra:?}"
        );
    }
}

fn channel_named(w: &mut World, label: &str) -> String {
    let name = label.trim_start_matches('~');
    ["acme", "skunkworks"]
        .iter()
        .find_map(|t| w.channel_id(t, name))
        .unwrap_or_else(|| panic!("no channel {label}"))
}

/// Two server instances with nothing shared, every call on the other one: each page finds no kept plan
/// and reads it again, and the walk still gives every post once; a source active since the walk began
/// that the position passed is named as one this walk may not have shown whole.
#[tokio::test(flavor = "multi_thread")]
async fn a_cursor_that_outlives_its_plan_goes_on_without_skipping_or_repeating() {
    let (sim, one) = demo().await;
    let other = harness::spawn(&sim.url(), &sim.token("demo"), &[], &[]).await;
    let expected = unread_by_source(&sim, &one, true).await;
    let w = walk_with(&[&one, &other], json!({"limit": 200}), |_| {}).await;
    assert_same(&w.sets(), &expected, "across instances");
    assert!(w.pages.iter().all(|p| p.get("note").is_none()));
    // Two new instances (nothing kept from the walk above), and a post in the first source after the
    // first page: the source has moved since the walk began, and the position is past it.
    let (one, other) = (
        harness::spawn(&sim.url(), &sim.token("demo"), &[], &[]).await,
        harness::spawn(&sim.url(), &sim.token("demo"), &[], &[]).await,
    );
    let mut wrote = false;
    let w = walk_with(&[&one, &other], json!({"limit": 100}), |page| {
        if page == 1 && !wrote {
            wrote = true;
            let now = sim.now_ms();
            sim.with_world(|w| {
                let carol = w.user_id("carol").unwrap();
                let demo = w.user_id("demo").unwrap();
                let alice = w.user_id("alice").unwrap();
                let group = w.group(&[demo.as_str(), alice.as_str(), carol.as_str()]);
                w.post(&group, &carol, now, "back from lunch")
            });
        }
    })
    .await;
    let noted = w
        .pages
        .iter()
        .filter_map(|p| p["note"].as_str())
        .collect::<Vec<_>>();
    assert!(
        noted.iter().any(|n| n.contains("alice, carol, demo")),
        "the group that moved is named: {noted:?}"
    );
    assert_same(&w.sets(), &expected, "with a source moved");
}

/// With collapsed reply threads off for the person, a channel counts every unread post, replies
/// included, and there are no thread sources: the walk gives what `read_unread` gives.
#[tokio::test(flavor = "multi_thread")]
async fn with_collapsed_threads_off_a_channel_gives_every_unread_post_and_no_thread_is_a_source() {
    let mut world = World::demo();
    world.set_collapsed_threads("disabled");
    let (sim, mcp) = demo_with(world).await;
    let expected = unread_by_source(&sim, &mcp, false).await;
    let w = walk(&mcp, json!({"limit": 200})).await;
    assert_same(&w.sets(), &expected, "collapsed threads off");
    assert!(w.headers.values().all(|h| h["kind"] != "thread"));
    let replies = w
        .pages
        .iter()
        .flat_map(rows)
        .filter(|r| r[5].get("root_id").is_some())
        .count();
    assert!(replies > 0, "replies are among a channel's posts");
    assert!(
        w.pages[0]["overview"]["note"]
            .as_str()
            .unwrap()
            .contains("off for you")
    );
    // nothing to read is one page that says so
    let w = walk(&mcp, json!({"only": ["threads"]})).await;
    assert_eq!((w.pages.len(), w.given()), (1, 0));
    assert_eq!(w.pages[0]["overview"]["sources"], json!(0));
    assert_eq!(w.pages[0]["new"]["posts"], json!(0));
}

/// A channel never viewed (all of it unread) and one with more unread than a page are read through
/// `paging::since` (with the context before the first unread post), each post once.
#[tokio::test(flavor = "multi_thread")]
async fn large_and_never_viewed_channels_are_read_whole_each_post_once() {
    let mut w = World::new(777);
    let me = w.user("demo");
    let bob = w.user("bob");
    let team = w.team("acme", "Acme", true);
    let big = w.channel(&team, "big", "Big", ChannelKind::Public);
    let fresh = w.channel(&team, "fresh", "Fresh", ChannelKind::Public);
    for c in [&big, &fresh] {
        w.join(c, &me);
        w.join(c, &bob);
    }
    let t0 = 1_765_000_000_000i64;
    for k in 0..260 {
        // pairs of posts share a millisecond
        w.post(&big, &bob, t0 + (k / 2) * 1000, &format!("big {k}"));
        w.post(&fresh, &bob, t0 + k * 1000, &format!("fresh {k}"));
    }
    w.view(&me, &big, t0 + 9_000);
    let (sim, mcp) = demo_with(w).await;
    for limit in [200, 7] {
        sim.clear_log();
        let walk = walk(&mcp, json!({"limit": limit})).await;
        let big_posts = &walk.posts[&big];
        assert_eq!(big_posts.len(), 260 - 20, "big: every post after the view");
        assert_eq!(
            walk.posts[&fresh].len(),
            260,
            "fresh: never viewed, all of it"
        );
        let distinct: BTreeSet<&String> = walk.posts.values().flatten().collect();
        assert_eq!(distinct.len(), walk.given());
        let h = walk
            .headers
            .values()
            .find(|h| h["id"] == json!(big))
            .unwrap();
        assert_eq!(h["context"].as_array().map(Vec::len), Some(1), "{h}");
        let last_read = h["context"][0][4].as_str().unwrap();
        assert!(
            ["big 18", "big 19"].contains(&last_read),
            "the last read post (two share its millisecond): {h}"
        );
    }
}

/// `only` keeps some parts; a string of them works as well as an array; a word it does not know is
/// refused, quoting it and naming the ones it takes.
#[tokio::test(flavor = "multi_thread")]
async fn only_keeps_the_parts_named_and_refuses_others() {
    let (_sim, mcp) = demo().await;
    let w = walk(&mcp, json!({"only": ["threads"], "limit": 200})).await;
    assert!(!w.headers.is_empty() && w.headers.values().all(|h| h["kind"] == "thread"));
    let w = walk(&mcp, json!({"only": "direct, mentions", "limit": 200})).await;
    let parts: Vec<&str> = w.pages[0]["overview"]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["part"].as_str().unwrap())
        .collect();
    assert_eq!(parts, ["direct", "mentions"]);
    let w = walk(&mcp, json!({"only": ["channels"], "limit": 200})).await;
    let muted: Vec<&Value> = w.headers.values().filter(|h| h["muted"] == true).collect();
    assert!(
        muted.len() >= 3,
        "muted channels come with channels, marked"
    );
    let e = mcp
        .refused("read_inbox", json!({"only": ["direct", "everything"]}))
        .await;
    let m = e["message"].as_str().unwrap();
    assert!(
        m.contains("`everything`") && m.contains("direct, mentions, channels, threads"),
        "{m}"
    );
}

/// `list_channels` and `get_channel` give each channel's post count (replies included) and the time of
/// its last post, which Mattermost keeps on the channel: no request reads a channel's posts for them.
#[tokio::test(flavor = "multi_thread")]
async fn list_channels_and_get_channel_give_post_counts_and_last_post_times() {
    let mut w = World::new(31);
    let demo = w.user("demo");
    let bob = w.user("bob");
    let team = w.team("acme", "Acme", true);
    let busy = w.channel(&team, "busy", "Busy", ChannelKind::Public);
    let quiet = w.channel(&team, "quiet", "Quiet", ChannelKind::Public);
    for c in [&busy, &quiet] {
        w.join(c, &demo);
        w.join(c, &bob);
    }
    let t0 = 1_765_000_000_000i64;
    for k in 0..7 {
        w.post(&busy, &bob, t0 + k * 1000, "hello");
    }
    let root = w.post(&busy, &bob, t0 + 8000, "a root");
    w.reply(&root, &bob, t0 + 9000, "a reply");
    w.post(&quiet, &bob, t0 + 500, "once");
    let (sim, mcp) = harness::start(w, "demo").await;
    let list = mcp.read_all("list_channels", json!({})).await;
    let get = |id: &str| list.iter().find(|c| c["id"] == json!(id)).unwrap().clone();
    let (b, q) = (get(&busy), get(&quiet));
    assert_eq!(
        (b["posts"].clone(), ms(b["last_post"].as_str().unwrap())),
        (json!(9), t0 + 9000)
    );
    assert_eq!(
        (q["posts"].clone(), ms(q["last_post"].as_str().unwrap())),
        (json!(1), t0 + 500)
    );
    assert!(
        sim.log()
            .iter()
            .all(|r| !r.path.ends_with("/posts") && !r.path.ends_with("/stats")),
        "no channel's posts or stats were read"
    );
    let one = mcp.ok("get_channel", json!({"channel": busy})).await;
    assert_eq!(
        (one["posts"].clone(), one["last_post"].clone()),
        (json!(9), b["last_post"].clone())
    );
}
