//! A post's files: read from the `files` argument (`{name, content}` as UTF-8 text or
//! `{name, content_base64}`), checked before anything is sent (at most 10, none over the server's
//! `MaxFileSize`, none that looks like a credential by its name or its content), and uploaded in one
//! multipart `UploadFile` request once the person confirmed.

use super::checks::{Limits, credential};
use crate::confirm::Cleared;
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::upload::{Upload, upload_files};
use base64::Engine;
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// The most files a post takes.
pub(crate) const MAX_FILES: usize = 10;

/// One file as the arguments give it.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct FileArg {
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) content: Option<String>,
    #[serde(default)]
    pub(crate) content_base64: Option<String>,
}

/// A file checked and ready to upload.
pub(crate) struct Prepared {
    pub(crate) name: String,
    pub(crate) bytes: Vec<u8>,
    /// The sha256 of its bytes, which the confirmation is bound to.
    pub(crate) sha256: String,
}

/// File names that hold credentials by what they are, whatever their content.
fn credential_name(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    if lower == ".env"
        || (lower.starts_with(".env.") && !["example", "sample", "template"].contains(&ext))
    {
        return Some("an environment file (.env)");
    }
    if [
        ".netrc",
        "_netrc",
        ".git-credentials",
        ".npmrc",
        ".pypirc",
        ".pgpass",
        "credentials",
        "credentials.json",
        "id_rsa",
        "id_dsa",
        "id_ecdsa",
        "id_ed25519",
        "known_hosts",
        "authorized_keys",
        ".htpasswd",
        "login data",
        "cookies",
        "key4.db",
        "logins.json",
    ]
    .contains(&lower.as_str())
    {
        return Some("a credentials file");
    }
    if [
        "pem", "key", "p12", "pfx", "jks", "kdbx", "keychain", "ppk", "gpg", "asc",
    ]
    .contains(&ext)
    {
        return Some("a key or keystore file");
    }
    None
}

fn human(bytes: u64) -> String {
    match bytes {
        b if b >= 1024 * 1024 => format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)),
        b if b >= 1024 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{b} bytes"),
    }
}

/// Reads and checks the files; refuses the first that cannot go, saying why.
pub(crate) fn prepare(
    cx: &Ctx,
    tool: &str,
    files: &[FileArg],
    limits: &Limits,
) -> Result<Vec<Prepared>, ToolError> {
    if files.len() > MAX_FILES {
        return Err(ToolError::bad_argument(format!(
            "{tool} got {} files; a post takes at most {MAX_FILES}. Send the others in another post.",
            files.len()
        )));
    }
    let mut out = Vec::new();
    for f in files {
        let bytes = match (&f.content, &f.content_base64) {
            (Some(text), None) => text.as_bytes().to_vec(),
            (None, Some(b64)) => base64::engine::general_purpose::STANDARD
                .decode(b64.trim())
                .map_err(|e| {
                    ToolError::bad_argument(format!(
                        "The content_base64 of the file {} is not base64 ({e}). Give the file's bytes in standard \
                         base64, or its text as `content`.",
                        quote(&f.name)
                    ))
                })?,
            _ => {
                return Err(ToolError::bad_argument(format!(
                    "The file {} needs exactly one of `content` (UTF-8 text) and `content_base64`.",
                    quote(&f.name)
                )));
            }
        };
        if bytes.len() as u64 > limits.max_file {
            return Err(ToolError::new(
                ErrorKind::TooLarge,
                format!(
                    "The file {} is {} ({} bytes); this Mattermost takes files of at most {} ({} bytes, its \
                     MaxFileSize). Nothing was sent. Send a smaller file, or a link to it.",
                    quote(&f.name),
                    human(bytes.len() as u64),
                    bytes.len(),
                    human(limits.max_file),
                    limits.max_file
                ),
            ));
        }
        if let Some(kind) = credential_name(&f.name) {
            return Err(refused_credential(tool, &f.name, kind));
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Some(kind) = credential(&text, cx.token().expose()) {
            return Err(refused_credential(tool, &f.name, kind));
        }
        let sha256 = crate::hex::hex(&Sha256::digest(&bytes));
        out.push(Prepared {
            name: f.name.clone(),
            bytes,
            sha256,
        });
    }
    Ok(out)
}

fn refused_credential(tool: &str, name: &str, kind: &str) -> ToolError {
    ToolError::new(
        ErrorKind::Refused,
        format!(
            "The file {} of {tool} looks like {kind}. Nothing was sent: files that hold credentials are never \
             attached through this server. Leave it out.",
            quote(name)
        ),
    )
    .with("file", serde_json::json!(name))
    .with("looks_like", serde_json::json!(kind))
}

/// How the files are listed in a question.
pub(crate) fn listed(files: &[Prepared]) -> String {
    files
        .iter()
        .map(|f| format!("{} ({})", f.name, human(f.bytes.len() as u64)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Uploads the files to the channel in one request; answers their ids in order.
pub(crate) async fn upload(
    cx: &Ctx,
    _cleared: &Cleared,
    channel_id: &str,
    files: Vec<Prepared>,
) -> Result<Vec<String>, ToolError> {
    if files.is_empty() {
        return Ok(Vec::new());
    }
    let names: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
    let uploads: Vec<Upload> = files
        .into_iter()
        .map(|f| Upload {
            name: f.name,
            bytes: f.bytes,
        })
        .collect();
    let boundary = format!("mattermost-mcp-{}", crate::confirm::random_hex(12)?);
    let infos = upload_files(cx.api(), channel_id, &uploads, &boundary)
        .await
        .map_err(|e| {
            let mut err = cx.fail(e, "file upload to channel", channel_id);
            err.message.push_str(" No post was made.");
            err
        })?;
    let ids: Vec<String> = infos.into_iter().filter_map(|i| i.id).collect();
    if ids.len() != names.len() {
        return Err(ToolError::new(
            ErrorKind::MattermostFailed,
            format!(
                "Mattermost stored {} of the {} files ({}); no post was made. Try again.",
                ids.len(),
                names.len(),
                names.join(", ")
            ),
        ));
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credential_files_are_known_by_name() {
        for bad in [
            ".env",
            ".env.production",
            "id_rsa",
            "server.pem",
            "Store.KDBX",
            ".npmrc",
        ] {
            assert!(credential_name(bad).is_some(), "{bad}");
        }
        for fine in [".env.example", "notes.txt", "report.pdf", "keynote.md"] {
            assert!(credential_name(fine).is_none(), "{fine}");
        }
    }
}
