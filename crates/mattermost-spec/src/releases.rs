//! The Mattermost releases the project supports, and what each operation of the pinned spec needs of
//! the server it is sent to.
//!
//! An operation needs a server at least as new as the version its description names (`x-mattermost-since`,
//! read by the stripper), and newer than every supported older release whose spec (assembled from that
//! release's own sources, [`crate::assemble`]) does not have it. The table of those needs is committed
//! as `spec/releases.json` (a clone has no source trees; `spec-releases` writes it, a test keeps it
//! equal to what the trees give). At run time the server's version comes from the `X-Version-Id`
//! header every Mattermost answer carries ([`Version::from_version_id`]), and [`Table::refusal`] says,
//! before anything is sent, why an operation cannot work there and which release it needs.

use crate::strip::SINCE;
use crate::surface::Surface;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// `spec/releases.json`, under the root.
pub const RELEASES_FILE: &str = "spec/releases.json";

/// A server version: major, minor, patch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Version {
    /// The first number (`11` in `11.6.0`).
    pub major: u32,
    /// The second number (`6` in `11.6.0`); 0 when the text names only a major.
    pub minor: u32,
    /// The third number (`0` in `11.6.0`); 0 when the text names none.
    pub patch: u32,
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

impl Version {
    /// `11.6.0`, `10.11`, `9.9.0`, `11.6.0-dev`: the leading numbers (a missing patch is 0).
    pub fn parse(text: &str) -> Option<Version> {
        let mut parts = text.trim().split(['.', '-', '+']).map(|p| p.parse::<u32>());
        let major = parts.next()?.ok()?;
        let minor = match parts.next() {
            None => 0,
            Some(m) => m.ok()?,
        };
        let patch = parts.next().and_then(Result::ok).unwrap_or(0);
        Some(Version {
            major,
            minor,
            patch,
        })
    }

    /// The version in an `X-Version-Id` header: `<version>.<build number>.<build hash>.<enterprise>`,
    /// e.g. `10.11.3.12345.4f5a….true` or, in development builds, `11.6.0.dev.….false`.
    pub fn from_version_id(header: &str) -> Option<Version> {
        let mut parts = header.trim().split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        let patch = parts.next()?.parse().ok()?;
        Some(Version {
            major,
            minor,
            patch,
        })
    }

    /// The release line (`10.11`): major and minor.
    pub fn line(self) -> (u32, u32) {
        (self.major, self.minor)
    }
}

/// What an operation needs of the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Need {
    /// The version its description names ("Minimum server version"), when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// The newest supported older release whose spec does not have it: a server of that release line
    /// or older lacks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_in: Option<String>,
}

/// An older supported release: its name, the sha256 of its spec as assembled from its sources, and
/// its operations (so the table can be derived again for a new pin without the sources at hand).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Older {
    /// Its release name (`10.11.0`).
    pub release: String,
    /// The SHA-256 (hex) of its spec as assembled from its source fragments, so that the same spec
    /// can be recognised again.
    pub sha256: String,
    /// Every operationId its spec has (deduplicated as the surface names them), sorted.
    pub operations: Vec<String>,
    /// Operations its spec lacks that the project takes its router to serve: those a repair of the
    /// pin adds (`add_operation`, with the router's code as evidence) when the entry was made. Not
    /// refused there; a live test against that release is what confirms them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub served_undocumented: Vec<String>,
}

impl Older {
    /// An older release from its assembled spec.
    pub fn of(release: &str, bytes: &[u8], doc: &Value) -> Older {
        Older {
            release: release.to_string(),
            sha256: crate::pinned::sha256_hex(bytes),
            operations: Surface::of(doc).operations.keys().cloned().collect(),
            served_undocumented: Vec::new(),
        }
    }
}

/// `spec/releases.json`: the supported releases and what each operation needs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// The pinned release.
    pub pinned: String,
    /// The operations that need more than the oldest supported release, by operationId.
    pub operations: BTreeMap<String, Need>,
    /// The older releases supported beside it, each assembled from its sources (oldest first).
    pub older: Vec<Older>,
}

impl Table {
    /// The older releases' names.
    pub fn older_releases(&self) -> Vec<String> {
        self.older.iter().map(|o| o.release.clone()).collect()
    }

    /// Derives the table from the pinned spec (as Mattermost publishes it, or its stripped copy:
    /// `x-mattermost-since` is read from the stripped form) and the older releases.
    pub fn derive(pinned_release: &str, pinned: &Value, older: &[Older]) -> Table {
        let stripped = crate::strip::strip(pinned).doc;
        let surface = Surface::of(&stripped);
        let mut older: Vec<(Version, &Older)> = older
            .iter()
            .filter_map(|o| Some((Version::parse(&o.release)?, o)))
            .collect();
        older.sort_by_key(|(v, _)| *v);
        let since = since_of(&stripped);
        let mut operations = BTreeMap::new();
        for id in surface.operations.keys() {
            let not_in = older
                .iter()
                .rev()
                .find(|(_, o)| !o.operations.contains(id) && !o.served_undocumented.contains(id))
                .map(|(_, o)| o.release.clone());
            let documented = since.get(id).cloned();
            // A documented version no newer than the oldest supported release asks nothing of it.
            let documented =
                documented.filter(
                    |s| match (Version::parse(s), older.first().map(|(v, _)| *v)) {
                        (Some(v), Some(oldest)) => v > oldest,
                        _ => true,
                    },
                );
            if not_in.is_some() || documented.is_some() {
                operations.insert(
                    id.clone(),
                    Need {
                        since: documented,
                        not_in,
                    },
                );
            }
        }
        Table {
            pinned: pinned_release.to_string(),
            operations,
            older: older.into_iter().map(|(_, o)| o.clone()).collect(),
        }
    }

    /// Why `operation` cannot work on a server of `version`, naming the release it needs; `None` when
    /// nothing is known against it.
    pub fn refusal(&self, operation: &str, version: Version) -> Option<String> {
        let need = self.operations.get(operation)?;
        if let Some(since) = need.since.as_deref().and_then(Version::parse)
            && version < since
        {
            return Some(format!(
                "{operation} needs Mattermost {}.{} or later (its documentation says so); this server is \
                 {version} (from its X-Version-Id header). Ask its administrator to upgrade, or use \
                 another operation.",
                since.major, since.minor
            ));
        }
        if let Some(not_in) = need.not_in.as_deref().and_then(Version::parse)
            && version.line() <= not_in.line()
        {
            return Some(format!(
                "{operation} needs a Mattermost newer than {}.{}: the {}.{} release's API has no such \
                 operation, and this server is {version} (from its X-Version-Id header). Ask its \
                 administrator to upgrade, or use another operation.",
                not_in.major, not_in.minor, not_in.major, not_in.minor
            ));
        }
        None
    }

    /// The text of `spec/releases.json`.
    pub fn render(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// Where the source trees of the supported older releases are looked for: `$MATTERMOST_SOURCES`, else
/// `../shared/spec/sources` beside the checkout; each as `mattermost-<release>`.
pub fn sources_dir(root: &Path) -> PathBuf {
    match std::env::var_os("MATTERMOST_SOURCES") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => root.join("../shared/spec/sources"),
    }
}

/// An older release assembled from its source tree `<sources>/mattermost-<release>`.
pub fn assemble_older(sources: &Path, release: &str) -> Result<Older, String> {
    let dir = sources.join(format!("mattermost-{release}"));
    if !dir.is_dir() {
        return Err(format!(
            "the source tree of Mattermost {release} is not at {}: put it there (or set \
             MATTERMOST_SOURCES to the folder that holds mattermost-{release}/)",
            dir.display()
        ));
    }
    let a = crate::assemble::assemble(&dir)?;
    let doc = crate::document::parse(&a.bytes, &dir.display().to_string())?;
    Ok(Older::of(release, &a.bytes, &doc))
}

/// An older release assembled from its sources, with the operations the tree's repairs add
/// (`add_operation`) that its spec lacks taken as served by its router ([`Older::served_undocumented`]).
pub fn assemble_older_for(
    tree: &crate::tree::Tree,
    sources: &Path,
    release: &str,
) -> Result<Older, String> {
    let mut older = assemble_older(sources, release)?;
    let overrides = tree.overrides()?;
    older.served_undocumented = overrides
        .repairs
        .iter()
        .filter(|r| r.repair == "add_operation")
        .filter_map(|r| r.operation.clone())
        .filter(|op| !older.operations.contains(op))
        .collect();
    older.served_undocumented.sort();
    Ok(older)
}

/// The table for the tree's pin and the given older releases.
pub fn for_pin(tree: &crate::tree::Tree, older: &[Older]) -> Result<Table, String> {
    let pin = tree.pin()?;
    let pinned = tree.pinned_doc(&pin)?;
    Ok(Table::derive(&pin.release, &pinned, older))
}

/// `spec/releases.json` of a tree.
pub fn load(root: &Path) -> Result<Table, String> {
    let path = root.join(RELEASES_FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not valid: {e}", path.display()))
}

/// `x-mattermost-since` of every operation of a stripped spec that has one.
fn since_of(stripped: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut seen = BTreeMap::new();
    for item in stripped
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|p| p.values())
    {
        for method in crate::document::METHODS {
            let Some(op) = item.get(method) else { continue };
            let Some(raw) = op.get("operationId").and_then(Value::as_str) else {
                continue;
            };
            let id = crate::surface::unique_id(&mut seen, raw);
            if let Some(s) = op.get(SINCE).and_then(Value::as_str) {
                out.insert(id, s.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn versions_are_read_from_release_names_and_the_version_header() {
        assert_eq!(
            Version::parse("11.6.0-dev"),
            Some(Version {
                major: 11,
                minor: 6,
                patch: 0
            })
        );
        assert_eq!(
            Version::parse("10.11").map(|v| v.to_string()).as_deref(),
            Some("10.11.0")
        );
        assert_eq!(Version::parse("dev"), None);
        assert_eq!(Version::parse("11").map(|v| v.line()), Some((11, 0)));
        assert_eq!(
            Version::from_version_id("10.11.3.12345.4f5ac1.true"),
            Some(Version {
                major: 10,
                minor: 11,
                patch: 3
            })
        );
        assert_eq!(
            Version::from_version_id("11.6.0.11.6.0.abc.false").map(|v| v.line()),
            Some((11, 6))
        );
        assert_eq!(Version::from_version_id("garbage"), None);
        assert!(Version::parse("10.11.0") < Version::parse("11.3.0"));
        assert!(
            Version::parse("9.11.0") < Version::parse("10.2.0"),
            "numeric, not text order"
        );
    }

    fn spec(ops: &[(&str, Option<&str>)]) -> Value {
        let mut paths = serde_json::Map::new();
        for (i, (id, since)) in ops.iter().enumerate() {
            let mut op = json!({"operationId": id, "responses": {"200": {"description": ""}}});
            if let Some(s) = since {
                op["x-mattermost-since"] = json!(s);
            }
            paths.insert(format!("/api/v4/p{i}"), json!({ "get": op }));
        }
        json!({"openapi": "3.0.0", "info": {"title": "t", "version": "4"}, "paths": paths})
    }

    #[test]
    fn an_operation_an_older_release_lacks_or_documents_as_newer_is_refused_there_naming_the_release()
     {
        let pinned = spec(&[
            ("GetUser", Some("4.0")),
            ("MarkAllTeamChannelsRead", Some("11.3")),
            ("CreateRecap", None),
        ]);
        let older = spec(&[("GetUser", None)]);
        let older = Older::of("10.11.0", b"the spec", &older);
        assert_eq!(older.operations, ["GetUser"]);
        let t = Table::derive("11.6.0-dev", &pinned, &[older]);
        assert_eq!(t.older_releases(), ["10.11.0"]);
        assert!(!t.operations.contains_key("GetUser"), "{:?}", t.operations);
        assert_eq!(
            t.operations["MarkAllTeamChannelsRead"],
            Need {
                since: Some("11.3".into()),
                not_in: Some("10.11.0".into())
            }
        );
        let on = |v: &str| Version::parse(v).expect("a version");
        let e = t
            .refusal("MarkAllTeamChannelsRead", on("11.2.1"))
            .expect("refused on 11.2");
        assert!(
            e.contains("needs Mattermost 11.3 or later") && e.contains("11.2.1"),
            "{e}"
        );
        let e = t
            .refusal("CreateRecap", on("10.11.4"))
            .expect("refused on 10.11");
        assert!(
            e.contains("newer than 10.11") && e.contains("10.11.4"),
            "{e}"
        );
        assert_eq!(t.refusal("CreateRecap", on("11.0.0")), None);
        assert_eq!(t.refusal("MarkAllTeamChannelsRead", on("11.6.0")), None);
        assert_eq!(t.refusal("GetUser", on("10.11.0")), None);
        let back: Table = serde_json::from_str(&t.render()).expect("reads back");
        assert_eq!(back, t);

        // An operation the older release's router is taken to serve (a repair of the pin adds it) is
        // not refused there for its spec's silence.
        let mut served = t.older[0].clone();
        served.served_undocumented = vec!["CreateRecap".into()];
        let t = Table::derive("11.6.0-dev", &pinned, &[served]);
        assert!(
            !t.operations.contains_key("CreateRecap"),
            "{:?}",
            t.operations
        );
        assert_eq!(t.refusal("CreateRecap", on("10.11.4")), None);
    }
}
