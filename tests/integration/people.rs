//! People: get_users and get_status (bounded by their input, names nobody has with the closest
//! usernames), and search_users paged to its end and to Mattermost's cap of 1000 users per term.

use crate::channels::{exactly_once, items, ordered_by, page_ids, read_while_changing, requests};
use crate::harness::{self, ids};
use mattermost_sim::{ChannelKind, World};
use serde_json::{Value, json};
use std::collections::BTreeSet;

fn username(i: &Value) -> String {
    i["username"].as_str().unwrap_or_default().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn get_users_finds_people_by_username_id_and_email_in_order_and_suggests_the_closest_names() {
    let mut w = World::new(101);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let carol = w.user("carol");
    w.user("alicia");
    let helper = w.bot("helper");
    let gone = w.user("gone");
    w.deactivate(&gone);
    let (sim, mcp) = harness::start(w, "alice").await;
    let v = mcp
        .ok(
            "get_users",
            json!({"users": ["@bob", alice, "carol@example.com", "alise", "bob", "qqqqqq", "helper", gone]}),
        )
        .await;
    assert_eq!(
        ids(v["items"].as_array().map(Vec::as_slice).unwrap_or(&[])),
        vec![bob.clone(), alice.clone(), carol, helper, gone],
        "each person once, in the order first named"
    );
    assert_eq!(v["returned"], json!(5));
    assert!(v.get("next_cursor").is_none() && v.get("has_more").is_none());
    let found = v["items"].as_array().cloned().unwrap_or_default();
    assert_eq!(found[0]["username"], json!("bob"));
    assert_eq!(found[3]["is_bot"], json!(true));
    assert_eq!(found[4]["deactivated"], json!(true));
    let missing = v["not_found"].as_array().cloned().unwrap_or_default();
    assert_eq!(missing.len(), 2);
    assert_eq!(missing[0]["reference"], json!("alise"));
    let closest = missing[0]["closest"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(closest.first(), Some(&json!("alice")), "{closest:?}");
    assert!(closest.contains(&json!("alicia")));
    assert_eq!(missing[1]["reference"], json!("qqqqqq"));

    let e = mcp
        .refused("get_users", json!({"users": ["nobody-here", "bobb"]}))
        .await;
    assert_eq!(e["kind"], json!("not_found"));
    let m = e["message"].as_str().unwrap_or_default();
    assert!(
        m.contains("`nobody-here`") && m.contains("`bobb`") && m.contains("search_users"),
        "{m}"
    );
    assert!(
        m.contains("`bobb` (closest: bob"),
        "the message itself suggests the closest usernames for a typo: {m}"
    );
    let closest = e["not_found"][1]["closest"].clone();
    assert_eq!(closest[0], json!("bob"), "{e}");
    let too_many: Vec<String> = (0..101).map(|i| format!("user{i}")).collect();
    let e = mcp.refused("get_users", json!({"users": too_many})).await;
    assert_eq!(e["kind"], json!("bad_argument"));
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("1 to 100")
    );
    assert!(
        sim.log().iter().all(|r| r.path != "/api/v4/users/search"
            || r.body
                .as_deref()
                .is_some_and(|b| b.contains("\"limit\":20"))),
        "only suggestions search"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn get_status_gives_presence_and_shows_someone_without_a_status_offline() {
    let mut w = World::new(103);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let carol = w.user("carol");
    w.set_status(&bob, "dnd");
    w.set_status(&carol, "away");
    let (sim, mcp) = harness::start(w, "alice").await;
    let v = mcp
        .ok(
            "get_status",
            json!({"users": ["bob", carol, "alice@example.com", "ghosty"]}),
        )
        .await;
    let got = v["items"].as_array().cloned().unwrap_or_default();
    assert_eq!(ids(&got), vec![bob, carol, alice]);
    assert_eq!(got[0]["status"], json!("dnd"));
    assert_eq!(got[0]["set_by_user"], json!(true));
    assert!(got[0]["last_activity"].is_string());
    assert_eq!(got[1]["status"], json!("away"));
    assert_eq!(got[2]["status"], json!("offline"));
    assert!(
        got[2].get("last_activity").is_none(),
        "a made-up offline status has no activity"
    );
    assert_eq!(v["not_found"][0]["reference"], json!("ghosty"));
    assert_eq!(
        requests(&sim, "POST", "/users/status/ids"),
        1,
        "one status request"
    );
}

fn people(n: usize, prefix: &str, seed: u64) -> (World, BTreeSet<String>) {
    let mut w = World::new(seed);
    w.user("alice");
    w.user("zed");
    let mut expected = BTreeSet::new();
    for i in 0..n {
        expected.insert(w.user(&format!("{prefix}{:04}", (i * 7) % n)));
    }
    (w, expected)
}

fn search_bodies(sim: &mattermost_sim::Sim) -> Vec<Value> {
    sim.log()
        .iter()
        .filter(|r| r.path == "/api/v4/users/search")
        .filter_map(|r| r.body.as_deref().and_then(|b| serde_json::from_str(b).ok()))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn search_users_reads_every_match_once_by_username_at_limits_1_17_200() {
    let (w, expected) = people(250, "dev", 107);
    let (sim, mcp) = harness::start(w, "alice").await;
    for limit in [1u32, 17, 200] {
        sim.clear_log();
        let pages = mcp
            .pages("search_users", json!({"term": "dev", "limit": limit}))
            .await;
        let got = items(&pages);
        exactly_once(&ids(&got), &expected, &format!("limit {limit}"));
        ordered_by(&got, username, "search_users");
        let bodies = search_bodies(&sim);
        assert_eq!(bodies.len(), pages.len(), "one search per page");
        assert_eq!(
            bodies[0]["limit"],
            json!(limit + 1),
            "the first page asks one more"
        );
        assert!(bodies[1..].iter().all(|b| b["limit"] == json!(1000)));
        assert!(pages.iter().all(|p| p.get("capped").is_none()));
        assert_eq!(pages.last().map(|p| p["total"].clone()), Some(json!(250)));
        eprintln!(
            "search_users 250 matches at limit {limit}: {} pages, {} requests",
            pages.len(),
            bodies.len()
        );
        if limit == 17 {
            let again = mcp
                .pages("search_users", json!({"term": "dev", "limit": limit}))
                .await;
            assert_eq!(page_ids(&pages), page_ids(&again), "the same pages");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn search_users_stops_at_mattermosts_1000_users_and_says_capped() {
    let (w, expected) = people(1100, "cap", 109);
    let (_sim, mcp) = harness::start(w, "alice").await;
    let pages = mcp
        .pages("search_users", json!({"term": "cap", "limit": 200}))
        .await;
    let got = items(&pages);
    let first_1000: BTreeSet<String> = {
        let mut names: Vec<String> = (0..1100).map(|i| format!("cap{i:04}")).collect();
        names.sort();
        names.truncate(1000);
        names.into_iter().collect()
    };
    let got_names: Vec<String> = got.iter().map(username).collect();
    exactly_once(&got_names, &first_1000, "the first 1000 usernames");
    assert!(ids(&got).iter().all(|id| expected.contains(id)));
    assert_eq!(pages.last().map(|p| p["capped"].clone()), Some(json!(true)));
    assert_eq!(
        pages.last().map(|p| p["has_more"].clone()),
        Some(json!(false))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn search_users_narrows_to_a_team_or_channel_and_includes_deactivated_people_only_when_asked()
{
    let mut w = World::new(113);
    let alice = w.user("alice");
    let team = w.team("eng", "Engineering", true);
    let c = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
    w.add_to_team(&team, &alice);
    w.join(&c, &alice);
    let mut in_team = BTreeSet::new();
    let mut in_channel = BTreeSet::new();
    let mut all = BTreeSet::new();
    for i in 0..30 {
        let u = w.user(&format!("sam{i:02}"));
        all.insert(u.clone());
        if i % 2 == 0 {
            w.add_to_team(&team, &u);
            in_team.insert(u.clone());
        }
        if i % 3 == 0 {
            w.join(&c, &u);
            in_channel.insert(u.clone());
            in_team.insert(u);
        }
    }
    let gone = w.user("samgone");
    w.add_to_team(&team, &gone);
    w.deactivate(&gone);
    let (_sim, mcp) = harness::start(w, "alice").await;
    let got = mcp
        .read_all("search_users", json!({"term": "sam", "limit": 7}))
        .await;
    exactly_once(&ids(&got), &all, "deactivated people left out");
    let got = mcp
        .read_all(
            "search_users",
            json!({"term": "sam", "team": "eng", "limit": 7}),
        )
        .await;
    exactly_once(&ids(&got), &in_team, "a team's people");
    let got = mcp
        .read_all(
            "search_users",
            json!({"term": "sam", "channel": "town-square", "limit": 4}),
        )
        .await;
    exactly_once(&ids(&got), &in_channel, "a channel's people");
    let got = mcp
        .read_all(
            "search_users",
            json!({"term": "sam", "include_deactivated": true}),
        )
        .await;
    let mut with_gone = all.clone();
    with_gone.insert(gone.clone());
    exactly_once(&ids(&got), &with_gone, "with the deactivated");
    let shown = got.iter().find(|u| u["id"] == json!(gone)).expect("listed");
    assert_eq!(shown["deactivated"], json!(true));
}

#[tokio::test(flavor = "multi_thread")]
async fn search_users_paged_while_people_arrive_and_leave_shows_everyone_there_throughout_once() {
    let (w, expected) = people(120, "kit", 127);
    let (sim, mcp) = harness::start(w, "alice").await;
    let lasting: Vec<String> = expected.iter().cloned().collect();
    let args = json!({"term": "kit", "limit": 9});
    read_while_changing(&mcp, "search_users", args, &expected, |round| {
        let victim = lasting[(round * 29 + 1) % lasting.len()].clone();
        sim.with_world(|w| {
            w.deactivate(&victim);
            w.user(&format!("kit-new-{round:02}"));
            w.user(&format!("kit{round:02}a"));
        });
        Some(victim)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn search_users_matches_each_word_anywhere_and_a_channel_search_ignores_the_team() {
    let mut w = World::new(151);
    let alice = w.user("alice");
    let jason = w.user("jason");
    let bob = w.user("bob");
    let eng = w.team("eng", "Engineering", true);
    w.add_to_team(&eng, &alice);
    w.add_to_team(&eng, &jason);
    w.add_to_team(&eng, &bob);
    let room = w.channel(&eng, "room", "Room", ChannelKind::Public);
    w.join(&room, &alice);
    w.join(&room, &jason);
    let elsewhere = w.team("elsewhere", "Elsewhere", false);
    let carol = w.user("carol");
    w.add_to_team(&elsewhere, &carol);
    let (sim, mcp) = harness::start(w, "alice").await;
    // Mattermost matches inside a name (`LIKE %word%`), not only at its start; every word must match.
    let got = mcp.read_all("search_users", json!({"term": "aso"})).await;
    assert_eq!(ids(&got), vec![jason.clone()], "`aso` is inside jason");
    let got = mcp
        .read_all("search_users", json!({"term": "ason example"}))
        .await;
    assert_eq!(
        ids(&got),
        vec![jason.clone()],
        "one word in the username, one in the email"
    );
    let got = mcp
        .read_all("search_users", json!({"term": "aso nobody"}))
        .await;
    assert!(got.is_empty(), "every word must match");
    // With a channel, Mattermost searches the channel alone and ignores the team, yet checks the team
    // may be viewed: so the team is not sent, and one the person cannot view costs nothing.
    sim.clear_log();
    let got = mcp
        .read_all(
            "search_users",
            json!({"term": "o", "channel": room, "team": elsewhere}),
        )
        .await;
    let found: BTreeSet<String> = ids(&got).into_iter().collect();
    assert_eq!(
        found,
        [alice, jason].into_iter().collect(),
        "the channel's members (every email holds an `o`), not bob, who is only in the team"
    );
    let bodies = search_bodies(&sim);
    assert!(
        bodies
            .iter()
            .all(|b| b.get("team_id").is_none() && b["in_channel_id"] == json!(room)),
        "{bodies:?}"
    );
}
