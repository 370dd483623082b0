//! Assembling specs from Mattermost's own source fragments (`../shared/spec/sources/`, beside the
//! checkout on the project's machines and in CI; a plain clone has no such folder, and the tests say
//! loudly that they were skipped): the pinned release's tree gives the pinned upstream file byte for
//! byte, and stripping it gives the committed copy; the 10.11 tree gives a spec of 10.11's size.

// Tests and their helpers say what must hold with unwrap and expect; outside tests both are denied.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mattermost_spec::pinned::{Pin, sha256_hex};
use mattermost_spec::{Surface, assemble, document, strip};
use std::path::PathBuf;

/// The checkout, found at run time (cargo sets `CARGO_MANIFEST_DIR` for the test): a test binary
/// built in another copy of the checkout, left fresh because the sources are the same, would name that
/// copy if the path were read when compiling.
fn root() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
        .join("../..")
}

fn sources() -> Option<PathBuf> {
    let dir = root().join("../shared/spec/sources");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: {} is not there (Mattermost's source fragments live beside the checkout); the \
             assembly tests did not run",
            dir.display()
        );
        None
    }
}

#[test]
fn assembling_the_pinned_releases_tree_gives_the_pinned_file_byte_for_byte_and_the_committed_copy()
{
    let Some(sources) = sources() else { return };
    let pin = Pin::load(&root()).expect("pinned.yaml");
    let tree = sources.join(format!("mattermost-{}", pin.release));
    if !tree.is_dir() {
        eprintln!(
            "SKIPPED: the pinned release {} has no source tree in {}; its assembly was not compared",
            pin.release,
            sources.display()
        );
        return;
    }
    let a = assemble::assemble(&tree).expect("assembles");
    assert!(
        a.unnamed.is_empty(),
        "every fragment is in the order: {:?}",
        a.unnamed
    );
    assert_eq!(
        sha256_hex(&a.bytes),
        pin.sha256,
        "the assembly of {} is the pinned {}",
        tree.display(),
        pin.file
    );
    let doc = document::parse(&a.bytes, "assembled").expect("parses");
    let committed = std::fs::read(pin.stripped_path(&root())).expect("the committed copy");
    assert!(
        strip::to_bytes(&strip::strip(&doc).doc) == committed,
        "stripping the assembly gives spec/{}",
        pin.stripped
    );
}

#[test]
fn the_10_11_tree_assembles_into_10_11s_spec() {
    let Some(sources) = sources() else { return };
    let tree = sources.join("mattermost-10.11.0");
    let a = assemble::assemble(&tree).expect("assembles");
    assert!(
        a.order.from.ends_with("ORDER.txt"),
        "{}",
        a.order.from.display()
    );
    assert_eq!(
        a.order.fragments.first().map(String::as_str),
        Some("introduction.yaml")
    );
    assert_eq!(
        a.order.fragments.last().map(String::as_str),
        Some("definitions.yaml")
    );
    assert_eq!(a.newline_added, 0, "10.11's fragments end with a newline");
    let doc = document::parse(&a.bytes, "10.11").expect("parses");
    // The counts sources/README.md records for this tree.
    assert_eq!(doc["paths"].as_object().map(|p| p.len()), Some(389));
    assert_eq!(Surface::of(&doc).operations.len(), 488);
}
