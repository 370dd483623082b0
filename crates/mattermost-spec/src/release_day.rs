//! The decisions of release day, as data: from `spec-check`'s report on a working tree, which override
//! files retire (the release-day command deletes them), which generated type names go away and where
//! the code uses them (a person renames them, the command prints how), and what else needs a person
//! before the tree can build and pass its tests against the new spec. The `release-day` binary runs
//! the steps around it (pin, build, `spec/table-uses.json`, tests).

use crate::check::{Kind, Report, render_rename};
use crate::retire::TypeRename;
use crate::tree::{self, Tree};
use std::path::{Path, PathBuf};

/// A generated type name the code uses that goes away with a retiring repair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rename {
    /// The old name, what replaces it and the fields the two do not share.
    pub rename: TypeRename,
    /// The repair file it comes from.
    pub file: String,
    /// Where the code names the old type: `src/show/small.rs:117`.
    pub used_at: Vec<String>,
}

/// What release day does with a spec, before anything is built.
#[derive(Debug, Clone)]
pub struct Plan {
    /// `spec-check`'s report on the new spec against the tree's pin and overrides.
    pub report: Report,
    /// The report as text.
    pub text: String,
    /// Override files to delete (retired repairs, parameters the spec documents now), relative to the
    /// root.
    pub delete: Vec<String>,
    /// Type renames the code needs.
    pub renames: Vec<Rename>,
    /// What a person has to do before the build (one line each).
    pub person: Vec<String>,
}

/// The Rust files of the tree that may name generated types: `src/`, `tests/` and the crates' `src/`
/// and `tests/` (the spec crate's own excepted), never a `target/`.
fn code_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = ["src", "tests", "crates", "build"]
        .iter()
        .map(|d| root.join(d))
        .collect();
    stack.push(root.join("build.rs"));
    while let Some(p) = stack.pop() {
        if p.is_file() {
            if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
            continue;
        }
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        if matches!(name.as_deref(), Some("target") | Some("mattermost-spec")) {
            continue;
        }
        if let Ok(entries) = std::fs::read_dir(&p) {
            stack.extend(entries.flatten().map(|e| e.path()));
        }
    }
    out.sort();
    out
}

/// Whether `text` has `word` at `at` with no identifier character on either side.
fn word_at(text: &str, at: usize, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let before = text[..at].chars().next_back().is_none_or(|c| !ident(c));
    let after = text[at + word.len()..]
        .chars()
        .next()
        .is_none_or(|c| !ident(c));
    before && after
}

/// Where the tree's code names `word` (as a whole identifier): `path:line`, relative to the root.
pub fn uses_of(root: &Path, word: &str) -> Vec<String> {
    let mut out = Vec::new();
    for file in code_files(root) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let rel = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (n, line) in text.lines().enumerate() {
            let mut from = 0;
            while let Some(i) = line[from..].find(word) {
                let at = from + i;
                if word_at(line, at, word) {
                    out.push(format!("{rel}:{}", n + 1));
                    break;
                }
                from = at + word.len();
            }
        }
    }
    out
}

/// The files of `used_at` (`path:line`), once each.
pub fn files_of(used_at: &[String]) -> Vec<String> {
    let mut files: Vec<String> = used_at
        .iter()
        .filter_map(|u| u.rsplit_once(':').map(|(f, _)| f.to_string()))
        .collect();
    files.dedup();
    files
}

/// The `sed` command that makes a rename in the files that use the old name.
pub fn sed_command(from: &str, to: &str, files: &[String]) -> String {
    format!("sed -i 's/\\b{from}\\b/{to}/g' {}", files.join(" "))
}

/// Runs `spec-check` on the tree and decides what release day does with `other`.
pub fn plan(tree: &Tree, other: &Path) -> Result<Plan, String> {
    let (report, text) = tree::spec_check(tree, other, None)?;
    let mut delete: Vec<String> = report.retirements.iter().map(|r| r.file.clone()).collect();
    delete.extend(report.documented.iter().cloned());
    delete.sort();
    delete.dedup();
    let mut renames = Vec::new();
    let mut person = Vec::new();
    for r in &report.retirements {
        for t in &r.renames {
            let used_at = uses_of(&tree.root, &t.from);
            if used_at.is_empty() {
                continue;
            }
            let files = files_of(&used_at);
            let what = match &t.to {
                Some(to) if to != &t.from => format!(
                    "rename the generated type {} to {to} ({} uses, in {}): {}",
                    t.from,
                    used_at.len(),
                    files.join(", "),
                    sed_command(&t.from, to, &files)
                ),
                _ => format!(
                    "{} ({}): change the code that uses it ({})",
                    render_rename(t),
                    r.file,
                    used_at.join(", ")
                ),
            };
            let fields = render_rename(t)
                .split_once("; ")
                .map(|(_, f)| f.to_string());
            person.push(match fields {
                Some(f) => format!("{what}\n    then follow its fields: {f}"),
                None => what,
            });
            renames.push(Rename {
                rename: t.clone(),
                file: r.file.clone(),
                used_at,
            });
        }
    }
    for f in &report.findings {
        let automatic = matches!(f.kind, Kind::RepairRetired | Kind::NowDocumented);
        if f.kind.needs_a_person() && !automatic {
            let first = f.line.lines().next().unwrap_or("");
            person.push(format!("{}: {first}", heading_word(f.kind)));
        }
    }
    Ok(Plan {
        report,
        text,
        delete,
        renames,
        person,
    })
}

/// The report's section name of a kind.
pub fn heading_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Missing => "MISSING",
        Kind::Changed => "CHANGED",
        Kind::Parameters => "PARAMETERS",
        Kind::OverrideBroken => "OVERRIDE BROKEN",
        Kind::NowDocumented => "NOW DOCUMENTED",
        Kind::RepairRetired => "REPAIR RETIRED",
        Kind::RepairFails => "REPAIR FAILS",
        Kind::Supplied => "SUPPLIED",
        Kind::Note => "NOTE",
        Kind::NewList => "ADDED",
        Kind::Renamed => "RENAMED",
        Kind::Removed => "REMOVED",
    }
}

/// Deletes the plan's override files; returns what was deleted.
pub fn retire(tree: &Tree, plan: &Plan) -> Result<Vec<String>, String> {
    let mut done = Vec::new();
    for f in &plan.delete {
        let path = tree.root.join(f);
        if path.is_file() {
            std::fs::remove_file(&path)
                .map_err(|e| format!("cannot delete {}: {e}", path.display()))?;
            done.push(f.clone());
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_is_found_as_a_whole_word_only_and_the_sed_command_names_its_files() {
        let dir = std::env::temp_dir().join(format!("release-day-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src/show")).expect("dir");
        std::fs::create_dir_all(dir.join("target/debug")).expect("dir");
        std::fs::write(
            dir.join("src/show/small.rs"),
            "use types::GetDraftsResponseItem;\nfn f(_: &GetDraftsResponseItemX) {}\nfn g(_: types::GetDraftsResponseItem) {}\n",
        )
        .expect("w");
        std::fs::write(dir.join("target/debug/gen.rs"), "GetDraftsResponseItem").expect("w");
        let used = uses_of(&dir, "GetDraftsResponseItem");
        assert_eq!(used, ["src/show/small.rs:1", "src/show/small.rs:3"]);
        assert_eq!(
            sed_command("GetDraftsResponseItem", "Draft", &files_of(&used)),
            "sed -i 's/\\bGetDraftsResponseItem\\b/Draft/g' src/show/small.rs"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
