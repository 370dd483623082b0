//! `spec-patch`: applies a structural patch (`mattermost_spec::patch`) to a spec and writes the result
//! as JSON; the release-day rehearsal makes its release-like spec with it.
//!
//! ```text
//! cargo run -p mattermost-spec --bin spec-patch -- BASE PATCH --out FILE
//! ```

use mattermost_spec::patch::{self, PatchFile};
use mattermost_spec::pinned::sha256_hex;
use mattermost_spec::{document, strip};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: spec-patch BASE PATCH --out FILE
  BASE        a spec (YAML or JSON), e.g. the pinned copy spec/<stripped>
  PATCH       a patch file: {\"release\": NAME, \"patch\": [RFC 6902 add/replace/remove operations]}
  --out FILE  where to write the patched spec (JSON, written as spec-strip writes)";

fn run(args: &[String]) -> Result<String, String> {
    let mut files = Vec::new();
    let mut out = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => {
                out = Some(PathBuf::from(
                    it.next()
                        .ok_or_else(|| format!("--out needs a file\n\n{USAGE}"))?,
                ))
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            s if s.starts_with('-') => return Err(format!("unknown option `{s}`\n\n{USAGE}")),
            s => files.push(PathBuf::from(s)),
        }
    }
    let [base, patch_path] = files.as_slice() else {
        return Err(format!("give BASE and PATCH\n\n{USAGE}"));
    };
    let out = out.ok_or_else(|| format!("name the output with --out FILE\n\n{USAGE}"))?;
    let mut doc = document::read(base)?;
    let text = std::fs::read_to_string(patch_path)
        .map_err(|e| format!("cannot read {}: {e}", patch_path.display()))?;
    let file: PatchFile = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a patch file: {e}", patch_path.display()))?;
    patch::apply(&mut doc, &file.patch).map_err(|e| format!("{}: {e}", patch_path.display()))?;
    let bytes = strip::to_bytes(&doc);
    std::fs::write(&out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(format!(
        "wrote {} (release {}, {} operations applied to {}): sha256 {}\n",
        out.display(),
        file.release,
        file.patch.len(),
        base.display(),
        sha256_hex(&bytes)
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("spec-patch: {message}");
            ExitCode::from(1)
        }
    }
}
