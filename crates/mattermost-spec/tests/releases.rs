//! `spec/releases.json`, what each operation needs of the server: it is for the pinned release, names
//! only operations the pinned spec has, and (when the older releases' source trees are at hand, in
//! `../shared/spec/sources/` or `$MATTERMOST_SOURCES`) is exactly what assembling them gives.

// Tests and their helpers say what must hold with unwrap and expect; outside tests both are denied.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mattermost_spec::pinned::Pin;
use mattermost_spec::releases::{self, Version};
use mattermost_spec::tree::Tree;
use mattermost_spec::{Surface, document};
use std::path::PathBuf;

/// The checkout, found at run time (see `spec_check.rs`).
fn root() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
        .join("../..")
}

#[test]
fn the_committed_table_is_for_the_pin_and_names_only_its_operations() {
    let pin = Pin::load(&root()).expect("pinned.yaml");
    let table = releases::load(&root()).expect("spec/releases.json");
    assert_eq!(
        table.pinned, pin.release,
        "spec/releases.json is for another pin: run spec-releases (release-day does)"
    );
    assert!(!table.older.is_empty(), "no older release is supported");
    let surface = Surface::of(&document::read(&pin.stripped_path(&root())).expect("the copy"));
    for (id, need) in &table.operations {
        assert!(surface.get(id).is_some(), "{id} is not in the pinned spec");
        assert!(
            need.since.is_some() || need.not_in.is_some(),
            "{id}: an empty need"
        );
        for v in need.since.iter().chain(need.not_in.iter()) {
            assert!(Version::parse(v).is_some(), "{id}: `{v}` is not a version");
        }
    }
}

#[test]
fn the_committed_table_is_what_the_older_releases_sources_give() {
    let table = releases::load(&root()).expect("spec/releases.json");
    let sources = releases::sources_dir(&root());
    let mut older = Vec::new();
    for o in &table.older {
        if !sources.join(format!("mattermost-{}", o.release)).is_dir() {
            eprintln!(
                "SKIPPED: the source tree of {} is not in {}; spec/releases.json was not rebuilt from it",
                o.release,
                sources.display()
            );
            return;
        }
        let mut again = releases::assemble_older(&sources, &o.release).expect("assembles");
        assert_eq!(
            again.sha256, o.sha256,
            "{} assembles to another spec",
            o.release
        );
        assert_eq!(again.operations, o.operations, "{}'s operations", o.release);
        // Recorded when the entry was made, from the repairs of that day.
        again.served_undocumented = o.served_undocumented.clone();
        older.push(again);
    }
    let tree = Tree::find(&root()).expect("the checkout");
    let again = releases::for_pin(&tree, &older).expect("derives");
    assert!(
        again == table,
        "spec/releases.json is stale: run `cargo run -p mattermost-spec --bin spec-releases -- {}`",
        table
            .older
            .iter()
            .map(|o| sources
                .join(format!("mattermost-{}", o.release))
                .display()
                .to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
}
