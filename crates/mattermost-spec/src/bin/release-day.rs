//! `release-day`: moves the project to a new Mattermost release's spec, step by step, stopping at the
//! first step that needs a person and saying what to do.
//!
//! ```text
//! cargo run -p mattermost-spec --bin release-day -- NEW_SPEC [--release NAME] [--source TEXT] [--continue]
//! ```
//!
//! 1. **check**: `spec-check` against the working tree (the pin, `overrides/` as it is on disk,
//!    `spec/table-uses.json`). What needs a person (a missing or changed operation, a declaration to update, a
//!    repair that fails, a generated type the code uses that goes away) stops here with the list; after
//!    doing it, run again with `--continue` (the type renames are checked again: the old names must be
//!    gone from the code).
//! 2. **retire**: deletes the retired repairs and the parameter overrides the spec documents now, then
//!    checks again from disk: nothing may be left but notes.
//! 3. **pin**: `spec-strip NEW_SPEC --release NAME` writes the prose-free copy to `spec/` and records both
//!    sha256 in `spec/pinned.yaml`. (Pinning before building makes the build below the one the tests
//!    use: building against the file first and then against the pin would build the crate twice.)
//! 4. **releases**: `spec/releases.json` again for the new pin, from the older supported releases'
//!    operations it records.
//! 5. **build**: `cargo test <TESTS> --no-run` (the cargo arguments of TESTS, not its test filters after
//!    `--`), against the pin.
//! 6. **table-uses**: writes `spec/table-uses.json` with the binary the test build made.
//! 7. **tests**: `cargo test <TESTS>` (default `--workspace`; `--tests` chooses what, so a rehearsal
//!    builds only what the spec can change).
//!
//! Run again after a stop: a spec that is pinned already goes on from the build.
//!
//! Exit status: 0 done, 3 stopped for a person (the output says what to do), 1 a step failed or the
//! input is wrong.

use mattermost_spec::check::Kind;
use mattermost_spec::pinned::{Pin, sha256_hex};
use mattermost_spec::release_day::{self, heading_word};
use mattermost_spec::tree::{self, Tree};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const USAGE: &str = "usage: release-day NEW_SPEC [--check] [--release NAME] [--source TEXT] [--continue] [--tests ARGS] [--root DIR]
  NEW_SPEC        the new release's OpenAPI file (YAML or JSON; see spec-assemble to make it from a source tree)
  --release NAME  the release it is (default: its info.x-mattermost-release, else the file's name)
  --source TEXT   where the file comes from, recorded in spec/pinned.yaml
  --check         only the check: print spec-check's report (exit 0 when the tools can be built against it)
  --continue      the items the last run stopped on are done: go on past the check
  --tests ARGS    what `cargo test` builds and runs (default: --workspace; test filters after --);
                  given again, another selection, built and run in turn (e.g. --tests \"-p mattermost-spec\")
  --root DIR      the checkout (default: the nearest directory above with spec/pinned.yaml)";

struct Args {
    spec: PathBuf,
    release: Option<String>,
    source: Option<String>,
    continue_: bool,
    check_only: bool,
    /// `cargo test` selections, each built and run in turn.
    tests: Vec<Vec<String>>,
    root: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut spec = None;
    let mut out = Args {
        spec: PathBuf::new(),
        release: None,
        source: None,
        continue_: false,
        check_only: false,
        tests: Vec::new(),
        root: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n\n{USAGE}"))
        };
        match a.as_str() {
            "--release" => out.release = Some(value("--release")?),
            "--source" => out.source = Some(value("--source")?),
            "--tests" => out.tests.push(
                value("--tests")?
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
            ),
            "--root" => out.root = Some(PathBuf::from(value("--root")?)),
            "--continue" => out.continue_ = true,
            "--check" => out.check_only = true,
            "-h" | "--help" => return Err(USAGE.to_string()),
            s if s.starts_with('-') => return Err(format!("unknown option `{s}`\n\n{USAGE}")),
            s if spec.is_none() => spec = Some(PathBuf::from(s)),
            s => return Err(format!("one NEW_SPEC only; `{s}` is a second\n\n{USAGE}")),
        }
    }
    out.spec = spec.ok_or_else(|| format!("name the new release's spec file\n\n{USAGE}"))?;
    if out.tests.is_empty() {
        out.tests.push(vec!["--workspace".into()]);
    }
    Ok(out)
}

/// Why the run ended early.
enum Stop {
    /// A person has to do something: the message says what.
    Person(String),
    /// A step failed.
    Failed(String),
}

fn step(name: &str) {
    println!("\n== release-day: {name}");
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    // Build from the pin, never from a file the environment names.
    c.env_remove("MATTERMOST_OPENAPI")
        .env_remove("MATTERMOST_OPENAPI_SHA256");
    c
}

fn run_cargo(root: &Path, args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    println!("$ cargo {}", args.join(" "));
    let status = cargo()
        .args(args)
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    println!("  ({:.0} s)", started.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed ({status})", args.join(" ")))
    }
}

/// The release a spec file says it is, or its file name's stem.
fn release_of(spec: &Path, doc: &serde_json::Value) -> String {
    if let Some(r) = doc
        .pointer("/info/x-mattermost-release")
        .and_then(serde_json::Value::as_str)
    {
        return r.to_string();
    }
    spec.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "unnamed".into())
}

fn check_and_retire(tree: &Tree, args: &Args) -> Result<(), Stop> {
    step("check (spec-check against the working tree)");
    let plan = release_day::plan(tree, &args.spec).map_err(Stop::Failed)?;
    print!("{}", plan.text);
    let renames_left: Vec<String> = plan
        .renames
        .iter()
        .map(|r| {
            format!(
                "{} still names {} ({})",
                r.file,
                r.rename.from,
                r.used_at.join(", ")
            )
        })
        .collect();
    if !plan.person.is_empty() && !args.continue_ {
        return Err(Stop::Person(format!(
            "the report needs a person before the build:\n  - {}\n\nDo these in the working tree (the \
             repairs named under REPAIR RETIRED stay until the code no longer names their types), then run \
             again with --continue.",
            plan.person.join("\n  - ")
        )));
    }
    if !renames_left.is_empty() {
        return Err(Stop::Person(format!(
            "the code still names generated types that go away with the retiring repairs:\n  - {}\n\n{}\nthen \
             run again with --continue.",
            renames_left.join("\n  - "),
            plan.person
                .iter()
                .filter(|p| p.starts_with("rename "))
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        )));
    }

    step("retire (delete the retired repairs and the overrides this spec documents)");
    let deleted = release_day::retire(tree, &plan).map_err(Stop::Failed)?;
    if deleted.is_empty() {
        println!("nothing to retire");
    }
    for f in &deleted {
        println!("deleted {f}");
    }
    let (again, text) = tree::spec_check(tree, &args.spec, None).map_err(Stop::Failed)?;
    // What the overrides on disk decide is checked again; what the tools send is what the report (from
    // spec/table-uses.json, rewritten after the build) said, and the tests check it.
    let left: Vec<String> = again
        .findings
        .iter()
        .filter(|f| {
            matches!(
                f.kind,
                Kind::RepairRetired
                    | Kind::NowDocumented
                    | Kind::OverrideBroken
                    | Kind::RepairFails
            )
        })
        .map(|f| {
            format!(
                "{}: {}",
                heading_word(f.kind),
                f.line.lines().next().unwrap_or("")
            )
        })
        .collect();
    if !left.is_empty() {
        print!("{text}");
        return Err(Stop::Person(format!(
            "after retiring, the overrides still stop the build:\n  - {}\n\nHandle these (the report \
             above), then run again with --continue.",
            left.join("\n  - ")
        )));
    }
    println!("the check reads the overrides on disk again: nothing stops the build");
    Ok(())
}

fn pin(tree: &Tree, args: &Args, doc: &serde_json::Value) -> Result<(), Stop> {
    let release = args
        .release
        .clone()
        .unwrap_or_else(|| release_of(&args.spec, doc));
    step(&format!("pin (spec-strip, release {release})"));
    let source = args
        .source
        .clone()
        .unwrap_or_else(|| format!("Pinned by release-day from {}.", args.spec.display()));
    let spec = std::fs::canonicalize(&args.spec).unwrap_or_else(|_| args.spec.clone());
    let strip: Vec<String> = [
        "run",
        "-q",
        "-p",
        "mattermost-spec",
        "--bin",
        "spec-strip",
        "--",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([
        spec.display().to_string(),
        "--release".into(),
        release,
        "--source".into(),
        source,
        "--root".into(),
        tree.root.display().to_string(),
    ])
    .collect();
    run_cargo(&tree.root, &strip).map_err(Stop::Failed)
}

/// The target directory cargo builds into for this checkout.
fn target_dir(root: &Path) -> Option<PathBuf> {
    let out = cargo()
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root)
        .output()
        .ok()?;
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    meta.get("target_directory")
        .and_then(serde_json::Value::as_str)
        .map(PathBuf::from)
}

/// `spec/releases.json` for the new pin, from the older releases it records.
fn releases(tree: &Tree) -> Result<(), Stop> {
    step("releases (spec/releases.json: what each operation needs of the server)");
    let before = mattermost_spec::releases::load(&tree.root).map_err(Stop::Failed)?;
    let table = mattermost_spec::releases::for_pin(tree, &before.older).map_err(Stop::Failed)?;
    let path = tree.root.join(mattermost_spec::releases::RELEASES_FILE);
    std::fs::write(&path, table.render())
        .map_err(|e| Stop::Failed(format!("cannot write {}: {e}", path.display())))?;
    println!(
        "wrote {}: {} operations of {} need more than {}",
        mattermost_spec::releases::RELEASES_FILE,
        table.operations.len(),
        table.pinned,
        table.older_releases().join(", ")
    );
    Ok(())
}

/// `cargo test <SELECTION> --no-run`: the selection's cargo arguments only, without what it gives the
/// test binaries after `--` (test name filters), which a build without a run does not take.
fn build_args(selection: &[String]) -> Vec<String> {
    let mut build: Vec<String> = vec!["test".into()];
    build.extend(selection.iter().take_while(|a| *a != "--").cloned());
    build.push("--no-run".into());
    build
}

fn build_and_test(tree: &Tree, args: &Args) -> Result<(), Stop> {
    step("build (against the pin)");
    for selection in &args.tests {
        let build = build_args(selection);
        run_cargo(&tree.root, &build).map_err(|e| {
            Stop::Person(format!(
                "{e}. Read the compiler's errors above: a generated type renamed or a field added by the \
                 new spec (the check's REPAIR RETIRED and CHANGED lines name them). Fix the code, then run \
                 release-day again: the pin is done, it goes on from the build."
            ))
        })?;
    }

    step("table-uses (spec/table-uses.json from the built binary)");
    let started = Instant::now();
    // The binary the test build made (`cargo run` would build another: without the dev-dependencies'
    // features, its dependencies differ).
    let built = target_dir(&tree.root).map(|t| t.join("debug").join("mattermost-mcp"));
    let mut table_uses = match &built {
        Some(bin) if bin.is_file() => Command::new(bin),
        _ => {
            let mut c = cargo();
            c.args(["run", "-q", "-p", "mattermost-mcp", "--"]);
            c
        }
    };
    let out = table_uses
        .arg("table-uses")
        .current_dir(&tree.root)
        .output()
        .map_err(|e| Stop::Failed(format!("cannot run mattermost-mcp table-uses: {e}")))?;
    if !out.status.success() {
        return Err(Stop::Failed(format!(
            "`mattermost-mcp table-uses` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let path = tree.root.join(tree::TABLE_USES);
    let before = std::fs::read(&path).unwrap_or_default();
    std::fs::write(&path, &out.stdout)
        .map_err(|e| Stop::Failed(format!("cannot write {}: {e}", path.display())))?;
    println!(
        "wrote {} ({}; {:.0} s)",
        tree::TABLE_USES,
        if before == out.stdout {
            "unchanged"
        } else {
            "changed"
        },
        started.elapsed().as_secs_f64()
    );

    step("tests");
    for selection in &args.tests {
        let mut test: Vec<String> = vec!["test".into()];
        test.extend(selection.iter().cloned());
        run_cargo(&tree.root, &test).map_err(|e| {
            Stop::Person(format!(
                "{e}. The failing tests say what is left (a declaration that does not account for a new parameter: \
                 the check's PARAMETERS lines). Fix it, then run release-day again: it goes on from the build."
            ))
        })?;
    }
    Ok(())
}

fn run(args: &Args) -> Result<(), Stop> {
    let start = match &args.root {
        Some(r) => r.clone(),
        None => std::env::current_dir()
            .map_err(|e| Stop::Failed(format!("no current directory: {e}")))?,
    };
    let tree = Tree::find(&start).map_err(Stop::Failed)?;
    if args.check_only {
        let (report, text) = tree::spec_check(&tree, &args.spec, None).map_err(Stop::Failed)?;
        print!("{text}");
        return if report.buildable() {
            Ok(())
        } else {
            Err(Stop::Failed(
                "the tools cannot be built against this spec".into(),
            ))
        };
    }
    let bytes = std::fs::read(&args.spec).map_err(|e| {
        Stop::Failed(format!(
            "cannot read {}: {e}. Give the new release's spec file (spec-assemble makes one from a \
             Mattermost source tree)",
            args.spec.display()
        ))
    })?;
    let doc = mattermost_spec::document::parse(&bytes, &args.spec.display().to_string())
        .map_err(Stop::Failed)?;
    let sha = sha256_hex(&bytes);
    let pin_now = Pin::load(&tree.root).map_err(Stop::Failed)?;
    if sha == pin_now.sha256 || sha == pin_now.stripped_sha256 {
        step("check, retire, pin: done already");
        println!(
            "{} is the pinned release {} (sha256 {sha}): going on from the build",
            args.spec.display(),
            pin_now.release
        );
    } else {
        check_and_retire(&tree, args)?;
        pin(&tree, args, &doc)?;
    }
    let pinned = Pin::load(&tree.root).map_err(Stop::Failed)?;
    if mattermost_spec::releases::load(&tree.root).is_ok_and(|t| t.pinned != pinned.release) {
        releases(&tree)?;
    }
    build_and_test(&tree, args)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse(&args) {
        Ok(a) => a,
        Err(message) => {
            eprintln!("release-day: {message}");
            return ExitCode::from(1);
        }
    };
    let started = Instant::now();
    match run(&args) {
        Ok(()) if args.check_only => ExitCode::SUCCESS,
        Ok(()) => {
            println!(
                "\n== release-day: done in {:.0} s. Commit spec/, overrides/ and the code you changed; \
                 then say where the file comes from in spec/README.md and, when the simulator should \
                 answer as this release, its version (crates/mattermost-sim/src/render.rs CURRENT_VERSION).",
                started.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(Stop::Person(message)) => {
            println!("\n== release-day: STOPPED, a person is needed.\n{message}");
            ExitCode::from(3)
        }
        Err(Stop::Failed(message)) => {
            eprintln!("\nrelease-day: {message}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::build_args;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_build_takes_the_cargo_arguments_of_a_selection_and_not_its_test_filters() {
        assert_eq!(
            build_args(&words(
                "-p mattermost-mcp --lib --test integration -- contract:: inbox::"
            )),
            words("test -p mattermost-mcp --lib --test integration --no-run")
        );
        assert_eq!(
            build_args(&words("--workspace")),
            words("test --workspace --no-run")
        );
    }
}
