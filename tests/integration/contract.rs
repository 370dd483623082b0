//! The public contract clients see: a snapshot of every published tool definition (name, title,
//! description, annotations, input and output schema), so that any change to it shows in review; the
//! size of `tools/list`; and the toolsets `MATTERMOST_TOOLSETS` chooses.
//!
//! After an intended change, refresh the snapshot with
//! `UPDATE_SNAPSHOTS=1 cargo test --test integration contract::` and review the diff of
//! `tests/snapshots/tools.json`.

use crate::harness;
use mattermost_mcp::inventory::Offer;
use mattermost_mcp::server::describe;
use serde_json::{Value, json};
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn published(offer: &Offer) -> Vec<rmcp::model::Tool> {
    offer.tools().iter().map(|t| describe(t)).collect()
}

/// The bytes of `tools/list` answered in one page: with the tools' icons, and without them (what a
/// model reads: clients show icons to the person and never pass them to the model).
fn list_bytes_with_icons(offer: &Offer) -> (usize, usize) {
    let tools = published(offer);
    let size = |tools: Vec<rmcp::model::Tool>| {
        serde_json::to_vec(&rmcp::model::ListToolsResult::with_all_items(tools))
            .map(|v| v.len())
            .unwrap_or(usize::MAX)
    };
    let without = tools
        .iter()
        .cloned()
        .map(|mut t| {
            t.icons = None;
            t
        })
        .collect();
    (size(tools), size(without))
}

/// The bytes of `tools/list` a model reads (icons left out).
fn list_bytes(offer: &Offer) -> usize {
    list_bytes_with_icons(offer).1
}

#[test]
fn every_published_tool_definition_matches_its_snapshot() {
    let tools: Vec<Value> = published(&Offer::everything())
        .iter()
        .map(|t| serde_json::to_value(t).expect("a tool is JSON"))
        .collect();
    assert!(tools.len() >= 2);
    let now = serde_json::to_string_pretty(&json!(tools)).expect("JSON") + "\n";
    let path = Path::new(ROOT).join("tests/snapshots/tools.json");
    if std::env::var("UPDATE_SNAPSHOTS").is_ok() {
        std::fs::create_dir_all(path.parent().expect("a directory")).expect("mkdir");
        std::fs::write(&path, &now).expect("write the snapshot");
        return;
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    if kept != now {
        let old: Vec<Value> = serde_json::from_str(&kept).unwrap_or_default();
        let changed: Vec<String> = tools
            .iter()
            .filter(|t| !old.contains(t))
            .map(|t| t["name"].as_str().unwrap_or("?").to_string())
            .collect();
        panic!(
            "the published tool definitions changed ({}); if that is intended, run \
             `UPDATE_SNAPSHOTS=1 cargo test --test integration contract::` and review tests/snapshots/tools.json",
            if changed.is_empty() {
                "order or removals".to_string()
            } else {
                changed.join(", ")
            }
        );
    }
}

#[test]
fn tools_list_stays_within_its_byte_budget() {
    let default = list_bytes(&Offer::new(None, false).expect("the default offer"));
    let everything = list_bytes(&Offer::everything());
    println!(
        "tools/list: {default} bytes with the default toolsets, {everything} with every toolset and writes"
    );
    // 30,000 until wait_for_activity (about 1,100 bytes, most of it the post list's output schema)
    // and read_inbox (about 1,900) joined the default posts toolset: 33,500 bytes, about 8,400 tokens.
    assert!(
        default <= 33_500,
        "tools/list with the default toolsets is {default} bytes (budget 33,500)"
    );
    assert!(
        everything <= 64_000,
        "tools/list with every toolset is {everything} bytes (budget 64,000)"
    );
    // The toolset icons (a 32x32 PNG each, as a data: URI) stay small beside the rest.
    let (with, without) = list_bytes_with_icons(&Offer::everything());
    let per_tool = (with - without) / Offer::everything().tools().len();
    assert!(
        per_tool <= 512,
        "the icons add {per_tool} bytes a tool to tools/list (budget 512)"
    );
}

#[test]
fn every_tool_publishes_an_object_output_schema() {
    for t in published(&Offer::everything()) {
        let schema = t
            .output_schema
            .as_ref()
            .unwrap_or_else(|| panic!("{} has an outputSchema", t.name));
        assert_eq!(
            schema.get("type"),
            Some(&json!("object")),
            "{}: an object",
            t.name
        );
        assert!(
            schema.get("properties").is_some(),
            "{}: with properties",
            t.name
        );
        let text = serde_json::to_string(schema).unwrap_or_default();
        assert!(
            !text.contains("$ref") && !text.contains("$defs"),
            "{}: inlined",
            t.name
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn toolsets_choose_what_is_listed_and_an_unknown_one_stops_the_server_naming_the_accepted() {
    let (world, _) = harness::rich_world();
    let sim = mattermost_sim::Sim::start(world).await.expect("sim");
    let only_posts = harness::spawn(
        &sim.url(),
        &sim.token("alice"),
        &[("MATTERMOST_TOOLSETS", "posts")],
        &[],
    )
    .await;
    let names = only_posts.tool_names().await;
    let expected: Vec<String> = Offer::new(Some("posts"), false)
        .expect("posts")
        .tools()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, expected);
    assert!(names.iter().any(|n| n == "read_channel") && !names.iter().any(|n| n == "get_me"));

    // Writes are listed only with MATTERMOST_ALLOW_WRITES, whatever the toolsets say.
    let all_no_writes = harness::spawn(
        &sim.url(),
        &sim.token("alice"),
        &[("MATTERMOST_TOOLSETS", "all")],
        &[],
    )
    .await;
    let listed = all_no_writes.tool_names().await;
    // The operation gateway decides per call: it is listed, read-only (tests/integration/gateway.rs).
    for t in mattermost_mcp::inventory::tools()
        .iter()
        .filter(|t| t.writes() && !t.planned_per_call())
    {
        assert!(
            !listed.iter().any(|n| n == t.name),
            "{} is not listed without writes allowed",
            t.name
        );
    }

    let output = tokio::process::Command::new(harness::BIN)
        .env_clear()
        .env("MATTERMOST_URL", sim.url())
        .env("MATTERMOST_TOKEN", sim.token("alice"))
        .env("MATTERMOST_TOOLSETS", "posts,chanels")
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .expect("run the server");
    assert_eq!(
        output.status.code(),
        Some(2),
        "an unknown toolset stops the server"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`chanels`")
            && stderr.contains("people, teams, channels, posts, files, writes, api"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tool_that_writes_called_without_writes_allowed_names_the_setting() {
    let (world, rich) = harness::rich_world();
    let (_sim, mcp) = harness::start(world, "alice").await;
    let e = mcp
        .refused("mark_channel_read", json!({"channel": rich.channel}))
        .await;
    assert_eq!(e["kind"], json!("writes_not_allowed"), "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("MATTERMOST_ALLOW_WRITES=true"),
        "{e}"
    );
}

/// The places of `schema` (a JSON Schema) where a schema is expected but a bare `true` or `false`
/// stands: `items`, each of `properties`, and `anyOf`/`oneOf`/`allOf` members.
fn bare_booleans(schema: &Value, at: &str, found: &mut Vec<String>) {
    let Some(o) = schema.as_object() else {
        if schema.is_boolean() {
            found.push(at.to_string());
        }
        return;
    };
    if let Some(items) = o.get("items") {
        bare_booleans(items, &format!("{at}.items"), found);
    }
    if let Some(props) = o.get("properties").and_then(Value::as_object) {
        for (name, p) in props {
            bare_booleans(p, &format!("{at}.properties.{name}"), found);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for (i, s) in o
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            bare_booleans(s, &format!("{at}.{key}[{i}]"), found);
        }
    }
}

#[test]
fn no_published_schema_holds_a_bare_boolean_where_a_schema_is_expected() {
    // The Inspector CLI's --strict portability check refuses `"items": true` (clients that do not
    // implement boolean schemas read it as nothing), so every schema place holds an object.
    let mut found = Vec::new();
    for t in published(&Offer::everything()) {
        let input = Value::Object(t.input_schema.as_ref().clone());
        bare_booleans(&input, &format!("{}.inputSchema", t.name), &mut found);
        if let Some(out) = &t.output_schema {
            let out = Value::Object(out.as_ref().clone());
            bare_booleans(&out, &format!("{}.outputSchema", t.name), &mut found);
        }
    }
    assert!(
        found.is_empty(),
        "bare booleans where a schema is expected: {found:?}"
    );
}
