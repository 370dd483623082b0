//! The shape of the code: the top-level modules of `src/` depend on each other one way only (no import
//! cycle), and every tool lives in its own file under `src/tools/<area>/`.
//!
//! A module's dependencies are read from its source: every `crate::<module>` it names outside its
//! `#[cfg(test)]` parts. `cargo test --test integration architecture -- --nocapture` prints the graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`src/tools/posts/x.rs` → `tools`).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "main").then(|| name.to_string())
}

/// The source without its test parts and comments: a `#[cfg(test)]` item at the file's top level ends
/// the file's production code (tests sit at the end of each file here), and a module named in a comment
/// is not a dependency.
fn production(text: &str) -> String {
    let code = match text.find("\n#[cfg(test)]") {
        Some(at) => &text[..at],
        None => text,
    };
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules named as `crate::<module>` (or `$crate::<module>` in macros).
fn named_modules(text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if modules.contains(&name) {
            found.insert(name);
        }
    }
    // `use crate::{a, b::c}` groups.
    for (at, _) in text.match_indices("crate::{") {
        let rest = &text[at + "crate::{".len()..];
        let group = rest.split('}').next().unwrap_or("");
        for part in group.split(',') {
            let name: String = part
                .trim()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if modules.contains(&name) {
                found.insert(name);
            }
        }
    }
    found
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(ROOT).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(&src, f)).collect();
    assert!(modules.len() >= 10, "only {} modules found", modules.len());
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let Some(m) = module_of(&src, f) else {
            continue;
        };
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let deps = named_modules(&production(&text), &modules);
        let entry = edges.entry(m.clone()).or_default();
        entry.extend(deps.into_iter().filter(|d| *d != m));
    }
    edges
}

/// A cycle through `start`, if there is one.
fn cycle_from(start: &str, edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn walk(
        node: &str,
        start: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in edges.get(node).into_iter().flatten() {
            if next == start {
                path.push(next.clone());
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(next, start, edges, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    let mut seen = BTreeSet::new();
    walk(start, start, edges, &mut path, &mut seen).then_some(path)
}

#[test]
fn the_top_level_modules_depend_on_each_other_one_way_only() {
    let edges = graph();
    for (m, deps) in &edges {
        println!(
            "{m} -> {}",
            deps.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    let cycles: Vec<String> = edges
        .keys()
        .filter_map(|m| cycle_from(m, &edges))
        .map(|c| c.join(" -> "))
        .collect();
    assert!(
        cycles.is_empty(),
        "import cycles between top-level modules:\n{}",
        cycles.join("\n")
    );
    // The layers that matter most, stated outright.
    let never = [
        ("mattermost", "tools"),
        ("paging", "tool"),
        ("paging", "tools"),
        ("context", "paging"),
        ("resolve", "tool"),
        ("args", "paging"),
        ("show", "resolve"),
    ];
    for (from, to) in never {
        assert!(
            !edges.get(from).is_some_and(|d| d.contains(to)),
            "`{from}` must not depend on `{to}`"
        );
    }
}

#[test]
fn the_cycle_check_sees_a_cycle() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges.entry("a".into()).or_default().insert("b".into());
    edges.entry("b".into()).or_default().insert("c".into());
    assert!(cycle_from("a", &edges).is_none());
    edges.entry("c".into()).or_default().insert("a".into());
    assert_eq!(
        cycle_from("a", &edges).map(|c| c.join(">")).as_deref(),
        Some("a>b>c>a")
    );
}

#[test]
fn every_tool_lives_in_its_own_file_under_its_area() {
    let tools = mattermost_mcp::inventory::tools();
    assert!(tools.len() >= 2);
    for t in tools {
        let area = match t.toolset {
            mattermost_mcp::tool::Toolset::People => "people",
            mattermost_mcp::tool::Toolset::Teams => "teams",
            mattermost_mcp::tool::Toolset::Channels => "channels",
            mattermost_mcp::tool::Toolset::Posts => "posts",
            mattermost_mcp::tool::Toolset::Files => "files",
            mattermost_mcp::tool::Toolset::Writes => "writes",
            mattermost_mcp::tool::Toolset::Api => "api",
        };
        let file = Path::new(ROOT).join(format!("src/tools/{area}/{}.rs", t.name));
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|_| panic!("{} lives in {}", t.name, file.display()));
        assert!(
            text.contains(&format!("name: \"{}\"", t.name)),
            "{} declares itself in {}",
            t.name,
            file.display()
        );
    }
}
