//! `spec-assemble`: builds a release's OpenAPI spec from a Mattermost source tree, as Mattermost's own
//! `api/Makefile` does (`mattermost_spec::assemble`), and prints its sha256 and size.
//!
//! ```text
//! cargo run -p mattermost-spec --bin spec-assemble -- TREE --out FILE
//! ```

use mattermost_spec::pinned::sha256_hex;
use mattermost_spec::{Surface, assemble, document};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: spec-assemble TREE --out FILE
  TREE        a Mattermost source tree: the directory holding api/ (api/Makefile and api/v4/source/), or a
              folder holding api/v4/source/ and ORDER.txt (the order recorded from that tree's Makefile)
  --out FILE  where to write the assembled spec";

fn run(args: &[String]) -> Result<String, String> {
    let mut tree = None;
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
            s if tree.is_none() => tree = Some(PathBuf::from(s)),
            s => return Err(format!("one TREE only; `{s}` is a second\n\n{USAGE}")),
        }
    }
    let tree = tree.ok_or_else(|| format!("name the source tree\n\n{USAGE}"))?;
    let out = out.ok_or_else(|| format!("name the output with --out FILE\n\n{USAGE}"))?;
    let a = assemble::assemble(&tree)?;
    let doc = document::parse(&a.bytes, &out.display().to_string())
        .map_err(|e| format!("the assembled spec does not parse: {e}"))?;
    let surface = Surface::of(&doc);
    let paths = doc
        .get("paths")
        .and_then(serde_json::Value::as_object)
        .map_or(0, |p| p.len());
    std::fs::write(&out, &a.bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let mut report = format!(
        "assembled {} from {} fragments in the order of {}\n  {} paths, {} operations\n  wrote {}: sha256 {}, {} bytes\n",
        tree.display(),
        a.order.fragments.len(),
        a.order.from.display(),
        paths,
        surface.operations.len(),
        out.display(),
        sha256_hex(&a.bytes),
        a.bytes.len()
    );
    if a.newline_added > 0 {
        report.push_str(&format!(
            "  a newline was added after {} fragments that lack one\n",
            a.newline_added
        ));
    }
    if !a.unnamed.is_empty() {
        report.push_str(&format!(
            "  LEFT OUT, as Mattermost's build leaves them out (the order does not name them): {}\n",
            a.unnamed.join(", ")
        ));
    }
    Ok(report)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("spec-assemble: {message}");
            ExitCode::from(1)
        }
    }
}
