//! Search that reaches its end: `search_posts`, `search_files` and `list_mentions` walked past
//! Mattermost's cap of 100 by date windows (in the person's time zone), every match once, newest first,
//! `capped` only where one day alone holds more than the cap, and the requests it costs; and search
//! modifiers (`from:`, `in:`, their exclusions) resolved as every name is, the unknown ones refused with
//! the closest names before any search is sent.

use crate::harness::{self, Mcp, ids};
use crate::reading::{T0, base, every_item_once, set};
use mattermost_sim::{ChannelKind, Sim, World};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

const DAY: i64 = 86_400_000;

fn items(page: &Value) -> Vec<Value> {
    page["items"].as_array().cloned().unwrap_or_default()
}

fn day_of(ms: i64, zone_secs: i64) -> i64 {
    (ms + zone_secs * 1000).div_euclid(DAY)
}

fn day_text(day: i64) -> String {
    mattermost_mcp::time::rfc3339(day * DAY)[..10].to_string()
}

/// A zone's offset from UTC now, in seconds.
fn zone_now(zone: &str) -> i64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    mattermost_mcp::tools::shared::time_zone::offset_at(zone, now).unwrap_or(0)
}

fn searches(sim: &Sim) -> usize {
    sim.log()
        .iter()
        .filter(|r| {
            r.method == "POST"
                && (r.path.ends_with("/posts/search") || r.path.ends_with("/files/search"))
        })
        .count()
}

/// What a walk must give for matches `(id, ms)` in a zone: every match newest first (ties by id), but
/// on a day holding more than 100 only that day's newest 100; the overfull days; and how many windows
/// (search requests) the walk takes, counted as the module's description says they go.
struct Expected {
    order: Vec<String>,
    overfull: BTreeSet<i64>,
    windows: usize,
    day_of_id: BTreeMap<String, i64>,
}

fn expected(matches: &[(String, i64)], zone: i64) -> Expected {
    let mut all: Vec<(i64, String)> = matches.iter().map(|(id, t)| (*t, id.clone())).collect();
    all.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut per_day: BTreeMap<i64, usize> = BTreeMap::new();
    let mut order = Vec::new();
    let mut overfull = BTreeSet::new();
    for (t, id) in &all {
        let d = day_of(*t, zone);
        let n = per_day.entry(d).or_default();
        *n += 1;
        if *n <= 100 {
            order.push(id.clone());
        } else {
            overfull.insert(d);
        }
    }
    let mut windows = 0;
    let mut last: Option<i64> = None;
    loop {
        windows += 1;
        let left: Vec<i64> = all
            .iter()
            .map(|(t, _)| *t)
            .filter(|t| last.is_none_or(|l| day_of(*t, zone) <= l))
            .collect();
        if left.len() < 100 {
            break;
        }
        let k = day_of(left[99], zone);
        last = Some(if day_of(left[0], zone) > k { k } else { k - 1 });
    }
    let day_of_id = all
        .iter()
        .map(|(t, id)| (id.clone(), day_of(*t, zone)))
        .collect();
    Expected {
        order,
        overfull,
        windows,
        day_of_id,
    }
}

/// Walks `tool` at `limit` to its end and checks it against `want`: every match once, in order,
/// `capped` exactly on the pages showing an overfull day (naming it), cursors short, and `requests`
/// honest (the pages' requests add up to what the simulator saw). Returns (pages, requests, searches).
async fn walk(
    sim: &Sim,
    mcp: &Mcp,
    tool: &str,
    args: Value,
    limit: u32,
    want: &Expected,
) -> (usize, u64, usize) {
    let mut a = args;
    a["limit"] = json!(limit);
    sim.clear_log();
    let pages = mcp.pages(tool, a).await;
    let seen = sim.log().len() as u64;
    let got: Vec<String> = pages.iter().flat_map(|p| ids(&items(p))).collect();
    assert_eq!(
        got.len(),
        want.order.len(),
        "{tool} at limit {limit}: every match once"
    );
    assert_eq!(
        got, want.order,
        "{tool} at limit {limit}: newest first, ties by id"
    );
    for p in &pages {
        assert!(p["returned"].as_u64().unwrap_or(0) <= u64::from(limit));
        let days: BTreeSet<i64> = ids(&items(p))
            .iter()
            .filter_map(|id| want.day_of_id.get(id).copied())
            .filter(|d| want.overfull.contains(d))
            .collect();
        let capped = p.get("capped") == Some(&json!(true));
        assert_eq!(
            capped,
            !days.is_empty(),
            "{tool} at limit {limit}: capped only on a page of an overfull day: {p}"
        );
        if capped {
            let named: Vec<String> = days.iter().map(|d| day_text(*d)).collect();
            assert_eq!(p["capped_on"]["days"], json!(named));
        }
        if let Some(c) = p.get("next_cursor").and_then(Value::as_str) {
            assert!(c.len() <= 80, "{tool}: cursor {c} is {} long", c.len());
        }
    }
    let requests: u64 = pages
        .iter()
        .map(|p| p["requests"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(
        requests, seen,
        "{tool} at limit {limit}: requests are honest"
    );
    (pages.len(), requests, searches(sim))
}

#[tokio::test(flavor = "multi_thread")]
async fn search_posts_walks_the_demos_1000_nightly_matches_to_the_end_at_limits_1_20_200() {
    let world = World::demo();
    let matches = world.demo_search_history_posts();
    assert_eq!(
        matches.len(),
        1000,
        "the demo holds 1,000 matches of `nightly`"
    );
    let span = matches.iter().map(|m| m.1).max().unwrap_or(0)
        - matches.iter().map(|m| m.1).min().unwrap_or(0);
    assert!(span > 700 * DAY, "spread over two years");
    let zone = zone_now("Europe/Berlin");
    let want = expected(&matches, zone);
    assert_eq!(want.overfull.len(), 1, "one day holds more than 100");
    assert_eq!(want.order.len(), 980, "that day's newest 100 are reachable");
    let (sim, mcp) = harness::start(world, "demo").await;
    for limit in [1, 20, 200] {
        let (pages, requests, searched) = walk(
            &sim,
            &mcp,
            "search_posts",
            json!({"terms": "nightly"}),
            limit,
            &want,
        )
        .await;
        eprintln!(
            "search_posts nightly at limit {limit}: {pages} pages, {requests} requests, {searched} searches ({} windows)",
            want.windows
        );
        assert_eq!(
            searched, want.windows,
            "at most one request per window, each window once"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn search_files_walks_the_demos_nightly_reports_past_100() {
    let world = World::demo();
    let files = world.demo_search_history_files();
    assert!(files.len() > 150, "{} reports", files.len());
    let want = expected(&files, zone_now("Europe/Berlin"));
    assert!(want.overfull.is_empty());
    let (sim, mcp) = harness::start(world, "demo").await;
    for limit in [1, 20, 200] {
        let (pages, requests, searched) = walk(
            &sim,
            &mcp,
            "search_files",
            json!({"terms": "nightly"}),
            limit,
            &want,
        )
        .await;
        eprintln!("search_files nightly at limit {limit}: {pages} pages, {requests} requests");
        assert_eq!(searched, want.windows);
    }
    // in: alone lists a channel's files, without `team`.
    let listed = mcp
        .read_all("search_files", json!({"terms": "in:builds", "limit": 200}))
        .await;
    assert_eq!(set(ids(&listed)), set(files.iter().map(|f| f.0.clone())));
}

/// alice in zone `zone`; bob mentions her `n` times from `start`, `every` ms apart.
fn mention_world(zone: &str, n: usize, start: i64, every: i64) -> (World, Vec<(String, i64)>) {
    let mut b = base(211);
    b.w.set_timezone(&b.alice, zone);
    let posts = (0..n)
        .map(|i| {
            let t = start + i as i64 * every;
            (
                b.w.post(
                    &b.channel,
                    &b.bob,
                    t,
                    &format!("@alice have a look at item {i}"),
                ),
                t,
            )
        })
        .collect();
    (b.w, posts)
}

#[tokio::test(flavor = "multi_thread")]
async fn list_mentions_walks_past_100_and_cuts_days_in_the_persons_time_zone() {
    // 340 mentions three hours apart over six weeks, then 130 in one Tokyo day (2023-11-20 JST) that
    // spans two UTC days: from 15:30Z on the 19th to 15:19Z on the 20th, 11 minutes apart.
    let tokyo_day_start = mattermost_mcp::time::parse("2023-11-19T15:00:00Z").unwrap_or(0);
    let (mut w, mut posts) = mention_world("Asia/Tokyo", 340, T0, 3 * 3_600_000);
    let channel = w.channel_id("eng", "town-square").unwrap_or_default();
    let bob = w.user_id("bob").unwrap_or_default();
    for i in 0..130 {
        let t = tokyo_day_start + 1_800_000 + i * 660_000;
        posts.push((
            w.post(&channel, &bob, t, &format!("@alice flaky run {i}")),
            t,
        ));
    }
    let want = expected(&posts, 9 * 3600);
    assert_eq!(
        want.overfull
            .iter()
            .map(|d| day_text(*d))
            .collect::<Vec<_>>(),
        ["2023-11-20"],
        "in Tokyo one day holds 130; in UTC neither of its two days holds 100"
    );
    assert!(expected(&posts, 0).overfull.is_empty());
    let (sim, mcp) = harness::start(w, "alice").await;
    for limit in [1, 30, 200] {
        let (pages, requests, searched) =
            walk(&sim, &mcp, "list_mentions", json!({}), limit, &want).await;
        eprintln!(
            "list_mentions at limit {limit}: {pages} pages, {requests} requests, {searched} searches"
        );
        assert_eq!(searched, want.windows);
    }
    let first = mcp.ok("list_mentions", json!({"limit": 200})).await;
    let capped: Vec<Value> = mcp
        .pages("list_mentions", json!({"limit": 200}))
        .await
        .into_iter()
        .filter(|p| p.get("capped").is_some())
        .collect();
    assert_eq!(capped.len(), 1);
    let note = capped[0]["capped_on"]["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("UTC+09:00") && note.contains("on:DAY"),
        "{note}"
    );
    assert!(
        first.get("older").is_none(),
        "no way around to tell of: the walk goes on"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_persons_date_terms_are_their_days_and_bound_the_walk() {
    // 250 matches, one every 3 hours from T0 (2023-11-14T22:13:20Z); alice is in Tokyo (UTC+9).
    let (w, posts) = mention_world("Asia/Tokyo", 250, T0, 3 * 3_600_000);
    let (_sim, mcp) = harness::start(w, "alice").await;
    let zone = 9 * 3600;
    let days: BTreeMap<i64, Vec<String>> = posts.iter().fold(BTreeMap::new(), |mut m, (id, t)| {
        m.entry(day_of(*t, zone))
            .or_insert_with(Vec::new)
            .push(id.clone());
        m
    });
    let first = *days.keys().next().unwrap_or(&0);
    let found = |terms: String| {
        let mcp = &mcp;
        async move {
            set(ids(&mcp
                .read_all("search_posts", json!({"terms": terms, "limit": 200}))
                .await))
        }
    };
    // on: a Tokyo day.
    let d = first + 3;
    assert_eq!(
        found(format!("look on:{}", day_text(d))).await,
        set(days[&d].clone())
    );
    // after: and before: bound the walk, which goes past 100 inside them.
    let (from, to) = (first + 2, first + 25);
    let inside: Vec<String> = days
        .range(from + 1..to)
        .flat_map(|(_, ids)| ids.clone())
        .collect();
    assert!(inside.len() > 100);
    assert_eq!(
        found(format!(
            "look after:{} before:{}",
            day_text(from),
            day_text(to)
        ))
        .await,
        set(inside)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_date_mattermost_would_misread_is_refused_before_any_search() {
    let b = base(223);
    let (sim, mcp) = harness::start(b.w, "alice").await;
    for bad in ["before:2026-02-30", "on:yesterday", "after:26-01-01"] {
        let e = mcp
            .refused("search_posts", json!({"terms": format!("release {bad}")}))
            .await;
        let msg = e["message"].as_str().unwrap_or_default().to_string();
        assert!(msg.contains(bad) && msg.contains("YYYY-MM-DD"), "{msg}");
    }
    assert_eq!(searches(&sim), 0, "nothing was searched");
}

/// alice (Alice Lovelace-like, nickname "Ally") and bob in eng and ops; eng has town-square and
/// release-notes ("Release Notes"); ops has its own town-square and a channel `random` displayed
/// "Random" as eng's `random` is; alice has a direct channel with bob. bob posts "status" in each.
struct Modifiers {
    w: World,
    in_eng: String,
    in_notes: String,
    in_ops: String,
    in_dm: String,
    by_alice: String,
}

fn modifiers_world() -> Modifiers {
    let mut b = base(227);
    let ops = b.w.team("ops", "Operations", true);
    for u in [&b.alice, &b.bob] {
        b.w.add_to_team(&ops, u);
    }
    let notes = b.w.channel(
        &b.team,
        "release-notes",
        "Release Notes",
        ChannelKind::Public,
    );
    let ops_town =
        b.w.channel(&ops, "town-square", "Town Square", ChannelKind::Public);
    let eng_random =
        b.w.channel(&b.team, "random", "Random", ChannelKind::Public);
    let ops_random = b.w.channel(&ops, "random", "Random", ChannelKind::Public);
    for c in [&notes, &ops_town, &eng_random, &ops_random] {
        b.w.join(c, &b.alice);
        b.w.join(c, &b.bob);
    }
    let dm = b.w.direct(&b.alice, &b.bob);
    let in_eng = b.w.post(&b.channel, &b.bob, T0, "status green");
    let in_notes = b.w.post(&notes, &b.bob, T0 + 1, "status of the notes");
    let in_ops = b.w.post(&ops_town, &b.bob, T0 + 2, "status in ops");
    let in_dm = b.w.post(&dm, &b.bob, T0 + 3, "status for you");
    let by_alice = b.w.post(&b.channel, &b.alice, T0 + 4, "status from alice");
    Modifiers {
        w: b.w,
        in_eng,
        in_notes,
        in_ops,
        in_dm,
        by_alice,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn search_modifiers_find_people_and_channels_as_every_argument_does() {
    let m = modifiers_world();
    let (sim, mcp) = harness::start(m.w, "alice").await;
    let me = mcp.ok("get_users", json!({"users": ["alice"]})).await;
    let full = me["items"][0]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(full.starts_with("Alice "), "{me}");
    let found = |terms: String, team: Option<&str>| {
        let mut args = json!({"terms": terms, "limit": 200});
        if let Some(t) = team {
            args["team"] = json!(t);
        }
        let mcp = &mcp;
        async move { set(ids(&mcp.read_all("search_posts", args).await)) }
    };
    let alices = set([m.by_alice.clone()]);
    for form in ["alice", "@alice", "Alice", "ALICE", &format!("\"{full}\"")] {
        assert_eq!(
            found(format!("status from:{form}"), None).await,
            alices,
            "from:{form}"
        );
    }
    let not_alice = set([
        m.in_eng.clone(),
        m.in_notes.clone(),
        m.in_ops.clone(),
        m.in_dm.clone(),
    ]);
    assert_eq!(found("status -from:Alice".into(), None).await, not_alice);
    // in: without team searches the channel's team; with the team, the same.
    let eng_town = set([m.in_eng.clone(), m.by_alice.clone()]);
    for form in [
        "town-square",
        "~town-square",
        "#town-square",
        "\"Town Square\"",
    ] {
        assert_eq!(
            found(format!("status in:{form}"), Some("eng")).await,
            eng_town,
            "in:{form} with team"
        );
    }
    for form in [
        "release-notes",
        "~release-notes",
        "#release-notes",
        "\"Release Notes\"",
        "\"release notes\"",
    ] {
        assert_eq!(
            found(format!("status in:{form}"), None).await,
            set([m.in_notes.clone()]),
            "in:{form}"
        );
    }
    assert_eq!(
        found("status in:town-square".into(), Some("ops")).await,
        set([m.in_ops.clone()]),
        "a channel of another team, with `team`"
    );
    assert_eq!(
        found("status in:@bob".into(), None).await,
        set([m.in_dm.clone()]),
        "a direct message"
    );
    assert_eq!(
        found("status -in:release-notes -in:@bob".into(), None).await,
        set([m.in_eng.clone(), m.in_ops.clone(), m.by_alice.clone()]),
        "exclusions across teams"
    );
    // Unknown and ambiguous names are refused with the closest, before anything is searched.
    sim.clear_log();
    let refused = |terms: &str, team: Option<&str>| {
        let mut args = json!({"terms": terms});
        if let Some(t) = team {
            args["team"] = json!(t);
        }
        let mcp = &mcp;
        async move { mcp.refused("search_posts", args).await }
    };
    let e = refused("status from:alcie", None).await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("from:alcie"),
        "{e}"
    );
    assert_eq!(e["closest"][0], json!("alice"), "{e}");
    let e = refused("status in:relase-notes", None).await;
    assert_eq!(e["kind"], json!("not_found"));
    assert!(
        e["closest"]
            .as_array()
            .is_some_and(|c| c.contains(&json!("release-notes"))),
        "{e}"
    );
    let e = refused("status in:town-square", None).await;
    assert_eq!(
        e["kind"],
        json!("ambiguous"),
        "town-square is in eng and ops: {e}"
    );
    let e = refused("status in:Random", None).await;
    assert_eq!(e["kind"], json!("ambiguous"), "{e}");
    assert_eq!(e["candidates"].as_array().map(Vec::len), Some(2));
    let e = refused("status in:release-notes", Some("ops")).await;
    assert_eq!(
        e["kind"],
        json!("not_found"),
        "release-notes is not in ops: {e}"
    );
    assert_eq!(
        searches(&sim),
        0,
        "no search was sent for a name that names nobody"
    );
    // What Mattermost is sent: usernames and channel names, the team of the channel.
    sim.clear_log();
    found("status from:Alice in:\"Release Notes\"".into(), None).await;
    let sent: Vec<String> = sim
        .log()
        .iter()
        .filter(|r| r.path.ends_with("/posts/search"))
        .map(|r| format!("{} {}", r.path, r.body.clone().unwrap_or_default()))
        .collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(
        sent[0].contains("/teams/") && sent[0].contains("from:alice in:release-notes"),
        "{sent:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn search_files_in_a_channel_without_team_finds_its_files() {
    let mut m = modifiers_world();
    let notes = m.w.channel_id("eng", "release-notes").unwrap_or_default();
    let bob = m.w.user_id("bob").unwrap_or_default();
    let post = m.w.post(&notes, &bob, T0 + 10, "the notes");
    let file = m.w.attach(&post, "notes-4.2.txt", b"release notes\n");
    let (_sim, mcp) = harness::start(m.w, "alice").await;
    for terms in [
        "in:release-notes",
        "in:#release-notes",
        "notes in:\"Release Notes\"",
    ] {
        let got = mcp
            .read_all("search_files", json!({"terms": terms, "limit": 50}))
            .await;
        assert_eq!(set(ids(&got)), set([file.clone()]), "{terms}");
    }
    let e = mcp
        .refused("search_files", json!({"terms": "in:relase-notes"}))
        .await;
    assert!(
        e["closest"]
            .as_array()
            .is_some_and(|c| c.contains(&json!("release-notes"))),
        "{e}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_search_below_the_cap_costs_one_search_whatever_the_limit() {
    let mut b = base(229);
    let posts: Vec<String> = (0..80)
        .map(|i| {
            b.w.post(&b.channel, &b.bob, T0 + i * 1000, &format!("rollout {i}"))
        })
        .collect();
    let (sim, mcp) = harness::start(b.w, "alice").await;
    every_item_once(
        &mcp,
        "search_posts",
        json!({"terms": "rollout"}),
        [1, 7, 200],
        &set(posts),
    )
    .await;
    sim.clear_log();
    let pages = mcp
        .pages("search_posts", json!({"terms": "rollout", "limit": 7}))
        .await;
    assert_eq!(pages.len(), 12);
    assert!(pages.iter().all(|p| p["total"] == json!(80)));
    assert_eq!(searches(&sim), 1, "one window, kept for the cursor chain");
}
