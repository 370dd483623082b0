//! `spec-releases`: writes `spec/releases.json`, what each operation of the pinned spec needs of the
//! server (`mattermost_spec::releases`), from the pinned copy and the older supported releases' specs,
//! each assembled from its Mattermost source tree.
//!
//! ```text
//! cargo run -p mattermost-spec --bin spec-releases -- TREE... [--check]
//! ```

use mattermost_spec::releases::{self, RELEASES_FILE, Table};
use mattermost_spec::tree::Tree;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage: spec-releases TREE... [--check]
  TREE     an older supported release's Mattermost source tree, named mattermost-<version>
           (e.g. ../shared/spec/sources/mattermost-10.11.0); its spec is assembled as its api/Makefile does
  --check  writes nothing; exits 1 unless spec/releases.json is what these trees give";

/// `mattermost-10.11.0` -> `10.11.0`.
fn release_of(tree: &Path) -> Result<String, String> {
    let name = tree
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.strip_prefix("mattermost-")
        .filter(|r| mattermost_spec::releases::Version::parse(r).is_some())
        .map(str::to_string)
        .ok_or_else(|| {
            format!(
                "{} is not named mattermost-<version>: name the tree's folder after its release",
                tree.display()
            )
        })
}

fn run(args: &[String]) -> Result<String, String> {
    let mut trees = Vec::new();
    let mut check = false;
    for a in args {
        match a.as_str() {
            "--check" => check = true,
            "-h" | "--help" => return Err(USAGE.to_string()),
            s if s.starts_with('-') => return Err(format!("unknown option `{s}`\n\n{USAGE}")),
            s => trees.push(PathBuf::from(s)),
        }
    }
    if trees.is_empty() {
        return Err(format!("name at least one older release's tree\n\n{USAGE}"));
    }
    let here = std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?;
    let tree = Tree::find(&here)?;
    let mut older = Vec::new();
    for t in &trees {
        let release = release_of(t)?;
        older.push(releases::assemble_older_for(
            &tree,
            t.parent().unwrap_or(Path::new(".")),
            &release,
        )?);
    }
    let table: Table = releases::for_pin(&tree, &older)?;
    let text = table.render();
    let path = tree.root.join(RELEASES_FILE);
    let summary = format!(
        "{} operations of the pinned {} need more than {}\n",
        table.operations.len(),
        table.pinned,
        table.older_releases().join(", ")
    );
    if check {
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != text {
            return Err(format!(
                "{RELEASES_FILE} is not what these trees give: run spec-releases without --check and commit it"
            ));
        }
        return Ok(format!("{RELEASES_FILE} is current; {summary}"));
    }
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(format!("wrote {RELEASES_FILE}: {summary}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("spec-releases: {message}");
            ExitCode::from(1)
        }
    }
}
