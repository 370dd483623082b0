//! Being found and shown by clients: the server's identity in `initialize` and `server/discover`
//! (title, description, website, icons), each tool's toolset icon, the server card (SEP-2127) at
//! `/.well-known/mcp/server-card` checked against the MCP Registry's published schema and the fields
//! the SEP adds, and `server.json` checked against the same schema and against the server itself.

use crate::harness::{self, Protocol, Recorder};
use crate::http_harness::{self, Generation};
use base64::Engine;
use mattermost_mcp::identity;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const REGISTRY_SCHEMA: &str = "tests/schemas/registry-server-2025-12-11.schema.json";

fn read_json(path: &str) -> Value {
    let text = std::fs::read_to_string(Path::new(ROOT).join(path)).expect(path);
    serde_json::from_str(&text).expect(path)
}

/// The registry's schema, checked first against the sha256 its README records.
fn registry_validator() -> jsonschema::Validator {
    let bytes = std::fs::read(Path::new(ROOT).join(REGISTRY_SCHEMA)).expect("the schema");
    let sha = format!("{:x}", Sha256::digest(&bytes));
    let readme =
        std::fs::read_to_string(Path::new(ROOT).join("tests/schemas/README.md")).expect("README");
    assert!(
        readme.contains(&sha),
        "{REGISTRY_SCHEMA} has sha256 {sha}, not the one tests/schemas/README.md records: it was edited"
    );
    let schema: Value = serde_json::from_slice(&bytes).expect("JSON");
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

fn errors(validator: &jsonschema::Validator, value: &Value) -> Vec<String> {
    validator
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// The bytes of a `data:image/png;base64,` URI.
fn png_of(uri: &str) -> Vec<u8> {
    let b64 = uri
        .strip_prefix("data:image/png;base64,")
        .unwrap_or_else(|| panic!("a PNG data URI: {uri:.60}"));
    base64::engine::general_purpose::STANDARD
        .decode(b64)
        .expect("base64")
}

#[test]
fn server_json_is_valid_for_the_registry_and_says_what_the_server_says() {
    let validator = registry_validator();
    let server = read_json("server.json");
    let errs = errors(&validator, &server);
    assert!(errs.is_empty(), "server.json: {errs:#?}");
    assert_eq!(server["name"], json!(identity::REGISTRY_NAME));
    assert_eq!(server["title"], json!(identity::TITLE));
    assert_eq!(server["description"], json!(identity::DESCRIPTION));
    assert_eq!(server["version"], json!(identity::VERSION));
    assert_eq!(server["websiteUrl"], json!(identity::WEBSITE));
    assert_eq!(server["repository"]["url"], json!(identity::REPOSITORY));

    // The check sees a bad entry: a name without its namespace, a description past 100 characters.
    let mut bad = server.clone();
    bad["name"] = json!("mattermost-mcp");
    bad["description"] = json!("x".repeat(101));
    assert_eq!(errors(&validator, &bad).len(), 2, "{bad}");
}

#[tokio::test(flavor = "multi_thread")]
async fn initialize_and_discover_give_title_description_website_and_icons() {
    let (world, _) = harness::rich_world();
    let sim = mattermost_sim::Sim::start(world).await.expect("sim");
    for protocol in [Protocol::Legacy, Protocol::Stateless] {
        let mcp = harness::spawn_as(
            &sim.url(),
            &sim.token("alice"),
            &[],
            &[],
            protocol,
            Recorder::default(),
        )
        .await;
        let info = mcp.client.peer_info().expect("the server's info");
        let me = info.server_info.clone().expect("serverInfo");
        assert_eq!(me.name, "mattermost-mcp", "{protocol:?}");
        assert_eq!(me.title.as_deref(), Some(identity::TITLE));
        assert_eq!(me.description.as_deref(), Some(identity::DESCRIPTION));
        assert_eq!(me.website_url.as_deref(), Some(identity::WEBSITE));
        let icons = me.icons.expect("icons");
        assert_eq!(icons.len(), 1);
        assert_eq!(icons[0].mime_type.as_deref(), Some("image/png"));
        assert_eq!(icons[0].sizes.as_deref(), Some(&["64x64".to_string()][..]));
        assert_eq!(
            png_of(&icons[0].src),
            std::fs::read(Path::new(ROOT).join("assets/icon-64.png")).expect("the icon")
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_tool_carries_its_toolsets_icon() {
    let (world, _) = harness::rich_world();
    let sim = mattermost_sim::Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(
        &sim.url(),
        &sim.token("alice"),
        &[
            ("MATTERMOST_TOOLSETS", "all"),
            ("MATTERMOST_ALLOW_WRITES", "true"),
        ],
        &[],
    )
    .await;
    let tools = mcp.client.list_all_tools().await.expect("tools/list");
    assert!(tools.len() > 20);
    let mut by_toolset: std::collections::BTreeMap<&str, Vec<u8>> = Default::default();
    for t in &tools {
        let declared = mattermost_mcp::inventory::tools()
            .iter()
            .find(|d| d.name == t.name)
            .expect("a declared tool");
        let set = declared.toolset.name();
        let icons = t
            .icons
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no icon", t.name));
        assert_eq!(icons.len(), 1, "{}", t.name);
        let png = png_of(&icons[0].src);
        let want = std::fs::read(Path::new(ROOT).join(format!("assets/toolsets/{set}.png")))
            .expect("the toolset's glyph");
        assert_eq!(png, want, "{} carries the icon of toolset {set}", t.name);
        by_toolset.insert(set, png);
    }
    assert_eq!(
        by_toolset.len(),
        7,
        "every toolset listed: {:?}",
        by_toolset.keys()
    );
    let distinct: std::collections::BTreeSet<&Vec<u8>> = by_toolset.values().collect();
    assert_eq!(distinct.len(), 7, "each toolset has its own icon");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_server_card_is_served_to_anyone_and_says_how_to_connect() {
    let (world, _) = harness::rich_world();
    let sim = mattermost_sim::Sim::start(world).await.expect("sim");
    let server = http_harness::spawn(&sim.url(), &[], &[]).await;
    let http = http_harness::http();
    // No token, and a web page of another origin: the card is public (CORS *).
    let r = http
        .get(format!("{}/.well-known/mcp/server-card", server.base()))
        .header("Origin", "https://elsewhere.example")
        .send()
        .await
        .expect("answered");
    assert_eq!(r.status(), 200);
    let header = |name: &str| {
        r.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(header("content-type"), "application/json");
    assert_eq!(header("access-control-allow-origin"), "*");
    assert!(
        header("cache-control").contains("max-age="),
        "{}",
        header("cache-control")
    );
    let card: Value = r.json().await.expect("JSON");

    // The registry's schema (the SEP's card is server.json's shape without packages).
    let errs = errors(&registry_validator(), &card);
    assert!(errs.is_empty(), "the card: {errs:#?}\n{card:#}");
    // The fields SEP-2127 defines beyond it.
    assert_eq!(
        card["$schema"],
        json!("https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json")
    );
    assert_eq!(card["name"], json!(identity::REGISTRY_NAME));
    assert_eq!(card["version"], json!(identity::VERSION));
    assert!(
        card.get("packages").is_none(),
        "no local packages in a card"
    );
    let remotes = card["remotes"].as_array().expect("remotes");
    assert_eq!(remotes.len(), 1);
    let remote = &remotes[0];
    assert_eq!(remote["type"], json!("streamable-http"));
    assert_eq!(remote["url"], json!(server.endpoint()));
    let versions: Vec<&str> = remote["supportedProtocolVersions"]
        .as_array()
        .expect("supportedProtocolVersions")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        versions.contains(&"2025-11-25") && versions.contains(&"2026-07-28"),
        "{versions:?}"
    );
    assert_eq!(remote["authentication"]["required"], json!(true));
    assert_eq!(
        remote["authentication"]["schemes"],
        json!(["bearer", "oauth2"])
    );

    // The capabilities are those a connected client is given.
    let client = http_harness::connect(
        &server.endpoint(),
        &sim.token("alice"),
        Generation::Sessions,
    )
    .await;
    let given = client
        .service
        .peer_info()
        .map(|i| serde_json::to_value(&i.capabilities).expect("JSON"))
        .expect("peer info");
    assert_eq!(card["capabilities"], given, "the card's capabilities");
    assert!(card["capabilities"]["tools"].is_object());

    // Its icon is served where it says, as the PNG in the repository.
    let src = card["icons"][0]["src"].as_str().expect("an icon");
    assert_eq!(src, format!("{}/icon.png", server.base()));
    let icon = http.get(src).send().await.expect("the icon");
    assert_eq!(icon.status(), 200);
    assert_eq!(
        icon.headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("image/png")
    );
    assert_eq!(
        icon.bytes().await.expect("bytes").to_vec(),
        std::fs::read(Path::new(ROOT).join("assets/icon-64.png")).expect("the icon")
    );

    // Only reading: a POST is told to GET.
    let post = http
        .post(format!("{}/.well-known/mcp/server-card", server.base()))
        .send()
        .await
        .expect("answered");
    assert_eq!(post.status(), 405);
}
