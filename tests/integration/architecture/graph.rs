//! The import graph of a crate's sources, read from the text: every file's module path, and every
//! module path its production code names (`crate::`, `$crate::`, `super::`, `self::`, a child module
//! by its bare name, each leaf of a `use` group). Production code is the text before the file's first
//! top-level `#[cfg(test)]` (tests sit at the end of each file here), without comment lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path, from the crate root (`["tools", "posts", "read_channel"]`).
pub type ModPath = Vec<String>;

/// One source file: where it is, its module path, the child modules it has (files or folders beside
/// it), and the module paths its production code names.
#[derive(Debug, Clone)]
pub struct File {
    pub path: PathBuf,
    pub module: ModPath,
    pub names: BTreeSet<ModPath>,
}

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

/// The module path of a file under the crate's `src`.
pub fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .components()
        .filter_map(|c| c.as_os_str().to_str().map(str::to_string))
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.strip_suffix(".rs").unwrap_or(&last).to_string();
        let root = parts.is_empty() && (stem == "lib" || stem == "main");
        if stem != "mod" && !root {
            parts.push(stem);
        }
    }
    parts
}

/// The production part of a file: before its first top-level `#[cfg(test)]`, without comments.
pub fn production(text: &str) -> String {
    let code = match text.find("\n#[cfg(test)]") {
        Some(at) => &text[..at],
        None => text,
    };
    code.lines()
        .map(|l| match l.find("//") {
            // A line comment, or a comment after code (a `//` inside a string is rare enough here).
            Some(at) if !l[..at].contains('"') => &l[..at],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_at(s: &str) -> (&str, &str) {
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
        .map_or(s.len(), |(i, _)| i);
    (&s[..end], &s[end..])
}

/// Expands a path that may end in a `use` group (`a::b::{c, d::{e, f}}`) into its leaves; `rest` is
/// the text after the first segment.
fn expand(prefix: Vec<String>, rest: &str, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    let mut rest = rest;
    loop {
        let Some(after) = rest.strip_prefix("::") else {
            out.push(path);
            return;
        };
        let after = after.trim_start();
        if let Some(group) = after.strip_prefix('{') {
            // Split the group at its top-level commas.
            let mut depth = 0usize;
            let mut start = 0usize;
            let mut parts = Vec::new();
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        parts.push(&group[start..i]);
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        parts.push(&group[start..i]);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            for part in parts {
                let part = part.trim();
                let (first, more) = ident_at(part);
                if first.is_empty() {
                    continue;
                }
                if first == "self" {
                    out.push(path.clone());
                    continue;
                }
                let mut p = path.clone();
                p.push(first.to_string());
                expand(p, more, out);
            }
            return;
        }
        let (seg, more) = ident_at(after);
        if seg.is_empty() {
            out.push(path);
            return;
        }
        path.push(seg.to_string());
        rest = more;
    }
}

/// The module paths a file's production code names, made absolute.
fn names_of(
    code: &str,
    module: &ModPath,
    is_dir_module: bool,
    children: &BTreeSet<String>,
) -> BTreeSet<ModPath> {
    // The module `super` and `self` name from this file.
    let own: ModPath = module.clone();
    let parent: ModPath = module[..module.len().saturating_sub(1)].to_vec();
    let _ = is_dir_module;
    let mut found = BTreeSet::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        if !code.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let at_word = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':');
        if !at_word {
            i += 1;
            continue;
        }
        let rest = &code[i..];
        let (word, after) = ident_at(rest);
        if word.is_empty() || !after.starts_with("::") {
            i += word.len().max(1);
            continue;
        }
        let base: Option<ModPath> = match word {
            "crate" => Some(Vec::new()),
            "super" => Some(parent.clone()),
            "self" => Some(own.clone()),
            w if children.contains(w) => {
                let mut p = own.clone();
                p.push(w.to_string());
                // `child::x`: the child itself, then the path on from it.
                let mut leaves = Vec::new();
                expand(p, after, &mut leaves);
                found.extend(leaves);
                i += word.len();
                continue;
            }
            _ => None,
        };
        if let Some(mut base) = base {
            // `super::super::` climbs again.
            let mut after = after;
            while let Some(more) = after.strip_prefix("::super") {
                base.pop();
                after = more;
            }
            let mut leaves = Vec::new();
            expand(base, after, &mut leaves);
            found.extend(leaves);
        }
        i += word.len();
    }
    found
}

/// Every source file of the crate whose sources are in `src`.
pub fn files(src: &Path) -> Vec<File> {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    paths.sort();
    let modules: BTreeSet<ModPath> = paths.iter().map(|p| module_of(src, p)).collect();
    paths
        .iter()
        .map(|p| {
            let module = module_of(src, p);
            let children: BTreeSet<String> = modules
                .iter()
                .filter(|m| m.len() == module.len() + 1 && m.starts_with(&module))
                .filter_map(|m| m.last().cloned())
                .collect();
            let text = std::fs::read_to_string(p).unwrap_or_default();
            let is_dir = p.file_name().is_some_and(|n| n == "mod.rs");
            let names = names_of(&production(&text), &module, is_dir, &children);
            File {
                path: p.clone(),
                module,
                names,
            }
        })
        .collect()
}

/// The node of a folder a module path falls in: the child it is in, or `(self)` for the folder's own
/// file (`mod.rs`, or the `x.rs` beside the folder `x/`).
pub const OWN: &str = "(self)";

/// The graph of one folder (the module `folder`): an edge from each child (or the folder's own file)
/// to each other child (or the own file) it names. Items of the crate root's own file are left out.
pub fn folder_graph(files: &[File], folder: &ModPath) -> BTreeMap<String, BTreeSet<String>> {
    let children: BTreeSet<String> = files
        .iter()
        .filter(|f| f.module.len() > folder.len() && f.module.starts_with(folder))
        .map(|f| f.module[folder.len()].clone())
        .collect();
    let node = |m: &ModPath| -> Option<String> {
        if !m.starts_with(folder) {
            return None;
        }
        match m.get(folder.len()) {
            Some(child) if children.contains(child) => Some(child.clone()),
            _ if folder.is_empty() => None,
            _ => Some(OWN.to_string()),
        }
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let Some(from) = node(&f.module) else {
            continue;
        };
        for name in &f.names {
            if let Some(to) = node(name)
                && to != from
            {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
        edges.entry(from).or_default();
    }
    edges
}

/// Every folder (module with children) of the crate, the root included.
pub fn folders(files: &[File]) -> BTreeSet<ModPath> {
    files
        .iter()
        .flat_map(|f| (0..f.module.len()).map(|n| f.module[..n].to_vec()))
        .collect()
}

/// A cycle through `start`, if there is one.
pub fn cycle_from(start: &str, edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
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

/// Every cycle of a graph, one line each (`a -> b -> a`), each found once from its least node.
pub fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut seen: BTreeSet<BTreeSet<String>> = BTreeSet::new();
    let mut out = Vec::new();
    for m in edges.keys() {
        if let Some(c) = cycle_from(m, edges) {
            let set: BTreeSet<String> = c.iter().cloned().collect();
            if seen.insert(set) {
                out.push(c.join(" -> "));
            }
        }
    }
    out
}
