//! The catalog of the pinned spec, classified as the build classifies it: every operation once, the
//! multipart ones marked not callable, the classes the README and the gateway rely on.

// Tests and their helpers say what must hold with unwrap and expect; outside tests both are denied.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mattermost_spec::catalog::{self, Access, AnswerKind, Catalog, PagingKind};
use mattermost_spec::pinned::Pin;
use mattermost_spec::{Overrides, Surface, document, repairs};
use std::collections::BTreeMap;
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

/// How many operations of the committed copy have a `multipart/form-data` body once repaired (a
/// `body_media` repair makes some JSON; the build leaves the others out of generation), counted from
/// the copy rather than known by heart.
fn multipart_in_copy() -> usize {
    let pin = Pin::load(&root()).expect("pinned.yaml");
    let mut doc = document::read(&pin.stripped_path(&root())).expect("the committed copy");
    let overrides = Overrides::load(&root().join("overrides")).expect("overrides");
    let (_, errors) = repairs::repair_lenient(&mut doc, &overrides);
    assert!(errors.is_empty(), "{errors:?}");
    let mut n = 0;
    for item in doc["paths"].as_object().expect("paths").values() {
        for op in item.as_object().into_iter().flat_map(|i| i.values()) {
            let body = op.get("requestBody").map(|b| {
                b.get("$ref")
                    .and_then(|r| r.as_str())
                    .and_then(|r| doc.pointer(r.trim_start_matches('#')))
                    .unwrap_or(b)
            });
            if body
                .and_then(|b| b.pointer("/content/multipart~1form-data"))
                .is_some()
            {
                n += 1;
            }
        }
    }
    assert!(n > 0, "the copy has multipart operations to leave out");
    n
}

fn pinned() -> (Catalog, Surface, usize) {
    let pin = Pin::load(&root()).expect("pinned.yaml");
    let mut doc = document::read(&pin.stripped_path(&root())).expect("the committed copy");
    let overrides = Overrides::load(&root().join("overrides")).expect("overrides");
    let normalized = repairs::normalize(&mut doc, &overrides).expect("repairs apply");
    let surface = Surface::of(&doc);
    let excluded = normalized.excluded.len();
    (
        catalog::classify(&doc, &normalized.excluded, &overrides, &pin.release),
        surface,
        excluded,
    )
}

#[test]
fn every_operation_is_classified_once_and_multipart_ones_are_not_callable() {
    let (c, surface, excluded) = pinned();
    let callable: Vec<&str> = c
        .operations
        .iter()
        .filter(|e| e.callable())
        .map(|e| e.id.as_str())
        .collect();
    let generated: Vec<&str> = surface.operations.keys().map(String::as_str).collect();
    assert_eq!(callable, generated, "the callable ones are the surface's");
    assert_eq!(c.operations.len(), surface.operations.len() + excluded);
    assert_eq!(excluded, multipart_in_copy(), "the multipart operations");
    for e in c.operations.iter().filter(|e| !e.callable()) {
        let reason = e.not_callable.as_deref().unwrap_or("");
        assert!(reason.contains("multipart"), "{}: {reason}", e.id);
        assert_eq!(
            e.body.as_ref().map(|b| b.media.as_str()),
            Some("multipart/form-data")
        );
    }
    let mut ids: Vec<&str> = c.operations.iter().map(|e| e.id.as_str()).collect();
    ids.dedup();
    assert_eq!(ids.len(), c.operations.len(), "ids are unique");
}

#[test]
fn the_classes_match_what_the_project_knows() {
    let (c, _, _) = pinned();
    let get = |id: &str| c.get(id).unwrap_or_else(|| panic!("{id} is classified"));
    let posts = get("GetPostsForChannel");
    assert_eq!(posts.paging.kind, PagingKind::BeforeAfter);
    assert!(posts.paging.modes.contains(&PagingKind::PagePerPage));
    assert!(posts.paging.modes.contains(&PagingKind::Since));
    let collapsed = posts.param("collapsedThreads").expect("the override");
    assert_eq!(
        collapsed.undocumented.as_ref().map(|u| u.file.as_str()),
        Some("overrides/parameters/GetPostsForChannel.collapsedThreads.yaml")
    );
    assert_eq!(get("GetUsers").paging.kind, PagingKind::PagePerPage);
    assert_eq!(
        get("GetFlaggedPostsForUser").paging.kind,
        PagingKind::Offset
    );
    assert_eq!(get("GetPostThread").paging.kind, PagingKind::Keyset);
    assert_eq!(
        get("GetPostsForReporting").paging.kind,
        PagingKind::CursorField
    );
    assert_eq!(get("GetPostsForReporting").access, Access::Read);
    assert_eq!(get("GetChannelsForUser").paging.kind, PagingKind::WholeList);
    assert_eq!(get("GetUsersByIds").paging.kind, PagingKind::WholeList);
    assert_eq!(get("GetUser").paging.kind, PagingKind::None);
    assert_eq!(get("SearchPosts").access, Access::Read);
    assert_eq!(get("CreatePost").access, Access::Write);
    assert_eq!(get("ViewChannel").access, Access::Write);
    assert!(get("GetConfig").permissions.system_admin);
    assert!(!get("GetPostsForChannel").permissions.system_admin);
    assert_eq!(get("GetFile").answer.kind, AnswerKind::Undeclared);
    assert_eq!(get("GetFileThumbnail").answer.kind, AnswerKind::Undeclared);
    assert_eq!(get("GetUsers").answer.kind, AnswerKind::Array);
    assert_eq!(get("GetUsers").answer.schema.as_deref(), Some("User"));
    // Every operation a repair adds (read from overrides/ as it is now) says which file added it, and
    // no other operation claims one.
    let overrides = Overrides::load(&root().join("overrides")).expect("overrides");
    let added: BTreeMap<&str, &str> = overrides
        .repairs
        .iter()
        .filter(|r| r.repair == "add_operation")
        .filter_map(|r| Some((r.operation.as_deref()?, r.file.as_str())))
        .collect();
    for e in &c.operations {
        assert_eq!(
            e.added_by.as_deref(),
            added.get(e.id.as_str()).copied(),
            "{}: added by",
            e.id
        );
    }
    let search = get("SearchPosts").body.as_ref().expect("a body");
    assert!(
        search
            .fields
            .iter()
            .any(|f| f.name == "terms" && f.required)
    );
    assert!(search.sample.get("terms").is_some(), "{}", search.sample);
}

/// Prints the counts per class (`--nocapture`), and the operations with an exception or a note.
#[test]
fn counts() {
    let (c, _, _) = pinned();
    let mut by: BTreeMap<String, usize> = BTreeMap::new();
    for e in &c.operations {
        *by.entry(format!("access {:?}", e.access)).or_default() += 1;
        *by.entry(format!("paging {}", e.paging.kind.as_str()))
            .or_default() += 1;
        *by.entry(format!("answer {:?}", e.answer.kind)).or_default() += 1;
        if e.permissions.system_admin {
            *by.entry("system_admin".into()).or_default() += 1;
        }
        if !e.callable() {
            *by.entry("not callable".into()).or_default() += 1;
        }
    }
    for (k, n) in &by {
        println!("{k}: {n}");
    }
    for e in &c.operations {
        if e.access_rule.starts_with("exception") || e.paging.note.is_some() {
            println!(
                "{} {} {}: {} / {} {:?}",
                e.id,
                e.method,
                e.path,
                e.access_rule,
                e.paging.kind.as_str(),
                e.paging.note
            );
        }
    }
    assert_eq!(
        by.get("not callable"),
        Some(&multipart_in_copy()),
        "only the multipart operations"
    );
    assert!(
        by.get("access Read").is_some_and(|n| *n > 200)
            && by.get("access Write").is_some_and(|n| *n > 200),
        "{by:?}"
    );
}

/// Prints every paged operation with its paging parameters: `cargo test -p mattermost-spec --test
/// catalog dump -- --ignored --nocapture`.
#[test]
#[ignore]
fn dump() {
    let (c, _, _) = pinned();
    for e in &c.operations {
        if e.paging.kind != PagingKind::None {
            println!(
                "{:14} {:28} {} {} {:?} {:?}",
                e.paging.kind.as_str(),
                e.id,
                e.method,
                e.path,
                e.paging.params,
                e.paging.modes
            );
        }
    }
}
