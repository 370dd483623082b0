//! The writing tools through rmcp's client against the simulator, in both protocol forms: what each
//! sends after the person confirmed (read back as the person), how many requests it makes, and the
//! checks that refuse before anything is asked or sent.

use crate::harness::{Answer, Protocol};
use crate::writes_fixture::{Direct, Env, start};
use serde_json::{Value, json};

const BOTH: [Protocol; 2] = [Protocol::Legacy, Protocol::Stateless];

/// Calls a tool that must succeed, and answers its result with the requests it made (method and path).
async fn ok(env: &Env, tool: &str, args: Value) -> (Value, Vec<String>) {
    env.sim.clear_log();
    let v = env.mcp.ok(tool, args).await;
    let log = env
        .log()
        .iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    (v, log)
}

fn count(log: &[String], prefix: &str) -> usize {
    log.iter().filter(|l| l.starts_with(prefix)).count()
}

#[tokio::test(flavor = "multi_thread")]
async fn create_post_asks_then_posts_once_marked_in_both_forms() {
    for protocol in BOTH {
        let env = start(protocol, Answer::Accept, &[]).await;
        let town = env.ids.town.clone();
        let before = env.sim.with_world(|w| w.post_ids_in(&town).len());
        let (v, log) = ok(
            &env,
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
            q.contains("I'll take it, @bob") && q.contains("~town-square") && q.contains("2 other members"),
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
