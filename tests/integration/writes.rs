//! The writing tools through rmcp's client against the simulator, in both protocol forms: what each
//! sends after the person confirmed (read back as the person), how many requests it makes, and the
//! checks that refuse before anything is asked or sent.

use crate::harness::{Answer, Protocol};
use crate::writes_fixture::{Direct, is_write, start};
use serde_json::{Value, json};

const BOTH: [Protocol; 2] = [Protocol::Legacy, Protocol::Stateless];

fn count(log: &[String], prefix: &str) -> usize {
    log.iter().filter(|l| l.starts_with(prefix)).count()
}

#[tokio::test(flavor = "multi_thread")]
async fn create_post_asks_then_posts_once_marked_in_both_forms() {
    for protocol in BOTH {
        let env = start(protocol, Answer::Accept, &[]).await;
        let town = env.ids.town.clone();
        let before = env.sim.with_world(|w| w.post_ids_in(&town).len());
        let (v, log) = env
            .ok(
                "create_post",
                json!({"channel": "town-square", "message": "I'll take it, @bob"}),
            )
            .await;
        assert_eq!(v["confirmed"], "by_person", "{protocol:?}: {v}");
        assert_eq!(v["marked_ai_generated"], true);
        assert_eq!(v["reached"], 2, "bob and carol: {v}");
        let questions = env.mcp.questions();
        assert_eq!(questions.len(), 1, "asked once: {questions:?}");
        let q = &questions[0];
        assert!(
            q.contains("I'll take it, @bob")
                && q.contains("~town-square")
                && q.contains("2 other members"),
            "the question shows what, where and whom: {q}"
        );
        assert_eq!(count(&log, "POST /api/v4/posts"), 1, "{log:?}");
        let after = env.sim.with_world(|w| w.post_ids_in(&town));
        assert_eq!(after.len(), before + 1);
        let id = v["post_id"].as_str().expect("post id");
        let direct = Direct::new(&env.sim, "bob");
        let post = direct.post(id).await;
        let props = post.props.clone().unwrap_or_default();
        assert_eq!(props.get("ai_generated_by"), Some(&json!(env.ids.alice)));
        assert_eq!(props.get("ai_generated_by_username"), Some(&json!("alice")));
        assert_eq!(post.message.as_deref(), Some("I'll take it, @bob"));
        let sent = env
            .log()
            .iter()
            .find(|r| r.method == "POST" && r.path == "/api/v4/posts")
            .and_then(|r| r.body.clone())
            .unwrap_or_default();
        let body: Value = serde_json::from_str(&sent).unwrap_or_default();
        let pending = body["pending_post_id"].as_str().unwrap_or("");
        assert!(
            pending.starts_with(&format!("{}:", env.ids.alice)) && pending.len() == 26 + 1 + 32,
            "an unguessable pending_post_id of at most 64 characters: {pending}"
        );
        eprintln!("create_post {protocol:?}: {} requests: {log:?}", log.len());
    }
}

fn future(hours: i64) -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
        + hours * 3_600_000;
    ms.to_string()
}

/// Every writing tool once, accepted, in one protocol form: its answer, what it did read back as the
/// person, and (legacy form) exactly how many requests and which writes it made.
async fn every_tool(protocol: Protocol) {
    let env = start(protocol, Answer::Accept, &[]).await;
    let ids = env.ids.clone();
    let direct = Direct::new(&env.sim, "alice");
    let legacy = protocol == Protocol::Legacy;
    // (tool, requests in all, writes) in the legacy form, checked below.
    let mut counts: Vec<(&str, usize, Vec<String>)> = Vec::new();
    let mut record = |tool: &'static str, log: &[String]| {
        let writes: Vec<String> = log
            .iter()
            .filter(|l| l.split_once(' ').is_some_and(|(m, p)| is_write(m, p)))
            .cloned()
            .collect();
        counts.push((tool, log.len(), writes));
    };

    let (v, log) = env.ok("create_post",
        json!({"channel": "town-square", "message": "on it", "root": ids.bob_reply,
               "files": [{"name": "plan.txt", "content": "step one"}, {"name": "logo.png", "content_base64": "iVBORw0KGgo="}]}),
    )
    .await;
    assert_eq!(
        v["root_id"],
        json!(ids.bob_root),
        "a reply to a reply goes to the root: {v}"
    );
    assert_eq!(v["file_ids"].as_array().map(Vec::len), Some(2), "{v}");
    let post = direct.post(v["post_id"].as_str().unwrap_or("")).await;
    assert_eq!(post.root_id.as_deref(), Some(ids.bob_root.as_str()));
    assert_eq!(post.file_ids.as_ref().map(Vec::len), Some(2));
    record("create_post", &log);

    let (v, log) = env
        .ok(
            "send_direct_message",
            json!({"to": ["@bob"], "message": "hi bob"}),
        )
        .await;
    assert!(v["channel"].as_str().unwrap_or("").contains("@bob"), "{v}");
    assert_eq!(v["reached"], 1);
    record("send_direct_message", &log);
    let (v, _) = env
        .ok(
            "send_direct_message",
            json!({"to": ["bob", "carol", "alice"], "message": "hi both"}),
        )
        .await;
    assert!(v["channel"].as_str().unwrap_or("").contains("group"), "{v}");
    assert_eq!(v["reached"], 2);
    let (v, _) = env
        .ok(
            "send_direct_message",
            json!({"to": ["alice"], "message": "note to self"}),
        )
        .await;
    assert!(
        v["channel"].as_str().unwrap_or("").contains("yourself"),
        "{v}"
    );

    let (v, log) = env
        .ok(
            "update_post",
            json!({"post": ids.alice_post, "message": "my better words"}),
        )
        .await;
    assert_eq!(v["previous_message"], "my own words");
    assert_eq!(
        direct.post(&ids.alice_post).await.message.as_deref(),
        Some("my better words")
    );
    record("update_post", &log);

    let (v, log) = env.ok("delete_post", json!({"post": ids.alice_root})).await;
    assert_eq!(v["replies_deleted"], 2, "{v}");
    assert!(
        env.sim
            .with_world(|w| !w.post_ids_in(&ids.town).contains(&ids.alice_root))
    );
    record("delete_post", &log);

    let (v, log) = env
        .ok("add_reaction", json!({"post": ids.bob_root, "emoji": "👍"}))
        .await;
    assert_eq!(
        v["emoji"], "+1",
        "the character folds to Mattermost's name: {v}"
    );
    assert_eq!(v["changed"], true);
    let reactions = direct
        .post(&ids.bob_root)
        .await
        .metadata
        .and_then(|m| m.reactions)
        .unwrap_or_default();
    assert!(
        reactions
            .iter()
            .any(|r| r.emoji_name.as_deref() == Some("+1")
                && r.user_id.as_deref() == Some(ids.alice.as_str()))
    );
    record("add_reaction", &log);
    let (v, _) = env
        .ok(
            "add_reaction",
            json!({"post": ids.bob_root, "emoji": ":thumbsup:"}),
        )
        .await;
    assert_eq!(
        v["changed"], false,
        "the same reaction is not sent again: {v}"
    );

    let (v, log) = env
        .ok(
            "remove_reaction",
            json!({"post": ids.bob_root, "emoji": "+1"}),
        )
        .await;
    assert_eq!(v["changed"], true, "{v}");
    let reactions = direct
        .post(&ids.bob_root)
        .await
        .metadata
        .and_then(|m| m.reactions)
        .unwrap_or_default();
    assert!(!reactions.iter().any(|r| {
        r.user_id.as_deref() == Some(ids.alice.as_str()) && r.emoji_name.as_deref() == Some("+1")
    }));
    record("remove_reaction", &log);

    let (v, log) = env.ok("pin_post", json!({"post": ids.bob_root})).await;
    assert_eq!(v["changed"], true);
    assert_eq!(direct.post(&ids.bob_root).await.is_pinned, Some(true));
    record("pin_post", &log);
    let (v, _) = env
        .ok("pin_post", json!({"post": ids.bob_root, "pinned": false}))
        .await;
    assert_eq!(v["pinned"], false);
    assert_eq!(direct.post(&ids.bob_root).await.is_pinned, Some(false));

    let (v, log) = env.ok("save_post", json!({"post": ids.bob_root})).await;
    assert_eq!(v["saved"], true);
    let saved = direct
        .send(
            "GetFlaggedPostsForUser",
            direct
                .mm
                .api()
                .get_flagged_posts_for_user()
                .user_id("me")
                .send(),
        )
        .await
        .expect("saved posts");
    assert!(saved.order.unwrap_or_default().contains(&ids.bob_root));
    record("save_post", &log);
    env.ok("save_post", json!({"post": ids.bob_root, "saved": false}))
        .await;

    let (v, log) = env
        .ok("follow_thread", json!({"post": ids.bob_reply}))
        .await;
    assert_eq!(v["thread_id"], json!(ids.bob_root), "{v}");
    record("follow_thread", &log);
    let (v, _) = env
        .ok(
            "follow_thread",
            json!({"post": ids.bob_root, "following": false}),
        )
        .await;
    assert_eq!(v["following"], false);

    let (v, log) = env
        .ok("join_channel", json!({"channel": "off-topic"}))
        .await;
    assert_eq!(v["changed"], true, "{v}");
    record("join_channel", &log);
    let (v, _) = env
        .ok("join_channel", json!({"channel": "off-topic"}))
        .await;
    assert_eq!(v["changed"], false, "already in it: {v}");

    let (v, log) = env
        .ok(
            "add_channel_members",
            json!({"channel": "secret", "users": ["carol", "@bob"]}),
        )
        .await;
    assert_eq!(v["added"], json!(["carol"]), "{v}");
    assert_eq!(v["already_members"], json!(["bob"]), "{v}");
    record("add_channel_members", &log);

    let (v, log) = env.ok("leave_channel", json!({"channel": "secret"})).await;
    assert_eq!(v["changed"], true, "{v}");
    record("leave_channel", &log);

    let (v, log) = env.ok("create_channel",
        json!({"team": "eng", "display_name": "Launch Planning", "private": true, "purpose": "ship it"}),
    )
    .await;
    assert_eq!(v["name"], "launch-planning", "{v}");
    let made = direct
        .send(
            "GetChannel",
            direct
                .mm
                .api()
                .get_channel()
                .channel_id(v["channel_id"].as_str().unwrap_or(""))
                .send(),
        )
        .await
        .expect("the channel reads back");
    assert_eq!(made.type_.as_deref(), Some("P"));
    assert_eq!(made.purpose.as_deref(), Some("ship it"));
    record("create_channel", &log);

    let until = future(2);
    let (v, log) = env.ok("set_status",
        json!({"status": "dnd", "dnd_until": until, "custom_text": "heads down", "custom_emoji": "🎧"}),
    )
    .await;
    assert_eq!(v["status"], "dnd", "{v}");
    assert_eq!(v["custom"]["emoji"], "headphones", "{v}");
    let status = direct
        .send(
            "GetUserStatus",
            direct.mm.api().get_user_status().user_id(&ids.alice).send(),
        )
        .await
        .expect("the status reads back");
    assert_eq!(status.status.as_deref(), Some("dnd"));
    record("set_status", &log);
    let (v, _) = env
        .ok(
            "set_status",
            json!({"clear_custom": true, "status": "online"}),
        )
        .await;
    assert_eq!(v["cleared_custom"], true);

    let (v, log) = env
        .ok(
            "save_draft",
            json!({"channel": "town-square", "message": "draft text"}),
        )
        .await;
    assert_eq!(v["changed"], true, "{v}");
    record("save_draft", &log);
    let e = env
        .mcp
        .refused(
            "save_draft",
            json!({"channel": "town-square", "message": "other text"}),
        )
        .await;
    assert!(
        e["message"].as_str().unwrap_or("").contains("draft text"),
        "a different draft is never replaced: {e}"
    );
    let (v, log) = env
        .ok("delete_draft", json!({"channel": "town-square"}))
        .await;
    assert_eq!(v["message"], "draft text", "{v}");
    record("delete_draft", &log);
    let (v, _) = env
        .ok("delete_draft", json!({"channel": "town-square"}))
        .await;
    assert_eq!(v["deleted"], false);

    let at = future(24);
    let (v, log) = env
        .ok("set_post_reminder", json!({"post": ids.bob_root, "at": at}))
        .await;
    assert_eq!(v["post_id"], json!(ids.bob_root));
    let reminders = env.sim.with_world(|w| w.reminders_of(&ids.alice));
    assert_eq!(reminders.len(), 1, "{reminders:?}");
    record("set_post_reminder", &log);

    for (tool, n, writes) in &counts {
        eprintln!("{protocol:?} {tool}: {n} requests, writes {writes:?}");
    }
    if legacy {
        // Request counts in the legacy form (the stateless form reads again on the retried call).
        // In this order in one session: the person's channels, teams and the server's limits are read by
        // the first tool and reused (30 s, 5 min) by the others.
        let expected: &[(&str, usize, &[&str])] = &[
            (
                "create_post",
                9,
                &["POST /api/v4/files", "POST /api/v4/posts"],
            ),
            (
                "send_direct_message",
                3,
                &["POST /api/v4/channels/direct", "POST /api/v4/posts"],
            ),
            ("update_post", 5, &["PUT /api/v4/posts/"]),
            ("delete_post", 4, &["DELETE /api/v4/posts/"]),
            ("add_reaction", 3, &["POST /api/v4/reactions"]),
            ("remove_reaction", 3, &["DELETE /api/v4/users/"]),
            ("pin_post", 3, &["POST /api/v4/posts/"]),
            ("save_post", 2, &["PUT /api/v4/users/"]),
            ("follow_thread", 3, &["PUT /api/v4/users/"]),
            ("join_channel", 4, &["POST /api/v4/channels/"]),
            ("add_channel_members", 4, &["POST /api/v4/channels/"]),
            ("leave_channel", 2, &["DELETE /api/v4/channels/"]),
            ("create_channel", 3, &["POST /api/v4/channels"]),
            (
                "set_status",
                2,
                &["PUT /api/v4/users/", "PUT /api/v4/users/"],
            ),
            ("save_draft", 4, &["POST /api/v4/drafts"]),
            ("delete_draft", 2, &["DELETE /api/v4/users/"]),
            ("set_post_reminder", 2, &["POST /api/v4/users/"]),
        ];
        assert_eq!(counts.len(), expected.len(), "every tool is counted");
        for (tool, n, writes) in expected {
            let (_, got, got_writes) = counts.iter().find(|(t, _, _)| t == tool).expect("recorded");
            assert_eq!(got, n, "{tool} made {got} requests");
            assert_eq!(got_writes.len(), writes.len(), "{tool}: {got_writes:?}");
            for (w, prefix) in got_writes.iter().zip(writes.iter()) {
                assert!(w.starts_with(prefix), "{tool}: {w} is not {prefix}…");
            }
        }
    }
    // Every request went to an operation of the pinned spec (or the hand-written UploadFile) that
    // some writing tool declares.
    let surface = mattermost_mcp::spec_check::pinned_surface();
    let declared: Vec<&str> = mattermost_mcp::inventory::tools()
        .iter()
        .filter(|t| !t.hints.read_only)
        .flat_map(|t| t.operations())
        .collect();
    for line in counts.iter().flat_map(|(_, _, w)| w.iter()) {
        let (method, path) = line.split_once(' ').unwrap_or(("", ""));
        let op = operation_of(&surface, method, path)
            .unwrap_or_else(|| panic!("{line} is no operation of the spec"));
        assert!(
            declared.contains(&op.as_str()),
            "{line} ({op}) is declared by no writing tool"
        );
    }
    let asked = env.mcp.questions().len();
    assert!(asked >= 12, "every visible write asked: {asked}");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_writing_tool_works_when_confirmed_in_the_2025_11_25_form() {
    every_tool(Protocol::Legacy).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn every_writing_tool_works_when_confirmed_in_the_2026_07_28_form() {
    every_tool(Protocol::Stateless).await;
}

/// The operation a request went to: the spec path template with the most literal segments that matches
/// it; `POST /api/v4/files` is the hand-written UploadFile (left out of the generated client).
fn operation_of(surface: &mattermost_spec::Surface, method: &str, path: &str) -> Option<String> {
    if method == "POST" && path == "/api/v4/files" {
        return Some("UploadFile".into());
    }
    let segments: Vec<&str> = path.split('/').collect();
    surface
        .operations
        .values()
        .filter(|op| op.method.eq_ignore_ascii_case(method))
        .filter_map(|op| {
            let template: Vec<&str> = op.path.split('/').collect();
            if template.len() != segments.len() {
                return None;
            }
            let mut literal = 0;
            for (t, s) in template.iter().zip(&segments) {
                if t.starts_with('{') {
                    continue;
                }
                if t != s {
                    return None;
                }
                literal += 1;
            }
            Some((literal, op.id.clone()))
        })
        .max()
        .map(|(_, id)| id)
}

#[tokio::test(flavor = "multi_thread")]
async fn on_a_12_0_server_a_post_keeps_the_ai_mark() {
    // 12.0 strips the identity props of integrations from a person's posts (model/post.go
    // SanitizeProps); the only prop create_post sets, ai_generated_by with the author's own id, is on
    // no strip list, and the simulator answering as 12.0 keeps it.
    let (mut world, ids) = crate::writes_fixture::world();
    world.set_release("12.0.0");
    let env =
        crate::writes_fixture::start_with((world, ids), Protocol::Legacy, Answer::Accept, &[])
            .await;
    let (v, _) = env
        .ok(
            "create_post",
            json!({"channel": "town-square", "message": "on 12"}),
        )
        .await;
    assert_eq!(v["marked_ai_generated"], true, "{v}");
    let id = v["post_id"].as_str().expect("post id");
    let post = Direct::new(&env.sim, "bob").post(id).await;
    let props = post.props.clone().unwrap_or_default();
    assert_eq!(
        props.get("ai_generated_by"),
        Some(&json!(env.ids.alice)),
        "{props:?}"
    );
}
