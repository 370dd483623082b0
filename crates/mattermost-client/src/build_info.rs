//! What the build script read and decided, as the binary carries it: the pinned spec's file and
//! sha256, the repaired surface the client was generated from, the overrides (in full, and as the
//! `overrides` command prints them) and every edit the repairs made.

/// The pinned spec's file name (in `spec/`), as `spec/pinned.yaml` names it.
pub const SPEC_FILE: &str = env!("MATTERMOST_SPEC_FILE");
/// The sha256 of the spec the client was generated from.
pub const SPEC_SHA256: &str = env!("MATTERMOST_SPEC_SHA256");
/// The release the spec is of (`unpinned` when built against another file on purpose).
pub const SPEC_RELEASE: &str = env!("MATTERMOST_SPEC_RELEASE");
/// The path the build read the spec from.
pub const SPEC_PATH: &str = env!("MATTERMOST_SPEC_PATH");
/// The repaired spec's operations, as the generated client has them (JSON of `mattermost_spec::Surface`).
pub const SURFACE_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/surface.json"));
/// The overrides the client was generated with (JSON of `mattermost_spec::Overrides`).
pub const OVERRIDES_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/overrides_full.json"));
/// The overrides as the `overrides` command prints them.
pub const OVERRIDES_TABLE_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/overrides.json"));
/// Every edit the repairs and overrides made, and every operation left out.
pub const NORMALIZATION_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/normalization.json"));
/// The pinned spec's file name and sha256, in one line.
pub const PINNED: &str = concat!(
    env!("MATTERMOST_SPEC_FILE"),
    " (sha256 ",
    env!("MATTERMOST_SPEC_SHA256"),
    ")"
);
