//! The committed prose-free copy of the pinned spec: it is what `spec/pinned.yaml` records, holds no
//! prose, and (when Mattermost's file is at hand) is exactly what stripping that file gives, with the
//! same surface before and after the repairs. Also `spec-strip` itself, on small files.

// Tests and their helpers say what must hold with unwrap and expect; outside tests both are denied.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mattermost_spec::pinned::{Pin, sha256_hex};
use mattermost_spec::{Overrides, Surface, document, repairs, strip};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The checkout, found at run time (cargo sets `CARGO_MANIFEST_DIR` for the test): a test binary
/// built in another copy of the checkout, left fresh because the sources are the same, would name that
/// copy if the path were read when compiling.
fn root() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
        .join("../..")
}

fn committed() -> (Pin, Vec<u8>, Value) {
    let pin = Pin::load(&root()).expect("spec/pinned.yaml");
    let bytes = std::fs::read(pin.stripped_path(&root())).expect("the committed copy");
    let doc = document::parse(&bytes, "committed copy").expect("parses");
    (pin, bytes, doc)
}

/// Mattermost's own file of the pinned release, when it is at hand: `$MATTERMOST_OPENAPI` or
/// `../shared/spec/<file>`, whichever has the sha256 `spec/pinned.yaml` records (while a build points
/// `MATTERMOST_OPENAPI` at another release, that file is not the pinned one and is passed over).
fn upstream(pin: &Pin) -> Option<PathBuf> {
    let candidates = [
        std::env::var("MATTERMOST_OPENAPI")
            .ok()
            .filter(|p| !p.is_empty())
            .map(PathBuf::from),
        Some(root().join("../shared/spec").join(&pin.file)),
    ];
    let mut passed_over = Vec::new();
    for p in candidates.into_iter().flatten().filter(|p| p.is_file()) {
        let sha = sha256_hex(&std::fs::read(&p).expect("reads"));
        if sha == pin.sha256 {
            return Some(p);
        }
        passed_over.push(format!("{} (sha256 {sha})", p.display()));
    }
    eprintln!(
        "SKIPPED: Mattermost's {} (sha256 {}) is not at hand (set MATTERMOST_OPENAPI or put it in \
         ../shared/spec/){}; the comparison of the committed copy with it did not run",
        pin.file,
        pin.sha256,
        if passed_over.is_empty() {
            String::new()
        } else {
            format!("; not the pinned file: {}", passed_over.join(", "))
        }
    );
    None
}

#[test]
fn the_committed_copy_is_what_pinned_yaml_records_and_is_stripped() {
    let (pin, bytes, doc) = committed();
    assert_eq!(
        sha256_hex(&bytes),
        pin.stripped_sha256,
        "spec/{} and spec/pinned.yaml disagree: run spec-strip",
        pin.stripped
    );
    let again = strip::strip(&doc);
    assert!(
        again.dropped.is_empty(),
        "stripping the copy drops {:?}",
        again.dropped
    );
    assert_eq!(
        strip::to_bytes(&again.doc),
        bytes,
        "written as spec-strip writes"
    );
}

/// Every key named like prose sits where it is a name (a schema's property), or is a response's
/// required, empty `description`, or the API's title.
#[test]
fn the_committed_copy_holds_no_prose() {
    let (_, _, doc) = committed();
    let mut found = Vec::new();
    let mut walk = vec![(String::new(), &doc, false)];
    let mut seen = 0usize;
    while let Some((path, value, names)) = walk.pop() {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    let at = format!("{path}/{k}");
                    let prose = matches!(
                        k.as_str(),
                        "description"
                            | "summary"
                            | "example"
                            | "examples"
                            | "title"
                            | "externalDocs"
                            | "x-codeSamples"
                            | "x-code-samples"
                            | "termsOfService"
                            | "contact"
                    );
                    let allowed = names
                        || (k == "description" && v == &json!("") && path.contains("/responses/"))
                        || (k == "description"
                            && v == &json!("")
                            && path.starts_with("/components/responses"))
                        || at == "/info/title";
                    if prose && !allowed {
                        found.push(at.clone());
                    }
                    if let Value::String(s) = v {
                        seen += 1;
                        if !names && s.split_whitespace().count() > 3 {
                            found.push(format!("{at}: {s}"));
                        }
                    }
                    walk.push((at, v, k == "properties" && !names));
                }
            }
            Value::Array(list) => {
                for (i, v) in list.iter().enumerate() {
                    walk.push((format!("{path}/{i}"), v, false));
                }
            }
            _ => {}
        }
    }
    assert!(seen > 5_000, "too little to scan: {seen} strings");
    assert!(found.is_empty(), "prose in the committed copy: {found:#?}");
}

#[test]
fn the_committed_copy_is_what_stripping_mattermosts_file_gives() {
    let (pin, bytes, doc) = committed();
    let Some(path) = upstream(&pin) else { return };
    let upstream_bytes = std::fs::read(&path).expect("reads");
    assert_eq!(
        sha256_hex(&upstream_bytes),
        pin.sha256,
        "{} is the pinned file",
        path.display()
    );
    let full = document::parse(&upstream_bytes, "upstream").expect("parses");
    let stripped = strip::strip(&full);
    assert!(
        strip::to_bytes(&stripped.doc) == bytes,
        "the committed copy is stale: run `cargo run -p mattermost-spec --bin spec-strip -- {}`",
        path.display()
    );
    assert_eq!(Surface::of(&full), Surface::of(&doc), "the same surface");
    let overrides = Overrides::load(&root().join("overrides")).expect("overrides load");
    let (mut a, mut b) = (full.clone(), doc.clone());
    let na = repairs::normalize(&mut a, &overrides).expect("repairs apply upstream");
    let nb = repairs::normalize(&mut b, &overrides).expect("repairs apply to the copy");
    assert_eq!(na.edits, nb.edits, "every repair makes the same edits");
    assert_eq!(
        Surface::of(&a),
        Surface::of(&b),
        "the same repaired surface"
    );
}

#[test]
fn the_permission_facts_survive_stripping() {
    let (_, _, doc) = committed();
    let op = |path: &str, method: &str| {
        doc.pointer(&format!(
            "/paths/{}/{method}/{}",
            path.replace('/', "~1"),
            strip::PERMISSIONS
        ))
        .cloned()
        .unwrap_or(Value::Null)
    };
    let config = op("/api/v4/config", "get");
    assert_eq!(config["system_admin"], json!(true), "{config}");
    let posts = op("/api/v4/channels/{channel_id}/posts", "get");
    assert_eq!(posts["system_admin"], json!(false), "{posts}");
    assert_eq!(posts["required"], json!(["read_channel"]), "{posts}");
}

fn spec_strip(args: &[&str], dir: &Path) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_spec-strip"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("spec-strip runs");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

fn tiny_spec(summary: &str) -> String {
    format!(
        "openapi: 3.0.0\ninfo: {{title: T, version: 4.0.0, description: An introduction.}}\npaths:\n  /api/v4/things:\n    get:\n      operationId: GetThings\n      summary: {summary}\n      description: Must have `manage_system` permission.\n      responses:\n        '200':\n          description: The things.\n          content:\n            application/json:\n              schema: {{type: array, items: {{type: string, example: a thing}}}}\n"
    )
}

#[test]
fn spec_strip_pins_checks_and_refuses_another_file() {
    let dir = std::env::temp_dir().join(format!("spec-strip-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("spec")).expect("dir");
    let upstream = dir.join("up.yaml");
    std::fs::write(&upstream, tiny_spec("Get the things")).expect("write");
    let sha = sha256_hex(&std::fs::read(&upstream).expect("read"));
    let pin = Pin {
        release: "1".into(),
        file: "up.yaml".into(),
        sha256: sha.clone(),
        stripped: String::new(),
        stripped_sha256: String::new(),
        source: "A test.".into(),
    };
    pin.write(&dir).expect("pin");

    let (ok, out) = spec_strip(&["up.yaml"], &dir);
    assert!(ok, "{out}");
    let pin = Pin::load(&dir).expect("pinned.yaml reads");
    assert_eq!(pin.sha256, sha);
    assert_eq!(pin.stripped, "up.stripped.json");
    let copy = std::fs::read(dir.join("spec/up.stripped.json")).expect("copy written");
    assert_eq!(sha256_hex(&copy), pin.stripped_sha256, "{out}");
    let text = String::from_utf8_lossy(&copy);
    assert!(
        !text.contains("The things")
            && !text.contains("a thing")
            && !text.contains("introduction")
            && text.contains("GetThings"),
        "{text}"
    );
    assert!(text.contains("\"system_admin\": true"), "{text}");

    let (ok, out) = spec_strip(&["up.yaml", "--check"], &dir);
    assert!(ok && out.contains("is current"), "{out}");

    std::fs::write(dir.join("other.yaml"), tiny_spec("Get other things")).expect("write");
    let (ok, out) = spec_strip(&["other.yaml"], &dir);
    assert!(
        !ok && out.contains("is not the pinned") && out.contains("--release"),
        "{out}"
    );
    let (ok, out) = spec_strip(&["other.yaml", "--check"], &dir);
    assert!(!ok, "{out}");
    let (ok, out) = spec_strip(&["other.yaml", "--out", "x.json"], &dir);
    assert!(ok && dir.join("x.json").is_file(), "{out}");
    assert_eq!(
        std::fs::read(dir.join("x.json")).expect("x"),
        copy,
        "the summary is prose: both files strip to the same copy"
    );
    let (ok, out) = spec_strip(&["other.yaml", "--release", "2"], &dir);
    assert!(ok, "{out}");
    let pin = Pin::load(&dir).expect("pinned.yaml reads");
    assert_eq!(
        (pin.release.as_str(), pin.file.as_str()),
        ("2", "other.yaml")
    );
    assert!(
        !dir.join("spec/up.stripped.json").exists(),
        "the old copy is removed"
    );
    let (ok, out) = spec_strip(&["--bogus"], &dir);
    assert!(
        !ok && out.contains("unknown option") && out.contains("usage"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pinned::load`, as the build calls it: the committed copy by default (checked by sha256), another
/// file through the same stripping, accepted by its sha256, a stale copy warned about.
#[test]
fn the_build_loads_the_committed_copy_or_another_file_by_its_sha256() {
    use mattermost_spec::pinned::load;
    let dir = std::env::temp_dir().join(format!("spec-load-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("spec")).expect("dir");
    let upstream = dir.join("up.yaml");
    std::fs::write(&upstream, tiny_spec("Get the things")).expect("write");
    let upstream_bytes = std::fs::read(&upstream).expect("read");
    let stripped = strip::strip(&document::parse(&upstream_bytes, "up").expect("parses"));
    let copy = strip::to_bytes(&stripped.doc);
    std::fs::write(dir.join("spec/up.stripped.json"), &copy).expect("copy");
    let pin = Pin {
        release: "1".into(),
        file: "up.yaml".into(),
        sha256: sha256_hex(&upstream_bytes),
        stripped: "up.stripped.json".into(),
        stripped_sha256: sha256_hex(&copy),
        source: "A test.".into(),
    };

    let loaded = load(&pin, &dir, None, None).expect("the committed copy loads");
    assert!(loaded.pinned && loaded.committed_copy && loaded.stale_copy.is_none());
    assert_eq!(loaded.sha256, pin.sha256, "it stands for the upstream file");
    assert_eq!(loaded.doc, stripped.doc);

    let up = upstream.to_string_lossy().into_owned();
    let loaded = load(&pin, &dir, Some(&up), None).expect("the pinned upstream file loads");
    assert!(loaded.pinned && !loaded.committed_copy && loaded.stale_copy.is_none());
    assert_eq!(loaded.doc, stripped.doc, "through the same stripping");
    assert!(loaded.dropped.contains_key("operation.summary"));

    let other = dir.join("other.yaml");
    std::fs::write(&other, tiny_spec("Other").replace("GetThings", "GetOthers")).expect("write");
    let other_path = other.to_string_lossy().into_owned();
    let e = load(&pin, &dir, Some(&other_path), None).expect_err("not by accident");
    assert!(
        e.contains("is not the pinned") && e.contains("MATTERMOST_OPENAPI_SHA256="),
        "{e}"
    );
    let sha = sha256_hex(&std::fs::read(&other).expect("read"));
    let loaded = load(&pin, &dir, Some(&other_path), Some(&sha)).expect("on purpose");
    assert!(!loaded.pinned);
    assert_eq!(loaded.sha256, sha);

    let e = load(&pin, &dir, Some("/nonexistent/spec.yaml"), None).expect_err("missing");
    assert!(
        e.contains("was not found") && e.contains("spec/up.stripped.json"),
        "{e}"
    );

    std::fs::write(dir.join("spec/up.stripped.json"), b"{\"paths\": {}}\n").expect("tamper");
    let e = load(&pin, &dir, None, None).expect_err("a changed copy is refused");
    assert!(
        e.contains("changed by hand") && e.contains("spec-strip"),
        "{e}"
    );
    let loaded = load(&pin, &dir, Some(&up), None).expect("the upstream file still loads");
    assert!(
        loaded
            .stale_copy
            .as_deref()
            .is_some_and(|w| w.contains("stale")),
        "and the stale copy is named: {:?}",
        loaded.stale_copy
    );
    let _ = std::fs::remove_dir_all(&dir);
}
