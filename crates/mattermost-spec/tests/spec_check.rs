//! `spec-check` on the pinned release itself: the committed copy, and Mattermost's own file when it is
//! at hand, compare clean with the working tree's pin (nothing but notes, buildable). And on the
//! release-like spec of the rehearsal (`tests/release_day/`): every change it makes is named.

// Tests and their helpers say what must hold with unwrap and expect; outside tests both are denied.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mattermost_spec::check::Kind;
use mattermost_spec::patch::{self, PatchFile};
use mattermost_spec::pinned::{Pin, sha256_hex};
use mattermost_spec::tree::{self, Tree};
use mattermost_spec::{document, strip};
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

fn clean(path: &Path) {
    let tree = Tree::find(&root()).expect("the checkout");
    let (report, text) = tree::spec_check(&tree, path, None).expect("spec-check runs");
    assert!(report.buildable(), "{text}");
    let not_notes: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.kind != Kind::Note)
        .collect();
    assert!(
        not_notes.is_empty(),
        "only notes on the pinned spec:\n{text}"
    );
    assert!(
        text.contains("OPERATIONS: ") && text.contains(" 0 added") && text.contains(" 0 removed"),
        "{text}"
    );
    assert!(text.contains("RESULT: the tools can be built"), "{text}");
}

#[test]
fn spec_check_on_the_committed_copy_of_the_pinned_release_is_clean() {
    let pin = Pin::load(&root()).expect("pinned.yaml");
    clean(&pin.stripped_path(&root()));
}

#[test]
fn spec_check_on_mattermosts_own_pinned_file_is_clean() {
    let pin = Pin::load(&root()).expect("pinned.yaml");
    let path = root().join("../shared/spec").join(&pin.file);
    let at_hand = path.is_file() && sha256_hex(&std::fs::read(&path).expect("reads")) == pin.sha256;
    if !at_hand {
        eprintln!(
            "SKIPPED: Mattermost's {} (sha256 {}) is not in ../shared/spec/; spec-check on it did not run",
            pin.file, pin.sha256
        );
        return;
    }
    clean(&path);
}

/// The rehearsal's release-like spec, made as `tests/release_day.sh` makes it; `None` (said loudly)
/// when the pin has those changes already (the rehearsal's own scratch copy, after it pinned).
fn rehearsal_spec() -> Option<PathBuf> {
    let pin = Pin::load(&root()).expect("pinned.yaml");
    let text = std::fs::read_to_string(root().join("tests/release_day/11.11.1-changes.json"))
        .expect("the rehearsal patch");
    let file: PatchFile = serde_json::from_str(&text).expect("a patch file");
    let mut doc = document::read(&pin.stripped_path(&root())).expect("the committed copy");
    if let Err(e) = patch::apply(&mut doc, &file.patch) {
        assert!(
            pin.release == file.release || e.contains("there already"),
            "the rehearsal patch does not apply to the pinned copy: {e}"
        );
        eprintln!(
            "SKIPPED: the pinned release {} has the rehearsal's changes already ({e}); its report was not checked",
            pin.release
        );
        return None;
    }
    let out = std::env::temp_dir().join(format!("rehearsal-spec-{}.json", std::process::id()));
    std::fs::write(&out, strip::to_bytes(&doc)).expect("write");
    Some(out)
}

#[test]
fn the_report_on_the_rehearsal_spec_names_every_change_once_with_the_tools_and_the_type_renames() {
    let Some(path) = rehearsal_spec() else { return };
    let tree = Tree::find(&root()).expect("the checkout");
    let (report, text) = tree::spec_check(&tree, &path, None).expect("spec-check runs");
    let _ = std::fs::remove_file(&path);
    let line = |kind: Kind, needle: &str| -> String {
        let found: Vec<&str> = report
            .of(kind)
            .filter(|f| f.line.contains(needle))
            .map(|f| f.line.as_str())
            .collect();
        assert_eq!(found.len(), 1, "one {kind:?} line with {needle}:\n{text}");
        found[0].to_string()
    };
    let posts = line(Kind::Parameters, "GetPostsForChannel");
    assert!(
        posts.contains("`type`") && posts.contains("read_channel") && posts.contains("read_unread"),
        "{posts}"
    );
    let get = line(Kind::RepairRetired, "GetDrafts.add.yaml");
    assert!(
        get.contains("GetDraftsResponseItem -> Draft") && get.contains("array<Draft>"),
        "{get}"
    );
    let upsert = line(Kind::RepairRetired, "UpsertDraft.add.yaml");
    assert!(
        upsert.contains("UpsertDraftBody -> DraftUpsertRequest")
            && upsert.contains("`props`")
            && upsert.contains("`user_id`"),
        "{upsert}"
    );
    let user_id = line(Kind::Changed, "UpsertDraft");
    assert!(
        user_id.contains("`body.user_id`") && user_id.contains("save_draft"),
        "{user_id}"
    );
    let fields = line(Kind::Parameters, "UpsertDraft");
    assert!(
        fields.contains("`body.props`") && fields.contains("`body.type`"),
        "{fields}"
    );
    line(
        Kind::NewList,
        "MarkAllTeamChannelsRead (PUT /api/v4/users/{user_id}/teams/{team_id}/read)",
    );
    assert!(
        text.contains("3 added (2 the tools call), 0 removed"),
        "the count: {text}"
    );
    // One fact, one line: the answers the retired repairs leave to upstream are in their lines, not
    // notes of their own.
    assert!(
        !report
            .of(Kind::Note)
            .any(|f| f.line.contains("GetDrafts:") || f.line.contains("UpsertDraft:")),
        "{text}"
    );
    assert_eq!(
        report
            .retirements
            .iter()
            .map(|r| r.file.as_str())
            .collect::<Vec<_>>(),
        [
            "overrides/repairs/GetDrafts.add.yaml",
            "overrides/repairs/UpsertDraft.add.yaml"
        ]
    );
    assert!(!report.buildable());
}
