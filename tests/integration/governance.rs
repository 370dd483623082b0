//! Governance tests over the running server: every tool is called, answers in the shape its declaration
//! declares, and sends only the operations its declaration declares; the README and the tests agree; a spec
//! of another release is checked before anything is built. Listed, with those of
//! `src/table/governance.rs`, in the README's "Governance tests" section (a test keeps the list true).

use crate::harness::{self, check_envelope, rich_world, sample_args};
use mattermost_mcp::spec_check::pinned_surface;
use mattermost_mcp::tool::{Answer, Tool};
use mattermost_sim::{LoggedRequest, Sim};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const AT_LEAST_TOOLS: usize = 20;

fn offered() -> Vec<&'static Tool> {
    let tools = mattermost_mcp::inventory::Offer::everything().tools();
    assert!(
        tools.len() >= AT_LEAST_TOOLS,
        "only {} tools to scan",
        tools.len()
    );
    tools
}

/// The operation a logged request went to: the spec path template that matches it with the most
/// literal segments.
fn operation_of(surface: &mattermost_spec::Surface, r: &LoggedRequest) -> Option<String> {
    let segments: Vec<&str> = r.path.split('/').collect();
    surface
        .operations
        .values()
        .filter(|op| op.method == r.method)
        .filter_map(|op| {
            let template: Vec<&str> = op.path.split('/').collect();
            if template.len() != segments.len() {
                return None;
            }
            let mut literal = 0;
            for (t, s) in template.iter().zip(&segments) {
                if t.starts_with('{') {
                    continue;
                }
                if t != s {
                    return None;
                }
                literal += 1;
            }
            Some((literal, op.id.clone()))
        })
        .max()
        .map(|(_, id)| id)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_tool_answers_in_its_declared_shape_and_sends_only_the_operations_it_declares() {
    let (world, rich) = rich_world();
    let sim = Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(
        &sim.url(),
        &sim.token("alice"),
        &[
            ("MATTERMOST_ALLOW_WRITES", "true"),
            ("MATTERMOST_TOOLSETS", "all"),
        ],
        &[],
    )
    .await;
    let surface = pinned_surface();
    let mut requests_checked = 0;
    // The writing tools of tests/integration/writes.rs need a world where each write can succeed (a
    // post of the person's own, a future reminder, a channel one may leave): that test calls every one
    // of them in both protocol forms and checks its requests against the spec and its declaration.
    let generic = offered().into_iter().filter(|t| {
        t.toolset != mattermost_mcp::tool::Toolset::Writes || t.name == "mark_channel_read"
    });
    for tool in generic {
        sim.clear_log();
        let args = sample_args(tool, &rich);
        let answer = mcp.ok(tool.name, args.clone()).await;
        match tool.answer {
            Answer::List { .. } => check_envelope(&answer),
            Answer::Bounded { .. } => assert!(
                answer.get("next_cursor").is_none(),
                "{}: bounded, no cursor",
                tool.name
            ),
            Answer::One => assert!(
                answer.get("next_cursor").is_none() && answer.get("has_more").is_none(),
                "{}: not a list",
                tool.name
            ),
        }
        // A tool whose arguments name what it sends (the operation gateway) declares, per call, what
        // its plan for these arguments names; any other tool, every operation of its declaration.
        let declared = tool
            .plan(args.as_object().expect("arguments are an object"))
            .unwrap_or_else(|e| panic!("{}: no plan for {args}: {}", tool.name, e.message))
            .operations;
        for r in sim.log() {
            let op = operation_of(&surface, &r).unwrap_or_else(|| {
                panic!(
                    "{}: {} {} is no operation of the spec",
                    tool.name, r.method, r.path
                )
            });
            assert!(
                declared.contains(&op.as_str()),
                "{} sent {} {} ({op}), which its declaration does not declare",
                tool.name,
                r.method,
                r.path
            );
            requests_checked += 1;
        }
    }
    assert!(
        requests_checked >= AT_LEAST_TOOLS,
        "too few requests checked: {requests_checked}"
    );
}

fn integration_sources() -> Vec<(PathBuf, String)> {
    let dir = Path::new(ROOT).join("tests/integration");
    let mut files: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .expect("tests/integration")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "rs")
                && !p.ends_with("governance.rs")
                && !p.ends_with("harness.rs")
        })
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            (p, text)
        })
        .collect();
    files.sort();
    assert!(files.len() >= 4, "too few test files to scan");
    files
}

#[test]
fn every_tool_is_called_by_name_in_an_integration_test_that_asserts_on_its_output() {
    let sources = integration_sources();
    for tool in offered() {
        let called = sources.iter().any(|(_, text)| {
            ["ok", "pages", "read_all", "refused", "call_with_progress"]
                .iter()
                .any(|m| {
                    let compact: String = text.split_whitespace().collect::<Vec<_>>().join("");
                    compact.contains(&format!(".{m}(\"{}\"", tool.name))
                })
        });
        assert!(
            called,
            "no integration test calls {} by name through ok/pages/read_all/refused",
            tool.name
        );
    }
}

fn readme() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("README.md")).expect("README.md")
}

/// The lines of the README section that starts after `<!-- {marker}: ...-->`, up to the next heading.
fn readme_section(marker: &str) -> Vec<String> {
    let text = readme();
    let start = text
        .find(&format!("<!-- {marker}:"))
        .unwrap_or_else(|| panic!("README has no `<!-- {marker}: -->` section"));
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The first `code` span of each `- ` item.
fn listed_names(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| {
            l.trim_start()
                .strip_prefix("- `")
                .and_then(|rest| rest.split('`').next())
                .map(str::to_string)
        })
        .collect()
}

#[test]
fn the_readmes_tool_list_is_exactly_the_inventorys_tools() {
    let mut listed = listed_names(&readme_section("tools"));
    let mut declared: Vec<String> = mattermost_mcp::inventory::tools()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(declared.len() >= AT_LEAST_TOOLS);
    listed.sort();
    declared.sort();
    assert_eq!(
        listed, declared,
        "the README's tool list and the inventory differ"
    );
}

fn governance_tests() -> Vec<String> {
    let mut names = Vec::new();
    for file in [
        "src/governance.rs",
        "tests/integration/governance.rs",
        "tests/integration/architecture.rs",
        "tests/integration/contract.rs",
        "tests/integration/writes_governance.rs",
        "tests/integration/schemas.rs",
    ] {
        let text = std::fs::read_to_string(Path::new(ROOT).join(file)).expect("a governance file");
        let mut is_test = false;
        for line in text.lines() {
            let l = line.trim();
            if l.starts_with("#[test]") || l.starts_with("#[tokio::test") {
                is_test = true;
            } else if is_test && (l.starts_with("fn ") || l.starts_with("async fn ")) {
                let name = l
                    .trim_start_matches("async ")
                    .trim_start_matches("fn ")
                    .split('(')
                    .next()
                    .unwrap_or("")
                    .to_string();
                names.push(name);
                is_test = false;
            }
        }
    }
    assert!(names.len() >= 10, "too few governance tests found");
    names.sort();
    names
}

#[test]
fn the_readme_lists_exactly_the_governance_tests() {
    let mut listed = listed_names(&readme_section("governance"));
    listed.sort();
    assert_eq!(
        listed,
        governance_tests(),
        "the README's governance list and the governance tests differ"
    );
}

#[test]
fn the_readmes_configuration_names_every_variable_the_server_reads() {
    let section = readme_section("configuration").join("\n");
    for (name, default, _) in mattermost_mcp::config::VARIABLES {
        assert!(
            section.contains(&format!("`{name}`")),
            "the README's configuration does not list {name}"
        );
        assert!(
            section.contains(&format!("`{default}`")),
            "the README gives no default `{default}` for {name}"
        );
    }
    let source = std::fs::read_to_string(Path::new(ROOT).join("src/config.rs")).expect("config.rs");
    let named = source.matches("\"MATTERMOST_").count();
    assert!(
        named >= mattermost_mcp::config::VARIABLES.len(),
        "every variable config.rs names is in VARIABLES"
    );
}

/// An older release's spec (the 7.2 era), as the prose-free copy committed for these tests.
fn older_spec() -> PathBuf {
    Path::new(ROOT).join("spec/older/mattermost-openapi-v4-7.2-era.stripped.json")
}

#[test]
fn spec_check_on_an_older_release_names_what_it_lacks_and_the_tools_that_use_them() {
    let out = std::process::Command::new(harness::BIN)
        .arg("spec-check")
        .arg(older_spec())
        .output()
        .expect("spec-check runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the tools cannot be built against it: {report}"
    );
    // What the tools call that the older spec lacks, from spec/table-uses.json and the older spec
    // itself; a repair that adds one is read from overrides/ as it is now.
    let older = mattermost_spec::document::read(&older_spec()).expect("the older spec");
    let older = mattermost_spec::Surface::of(&older);
    let uses: mattermost_spec::check::TableUses = serde_json::from_str(
        &std::fs::read_to_string(Path::new(ROOT).join("spec/table-uses.json")).expect("table-uses"),
    )
    .expect("valid");
    let overrides =
        mattermost_spec::Overrides::load(&Path::new(ROOT).join("overrides")).expect("overrides");
    let mut lacking: Vec<(&str, &str)> = uses
        .uses
        .iter()
        .filter(|u| older.get(&u.operation).is_none())
        .map(|u| (u.operation.as_str(), u.tool.as_str()))
        .collect();
    lacking.dedup_by_key(|(op, _)| *op);
    assert!(
        lacking.len() >= 2,
        "too few operations to check: {lacking:?}"
    );
    for (operation, tool) in lacking {
        let line = report
            .lines()
            .find(|l| l.contains(&format!("  - {operation} ")))
            .unwrap_or_else(|| panic!("the report does not name {operation}:\n{report}"));
        assert!(
            line.contains(tool),
            "the line for {operation} names {tool}: {line}"
        );
        match overrides
            .repairs
            .iter()
            .find(|r| r.repair == "add_operation" && r.operation.as_deref() == Some(operation))
        {
            Some(r) => assert!(
                line.contains("is not in this spec") && line.contains(&r.file),
                "{operation} is supplied by {}: {line}",
                r.file
            ),
            None => {
                let missing = report
                    .split("MISSING:")
                    .nth(1)
                    .and_then(|rest| rest.split("\n\n").next())
                    .unwrap_or("");
                assert!(missing.contains(line), "{operation} is MISSING: {report}");
            }
        }
    }
    assert!(
        report.contains("REPAIR RETIRED") && report.contains("overrides/repairs/"),
        "stale repairs are named by file"
    );
    assert!(
        report.contains("RESULT: the tools cannot be built"),
        "{report}"
    );
}

#[test]
fn spec_check_on_the_pinned_spec_exits_0_with_nothing_but_notes() {
    let pin = mattermost_spec::pinned::Pin::load(Path::new(ROOT)).expect("spec/pinned.yaml");
    let mut specs = vec![pin.stripped_path(Path::new(ROOT))];
    let upstream = Path::new(ROOT).join("../shared/spec").join(&pin.file);
    if upstream.is_file() {
        specs.push(upstream);
    } else {
        eprintln!(
            "SKIPPED: Mattermost's {} is not in ../shared/spec/; spec-check ran on the committed copy only",
            pin.file
        );
    }
    for spec in specs {
        // From a directory outside the checkout: the binary finds the tree it was built from.
        let out = std::process::Command::new(harness::BIN)
            .arg("spec-check")
            .arg(&spec)
            .current_dir(std::env::temp_dir())
            .output()
            .expect("spec-check runs");
        let report = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{}: {report}", spec.display());
        let sections: Vec<&str> = report
            .lines()
            .filter(|l| l.ends_with('.') && l.contains(": ") && l == &l.trim_start())
            .filter_map(|l| l.split(':').next())
            .filter(|h| h.chars().all(|c| c.is_ascii_uppercase() || c == ' '))
            .collect();
        assert_eq!(
            sections,
            ["OPERATIONS", "NOTES", "RESULT"],
            "{}: nothing but notes: {report}",
            spec.display()
        );
    }
}

fn build_script() -> PathBuf {
    // Beside the binary the tests run (the target directory may be anywhere: CARGO_TARGET_DIR). The root
    // build.rs is the build script of crates/mattermost-client, so it is built under that package's name.
    let build_dir = Path::new(harness::BIN)
        .parent()
        .expect("the binary's directory")
        .join("build");
    std::fs::read_dir(&build_dir)
        .expect("target/debug/build")
        .flatten()
        .map(|e| e.path().join("build-script-build"))
        .filter(|p| {
            p.is_file()
                && p.parent()
                    .and_then(|d| d.file_name())
                    .is_some_and(|n| n.to_string_lossy().starts_with("mattermost-client-"))
        })
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
        .expect("the build script was built")
}

/// Runs the build script with `MATTERMOST_OPENAPI` and, if given, `MATTERMOST_OPENAPI_SHA256`.
fn build_with(spec: &Path, sha: Option<&str>) -> (bool, String, bool) {
    let out_dir = std::env::temp_dir().join(format!(
        "mattermost-mcp-build-{}-{}",
        std::process::id(),
        sha.is_some()
    ));
    std::fs::create_dir_all(&out_dir).expect("out dir");
    let mut cmd = std::process::Command::new(build_script());
    cmd.env("CARGO_MANIFEST_DIR", ROOT)
        .env("OUT_DIR", &out_dir)
        .env("MATTERMOST_OPENAPI", spec)
        .env_remove("MATTERMOST_OPENAPI_SHA256");
    if let Some(sha) = sha {
        cmd.env("MATTERMOST_OPENAPI_SHA256", sha);
    }
    let out = cmd.output().expect("the build script runs");
    let generated = out_dir.join("mattermost_client.rs").exists();
    let _ = std::fs::remove_dir_all(&out_dir);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        generated,
    )
}

#[test]
fn building_against_another_spec_on_purpose_stops_with_the_report() {
    let older = older_spec();
    let sha = mattermost_spec::pinned::sha256_hex(&std::fs::read(&older).expect("the older spec"));
    let (ok, stderr, generated) = build_with(&older, Some(&sha));
    assert!(!ok, "the build stops");
    assert!(
        stderr.contains("cannot be built against it") && stderr.contains("SearchPostsInAllTeams"),
        "with the report: {stderr}"
    );
    assert!(!generated, "before generating anything");
}

#[test]
fn a_spec_that_is_not_the_pinned_one_or_is_missing_stops_the_build_naming_what_it_wants() {
    let (ok, stderr, _) = build_with(&older_spec(), None);
    assert!(!ok);
    assert!(
        stderr.contains("is not the pinned Mattermost spec")
            && stderr.contains("MATTERMOST_OPENAPI_SHA256="),
        "{stderr}"
    );
    let (ok, stderr, _) = build_with(Path::new("/nonexistent/spec.yaml"), None);
    assert!(!ok);
    let pin = mattermost_spec::pinned::Pin::load(Path::new(ROOT)).expect("spec/pinned.yaml");
    assert!(
        stderr.contains(&pin.file) && stderr.contains("was not found"),
        "names the file: {stderr}"
    );
    assert!(
        stderr.contains(&format!("spec/{}", pin.stripped)) && stderr.contains("on purpose"),
        "where the committed copy is and how to build another: {stderr}"
    );
}
