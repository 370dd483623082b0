//! `mattermost-mcp bundle`: the Claude Desktop bundle holds the manifest (name, version,
//! description, icon, the Mattermost address and the token as user settings, the token sensitive),
//! the 512x512 icon and this very binary, executable; unpacked, the manifest's command with the
//! person's settings substituted is a server that answers `initialize`. (`mcpb validate`, the bundle
//! format's own check, runs on it in CI: tests/node/bundle_check.mjs.)

use crate::harness::BIN;
use mattermost_mcp::identity;
use rmcp::ServiceExt;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mmcp-bundle-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Replaces `${__dirname}` and `${user_config.KEY}` as Claude Desktop does.
fn substitute(text: &str, dir: &Path, settings: &[(&str, &str)]) -> String {
    let mut s = text.replace("${__dirname}", &dir.display().to_string());
    for (k, v) in settings {
        s = s.replace(&format!("${{user_config.{k}}}"), v);
    }
    s
}

#[tokio::test(flavor = "multi_thread")]
async fn the_bundle_holds_the_manifest_the_icon_and_this_binary_and_unpacks_to_a_server() {
    let dir = scratch("out");
    let out = std::process::Command::new(BIN)
        .args(["bundle", "--output"])
        .arg(&dir)
        .env("MATTERMOST_MCP_LOG", "info")
        .output()
        .expect("bundle runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let path = std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    assert!(
        path.starts_with(&dir)
            && path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("mattermost-mcp-") && n.ends_with(".mcpb")),
        "{}",
        path.display()
    );
    let mut zip =
        zip::ZipArchive::new(std::fs::File::open(&path).expect("the bundle")).expect("a zip");
    let mut names: Vec<String> = zip
        .file_names()
        .map(|n| n.expect("a file name").to_string())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["icon.png", "manifest.json", "server/mattermost-mcp"]
    );

    let mut read = |name: &str| {
        let mut f = zip.by_name(name).expect(name);
        let mode = f.unix_mode();
        let mut bytes = Vec::new();
        f.read_to_end(&mut bytes).expect(name);
        (bytes, mode)
    };
    let (manifest, _) = read("manifest.json");
    let (icon, _) = read("icon.png");
    let (binary, mode) = read("server/mattermost-mcp");
    assert_eq!(
        mode.map(|m| m & 0o777),
        Some(0o755),
        "the binary is executable"
    );
    let this = std::fs::read(BIN).expect("this binary");
    assert_eq!(
        Sha256::digest(&binary),
        Sha256::digest(&this),
        "the bundled binary is this one"
    );
    assert_eq!(icon, identity::BUNDLE_ICON_PNG);

    let m: Value = serde_json::from_slice(&manifest).expect("manifest.json is JSON");
    assert_eq!(m["manifest_version"], json!("0.3"));
    assert_eq!(m["name"], json!("mattermost-mcp"));
    assert_eq!(m["display_name"], json!(identity::TITLE));
    assert_eq!(m["version"], json!(identity::VERSION));
    assert_eq!(m["description"], json!(identity::DESCRIPTION));
    assert_eq!(m["icon"], json!("icon.png"));
    assert_eq!(m["server"]["type"], json!("binary"));
    assert_eq!(m["server"]["entry_point"], json!("server/mattermost-mcp"));
    let settings = &m["user_config"];
    assert_eq!(settings["mattermost_url"]["required"], json!(true));
    assert_ne!(
        settings["mattermost_url"]["sensitive"],
        json!(true),
        "the address is no secret"
    );
    assert_eq!(settings["mattermost_token"]["required"], json!(true));
    assert_eq!(
        settings["mattermost_token"]["sensitive"],
        json!(true),
        "the token is kept in the keychain"
    );
    let env = &m["server"]["mcp_config"]["env"];
    assert_eq!(
        env["MATTERMOST_URL"],
        json!("${user_config.mattermost_url}")
    );
    assert_eq!(
        env["MATTERMOST_TOKEN"],
        json!("${user_config.mattermost_token}")
    );
    let listed: Vec<&str> = m["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(
        listed.contains(&"read_channel") && !listed.contains(&"create_post"),
        "the tools offered by default, no writing one: {listed:?}"
    );

    // Unpacked, the manifest's command with the person's settings is a server.
    let unpacked = scratch("unpacked");
    std::fs::create_dir_all(unpacked.join("server")).expect("mkdir");
    let exe = unpacked.join("server/mattermost-mcp");
    std::fs::write(&exe, &binary).expect("unpack");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(mode.unwrap_or(0)))
            .expect("mode");
    }
    let (world, _) = crate::harness::rich_world();
    let sim = mattermost_sim::Sim::start(world).await.expect("sim");
    let person = [
        ("mattermost_url", sim.url()),
        ("mattermost_token", sim.token("alice")),
        ("allow_writes", "false".to_string()),
    ];
    let person: Vec<(&str, &str)> = person.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let config = &m["server"]["mcp_config"];
    let command = substitute(
        config["command"].as_str().expect("command"),
        &unpacked,
        &person,
    );
    let args: Vec<String> = config["args"]
        .as_array()
        .expect("args")
        .iter()
        .map(|a| substitute(a.as_str().expect("an arg"), &unpacked, &person))
        .collect();
    let env: Vec<(String, String)> = env
        .as_object()
        .expect("env")
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                substitute(v.as_str().expect("a value"), &unpacked, &person),
            )
        })
        .collect();
    let child = tokio::process::Command::new(&command).configure(|c| {
        c.args(&args).env_clear();
        for (k, v) in &env {
            c.env(k, v);
        }
    });
    let client =
        ().serve(TokioChildProcess::new(child).expect("start the unpacked server"))
            .await
            .expect("the unpacked server answers initialize");
    let info = client.peer_info().expect("server info");
    let me = info.server_info.clone().expect("serverInfo");
    assert_eq!(me.name, "mattermost-mcp");
    assert_eq!(me.title.as_deref(), Some(identity::TITLE));
    let tools = client.list_all_tools().await.expect("tools/list");
    assert!(tools.iter().any(|t| t.name == "read_channel"));
    let _ = client.cancel().await;
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&unpacked);
}
