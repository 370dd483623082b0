//! The pinned release: which spec file the project is audited against, its sha256, and where the file
//! is looked for. The file is Mattermost's text and is never committed; `spec/pinned.yaml` names it.

use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The environment variable that points the build (or a test) at a spec file.
pub const ENV_PATH: &str = "MATTERMOST_OPENAPI";
/// The environment variable that accepts a spec other than the pinned one, by its sha256.
pub const ENV_SHA256: &str = "MATTERMOST_OPENAPI_SHA256";

/// `spec/pinned.yaml`.
#[derive(Debug, Clone, Deserialize)]
pub struct Pin {
    pub release: String,
    pub file: String,
    pub sha256: String,
    #[serde(default)]
    pub source: String,
}

impl Pin {
    /// Reads `spec/pinned.yaml` under the repository root.
    pub fn load(repo_root: &Path) -> Result<Pin, String> {
        let path = repo_root.join("spec").join("pinned.yaml");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        serde_yaml::from_str(&text).map_err(|e| format!("{} is not valid: {e}", path.display()))
    }

    /// Where the pinned file is looked for when `MATTERMOST_OPENAPI` is not set, in order:
    /// `spec/<file>` (ignored by git) and `../shared/spec/<file>` beside the checkout.
    pub fn default_locations(&self, repo_root: &Path) -> Vec<PathBuf> {
        vec![
            repo_root.join("spec").join(&self.file),
            repo_root
                .join("..")
                .join("shared")
                .join("spec")
                .join(&self.file),
        ]
    }
}

/// A spec file found and checked.
#[derive(Debug, Clone)]
pub struct Located {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    pub sha256: String,
    /// True when this is the pinned release (its sha256 matches `spec/pinned.yaml`).
    pub pinned: bool,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Finds the spec file and checks its sha256.
///
/// `env_path` and `env_sha` are the values of `MATTERMOST_OPENAPI` and `MATTERMOST_OPENAPI_SHA256`.
/// A file whose sha256 is neither the pinned one nor the one given in `MATTERMOST_OPENAPI_SHA256` is
/// refused, so that nobody builds against another release by accident.
pub fn locate(
    pin: &Pin,
    repo_root: &Path,
    env_path: Option<&str>,
    env_sha: Option<&str>,
) -> Result<Located, String> {
    let candidates: Vec<PathBuf> = match env_path.filter(|p| !p.is_empty()) {
        Some(p) => vec![PathBuf::from(p)],
        None => pin.default_locations(repo_root),
    };
    let Some(path) = candidates.iter().find(|p| p.is_file()) else {
        let looked: Vec<String> = candidates
            .iter()
            .map(|p| format!("  {}", p.display()))
            .collect();
        return Err(format!(
            "the Mattermost OpenAPI spec `{file}` (release {release}, sha256 {sha}) was not found.\n\
             Looked at:\n{looked}\n\
             Put the file at one of these places (spec/{file} is ignored by git; on these machines it is in \
             ../shared/spec/), or set {ENV_PATH}=/path/to/{file}.\n\
             To build against another release on purpose, set {ENV_PATH} to its file and {ENV_SHA256} to its \
             sha256; the build then compares it with the pinned release first (see spec/README.md).",
            file = pin.file,
            release = pin.release,
            sha = pin.sha256,
            looked = looked.join("\n"),
        ));
    };
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let sha256 = sha256_hex(&bytes);
    if sha256 == pin.sha256 {
        return Ok(Located {
            path: path.clone(),
            bytes,
            sha256,
            pinned: true,
        });
    }
    if env_sha.is_some_and(|s| s.trim().eq_ignore_ascii_case(&sha256)) {
        return Ok(Located {
            path: path.clone(),
            bytes,
            sha256,
            pinned: false,
        });
    }
    Err(format!(
        "{path} is not the pinned Mattermost spec: its sha256 is {sha256}, the pinned `{file}` (release \
         {release}) has {pinned}.\n\
         Replace it with the pinned file, or, to build against this release on purpose, set \
         {ENV_SHA256}={sha256} (see spec/README.md: the build then checks the tool table against it first).",
        path = path.display(),
        file = pin.file,
        release = pin.release,
        pinned = pin.sha256,
    ))
}
