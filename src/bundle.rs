//! `mattermost-mcp bundle`: a Claude Desktop bundle (`.mcpb`, the MCP Bundle format of
//! `@anthropic-ai/mcpb`) of this very binary, so a person installs the server by opening one file.
//!
//! The bundle is a zip of `manifest.json` (manifest version 0.3: the server's name, version,
//! description and icon from [`crate::identity`]; the user settings Claude Desktop asks for when it
//! installs it, the Mattermost address and the token, the token marked sensitive so it is kept in the
//! system's keychain and never shown; the tools it offers by default), `icon.png` (512x512), and
//! `server/mattermost-mcp` (the binary, executable), which Claude Desktop runs over stdio with the
//! settings in its environment. One bundle holds one platform's binary: the manifest says which.

use crate::config;
use crate::identity;
use crate::inventory::Offer;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The manifest version written (Claude Desktop and `mcpb validate` read it).
pub(crate) const MANIFEST_VERSION: &str = "0.3";
/// Where the binary sits inside the bundle.
pub(crate) const ENTRY_POINT: &str = "server/mattermost-mcp";

/// `manifest.json`.
#[derive(Serialize)]
pub(crate) struct Manifest {
    pub(crate) manifest_version: &'static str,
    pub(crate) name: &'static str,
    pub(crate) display_name: &'static str,
    pub(crate) version: &'static str,
    pub(crate) description: &'static str,
    pub(crate) long_description: String,
    pub(crate) author: Author,
    pub(crate) repository: Repository,
    pub(crate) homepage: &'static str,
    pub(crate) documentation: &'static str,
    pub(crate) support: String,
    pub(crate) icon: &'static str,
    pub(crate) server: Server,
    pub(crate) tools: Vec<ManifestTool>,
    pub(crate) keywords: Vec<&'static str>,
    pub(crate) license: &'static str,
    pub(crate) compatibility: Compatibility,
    pub(crate) user_config: BTreeMap<&'static str, Setting>,
}

#[derive(Serialize)]
pub(crate) struct Author {
    pub(crate) name: &'static str,
    pub(crate) url: &'static str,
}

#[derive(Serialize)]
pub(crate) struct Repository {
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    pub(crate) url: &'static str,
}

#[derive(Serialize)]
pub(crate) struct Server {
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    pub(crate) entry_point: &'static str,
    pub(crate) mcp_config: McpConfig,
}

#[derive(Serialize)]
pub(crate) struct McpConfig {
    pub(crate) command: String,
    pub(crate) args: Vec<String>,
    pub(crate) env: BTreeMap<&'static str, String>,
}

#[derive(Serialize)]
pub(crate) struct ManifestTool {
    pub(crate) name: &'static str,
    pub(crate) description: String,
}

#[derive(Serialize)]
pub(crate) struct Compatibility {
    pub(crate) platforms: Vec<&'static str>,
}

/// A setting Claude Desktop asks the person for at install.
#[derive(Serialize)]
pub(crate) struct Setting {
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    pub(crate) title: &'static str,
    pub(crate) description: &'static str,
    pub(crate) required: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) sensitive: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) default: Option<serde_json::Value>,
}

/// The platform this binary runs on, as the manifest names it.
pub(crate) fn platform() -> &'static str {
    match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        _ => "linux",
    }
}

/// The manifest of a bundle of this server's binary.
pub(crate) fn manifest() -> Manifest {
    let mut env = BTreeMap::new();
    env.insert(config::URL, "${user_config.mattermost_url}".to_string());
    env.insert(config::TOKEN, "${user_config.mattermost_token}".to_string());
    env.insert(
        config::ALLOW_WRITES,
        "${user_config.allow_writes}".to_string(),
    );
    let mut settings = BTreeMap::new();
    settings.insert(
        "mattermost_url",
        Setting {
            kind: "string",
            title: "Mattermost address",
            description: "Your Mattermost server's address, e.g. https://chat.example.com",
            required: true,
            sensitive: false,
            default: None,
        },
    );
    settings.insert(
        "mattermost_token",
        Setting {
            kind: "string",
            title: "Access token",
            description: "A personal access token (Mattermost: Profile > Security > Personal Access Tokens) or a \
                          bot's token. Kept in your system's keychain; never logged or shown to the model.",
            required: true,
            sensitive: true,
            default: None,
        },
    );
    settings.insert(
        "allow_writes",
        Setting {
            kind: "boolean",
            title: "Allow writes",
            description: "Also offer the tools that post, react, edit and the like; every write others will see \
                          is confirmed with you first. Off: the tools only read.",
            required: false,
            sensitive: false,
            default: Some(serde_json::Value::Bool(false)),
        },
    );
    let tools = Offer::new(None, false)
        .map(|o| o.tools())
        .unwrap_or_default()
        .into_iter()
        .map(|t| ManifestTool {
            name: t.name,
            description: t.title.to_string(),
        })
        .collect();
    Manifest {
        manifest_version: MANIFEST_VERSION,
        name: identity::NAME,
        display_name: identity::TITLE,
        version: identity::VERSION,
        description: identity::DESCRIPTION,
        long_description: format!(
            "{} Every list pages by cursor to its end; nothing is written unless you allow writes, and \
             then each write others will see is confirmed with you first. The token stays in your keychain \
             and is never logged or returned.",
            identity::DESCRIPTION
        ),
        author: Author {
            name: "mattermost-mcp contributors",
            url: identity::REPOSITORY,
        },
        repository: Repository {
            kind: "git",
            url: identity::REPOSITORY,
        },
        homepage: identity::WEBSITE,
        documentation: identity::WEBSITE,
        support: format!("{}/issues", identity::REPOSITORY),
        icon: "icon.png",
        server: Server {
            kind: "binary",
            entry_point: ENTRY_POINT,
            mcp_config: McpConfig {
                command: format!("${{__dirname}}/{ENTRY_POINT}"),
                args: vec!["serve".to_string()],
                env,
            },
        },
        tools,
        keywords: vec!["mattermost", "chat", "messages", "team"],
        license: identity::LICENSE,
        compatibility: Compatibility {
            platforms: vec![platform()],
        },
        user_config: settings,
    }
}

/// The file name of a bundle: `mattermost-mcp-<version>-<platform>-<arch>.mcpb`.
pub(crate) fn file_name() -> String {
    format!(
        "{}-{}-{}-{}.mcpb",
        identity::NAME,
        identity::VERSION,
        platform(),
        std::env::consts::ARCH
    )
}

/// Writes the bundle of `binary` at `output` (a file, or a directory to put [`file_name`] in); its
/// path and size.
pub fn write(binary: &Path, output: &Path) -> Result<(PathBuf, u64), String> {
    let path = if output.is_dir() {
        output.join(file_name())
    } else {
        output.to_path_buf()
    };
    let exe = std::fs::read(binary).map_err(|e| {
        format!(
            "cannot read the server binary {}: {e}. Give the binary to bundle with --binary PATH.",
            binary.display()
        )
    })?;
    let manifest = serde_json::to_vec_pretty(&manifest()).map_err(|e| e.to_string())?;
    let file = std::fs::File::create(&path).map_err(|e| {
        format!(
            "cannot create {}: {e}. Choose another --output.",
            path.display()
        )
    })?;
    let mut zip = zip::ZipWriter::new(std::io::BufWriter::new(file));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let entries: [(&str, &[u8], u32); 3] = [
        ("manifest.json", &manifest, 0o644),
        ("icon.png", identity::BUNDLE_ICON_PNG, 0o644),
        (ENTRY_POINT, &exe, 0o755),
    ];
    let failed = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    for (name, bytes, mode) in entries {
        zip.start_file(
            name,
            deflated
                .unix_permissions(mode)
                .large_file(bytes.len() as u64 >= u64::from(u32::MAX)),
        )
        .map_err(|e| failed(&e))?;
        zip.write_all(bytes).map_err(|e| failed(&e))?;
    }
    let mut out = zip.finish().map_err(|e| failed(&e))?;
    out.flush().map_err(|e| failed(&e))?;
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    Ok((path, size))
}
