//! Generates the typed Mattermost client from the pinned OpenAPI spec.
//!
//! spec (the committed prose-free copy `spec/<stripped>`, or `$MATTERMOST_OPENAPI` stripped the same way;
//! checked by sha256) -> upstream surface -> overrides checked against it -> repairs -> undocumented
//! parameters -> multipart operations excluded -> progenitor -> `$OUT_DIR/mattermost_client.rs`.
//!
//! Besides the client it writes, for the binary and the tests:
//! - `operations.json`: the catalog, every operation classified (`mattermost_spec::catalog`);
//! - `operations_dispatch.rs`: one function per operation that sends it from JSON parameters through
//!   the generated client, and the `match` that picks it (`build/dispatch.rs`);
//! - `normalization.json`: every edit the repairs and overrides made, and every operation left out;
//! - `overrides.json`: the declared overrides (for `mattermost-mcp overrides`);
//! - `surface.json`: the operations of the repaired spec, as the generated client has them.
//!
//! Any problem stops the build with a message naming the file at fault and what to do.

#[path = "build/deferred.rs"]
mod deferred;
#[path = "build/dispatch.rs"]
mod dispatch;
#[path = "build/prune.rs"]
mod prune;
#[path = "build/responses.rs"]
mod responses;

use mattermost_spec::{Overrides, Surface, catalog, pinned, repairs};
use std::path::{Path, PathBuf};

fn main() {
    if let Err(message) = run() {
        eprintln!("\nerror: {message}\n");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?);
    let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?);
    // Only files that exist: cargo re-runs a build script whose `rerun-if-changed` names a missing file
    // on every build.
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build");
    println!("cargo:rerun-if-changed=spec/pinned.yaml");
    println!("cargo:rerun-if-changed=overrides");
    println!("cargo:rerun-if-env-changed={}", pinned::ENV_PATH);
    println!("cargo:rerun-if-env-changed={}", pinned::ENV_SHA256);

    let pin = pinned::Pin::load(&root)?;
    let env_path = std::env::var(pinned::ENV_PATH).ok();
    let env_sha = std::env::var(pinned::ENV_SHA256).ok();
    let spec = pinned::load(&pin, &root, env_path.as_deref(), env_sha.as_deref())?;
    println!("cargo:rerun-if-changed={}", spec.path.display());
    if let Some(stale) = &spec.stale_copy {
        println!("cargo:warning={stale}");
    }

    let mut doc = spec.doc;
    let upstream = Surface::of(&doc);
    let overrides_dir = root.join("overrides");
    for sub in ["parameters", "repairs"] {
        if let Ok(entries) = std::fs::read_dir(overrides_dir.join(sub)) {
            for entry in entries.flatten() {
                println!("cargo:rerun-if-changed={}", entry.path().display());
            }
        }
    }
    let overrides =
        Overrides::load(&overrides_dir).map_err(|e| listing("overrides/ does not load", &e))?;
    if !spec.pinned {
        check_against_table(&root, &doc, &overrides, &spec.path)?;
    }
    let problems = overrides.check_parameters(&upstream);
    if !problems.is_empty() {
        return Err(listing(
            "overrides/parameters/ does not match the spec",
            &problems,
        ));
    }

    let normalized = repairs::normalize(&mut doc, &overrides)
        .map_err(|e| listing("the spec repairs in overrides/repairs/ do not apply", &e))?;
    let surface = Surface::of(&doc);
    let null_arrays = null_array_operations(&doc);
    let release = if spec.pinned {
        pin.release.as_str()
    } else {
        "unpinned"
    };
    let classified = catalog::classify(&doc, &normalized.excluded, &overrides, release);

    let api: openapiv3::OpenAPI = serde_json::from_value(doc)
        .map_err(|e| format!("the repaired spec is not OpenAPI 3.0 that openapiv3 reads: {e}"))?;
    let mut settings = progenitor::GenerationSettings::default();
    settings
        .with_interface(progenitor::InterfaceStyle::Builder)
        .with_hooks(progenitor::HooksMode::Expected)
        .with_inner_type(quote::quote!(crate::transport::Transport));
    let mut generator = progenitor::Generator::new(&settings);
    let tokens = generator.generate_tokens(&api).map_err(|e| {
        format!("progenitor cannot generate the client from the repaired spec: {e}")
    })?;
    let mut file: syn::File = syn::parse2(tokens)
        .map_err(|e| format!("progenitor produced code syn cannot parse: {e}"))?;
    prune::unused_type_builders(&mut file)
        .map_err(|e| format!("the generated client's struct builders: {e}"))?;
    deferred::fields(&mut file)
        .map_err(|e| format!("the answers' parts kept unparsed (build/deferred.rs): {e}"))?;
    let code = responses::read_as_text(&prettyplease::unparse(&file))
        .map_err(|e| format!("the answers' reading: {e}"))?;
    let dispatched = dispatch::generate(&file, classified)
        .map_err(|e| format!("the dispatcher cannot be generated from the client: {e}"))?;
    for line in &dispatched.not_generated {
        println!("cargo:warning=operation not callable through the dispatcher: {line}");
    }

    write(&out.join("mattermost_client.rs"), &code)?;
    write(&out.join("operations_dispatch.rs"), &dispatched.code)?;
    write(&out.join("operations.json"), &to_json(&dispatched.catalog)?)?;
    write(&out.join("normalization.json"), &to_json(&normalized)?)?;
    write(&out.join("surface.json"), &to_json(&surface)?)?;
    write(&out.join("null_arrays.json"), &to_json(&null_arrays)?)?;
    write(
        &out.join("overrides.json"),
        &to_json(&describe(&overrides))?,
    )?;
    write(&out.join("overrides_full.json"), &to_json(&overrides)?)?;
    println!("cargo:rustc-env=MATTERMOST_SPEC_RELEASE={release}");
    println!("cargo:rustc-env=MATTERMOST_SPEC_SHA256={}", spec.sha256);
    println!(
        "cargo:rustc-env=MATTERMOST_SPEC_PATH={}",
        spec.path.display()
    );
    println!("cargo:rustc-env=MATTERMOST_SPEC_FILE={}", pin.file);
    Ok(())
}

/// Building against another release on purpose: compare it with what the tools use (committed in
/// `spec/table-uses.json`) first, and stop with the report when the tools cannot be built against it,
/// rather than with compiler errors.
fn check_against_table(
    root: &Path,
    doc: &serde_json::Value,
    overrides: &Overrides,
    path: &Path,
) -> Result<(), String> {
    let uses_path = root.join("spec").join("table-uses.json");
    println!("cargo:rerun-if-changed={}", uses_path.display());
    let text = std::fs::read_to_string(&uses_path)
        .map_err(|e| format!("cannot read {}: {e}", uses_path.display()))?;
    let table: mattermost_spec::check::TableUses = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not valid: {e}", uses_path.display()))?;
    let mut report =
        mattermost_spec::check::compare(&table.operations, doc, overrides, &table.uses);
    report
        .findings
        .retain(|f| f.kind != mattermost_spec::check::Kind::NewList);
    if report.buildable() {
        return Ok(());
    }
    Err(format!(
        "building against {} on purpose, but the tools cannot be built against it:\n\n{}",
        path.display(),
        report.render(&path.display().to_string(), &table.pinned)
    ))
}

fn listing(title: &str, items: &[String]) -> String {
    let mut s = format!("{title}:\n");
    for item in items {
        s.push_str("  - ");
        s.push_str(item);
        s.push('\n');
    }
    s
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value).map_err(|e| e.to_string())
}

/// The overrides as the `overrides` command prints them.
fn describe(o: &Overrides) -> serde_json::Value {
    let parameters: Vec<serde_json::Value> = o
        .parameters
        .iter()
        .map(|p| {
            serde_json::json!({
                "file": p.file, "operation": p.operation, "in": p.location, "name": p.name, "type": p.ty,
                "description": p.description, "source": p.evidence.source, "function": p.evidence.function,
                "reads": p.evidence.reads, "test": p.test,
            })
        })
        .collect();
    let repairs: Vec<serde_json::Value> = o
        .repairs
        .iter()
        .map(|r| {
            serde_json::json!({
                "file": r.file, "repair": r.repair, "operation": r.operation, "schema": r.schema,
                "property": r.property, "upstream": r.upstream, "change": r.change, "evidence": r.evidence,
            })
        })
        .collect();
    serde_json::json!({ "parameters": parameters, "repairs": repairs })
}

/// The operations the `null_array_responses` repair marked: their answer of `null` is read as `[]`.
fn null_array_operations(doc: &serde_json::Value) -> Vec<String> {
    let mut ids = Vec::new();
    for item in doc["paths"]
        .as_object()
        .into_iter()
        .flat_map(|p| p.values())
    {
        for op in item.as_object().into_iter().flat_map(|i| i.values()) {
            if op
                .get(repairs::NULL_IS_EMPTY)
                .and_then(serde_json::Value::as_bool)
                == Some(true)
                && let Some(id) = op.get("operationId").and_then(serde_json::Value::as_str)
            {
                ids.push(id.to_string());
            }
        }
    }
    ids.sort();
    ids
}
