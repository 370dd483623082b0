//! Teams and channels: the user's teams and channels (unread counts, names), a team's public and
//! archived channels (ties in display names, the kept list and a cursor that outlives it), channel
//! search (Mattermost's cap), members, counts, and every way of naming a channel or team.

use crate::harness::{self, Mcp, ids};
use mattermost_sim::{ChannelKind, Sim, World};
use serde_json::{Value, json};
use std::collections::BTreeSet;

const T0: i64 = 1_700_000_000_000;

/// Every item of these pages.
pub fn items(pages: &[Value]) -> Vec<Value> {
    pages
        .iter()
        .flat_map(|p| p["items"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// How many requests the simulator logged for `method` on a path ending in `suffix`.
pub fn requests(sim: &Sim, method: &str, suffix: &str) -> usize {
    sim.log()
        .iter()
        .filter(|r| r.method == method && r.path.ends_with(suffix))
        .count()
}

/// Asserts that `got` holds each of `expected` exactly once and nothing else.
pub fn exactly_once(got: &[String], expected: &BTreeSet<String>, what: &str) {
    let unique: BTreeSet<String> = got.iter().cloned().collect();
    assert_eq!(unique.len(), got.len(), "{what}: an item came twice");
    assert_eq!(&unique, expected, "{what}: items missing or foreign");
}

/// Asserts that the items are ordered by `key` (ascending), ties by id.
pub fn ordered_by(items: &[Value], key: impl Fn(&Value) -> String, what: &str) {
    let keys: Vec<(String, String)> = items
        .iter()
        .map(|i| (key(i), i["id"].as_str().unwrap_or_default().to_string()))
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] < w[1]),
        "{what}: not in order of its key, then id"
    );
}

/// The ids on each page, to compare two reads of the same list.
pub fn page_ids(pages: &[Value]) -> Vec<Vec<String>> {
    pages
        .iter()
        .map(|p| ids(p["items"].as_array().map(Vec::as_slice).unwrap_or(&[])))
        .collect()
}

fn lower(field: &'static str) -> impl Fn(&Value) -> String + Copy {
    move |i: &Value| i[field].as_str().unwrap_or_default().to_lowercase()
}

/// Reads every page of `tool` at each limit: each expected item exactly once, in the order `key` and
/// id; and the same pages twice at the middle limit.
async fn reads_whole_at_every_limit(
    mcp: &Mcp,
    tool: &str,
    args: Value,
    limits: [u32; 3],
    expected: &BTreeSet<String>,
    key: impl Fn(&Value) -> String + Copy,
) {
    for limit in limits {
        let mut a = args.clone();
        a["limit"] = json!(limit);
        let pages = mcp.pages(tool, a.clone()).await;
        let got = items(&pages);
        exactly_once(&ids(&got), expected, &format!("{tool} at limit {limit}"));
        ordered_by(&got, key, &format!("{tool} at limit {limit}"));
        assert!(
            pages
                .iter()
                .all(|p| p["returned"].as_u64().unwrap_or(0) <= u64::from(limit)),
            "{tool}: a page within its limit"
        );
        if limit == limits[1] {
            let again = mcp.pages(tool, a).await;
            assert_eq!(
                page_ids(&pages),
                page_ids(&again),
                "{tool}: the same arguments give the same pages"
            );
        }
    }
}

/// Pages through `tool` to its end while `change(round)` changes the world after each page and names
/// what it removed, if anything. Asserts that nothing came twice and that every one of `lasting` not
/// removed was shown; returns what was shown.
pub async fn read_while_changing(
    mcp: &Mcp,
    tool: &str,
    mut args: Value,
    lasting: &BTreeSet<String>,
    mut change: impl FnMut(usize) -> Option<String>,
) -> BTreeSet<String> {
    let mut got = Vec::new();
    let mut removed = BTreeSet::new();
    for round in 0.. {
        let page = mcp.ok(tool, args.clone()).await;
        harness::check_envelope(&page);
        got.extend(ids(page["items"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[])));
        let Some(c) = page["next_cursor"].as_str() else {
            break;
        };
        args["cursor"] = json!(c);
        removed.extend(change(round));
    }
    let shown: BTreeSet<String> = got.iter().cloned().collect();
    assert_eq!(
        shown.len(),
        got.len(),
        "{tool}: an item came twice while the list changed"
    );
    for id in lasting.difference(&removed) {
        assert!(
            shown.contains(id),
            "{tool}: {id}, there from start to end, was not shown"
        );
    }
    shown
}

// ---- a team's public and archived channels ----

/// A team of `n` public channels named `room-0000`..., whose display names `display(i)` gives.
fn team_of_rooms(
    n: usize,
    seed: u64,
    display: impl Fn(usize) -> String,
) -> (World, String, BTreeSet<String>) {
    let mut w = World::new(seed);
    let alice = w.user("alice");
    let team = w.team("eng", "Engineering", true);
    w.add_to_team(&team, &alice);
    let mut rooms = BTreeSet::new();
    for i in 0..n {
        let name = format!("room-{i:04}");
        rooms.insert(w.channel(&team, &name, &display(i), ChannelKind::Public));
    }
    // Neither a private channel nor an archived one is a public channel of the team.
    let private = w.channel(&team, "hidden", "Room 1", ChannelKind::Private);
    w.join(&private, &alice);
    let old = w.channel(&team, "old", "Room 2", ChannelKind::Public);
    w.archive(&old);
    (w, team, rooms)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_team_of_1000_public_channels_with_tied_names_reads_each_once_in_at_most_6_requests_at_limit_50()
 {
    // Runs of 25 equal display names: ties, none of them cut by a page of 200.
    let (world, _, rooms) = team_of_rooms(1000, 21, |i| format!("Room {}", i / 25));
    let (sim, mcp) = harness::start(world, "alice").await;
    for limit in [50u32, 1, 200] {
        sim.clear_log();
        let pages = mcp
            .pages("list_team_channels", json!({"team": "eng", "limit": limit}))
            .await;
        let got = items(&pages);
        exactly_once(&ids(&got), &rooms, &format!("limit {limit}"));
        ordered_by(&got, lower("display_name"), "list_team_channels");
        let reads = requests(&sim, "GET", "/channels");
        eprintln!(
            "list_team_channels 1000 channels at limit {limit}: {} pages, {reads} GetPublicChannelsForTeam requests",
            pages.len()
        );
        assert!(
            reads <= 6,
            "limit {limit}: {reads} requests; the list is read once (5 pages of 200 and the end)"
        );
        if limit == 50 {
            assert_eq!(pages.len(), 20, "1000 channels at limit 50 are 20 pages");
            let later: u64 = pages[1..]
                .iter()
                .map(|p| p["requests"].as_u64().unwrap_or(99))
                .sum();
            assert_eq!(later, 0, "pages after the first cost no request");
            assert_eq!(pages[0]["total"], json!(1000));
        }
    }
    let a = mcp
        .pages("list_team_channels", json!({"team": "eng", "limit": 50}))
        .await;
    let b = mcp
        .pages(
            "list_team_channels",
            json!({"team": "Engineering", "limit": 50}),
        )
        .await;
    assert_eq!(page_ids(&a), page_ids(&b), "the same pages, however named");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cursor_that_outlives_its_kept_list_reads_again_and_continues_after_its_key() {
    let (mut world, main, rooms) = team_of_rooms(12, 5, |i| format!("Room {i}"));
    let alice = world.user_id("alice").unwrap_or_default();
    let kept = mattermost_mcp::context::LISTS_KEPT;
    for i in 0..kept {
        let t = world.team(&format!("other-{i:02}"), &format!("Other {i}"), true);
        world.add_to_team(&t, &alice);
        world.channel(&t, "lobby", "Lobby", ChannelKind::Public);
    }
    let (sim, mcp) = harness::start(world, "alice").await;
    let first = mcp
        .ok("list_team_channels", json!({"team": main, "limit": 5}))
        .await;
    let cursor = first["next_cursor"].as_str().expect("more").to_string();
    // Other lists fill the cache, so the first one's kept list is dropped.
    for i in 0..kept {
        mcp.ok(
            "list_team_channels",
            json!({"team": format!("other-{i:02}")}),
        )
        .await;
    }
    // Meanwhile a channel is added before the position and one after it.
    let (before, after) = sim.with_world(|w| {
        (
            w.channel(&main, "aardvark", "Aardvark", ChannelKind::Public),
            w.channel(&main, "zebra", "Zebra", ChannelKind::Public),
        )
    });
    sim.clear_log();
    let second = mcp
        .ok(
            "list_team_channels",
            json!({"team": main, "limit": 5, "cursor": cursor}),
        )
        .await;
    assert!(
        requests(&sim, "GET", "/channels") >= 1,
        "the dropped list is read again"
    );
    let mut got = ids(first["items"].as_array().map(Vec::as_slice).unwrap_or(&[]));
    got.extend(ids(second["items"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])));
    if let Some(c) = second["next_cursor"].as_str() {
        got.extend(ids(&mcp
            .read_all(
                "list_team_channels",
                json!({"team": main, "limit": 5, "cursor": c}),
            )
            .await));
    }
    let mut expected = rooms.clone();
    expected.insert(after.clone());
    exactly_once(&got, &expected, "continued after its key");
    assert!(
        !got.contains(&before),
        "a channel added before the position is not shown"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn team_channels_paged_while_channels_come_and_go_show_every_lasting_channel_once() {
    let (world, team, rooms) = team_of_rooms(300, 9, |i| format!("Room {}", i % 37));
    let (sim, mcp) = harness::start(world, "alice").await;
    let lasting: Vec<String> = rooms.iter().cloned().collect();
    let mut added = BTreeSet::new();
    let shown = read_while_changing(
        &mcp,
        "list_team_channels",
        json!({"team": "eng", "limit": 40}),
        &rooms,
        |round| {
            let victim = lasting[(round * 37) % lasting.len()].clone();
            added.insert(sim.with_world(|w| {
                w.archive(&victim);
                w.channel(
                    &team,
                    &format!("new-{round}"),
                    &format!("Room {round}"),
                    ChannelKind::Public,
                )
            }));
            Some(victim)
        },
    )
    .await;
    assert!(
        shown
            .iter()
            .all(|id| rooms.contains(id) || added.contains(id)),
        "nothing foreign"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn archived_channels_with_tied_names_read_each_once_at_limits_1_9_200() {
    let mut w = World::new(33);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let team = w.team("eng", "Engineering", true);
    w.add_to_team(&team, &alice);
    w.add_to_team(&team, &bob);
    let mut archived = BTreeSet::new();
    for i in 0..240 {
        let c = w.channel(
            &team,
            &format!("old-{i}"),
            &format!("Old {}", i % 11),
            ChannelKind::Public,
        );
        w.archive(&c);
        archived.insert(c);
    }
    let mine = w.channel(&team, "old-mine", "Old 3", ChannelKind::Private);
    w.join(&mine, &alice);
    w.archive(&mine);
    archived.insert(mine);
    let theirs = w.channel(&team, "old-theirs", "Old 3", ChannelKind::Private);
    w.join(&theirs, &bob);
    w.archive(&theirs);
    w.channel(&team, "live", "Old 1", ChannelKind::Public);
    let (sim, mcp) = harness::start(w, "alice").await;
    reads_whole_at_every_limit(
        &mcp,
        "list_archived_channels",
        json!({"team": team}),
        [1, 9, 200],
        &archived,
        lower("display_name"),
    )
    .await;
    sim.clear_log();
    let pages = mcp
        .pages("list_archived_channels", json!({"team": team, "limit": 9}))
        .await;
    let reads = requests(&sim, "GET", "/channels/deleted");
    eprintln!("list_archived_channels 241 channels: {reads} requests");
    assert!(
        (2..=3).contains(&reads),
        "241 channels: a page of 200, a short one, and the run of ties the first cuts read again: {reads}"
    );
    assert!(items(&pages).iter().all(|i| i["archived"] == json!(true)));
    // Paged while more channels are archived: every channel archived from the start, once.
    let args = json!({"team": team, "limit": 30});
    read_while_changing(&mcp, "list_archived_channels", args, &archived, |round| {
        sim.with_world(|w| {
            let c = w.channel(
                &team,
                &format!("late-{round}"),
                "Old 5",
                ChannelKind::Public,
            );
            w.archive(&c);
        });
        None
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn tied_names_cut_by_mattermosts_page_boundaries_are_read_again_whole_and_shown_once() {
    // Runs of about 27 equal display names: Mattermost's pages of 200 cut through four of them, and
    // the simulator settles ties afresh on every request, as Postgres may.
    let (world, _, rooms) = team_of_rooms(1000, 23, |i| format!("Room {}", i % 37));
    let (sim, mcp) = harness::start(world, "alice").await;
    for limit in [1u32, 50, 200] {
        sim.clear_log();
        let pages = mcp
            .pages("list_team_channels", json!({"team": "eng", "limit": limit}))
            .await;
        let got = items(&pages);
        exactly_once(&ids(&got), &rooms, &format!("limit {limit}"));
        ordered_by(&got, lower("display_name"), "list_team_channels");
        let reads = requests(&sim, "GET", "/channels");
        eprintln!(
            "list_team_channels 1000 channels, ties cut by pages, at limit {limit}: {} pages, {reads} requests",
            pages.len()
        );
        assert!(
            reads <= 6 + 4 * 4,
            "limit {limit}: {reads} requests; at most a few per run cut by a page"
        );
    }
}

// ---- the user's teams ----

#[tokio::test(flavor = "multi_thread")]
async fn the_users_teams_read_each_once_by_display_name_while_teams_come_and_go() {
    let mut w = World::new(41);
    let alice = w.user("alice");
    let mut teams = BTreeSet::new();
    for i in 0..230 {
        let t = w.team(
            &format!("team-{i:03}"),
            &format!("Team {}", i % 23),
            i % 2 == 0,
        );
        w.add_to_team(&t, &alice);
        teams.insert(t);
    }
    let other = w.team("not-mine", "Team 1", true);
    let gone = w.team("gone", "Team 2", true);
    w.add_to_team(&gone, &alice);
    w.archive_team(&gone);
    let (sim, mcp) = harness::start(w, "alice").await;
    reads_whole_at_every_limit(
        &mcp,
        "list_teams",
        json!({}),
        [1, 50, 200],
        &teams,
        lower("display_name"),
    )
    .await;
    assert!(!teams.contains(&other));
    sim.clear_log();
    let pages = mcp.pages("list_teams", json!({"limit": 100})).await;
    assert_eq!(
        requests(&sim, "GET", "/teams"),
        pages.len(),
        "a whole list is read again for each page"
    );
    for t in items(&pages) {
        let n: usize = t["name"].as_str().unwrap_or("")[5..].parse().unwrap_or(999);
        assert_eq!(t["display_name"], json!(format!("Team {}", n % 23)), "{t}");
        let kind = if n.is_multiple_of(2) {
            "open"
        } else {
            "invite_only"
        };
        assert_eq!(t["type"], json!(kind), "{t}");
    }
    // Paged while teams are joined and left: every team kept throughout appears exactly once.
    let lasting: Vec<String> = teams.iter().cloned().collect();
    read_while_changing(&mcp, "list_teams", json!({"limit": 30}), &teams, |round| {
        let victim = lasting[(round * 41 + 7) % lasting.len()].clone();
        sim.with_world(|w| {
            let uid = w.user_id("alice").unwrap_or_default();
            w.remove_from_team(&victim, &uid);
            let t = w.team(&format!("new-{round}"), &format!("Team {round}"), true);
            w.add_to_team(&t, &uid);
        });
        Some(victim)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_team_resolves_by_id_name_and_display_name_and_an_unknown_one_gets_the_closest() {
    let mut w = World::new(43);
    let alice = w.user("alice");
    let eng = w.team("eng", "Engineering", true);
    let ops = w.team("ops", "Operations", false);
    w.add_to_team(&eng, &alice);
    w.add_to_team(&ops, &alice);
    let open = w.team("open-house", "Open House", true);
    let (_sim, mcp) = harness::start(w, "alice").await;
    for r in [eng.as_str(), "eng", "Engineering", "engineering"] {
        let t = mcp.ok("get_team", json!({"team": r})).await;
        assert_eq!(t["id"], json!(eng), "{r}");
        assert_eq!(t["member"], json!(true));
        assert_eq!(t["type"], json!("open"));
    }
    let t = mcp.ok("get_team", json!({"team": "Operations"})).await;
    assert_eq!(t["type"], json!("invite_only"));
    let t = mcp.ok("get_team", json!({"team": "open-house"})).await;
    assert_eq!(
        t["id"],
        json!(open),
        "an open team one is not in, by exact name"
    );
    assert_eq!(t["member"], json!(false));
    let e = mcp.refused("get_team", json!({"team": "engg"})).await;
    assert_eq!(e["kind"], json!("not_found"));
    assert!(
        e["closest"]
            .as_array()
            .is_some_and(|c| c.contains(&json!("eng"))),
        "{e}"
    );
    assert!(e["message"].as_str().unwrap_or("").contains("`engg`"));
}

// ---- the user's channels ----

struct Mine {
    world: World,
    unread: Vec<(String, i64)>,
    expected: BTreeSet<String>,
    ops_room: String,
    direct: String,
    group: String,
}

/// alice in two teams with 230 channels, a direct and a group message, some unread.
fn my_world() -> Mine {
    let mut w = World::new(51);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let carol = w.user("carol");
    let eng = w.team("eng", "Engineering", true);
    let ops = w.team("ops", "Operations", true);
    for t in [&eng, &ops] {
        w.add_to_team(t, &alice);
        w.add_to_team(t, &bob);
    }
    let mut expected = BTreeSet::new();
    let mut rooms = Vec::new();
    for i in 0..230 {
        let c = w.channel(
            &eng,
            &format!("room-{i}"),
            &format!("Room {i}"),
            ChannelKind::Public,
        );
        w.join(&c, &alice);
        expected.insert(c.clone());
        rooms.push(c);
    }
    // Fifty channels last posted in the same millisecond: ties on the sort key.
    for c in rooms.iter().take(50) {
        w.post(c, &bob, T0, "tie");
        w.view(&alice, c, T0);
    }
    let general = rooms[60].clone();
    for k in 0..5 {
        w.post(&general, &bob, T0 + 10 + k, "news");
        if k == 1 {
            w.view(&alice, &general, T0 + 11);
        }
    }
    let ops_room = w.channel(&ops, "ops-room", "Ops Room", ChannelKind::Private);
    w.join(&ops_room, &alice);
    for k in 0..4 {
        w.post(&ops_room, &bob, T0 + 20 + k, "alert");
    }
    expected.insert(ops_room.clone());
    let direct = w.direct(&alice, &bob);
    w.post(&direct, &bob, T0 + 30, "hi");
    w.post(&direct, &bob, T0 + 31, "there?");
    expected.insert(direct.clone());
    let group = w.group(&[&alice, &bob, &carol]);
    w.post(&group, &carol, T0 + 40, "all of us");
    w.view(&alice, &group, T0 + 40);
    expected.insert(group.clone());
    let archived = w.channel(&eng, "gone", "Gone", ChannelKind::Public);
    w.join(&archived, &alice);
    w.archive(&archived);
    let not_mine = w.channel(&eng, "not-mine", "Not Mine", ChannelKind::Public);
    w.join(&not_mine, &bob);
    Mine {
        world: w,
        unread: vec![
            (general, 3),
            (ops_room.clone(), 4),
            (direct.clone(), 2),
            (group.clone(), 0),
        ],
        expected,
        ops_room,
        direct,
        group,
    }
}

fn last_post_desc(i: &Value) -> String {
    // Descending by time: the key inverted, so that the ascending check applies.
    let t = i["last_post"]
        .as_str()
        .and_then(mattermost_mcp::time::parse)
        .unwrap_or(0);
    format!("{:020}", i64::MAX - t)
}

#[tokio::test(flavor = "multi_thread")]
async fn list_channels_reads_the_users_channels_most_recent_first_with_unread_counts() {
    let m = my_world();
    let (sim, mcp) = harness::start(m.world, "alice").await;
    reads_whole_at_every_limit(
        &mcp,
        "list_channels",
        json!({}),
        [1, 25, 200],
        &m.expected,
        last_post_desc,
    )
    .await;
    sim.clear_log();
    let pages = mcp.pages("list_channels", json!({"limit": 40})).await;
    let all = items(&pages);
    let first = &pages[0]["requests"];
    eprintln!(
        "list_channels {} channels at limit 40: {} pages, {first} requests on the first, {} in all",
        all.len(),
        pages.len(),
        sim.log().len()
    );
    assert!(
        requests(&sim, "GET", "/channels/members") == 2,
        "one membership list per team"
    );
    assert!(
        pages[1..].iter().all(|p| p["requests"] == json!(0)),
        "later pages cost nothing"
    );
    for (id, unread) in &m.unread {
        let c = all.iter().find(|c| c["id"] == json!(id)).expect("listed");
        assert_eq!(c["unread"], json!(unread), "unread posts of {c}");
        // Every post of a direct message mentions its other person (SendNotifications), so the two
        // unread posts there are two mentions; nobody is mentioned in the others.
        let mentions = if *id == m.direct { *unread } else { 0 };
        assert_eq!(c["mentions"], json!(mentions), "mentions of {c}");
    }
    let direct = all.iter().find(|c| c["id"] == json!(m.direct)).expect("dm");
    assert_eq!(direct["display_name"], json!("@bob"));
    assert_eq!(direct["with"], json!("bob"));
    assert_eq!(direct["type"], json!("direct"));
    let group = all.iter().find(|c| c["id"] == json!(m.group)).expect("gm");
    assert!(
        group["display_name"]
            .as_str()
            .unwrap_or("")
            .contains("carol")
    );
    let ops = all
        .iter()
        .find(|c| c["id"] == json!(m.ops_room))
        .expect("ops");
    assert_eq!(ops["team"], json!("ops"));

    let unread = mcp
        .read_all("list_channels", json!({"unread_only": true}))
        .await;
    let unread_ids: BTreeSet<String> = ids(&unread).into_iter().collect();
    let expected: BTreeSet<String> = m
        .unread
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(id, _)| id.clone())
        .collect();
    assert_eq!(
        unread_ids, expected,
        "unread_only keeps the channels with unread posts"
    );

    let ops_only = mcp.read_all("list_channels", json!({"team": "ops"})).await;
    let ops_ids: BTreeSet<String> = ids(&ops_only).into_iter().collect();
    let expected: BTreeSet<String> = [m.ops_room, m.direct, m.group].into_iter().collect();
    assert_eq!(
        ops_ids, expected,
        "a team's channels with the direct and group messages"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn list_channels_paged_while_people_post_join_and_leave_shows_every_lasting_channel_once() {
    let m = my_world();
    let (sim, mcp) = harness::start(m.world, "alice").await;
    let lasting: Vec<String> = m.expected.iter().cloned().collect();
    read_while_changing(
        &mcp,
        "list_channels",
        json!({"limit": 20}),
        &m.expected,
        |round| {
            let poked = lasting[(round * 53 + 3) % lasting.len()].clone();
            let victim = lasting[(round * 31 + 11) % lasting.len()].clone();
            sim.with_world(|w| {
                let alice = w.user_id("alice").unwrap_or_default();
                let bob = w.user_id("bob").unwrap_or_default();
                // A post moves a channel to the front; a leave removes one.
                w.post(&poked, &bob, T0 + 1000 + round as i64, "bump");
                w.leave(&victim, &alice);
            });
            Some(victim)
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_user_in_no_team_still_lists_their_direct_messages_with_unread_counts() {
    let mut w = World::new(57);
    let alice = w.user("alice");
    let dave = w.user("dave");
    let team = w.team("eng", "Engineering", true);
    w.add_to_team(&team, &alice);
    let dm = w.direct(&alice, &dave);
    w.post(&dm, &alice, T0, "welcome");
    let sim = Sim::start(w).await.expect("sim");
    let mcp = harness::spawn(&sim.url(), &sim.token("dave"), &[], &[]).await;
    let got = mcp.read_all("list_channels", json!({})).await;
    assert_eq!(ids(&got), vec![dm]);
    assert_eq!(got[0]["display_name"], json!("@alice"));
    assert_eq!(got[0]["unread"], json!(1));
}

// ---- one channel, by every name ----

#[tokio::test(flavor = "multi_thread")]
async fn a_channel_resolves_by_id_name_tilde_display_name_url_permalink_and_username() {
    let mut w = World::new(61);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let eng = w.team("eng", "Engineering", true);
    let ops = w.team("ops", "Operations", true);
    w.add_to_team(&eng, &alice);
    w.add_to_team(&ops, &alice);
    let town = w.channel(&eng, "town-square", "Town Square", ChannelKind::Public);
    w.join(&town, &alice);
    w.join(&town, &bob);
    let post = w.post(&town, &bob, T0, "hello");
    w.view(&alice, &town, T0);
    w.post(&town, &bob, T0 + 1, "again");
    let eng_random = w.channel(&eng, "random", "Random", ChannelKind::Public);
    let ops_random = w.channel(&ops, "random", "Random", ChannelKind::Public);
    w.join(&eng_random, &alice);
    w.join(&ops_random, &alice);
    let unjoined = w.channel(&eng, "announcements", "Announcements", ChannelKind::Public);
    let dm = w.direct(&alice, &bob);
    let (sim, mcp) = harness::start(w, "alice").await;
    let url = sim.url();
    for r in [
        town.clone(),
        "town-square".into(),
        "~town-square".into(),
        "Town Square".into(),
        format!("{url}/eng/channels/town-square"),
        format!("{url}/_redirect/pl/{post}"),
    ] {
        let c = mcp.ok("get_channel", json!({"channel": r})).await;
        assert_eq!(c["id"], json!(town), "{r}");
        assert_eq!(c["member"], json!(true));
        assert_eq!(c["unread"], json!(1), "{r}: one post after the last view");
        assert_eq!(c["member_count"], json!(2));
        assert_eq!(c["team"], json!("eng"));
    }
    let c = mcp.ok("get_channel", json!({"channel": "@bob"})).await;
    assert_eq!(c["id"], json!(dm));
    assert_eq!(c["display_name"], json!("@bob"));
    let c = mcp
        .ok("get_channel", json!({"channel": "announcements"}))
        .await;
    assert_eq!(c["id"], json!(unjoined), "a public channel not joined");
    assert_eq!(c["member"], json!(false));
    assert!(c.get("unread").is_none());

    let e = mcp
        .refused("get_channel", json!({"channel": "random"}))
        .await;
    assert_eq!(e["kind"], json!("ambiguous"));
    let candidates: BTreeSet<String> = e["candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["id"].as_str().map(str::to_string))
        .collect();
    assert_eq!(
        candidates,
        [eng_random.clone(), ops_random.clone()]
            .into_iter()
            .collect()
    );
    assert!(e["message"].as_str().unwrap_or("").contains(&ops_random));
    let c = mcp
        .ok("get_channel", json!({"channel": "random", "team": "ops"}))
        .await;
    assert_eq!(c["id"], json!(ops_random), "a team narrows the name");

    let e = mcp
        .refused("get_channel", json!({"channel": "town-sqare"}))
        .await;
    assert_eq!(e["kind"], json!("not_found"));
    assert!(
        e["closest"]
            .as_array()
            .is_some_and(|c| c.contains(&json!("town-square"))),
        "{e}"
    );
    let e = mcp
        .refused("get_channel", json!({"channel": "@nobody"}))
        .await;
    assert_eq!(e["kind"], json!("not_found"));
}

#[tokio::test(flavor = "multi_thread")]
async fn channel_stats_count_active_members_guests_pinned_posts_and_files() {
    let mut w = World::new(67);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let gone = w.user("gone");
    let team = w.team("eng", "Engineering", true);
    let c = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
    for u in [&alice, &bob, &gone] {
        w.join(&c, u);
    }
    w.deactivate(&gone);
    let p1 = w.post(&c, &bob, T0, "pin me");
    let p2 = w.post(&c, &bob, T0 + 1, "and me");
    w.post(&c, &bob, T0 + 2, "not me");
    w.pin(&p1);
    w.pin(&p2);
    w.attach(&p1, "notes.txt", b"hello");
    let (_sim, mcp) = harness::start(w, "alice").await;
    let s = mcp
        .ok("get_channel_stats", json!({"channel": "town-square"}))
        .await;
    assert_eq!(s["channel_id"], json!(c));
    assert_eq!(s["member_count"], json!(2), "active people only");
    assert_eq!(s["guest_count"], json!(0));
    assert_eq!(s["pinned_post_count"], json!(2));
    assert_eq!(s["file_count"], json!(1));
}

// ---- channel search ----

#[tokio::test(flavor = "multi_thread")]
async fn channel_search_reaches_mattermosts_cap_per_team_adds_own_private_channels_and_says_capped()
{
    let mut w = World::new(71);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let eng = w.team("eng", "Engineering", true);
    let ops = w.team("ops", "Operations", true);
    w.add_to_team(&eng, &alice);
    w.add_to_team(&ops, &alice);
    w.add_to_team(&eng, &bob);
    let mut by_team: Vec<Vec<(String, String)>> = vec![Vec::new(), Vec::new()];
    for (k, (team, n)) in [(&eng, 120), (&ops, 105)].into_iter().enumerate() {
        for i in 0..n {
            let display = format!("Proj {:03}", (i * 11) % n);
            let id = w.channel(team, &format!("proj-{i}"), &display, ChannelKind::Public);
            by_team[k].push((display, id));
        }
    }
    let old = w.channel(&ops, "proj-old", "Proj 000 archived", ChannelKind::Public);
    w.archive(&old);
    by_team[1].push(("Proj 000 archived".into(), old.clone()));
    let secret = w.channel(&eng, "proj-secret", "Secret Proj", ChannelKind::Private);
    w.join(&secret, &alice);
    let hidden = w.channel(&eng, "proj-hidden", "Hidden Proj", ChannelKind::Private);
    w.join(&hidden, &bob);
    w.channel(&eng, "unrelated", "Unrelated", ChannelKind::Public);
    let mut expected = BTreeSet::new();
    for list in &mut by_team {
        list.sort();
        expected.extend(list.iter().take(100).map(|(_, id)| id.clone()));
    }
    expected.insert(secret.clone());
    let (_sim, mcp) = harness::start(w, "alice").await;
    reads_whole_at_every_limit(
        &mcp,
        "search_channels",
        json!({"term": "proj"}),
        [1, 30, 200],
        &expected,
        lower("display_name"),
    )
    .await;
    let pages = mcp
        .pages("search_channels", json!({"term": "proj", "limit": 80}))
        .await;
    assert!(
        pages.iter().all(|p| p["capped"] == json!(true)),
        "Mattermost's cap of 100 per team was reached"
    );
    let all = items(&pages);
    let member = |id: &str| {
        all.iter()
            .find(|c| c["id"] == json!(id))
            .map(|c| c["member"].clone())
    };
    assert_eq!(member(&secret), Some(json!(true)));
    assert!(
        member(&hidden).is_none(),
        "another's private channel is not found"
    );
    let archived = all
        .iter()
        .find(|c| c["id"] == json!(old))
        .expect("archived found");
    assert_eq!(archived["archived"], json!(true));
    let one = mcp
        .read_all("search_channels", json!({"term": "proj", "team": "ops"}))
        .await;
    assert_eq!(one.len(), 100, "one team: its 100");
}

#[tokio::test(flavor = "multi_thread")]
async fn channel_search_paged_while_channels_come_and_go_shows_every_lasting_match_once() {
    let mut w = World::new(73);
    let alice = w.user("alice");
    let eng = w.team("eng", "Engineering", true);
    w.add_to_team(&eng, &alice);
    let mut lasting = BTreeSet::new();
    let mut private = Vec::new();
    for i in 0..80 {
        lasting.insert(w.channel(
            &eng,
            &format!("proj-{i}"),
            &format!("Proj {}", i % 9),
            ChannelKind::Public,
        ));
    }
    for i in 0..40 {
        let c = w.channel(
            &eng,
            &format!("proj-p{i}"),
            &format!("Proj {}", i % 9),
            ChannelKind::Private,
        );
        w.join(&c, &alice);
        private.push(c.clone());
        lasting.insert(c);
    }
    let (sim, mcp) = harness::start(w, "alice").await;
    let args = json!({"term": "proj", "limit": 11});
    read_while_changing(&mcp, "search_channels", args, &lasting, |round| {
        let victim = private[(round * 7) % private.len()].clone();
        sim.with_world(|w| {
            let alice = w.user_id("alice").unwrap_or_default();
            w.leave(&victim, &alice);
            let name = format!("proj-new-{round}");
            w.channel(&eng, &name, &format!("Proj {round}"), ChannelKind::Public);
        });
        Some(victim)
    })
    .await;
}

// ---- members ----

#[tokio::test(flavor = "multi_thread")]
async fn channel_members_in_no_order_read_each_once_by_username_in_one_member_request() {
    let mut w = World::new(81);
    let alice = w.user("alice");
    let team = w.team("eng", "Engineering", true);
    let c = w.channel(&team, "big", "Big", ChannelKind::Public);
    w.join(&c, &alice);
    let mut expected: BTreeSet<String> = [alice.clone()].into_iter().collect();
    for i in 0..260 {
        let u = w.user(&format!("u{:03}", (i * 7) % 260));
        w.join(&c, &u);
        expected.insert(u);
    }
    let gone = w.user_id("u007").unwrap_or_default();
    w.deactivate(&gone);
    let outsider = w.user("outsider");
    w.add_to_team(&team, &outsider);
    let (sim, mcp) = harness::start(w, "alice").await;
    reads_whole_at_every_limit(
        &mcp,
        "list_channel_members",
        json!({"channel": "big"}),
        [1, 40, 200],
        &expected,
        lower("username"),
    )
    .await;
    sim.clear_log();
    let pages = mcp
        .pages("list_channel_members", json!({"channel": c, "limit": 40}))
        .await;
    let member_reads: Vec<_> = sim
        .log()
        .into_iter()
        .filter(|r| r.path.ends_with("/members"))
        .collect();
    assert_eq!(member_reads.len(), 1, "every member in one request");
    assert_eq!(member_reads[0].param("per_page"), Some("0"));
    assert_eq!(
        requests(&sim, "POST", "/users/ids"),
        2,
        "261 people named in requests of 200"
    );
    let all = items(&pages);
    let u007 = all.iter().find(|u| u["id"] == json!(gone)).expect("listed");
    assert_eq!(u007["deactivated"], json!(true));
    assert_eq!(u007["username"], json!("u007"));
    // Paged while people join and leave, from the kept list: everyone there throughout, once.
    let lasting: Vec<String> = expected.iter().cloned().collect();
    let args = json!({"channel": c, "limit": 25});
    read_while_changing(&mcp, "list_channel_members", args, &expected, |round| {
        let victim = lasting[(round * 17 + 5) % lasting.len()].clone();
        sim.with_world(|w| {
            w.leave(&c, &victim);
            let u = w.user(&format!("late{round}"));
            w.join(&c, &u);
        });
        Some(victim)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn team_members_read_each_once_by_username_and_deactivated_people_only_when_asked() {
    let mut w = World::new(83);
    let alice = w.user("alice");
    let team = w.team("eng", "Engineering", true);
    w.add_to_team(&team, &alice);
    let mut active: BTreeSet<String> = [alice.clone()].into_iter().collect();
    let mut deactivated = BTreeSet::new();
    for i in 0..250 {
        let u = w.user(&format!("p{:03}", (i * 11) % 250));
        w.add_to_team(&team, &u);
        if i % 50 == 3 {
            w.deactivate(&u);
            deactivated.insert(u);
        } else {
            active.insert(u);
        }
    }
    let left = w.user("left");
    w.add_to_team(&team, &left);
    w.remove_from_team(&team, &left);
    let (sim, mcp) = harness::start(w, "alice").await;
    reads_whole_at_every_limit(
        &mcp,
        "list_team_members",
        json!({"team": "eng"}),
        [1, 40, 200],
        &active,
        lower("username"),
    )
    .await;
    sim.clear_log();
    let everyone = mcp
        .read_all(
            "list_team_members",
            json!({"team": "eng", "include_deactivated": true, "limit": 200}),
        )
        .await;
    let all: BTreeSet<String> = active.union(&deactivated).cloned().collect();
    exactly_once(&ids(&everyone), &all, "with the deactivated");
    assert_eq!(
        requests(&sim, "GET", "/members"),
        2,
        "251 members: a page of 200 and a short one"
    );
    let shown_deactivated = everyone
        .iter()
        .filter(|u| u["deactivated"] == json!(true))
        .count();
    assert_eq!(shown_deactivated, deactivated.len());
    // Paged while people join and leave the team, from the kept list: everyone there throughout, once.
    let lasting: Vec<String> = active.iter().cloned().collect();
    let args = json!({"team": "eng", "limit": 30});
    read_while_changing(&mcp, "list_team_members", args, &active, |round| {
        let victim = lasting[(round * 19 + 2) % lasting.len()].clone();
        sim.with_world(|w| {
            w.remove_from_team(&team, &victim);
            let u = w.user(&format!("late{round}"));
            w.add_to_team(&team, &u);
        });
        Some(victim)
    })
    .await;
}

// ---- what Mattermost gives a non-member, and errors that say what to do next ----

/// Asserts an error carries none of Mattermost's raw refusal (status, internal error id).
fn no_raw_refusal(e: &Value) {
    let m = e["message"].as_str().unwrap_or_default();
    assert!(
        !m.contains("403") && !m.contains("api.context") && !m.contains("app_error"),
        "raw refusal text reached the model: {m}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_public_channel_one_has_not_joined_is_shown_without_counts_and_member_only_reads_say_not_member()
 {
    let mut w = World::new(131);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let team = w.team("eng", "Engineering", true);
    w.add_to_team(&team, &alice);
    w.add_to_team(&team, &bob);
    let lobby = w.channel(&team, "lobby", "Lobby", ChannelKind::Public);
    w.join(&lobby, &bob);
    w.post(&lobby, &bob, T0, "hello lobby");
    let secret = w.channel(&team, "secret", "Secret", ChannelKind::Private);
    w.join(&secret, &bob);
    let (sim, mcp) = harness::start(w, "alice").await;

    // get_channel: Mattermost refuses a non-member their membership (403): the channel is shown.
    let c = mcp.ok("get_channel", json!({"channel": "lobby"})).await;
    assert_eq!(c["id"], json!(lobby));
    assert_eq!(c["member"], json!(false));
    for absent in ["unread", "mentions", "last_viewed", "member_count"] {
        assert!(c.get(absent).is_none(), "{absent} of a non-member: {c}");
    }
    assert_eq!(c["team"], json!("eng"));
    assert_eq!(
        requests(&sim, "GET", "/stats"),
        0,
        "the counts are not asked for: only members may read them"
    );

    // What only members may read is refused as not_member, naming the tool that would make one.
    for (tool, args) in [
        ("get_channel_stats", json!({"channel": "lobby"})),
        ("list_channel_members", json!({"channel": "lobby"})),
        ("search_users", json!({"term": "bob", "channel": "~lobby"})),
    ] {
        let e = mcp.refused(tool, args).await;
        assert_eq!(e["kind"], json!("not_member"), "{tool}: {e}");
        let m = e["message"].as_str().unwrap_or_default();
        assert!(
            m.contains("~lobby") && m.contains(&lobby) && m.contains("join_channel"),
            "{tool}: {m}"
        );
        assert_eq!(e["channel_id"], json!(lobby));
        no_raw_refusal(&e);
    }

    // The same 403 for a private channel one is not in, and for an id that names no channel, is told
    // apart by reading the channel.
    let e = mcp
        .refused("get_channel_stats", json!({"channel": secret}))
        .await;
    assert_eq!(e["kind"], json!("forbidden"), "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap_or("")
            .contains("private channel")
    );
    no_raw_refusal(&e);
    let nothing = "zzzzzzzzzzzzzzzzzzzzzzzzzz";
    for tool in ["get_channel_stats", "list_channel_members", "get_channel"] {
        let e = mcp.refused(tool, json!({"channel": nothing})).await;
        assert_eq!(e["kind"], json!("not_found"), "{tool}: {e}");
        let m = e["message"].as_str().unwrap_or_default();
        assert!(
            m.contains(nothing) && m.contains("list_channels"),
            "{tool}: names what was not found and the next step: {m}"
        );
        no_raw_refusal(&e);
    }
    let e = mcp.refused("get_channel", json!({"channel": secret})).await;
    assert_eq!(e["kind"], json!("forbidden"), "{e}");
    no_raw_refusal(&e);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_display_name_two_channels_share_is_ambiguous_and_a_url_name_written_as_one_wins() {
    let mut w = World::new(137);
    let alice = w.user("alice");
    let eng = w.team("eng", "Engineering", true);
    let ops = w.team("ops", "Operations", true);
    w.add_to_team(&eng, &alice);
    w.add_to_team(&ops, &alice);
    let random = w.channel(&eng, "random", "Random", ChannelKind::Public);
    let chatter = w.channel(&ops, "chatter", "Random", ChannelKind::Public);
    w.join(&random, &alice);
    w.join(&chatter, &alice);
    let (_sim, mcp) = harness::start(w, "alice").await;
    for written in ["Random", "RANDOM"] {
        let e = mcp
            .refused("get_channel", json!({"channel": written}))
            .await;
        assert_eq!(e["kind"], json!("ambiguous"), "{written}: {e}");
        let candidates: BTreeSet<String> = e["candidates"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["id"].as_str().map(str::to_string))
            .collect();
        assert_eq!(
            candidates,
            [random.clone(), chatter.clone()].into_iter().collect(),
            "{written}: every channel displayed so"
        );
        let m = e["message"].as_str().unwrap_or_default();
        assert!(
            m.contains(&random) && m.contains(&chatter) && m.contains("`team`"),
            "{m}"
        );
    }
    for written in ["random", "~random"] {
        let c = mcp.ok("get_channel", json!({"channel": written})).await;
        assert_eq!(
            c["id"],
            json!(random),
            "{written}: the URL name, written as one"
        );
    }
    let c = mcp
        .ok("get_channel", json!({"channel": "Random", "team": "ops"}))
        .await;
    assert_eq!(c["id"], json!(chatter), "a team narrows the display name");
}

#[tokio::test(flavor = "multi_thread")]
async fn channel_search_matches_words_by_their_start_and_a_teams_lists_are_refused_to_a_non_member()
{
    let mut w = World::new(139);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let eng = w.team("eng", "Engineering", true);
    w.add_to_team(&eng, &alice);
    w.add_to_team(&eng, &bob);
    let public = w.channel(&eng, "dev", "Engineering", ChannelKind::Public);
    w.set_purpose(&public, "team stuff");
    w.join(&public, &bob);
    let private = w.channel(&eng, "core", "Core", ChannelKind::Private);
    w.set_purpose(&private, "the engine team");
    w.join(&private, &alice);
    let other = w.channel(&eng, "teamwork", "Teamwork", ChannelKind::Public);
    w.join(&other, &bob);
    let guild = w.team("guild", "Guild", true);
    w.add_to_team(&guild, &bob);
    let (_sim, mcp) = harness::start(w, "alice").await;
    let got = mcp
        .read_all("search_channels", json!({"term": "eng team"}))
        .await;
    let found: BTreeSet<String> = ids(&got).into_iter().collect();
    assert_eq!(
        found,
        [public.clone(), private.clone()].into_iter().collect(),
        "every word starts a word of the name, display name or purpose (Mattermost's full text for \
         the public channel, the same rule for one's own private channel)"
    );
    let member = |id: &str| {
        got.iter()
            .find(|c| c["id"] == json!(id))
            .map(|c| c["member"].clone())
    };
    assert_eq!(member(&public), Some(json!(false)));
    assert_eq!(member(&private), Some(json!(true)));
    let e = mcp
        .refused("search_channels", json!({"term": "dev", "team": "guild"}))
        .await;
    assert_eq!(e["kind"], json!("not_member"), "{e}");
    let m = e["message"].as_str().unwrap_or_default();
    assert!(m.contains("`guild`") && m.contains("list_teams"), "{m}");
    assert!(!m.contains("404") && !m.contains("app_error"), "{m}");
    // A team's lists are its members' too; an id that names no team is told apart.
    for (tool, team) in [
        ("list_team_channels", json!("guild")),
        ("list_archived_channels", json!(guild)),
        ("list_team_members", json!("guild")),
    ] {
        let e = mcp.refused(tool, json!({"team": team})).await;
        assert_eq!(e["kind"], json!("not_member"), "{tool}: {e}");
        let m = e["message"].as_str().unwrap_or_default();
        assert!(
            m.contains("`guild` (Guild)") && m.contains("list_teams"),
            "{tool}: {m}"
        );
        no_raw_refusal(&e);
    }
    let nothing = "zzzzzzzzzzzzzzzzzzzzzzzzzz";
    for tool in ["list_team_channels", "get_team"] {
        let e = mcp.refused(tool, json!({"team": nothing})).await;
        assert_eq!(e["kind"], json!("not_found"), "{tool}: {e}");
        let m = e["message"].as_str().unwrap_or_default();
        assert!(
            m.contains(nothing) && m.contains("list_teams"),
            "{tool}: {m}"
        );
    }
}

/// The threads of `team` Mattermost holds unread for the person of `token`.
async fn unread_threads(sim: &Sim, token: &str, team: &str) -> usize {
    let url = format!(
        "{}/api/v4/users/me/teams/{team}/threads?unread=true",
        sim.url()
    );
    let v: Value = crate::http_harness::http()
        .get(url)
        .bearer_auth(token)
        .send()
        .await
        .expect("the simulator answers")
        .json()
        .await
        .expect("JSON");
    v["threads"].as_array().map(Vec::len).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread")]
async fn mark_channel_read_says_what_mattermost_did_and_leaves_threads_unless_asked() {
    let mut w = World::new(149);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let carol = w.user("carol");
    let team = w.team("eng", "Engineering", true);
    for u in [&alice, &bob, &carol] {
        w.add_to_team(&team, u);
    }
    let town = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
    for u in [&alice, &bob, &carol] {
        w.join(&town, u);
    }
    let root = w.post(&town, &bob, T0, "root");
    w.follow(&alice, &root);
    w.reply(&root, &carol, T0 + 10, "a reply alice has not read");
    w.post(&town, &bob, T0 + 20, "news");
    let lobby = w.channel(&team, "lobby", "Lobby", ChannelKind::Public);
    w.join(&lobby, &bob);
    w.post(&lobby, &bob, T0, "hello");
    let sim = Sim::start(w).await.expect("sim");
    let token = sim.token("alice");
    let mcp = harness::spawn(
        &sim.url(),
        &token,
        &[("MATTERMOST_ALLOW_WRITES", "true")],
        &[],
    )
    .await;
    let before = mcp
        .ok("get_channel", json!({"channel": "town-square"}))
        .await;
    let unread = before["unread"].as_i64().unwrap_or(0);
    assert!(unread > 0, "{before}");
    assert_eq!(unread_threads(&sim, &token, &team).await, 1);

    // Something unread: marked read, threads left as they were.
    let m = mcp
        .ok("mark_channel_read", json!({"channel": "town-square"}))
        .await;
    assert_eq!(m["member"], json!(true));
    assert_eq!(m["marked_read"], json!(true), "{m}");
    assert_eq!(m["unread_before"], json!(unread));
    assert_eq!(m["threads_marked_read"], json!(false));
    assert!(m["last_viewed"].is_string());
    let after = mcp
        .ok("get_channel", json!({"channel": "town-square"}))
        .await;
    assert_eq!(after["unread"], json!(0));
    assert_eq!(
        unread_threads(&sim, &token, &team).await,
        1,
        "the thread stays unread"
    );

    // Nothing unread: Mattermost changes nothing, threads included, even when asked for them.
    let m = mcp
        .ok(
            "mark_channel_read",
            json!({"channel": "town-square", "include_threads": true}),
        )
        .await;
    assert_eq!(m["marked_read"], json!(false), "{m}");
    assert_eq!(m["unread_before"], json!(0));
    assert_eq!(m["threads_marked_read"], json!(false));
    assert!(
        m["note"].as_str().unwrap_or("").contains("changed nothing"),
        "{m}"
    );
    assert_eq!(
        unread_threads(&sim, &token, &team).await,
        1,
        "no thread is touched when nothing was unread"
    );

    // Something unread again, with the threads: both are marked read.
    sim.with_world(|w| w.post(&town, &bob, T0 + 30, "more news"));
    let m = mcp
        .ok(
            "mark_channel_read",
            json!({"channel": "town-square", "include_threads": true}),
        )
        .await;
    assert_eq!(m["marked_read"], json!(true), "{m}");
    assert_eq!(m["unread_before"], json!(1));
    assert_eq!(m["threads_marked_read"], json!(true));
    assert_eq!(unread_threads(&sim, &token, &team).await, 0);

    // Not a member: no read state, nothing sent, said so.
    sim.clear_log();
    let m = mcp.ok("mark_channel_read", json!({"channel": lobby})).await;
    assert_eq!(m["member"], json!(false), "{m}");
    assert_eq!(m["marked_read"], json!(false));
    assert!(m.get("unread_before").is_none() && m.get("last_viewed").is_none());
    let note = m["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("not a member") && note.contains("join_channel"),
        "{note}"
    );
    assert_eq!(
        requests(&sim, "POST", "/view"),
        0,
        "no view is sent for a non-member"
    );
}
