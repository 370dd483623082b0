//! What a model reads, checked on the demo workspace: every tool's answer matches the output schema it
//! publishes (each list at limit 1 and at its maximum), cursors are short and bound to their person,
//! and a page of posts costs few bytes.

use crate::harness::{self, Mcp};
use mattermost_mcp::args::Kind;
use mattermost_mcp::inventory::Offer;
use mattermost_mcp::tool::{Answer, Tool};
use mattermost_sim::{Sim, World};
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// Ids the demo holds, found through the tools themselves.
struct Demo {
    channel: String,
    team: String,
    post: String,
    file: String,
}

async fn start_demo() -> (Sim, Mcp, Demo) {
    let world = World::demo();
    let team = world.team_id("acme").expect("the demo's acme team");
    let channel = world
        .channel_id("acme", "town-square")
        .expect("acme's town-square");
    let post = world.post_ids_in(&channel).last().cloned().expect("a post");
    let sim = Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(
        &sim.url(),
        &sim.token("demo"),
        &[
            ("MATTERMOST_ALLOW_WRITES", "false"),
            ("MATTERMOST_TOOLSETS", "all"),
        ],
        &[],
    )
    .await;
    let files = mcp
        .ok("search_files", json!({"terms": "txt", "limit": 50}))
        .await;
    // A text file: the other kinds are read by the attachment readers (see `files.rs`).
    let file = files["items"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|f| {
            f["mime_type"]
                .as_str()
                .is_some_and(|m| m.starts_with("text/"))
        })
        .and_then(|f| f["id"].as_str())
        .expect("a text file in the demo")
        .to_string();
    (
        sim,
        mcp,
        Demo {
            channel,
            team,
            post,
            file,
        },
    )
}

fn args_for(tool: &Tool, d: &Demo) -> Map<String, Value> {
    let mut args = Map::new();
    for a in tool.all_args().iter().filter(|a| a.required) {
        let v = match a.kind {
            Kind::Channel => json!(d.channel),
            Kind::Team => json!(d.team),
            Kind::Post => json!(d.post),
            Kind::User => json!("alice"),
            Kind::Users { .. } => json!(["alice", "demo"]),
            Kind::Text { .. } if a.name == "file" => json!(d.file),
            Kind::Text { .. } if a.name == "operation" => json!("GetAllTeams"),
            Kind::Text { .. } if a.name == "query" => json!("teams"),
            Kind::Text { .. } => json!("the"),
            Kind::Time => json!("2020-01-01"),
            Kind::Flag => json!(false),
            Kind::Seconds { .. } => json!(1),
            Kind::Files { .. }
            | Kind::Object { .. }
            | Kind::Choices { .. }
            | Kind::Limit
            | Kind::Cursor => continue,
        };
        args.insert(a.name.to_string(), v);
    }
    args
}

#[tokio::test(flavor = "multi_thread")]
async fn every_tool_answers_the_demo_as_its_published_output_schema_says() {
    let (_sim, mcp, demo) = start_demo().await;
    let listed: HashMap<String, rmcp::model::Tool> = mcp
        .list_all_tools()
        .await
        .into_iter()
        .map(|t| (t.name.to_string(), t))
        .collect();
    let mut validated = 0;
    for tool in Offer::new(Some("all"), false).expect("all").tools() {
        let published = listed
            .get(tool.name)
            .unwrap_or_else(|| panic!("{} is listed", tool.name));
        let schema = Value::Object(
            published
                .output_schema
                .as_ref()
                .expect("an output schema")
                .as_ref()
                .clone(),
        );
        let validator = jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("{}: the schema compiles: {e}", tool.name));
        let base = args_for(tool, &demo);
        let limits: Vec<Option<u32>> = match tool.answer {
            Answer::List { limit, .. } => vec![Some(1), Some(limit.max)],
            _ => vec![None],
        };
        for limit in limits {
            let mut args = base.clone();
            if let Some(l) = limit {
                args.insert("limit".into(), json!(l));
            }
            let answer = mcp.ok(tool.name, Value::Object(args.clone())).await;
            let errors: Vec<String> = validator
                .iter_errors(&answer)
                .map(|e| format!("{e} at {}", e.instance_path()))
                .collect();
            assert!(
                errors.is_empty(),
                "{} {} answered outside its schema:\n{}\nanswer: {answer}",
                tool.name,
                Value::Object(args),
                errors.join("\n")
            );
            validated += 1;
        }
    }
    assert!(validated >= 3, "only {validated} answers validated");
}

#[test]
fn the_schema_check_catches_an_answer_outside_the_schema() {
    let tool = mattermost_mcp::inventory::find("read_channel").expect("read_channel");
    let schema = Value::Object((tool.code.output)());
    let validator = jsonschema::validator_for(&schema).expect("compiles");
    let good = json!({"items": [], "returned": 0, "has_more": false, "total_known": false, "requests": 1,
                      "channel_id": "c", "permalink": "p"});
    assert!(
        validator.is_valid(&good),
        "{:?}",
        validator
            .iter_errors(&good)
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    let bad = json!({"items": [{"id": 5}], "returned": 1, "has_more": false, "requests": 1, "channel_id": "c", "permalink": "p"});
    assert!(!validator.is_valid(&bad));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_of_200_posts_on_the_demo_costs_at_most_150_bytes_a_post() {
    let (_sim, mcp, demo) = start_demo().await;
    let r = mcp
        .result(
            "read_channel",
            json!({"channel": demo.channel, "limit": 200}),
        )
        .await;
    let text = r
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .expect("a text copy");
    let page: Value = serde_json::from_str(&text).expect("JSON");
    let posts = page["items"].as_array().map(Vec::len).unwrap_or(0);
    assert!(posts >= 100, "a full page: {posts} posts");
    let with_reactions = page["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p.get("reactions").is_some())
        .count();
    let per_post = text.len() / posts;
    println!(
        "read_channel at limit 200 on the demo: {} bytes for {posts} posts ({with_reactions} with reactions): {per_post} bytes a post",
        text.len()
    );
    assert!(per_post <= 150, "{per_post} bytes a post");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_list_tool_gives_cursors_of_at_most_80_characters_that_are_not_base64_json() {
    let (world, rich) = harness::rich_world();
    let sim = Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(
        &sim.url(),
        &sim.token("alice"),
        &[("MATTERMOST_TOOLSETS", "all")],
        &[],
    )
    .await;
    let mut seen = 0;
    for tool in Offer::everything().tools() {
        if !matches!(tool.answer, Answer::List { .. })
            || (tool.writes() && !tool.planned_per_call())
        {
            continue;
        }
        let mut args = harness::obj(harness::sample_args(tool, &rich));
        args.insert("limit".into(), json!(1));
        let page = mcp.ok(tool.name, Value::Object(args)).await;
        let Some(cursor) = page["next_cursor"].as_str() else {
            continue;
        };
        seen += 1;
        assert!(
            cursor.len() <= 80,
            "{}: a cursor of {} characters: {cursor}",
            tool.name,
            cursor.len()
        );
        assert!(
            cursor.split('.').all(|g| g.len() <= 8),
            "{}: grouped: {cursor}",
            tool.name
        );
        use base64::Engine;
        let decoded =
            base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(cursor.replace('.', ""));
        assert!(
            decoded
                .map(|b| serde_json::from_slice::<Value>(&b).is_err())
                .unwrap_or(true),
            "{}: not base64 of JSON",
            tool.name
        );
    }
    assert!(seen >= 2, "only {seen} list tools gave a cursor");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cursor_made_for_one_person_is_refused_for_another() {
    let (world, rich) = harness::rich_world();
    let sim = Sim::start(world).await.expect("sim");
    let alice = harness::spawn(&sim.url(), &sim.token("alice"), &[], &[]).await;
    let bob = harness::spawn(&sim.url(), &sim.token("bob"), &[], &[]).await;
    let page = alice
        .ok("read_channel", json!({"channel": rich.channel, "limit": 2}))
        .await;
    let cursor = page["next_cursor"]
        .as_str()
        .expect("more pages")
        .to_string();
    sim.clear_log();
    let e = bob
        .refused(
            "read_channel",
            json!({"channel": rich.channel, "limit": 2, "cursor": cursor}),
        )
        .await;
    assert_eq!(e["kind"], json!("bad_cursor"));
    let m = e["message"].as_str().unwrap_or_default();
    assert!(
        m.contains("made for another person") && m.contains("without `cursor`"),
        "{m}"
    );
    assert!(
        sim.log().iter().all(|r| !r.path.contains("/posts")),
        "nothing was read with another person's cursor"
    );
}
