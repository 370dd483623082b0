//! The shape of the code, held here so that it is a rule and not a habit:
//!
//! - the top-level modules of `src/` depend on each other one way only, and the layers that matter
//!   most never reach up;
//! - no loop between the files of any folder, in the server and in every crate of the workspace (the
//!   simulator included);
//! - every tool lives in its own file under `src/tools/<toolset>/`; no tool file imports another tool
//!   file, no toolset imports another's, and what they share (`src/tools/shared/`) imports no toolset.
//!
//! Dependencies are read from the sources (`graph`). `cargo test --test integration architecture --
//! --nocapture` prints the graphs.

mod graph;

use graph::{File, ModPath, OWN, cycles, files, folder_graph, folders};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn server_files() -> Vec<File> {
    let all = files(&Path::new(ROOT).join("src"));
    assert!(
        all.len() >= 100,
        "only {} files found under src/",
        all.len()
    );
    all
}

fn path(p: &[&str]) -> ModPath {
    p.iter().map(|s| s.to_string()).collect()
}

fn show(title: &str, edges: &BTreeMap<String, BTreeSet<String>>) {
    println!("{title}:");
    for (m, deps) in edges {
        println!(
            "  {m} -> {}",
            deps.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
}

#[test]
fn the_top_level_modules_depend_on_each_other_one_way_only() {
    let edges = folder_graph(&server_files(), &Vec::new());
    show("src", &edges);
    assert!(
        edges.len() >= 10,
        "only {} top-level modules found",
        edges.len()
    );
    let found = cycles(&edges);
    assert!(
        found.is_empty(),
        "import cycles between top-level modules:\n{}",
        found.join("\n")
    );
    // The layers that matter most, stated outright.
    let never = [
        ("mattermost", "tools"),
        ("paging", "tool"),
        ("paging", "tools"),
        ("paging", "confirm"),
        ("context", "paging"),
        ("resolve", "tool"),
        ("args", "paging"),
        ("show", "resolve"),
        ("error", "tools"),
        ("tools", "server"),
        ("tools", "serve"),
        ("tools", "resources"),
    ];
    for (from, to) in never {
        assert!(
            !edges.get(from).is_some_and(|d| d.contains(to)),
            "`{from}` must not depend on `{to}`"
        );
    }
}

/// The folders of a crate whose files form a loop, each loop on a line.
fn loops_in(files: &[File], crate_name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for folder in folders(files) {
        let edges = folder_graph(files, &folder);
        let name = if folder.is_empty() {
            format!("{crate_name}/src")
        } else {
            format!("{crate_name}/src/{}", folder.join("/"))
        };
        show(&name, &edges);
        for c in cycles(&edges) {
            out.push(format!("{name}: {c}"));
        }
    }
    out
}

#[test]
fn no_folder_of_any_crate_has_a_loop_between_its_files() {
    let mut found = loops_in(&server_files(), "mattermost-mcp");
    for krate in [
        "mattermost-client",
        "mattermost-sim",
        "mattermost-spec",
        "attachment-reader",
    ] {
        let src = Path::new(ROOT).join("crates").join(krate).join("src");
        let crate_files = files(&src);
        assert!(
            !crate_files.is_empty(),
            "no sources under {}",
            src.display()
        );
        found.extend(loops_in(&crate_files, krate));
    }
    assert!(
        found.is_empty(),
        "loops between the files of one folder ({OWN} is the folder's own file, mod.rs or the x.rs beside x/):\n{}",
        found.join("\n")
    );
}

/// The toolset folders under `src/tools/`, and the tool files in each (a file named after a tool of
/// the inventory).
fn toolsets() -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for t in mattermost_mcp::inventory::tools() {
        out.entry(area(t.toolset).to_string())
            .or_default()
            .insert(t.name.to_string());
    }
    out
}

fn area(t: mattermost_mcp::tool::Toolset) -> &'static str {
    match t {
        mattermost_mcp::tool::Toolset::People => "people",
        mattermost_mcp::tool::Toolset::Teams => "teams",
        mattermost_mcp::tool::Toolset::Channels => "channels",
        mattermost_mcp::tool::Toolset::Posts => "posts",
        mattermost_mcp::tool::Toolset::Files => "files",
        mattermost_mcp::tool::Toolset::Writes => "writes",
        mattermost_mcp::tool::Toolset::Api => "api",
    }
}

/// What a file under `src/tools/` may not name, by the rules of the toolsets.
fn tool_rule_breaks(files: &[File], toolsets: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let tools = path(&["tools"]);
    let mut out = Vec::new();
    for f in files.iter().filter(|f| f.module.starts_with(&tools)) {
        let Some(own) = f.module.get(1) else {
            continue;
        };
        let own_tool = f
            .module
            .get(2)
            .filter(|n| toolsets.get(own).is_some_and(|t| t.contains(n.as_str())));
        for name in &f.names {
            if !name.starts_with(&tools) {
                continue;
            }
            let Some(other) = name.get(1) else {
                continue;
            };
            let shown = format!(
                "{} names crate::{}",
                f.path.strip_prefix(ROOT).unwrap_or(&f.path).display(),
                name.join("::")
            );
            if own == "shared" && toolsets.contains_key(other) {
                out.push(format!("{shown}: the shared layer imports no toolset"));
            } else if other != own && other != "shared" && toolsets.contains_key(other) {
                out.push(format!("{shown}: a toolset imports no other toolset (move what both need to src/tools/shared/)"));
            } else if other == own
                && let Some(target) = name.get(2)
                && toolsets
                    .get(own)
                    .is_some_and(|t| t.contains(target.as_str()))
                && own_tool.is_none_or(|t| t != target)
            {
                out.push(format!("{shown}: a file imports no tool file (move what both need to a helper of the toolset)"));
            }
        }
    }
    out
}

#[test]
fn toolsets_cannot_reach_into_each_other() {
    let files = server_files();
    let toolsets = toolsets();
    assert!(toolsets.len() >= 7, "toolsets: {:?}", toolsets.keys());
    let found = tool_rule_breaks(&files, &toolsets);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_toolset_rules_see_a_break() {
    let toolsets = toolsets();
    let file = |module: &[&str], names: &[&[&str]]| File {
        path: Path::new(ROOT).join("src/x.rs"),
        module: path(module),
        names: names.iter().map(|n| path(n)).collect(),
    };
    let cases = [
        file(
            &["tools", "writes", "remove_reaction"],
            &[&["tools", "writes", "add_reaction", "EMOJI"]],
        ),
        file(
            &["tools", "channels", "common"],
            &[&["tools", "teams", "common"]],
        ),
        file(
            &["tools", "shared", "posts"],
            &[&["tools", "posts", "common", "f"]],
        ),
    ];
    for case in cases {
        assert_eq!(
            tool_rule_breaks(std::slice::from_ref(&case), &toolsets).len(),
            1,
            "{case:?}"
        );
    }
    let fine = file(
        &["tools", "writes", "remove_reaction"],
        &[
            &["tools", "writes", "reactions", "EMOJI"],
            &["tools", "shared", "args", "POST"],
        ],
    );
    assert!(tool_rule_breaks(&[fine], &toolsets).is_empty());
}

#[test]
fn the_cycle_check_sees_a_cycle() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges.entry("a".into()).or_default().insert("b".into());
    edges.entry("b".into()).or_default().insert("c".into());
    assert!(cycles(&edges).is_empty());
    edges.entry("c".into()).or_default().insert("a".into());
    assert_eq!(cycles(&edges), vec!["a -> b -> c -> a".to_string()]);
}

#[test]
fn every_tool_lives_in_its_own_file_under_its_area() {
    let tools = mattermost_mcp::inventory::tools();
    assert!(tools.len() >= 2);
    for t in tools {
        let area = area(t.toolset);
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

/// The files that name a path of the client crate that only the call context may use.
fn reaching_past_the_context(files: &[File]) -> Vec<String> {
    let only_context = [
        path(&["mattermost", "send"]),
        path(&["mattermost", "channels_for_user"]),
        path(&["mattermost", "as_person"]),
    ];
    let mut out = Vec::new();
    for f in files.iter().filter(|f| f.module != path(&["context"])) {
        for name in f.names.iter().filter(|n| only_context.contains(n)) {
            out.push(format!(
                "{} names crate::{}: tool code reaches Mattermost through the call context (cx.call, cx.send, cx.api())",
                f.path.strip_prefix(ROOT).unwrap_or(&f.path).display(),
                name.join("::")
            ));
        }
    }
    out
}

#[test]
fn mattermost_is_reached_one_way_through_the_call_context() {
    let files = server_files();
    let found = reaching_past_the_context(&files);
    assert!(found.is_empty(), "{}", found.join("\n"));
    let breaking = File {
        path: Path::new(ROOT).join("src/tools/x.rs"),
        module: path(&["tools", "posts", "x"]),
        names: [path(&["mattermost", "send"])].into_iter().collect(),
    };
    assert_eq!(reaching_past_the_context(&[breaking]).len(), 1);
}

/// The signature of the function `name` in `file` (up to its body), if it is there.
fn signature(file: &str, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(Path::new(ROOT).join(file)).ok()?;
    let at = text.find(&format!("fn {name}"))?;
    let rest = &text[at..];
    Some(rest[..rest.find('{').unwrap_or(rest.len())].to_string())
}

#[test]
fn asking_is_a_proof_every_write_others_see_needs() {
    // Every function that sends a write takes the proof only `crate::confirm` makes (its one field is
    // private: outside that module a `Cleared` cannot be built), so a write that skips asking does
    // not compile; the transport refuses a write of a tool that asks before the proof was made.
    let senders = [
        ("src/tools/writes/common.rs", "write<"),
        ("src/tools/writes/common.rs", "idempotent<"),
        ("src/tools/writes/posting.rs", "make("),
        ("src/tools/writes/files.rs", "upload("),
        ("src/tools/api/request.rs", "send("),
    ];
    for (file, name) in senders {
        let sig = signature(file, name).unwrap_or_else(|| panic!("{file} has fn {name}"));
        assert!(
            sig.contains("Cleared") || sig.contains("Sending"),
            "{file}: fn {name} sends writes and must take the proof of asking (&Cleared): {sig}"
        );
    }
    let confirm =
        std::fs::read_to_string(Path::new(ROOT).join("src/confirm.rs")).unwrap_or_default();
    assert!(
        confirm.contains("pub(crate) struct Cleared {\n    how: Confirmed,\n}"),
        "Cleared keeps its field private, so only src/confirm.rs makes one"
    );
    // Each tool that declares it asks calls the confirmation.
    for t in mattermost_mcp::inventory::tools() {
        if matches!(t.asks, mattermost_mcp::tool::Asks::First(_)) {
            let file = format!("src/tools/{}/{}.rs", area(t.toolset), t.name);
            let text = std::fs::read_to_string(Path::new(ROOT).join(&file)).unwrap_or_default();
            let walks = std::fs::read_to_string(Path::new(ROOT).join("src/tools/api/walks.rs"))
                .unwrap_or_default();
            assert!(
                text.contains("confirm::ask(")
                    || (t.toolset == mattermost_mcp::tool::Toolset::Api
                        && walks.contains("confirm::ask(")),
                "{file} declares that it asks first and never calls confirm::ask"
            );
        }
    }
}
