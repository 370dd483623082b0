//! The pinned release and where the build reads it from.
//!
//! `spec/pinned.yaml` names the Mattermost OpenAPI release the project is audited against: the
//! upstream file's name and sha256 (Mattermost's text, never committed) and the name and sha256 of its
//! prose-free structure ([`crate::strip`]), which is committed beside it and is what the build reads.
//! `MATTERMOST_OPENAPI` points the build at another file instead, which goes through the same stripping.

use crate::strip;
use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The environment variable that points the build (or a test) at a spec file.
pub const ENV_PATH: &str = "MATTERMOST_OPENAPI";
/// The environment variable that accepts a spec other than the pinned one, by its sha256.
pub const ENV_SHA256: &str = "MATTERMOST_OPENAPI_SHA256";

/// `spec/pinned.yaml`.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Pin {
    /// The release name the spec stands for (`11.6.0-dev`), which the catalog and the build's
    /// messages carry.
    pub release: String,
    /// The upstream file's name (Mattermost's text; not committed).
    pub file: String,
    /// The upstream file's sha256.
    pub sha256: String,
    /// The stripped copy's file name, under `spec/` (committed).
    #[serde(default)]
    pub stripped: String,
    /// The stripped copy's sha256.
    #[serde(default)]
    pub stripped_sha256: String,
    /// Where the upstream file comes from (which tree and commit, how it was assembled): prose, the
    /// one field edited by hand; empty when not given.
    #[serde(default)]
    pub source: String,
}

/// The header `spec-strip` writes at the top of `spec/pinned.yaml`.
const HEADER: &str = "\
# The Mattermost OpenAPI v4 release this project is audited against (see spec/README.md).
# file, sha256: Mattermost's own file, which is not committed.
# stripped, stripped_sha256: its prose-free structure, committed beside this file; the build reads it.
# Written by `cargo run -p mattermost-spec --bin spec-strip`; edit only `source` by hand.
";

impl Pin {
    /// Where the pin file is: `spec/pinned.yaml` under the repository root.
    pub fn path(repo_root: &Path) -> PathBuf {
        repo_root.join("spec").join("pinned.yaml")
    }

    /// Reads `spec/pinned.yaml` under the repository root.
    pub fn load(repo_root: &Path) -> Result<Pin, String> {
        let path = Pin::path(repo_root);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        serde_yaml::from_str(&text).map_err(|e| format!("{} is not valid: {e}", path.display()))
    }

    /// Where the stripped copy is: `spec/<stripped>`.
    pub fn stripped_path(&self, repo_root: &Path) -> PathBuf {
        repo_root.join("spec").join(&self.stripped)
    }

    /// The text of `spec/pinned.yaml` for this pin.
    pub fn render(&self) -> String {
        let mut out = String::from(HEADER);
        for (key, value) in [
            ("release", &self.release),
            ("file", &self.file),
            ("sha256", &self.sha256),
            ("stripped", &self.stripped),
            ("stripped_sha256", &self.stripped_sha256),
        ] {
            out.push_str(&format!("{key}: {}\n", scalar(value)));
        }
        out.push_str("source: >-\n");
        out.push_str(&fold(&self.source, 100, "  "));
        out
    }

    /// Writes `spec/pinned.yaml`.
    pub fn write(&self, repo_root: &Path) -> Result<(), String> {
        let path = Pin::path(repo_root);
        std::fs::write(&path, self.render())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// A YAML scalar for a plain value: as it is when it reads back as the same string, quoted otherwise.
fn scalar(value: &str) -> String {
    let plain = !value.is_empty()
        && serde_yaml::from_str::<String>(value).ok().as_deref() == Some(value)
        && !value.contains(": ")
        && !value.contains(" #");
    if plain {
        value.to_string()
    } else {
        serde_json::to_string(value).unwrap_or_default()
    }
}

/// A folded block scalar's lines: the words of `text`, at most `width` columns a line.
fn fold(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > width {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(indent);
    out.push_str(&line);
    out.push('\n');
    out
}

/// The SHA-256 of `bytes` as 64 lower-case hex digits, as `spec/pinned.yaml` and `sha256sum` write
/// it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The spec the build generates from, found, checked and stripped.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The file read: the committed stripped copy, or `$MATTERMOST_OPENAPI`.
    pub path: PathBuf,
    /// The sha256 of the release it stands for: the pinned upstream file's for the committed copy, the
    /// file's own otherwise.
    pub sha256: String,
    /// True when this is the pinned release.
    pub pinned: bool,
    /// True when `path` is the committed stripped copy.
    pub committed_copy: bool,
    /// The stripped spec.
    pub doc: Value,
    /// What stripping dropped (`schema.description`: 999); empty for the committed copy.
    pub dropped: BTreeMap<String, usize>,
    /// Set when the file is the pinned upstream file and stripping it does not give the committed copy
    /// byte for byte (the copy is stale: run `spec-strip`).
    pub stale_copy: Option<String>,
}

/// Finds the spec, checks its sha256 and strips it.
///
/// Without `MATTERMOST_OPENAPI` (`env_path`), the committed stripped copy named by `spec/pinned.yaml`,
/// checked against its recorded sha256. With it, that file, accepted when its sha256 is the pinned
/// upstream file's, the stripped copy's, or the one given in `MATTERMOST_OPENAPI_SHA256` (`env_sha`):
/// nobody builds against another release by accident.
pub fn load(
    pin: &Pin,
    repo_root: &Path,
    env_path: Option<&str>,
    env_sha: Option<&str>,
) -> Result<Loaded, String> {
    match env_path.filter(|p| !p.trim().is_empty()) {
        None => load_committed(pin, repo_root),
        Some(p) => load_other(pin, repo_root, Path::new(p), env_sha),
    }
}

fn load_committed(pin: &Pin, repo_root: &Path) -> Result<Loaded, String> {
    if pin.stripped.is_empty() || pin.stripped_sha256.is_empty() {
        return Err(format!(
            "{} names no stripped copy (`stripped` and `stripped_sha256`). Write it with \
             `cargo run -p mattermost-spec --bin spec-strip -- /path/to/{}` (see spec/README.md).",
            Pin::path(repo_root).display(),
            pin.file
        ));
    }
    let path = pin.stripped_path(repo_root);
    let bytes = std::fs::read(&path).map_err(|e| {
        format!(
            "cannot read the committed spec {}: {e}. It is part of the repository (spec/README.md); \
             restore it with `git checkout -- spec/{}`, or set {ENV_PATH}=/path/to/{} to build from \
             Mattermost's file.",
            path.display(),
            pin.stripped,
            pin.file
        )
    })?;
    let sha = sha256_hex(&bytes);
    if sha != pin.stripped_sha256 {
        return Err(format!(
            "the committed spec {} has sha256 {sha}, but spec/pinned.yaml records {}: it was changed by \
             hand, or pinned.yaml is stale. Regenerate both from Mattermost's file with \
             `cargo run -p mattermost-spec --bin spec-strip -- /path/to/{}` (sha256 {}).",
            path.display(),
            pin.stripped_sha256,
            pin.file,
            pin.sha256
        ));
    }
    let doc = crate::document::parse(&bytes, &path.display().to_string())?;
    let again = strip::strip(&doc);
    if again.doc != doc {
        return Err(format!(
            "{} is not a stripped copy (stripping it changes {} keys: {}). Regenerate it with \
             `cargo run -p mattermost-spec --bin spec-strip -- /path/to/{}`.",
            path.display(),
            again.dropped.values().sum::<usize>(),
            summary(&again.dropped),
            pin.file
        ));
    }
    Ok(Loaded {
        path,
        sha256: pin.sha256.clone(),
        pinned: true,
        committed_copy: true,
        doc,
        dropped: BTreeMap::new(),
        stale_copy: None,
    })
}

fn load_other(
    pin: &Pin,
    repo_root: &Path,
    path: &Path,
    env_sha: Option<&str>,
) -> Result<Loaded, String> {
    if !path.is_file() {
        return Err(format!(
            "{ENV_PATH}={} names no file: it was not found.\n\
             Unset {ENV_PATH} to build from the committed copy spec/{} of the pinned `{}` (release {}), \
             or point it at a spec file. To build against another release on purpose, set {ENV_PATH} to \
             its file and {ENV_SHA256} to its sha256; the build then compares it with the pinned release \
             first (see spec/README.md).",
            path.display(),
            pin.stripped,
            pin.file,
            pin.release
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let sha = sha256_hex(&bytes);
    let is_upstream = sha == pin.sha256;
    let is_copy = !pin.stripped_sha256.is_empty() && sha == pin.stripped_sha256;
    let accepted = env_sha.is_some_and(|s| s.trim().eq_ignore_ascii_case(&sha));
    if !(is_upstream || is_copy || accepted) {
        return Err(format!(
            "{path} is not the pinned Mattermost spec: its sha256 is {sha}, the pinned `{file}` (release \
             {release}) has {pinned}.\n\
             Unset {ENV_PATH} to build from the committed copy, or, to build against this release on \
             purpose, set {ENV_SHA256}={sha} (see spec/README.md: the build then checks what the tools \
             use against it first).",
            path = path.display(),
            file = pin.file,
            release = pin.release,
            pinned = pin.sha256,
        ));
    }
    let doc = crate::document::parse(&bytes, &path.display().to_string())?;
    let stripped = strip::strip(&doc);
    let stale_copy = if is_upstream {
        let committed = std::fs::read(pin.stripped_path(repo_root)).unwrap_or_default();
        (committed != strip::to_bytes(&stripped.doc)).then(|| {
            format!(
                "stripping {} does not give the committed spec/{} byte for byte: the copy is stale. Run \
                 `cargo run -p mattermost-spec --bin spec-strip -- {}` and commit it.",
                path.display(),
                pin.stripped,
                path.display()
            )
        })
    } else {
        None
    };
    Ok(Loaded {
        path: path.to_path_buf(),
        sha256: if is_copy { pin.sha256.clone() } else { sha },
        pinned: is_upstream || is_copy,
        committed_copy: false,
        doc: stripped.doc,
        dropped: stripped.dropped,
        stale_copy,
    })
}

/// `a.b: 3, c.d: 1` for a drop count.
pub fn summary(dropped: &BTreeMap<String, usize>) -> String {
    dropped
        .iter()
        .map(|(k, n)| format!("{k}: {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_yaml_reads_back_as_written() {
        let pin = Pin {
            release: "11.6.0-dev".into(),
            file: "mattermost-openapi-v4-11.6.0-dev.yaml".into(),
            sha256: "937d".into(),
            stripped: "x.stripped.json".into(),
            stripped_sha256: "abcd".into(),
            source: "Assembled from api/v4/source/*.yaml of Mattermost's 11.6.0 development line (a re-upload, see ../shared/spec/PROVENANCE.md); a long sentence: with colons and #hashes that goes on past one hundred columns for sure.".into(),
        };
        let back: Pin = serde_yaml::from_str(&pin.render()).expect("reads");
        assert_eq!(back, pin);
        assert_eq!(scalar("a: b"), "\"a: b\"");
        assert_eq!(scalar("11.6.0-dev"), "11.6.0-dev");
    }
}
