//! Which Mattermost the requests reach, and what each operation needs of it: the server's version,
//! read from the `X-Version-Id` header of every answer, and the table of what each operation of the
//! pinned spec needs (`spec/releases.json`: the version its documentation names, and the supported
//! older release whose API lacks it). A request for an operation the server is too old for is refused
//! before it is sent, naming the version it needs.

use mattermost_spec::releases::{Table, Version};
use std::collections::HashMap;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicU64, Ordering};

const RELEASES_JSON: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/releases.json"));

/// The table of needs, keyed the way the generated client's hooks name operations.
static NEEDS: LazyLock<(Table, HashMap<String, String>)> = LazyLock::new(|| {
    let table: Table = serde_json::from_str(RELEASES_JSON).unwrap_or_default();
    let keys = table
        .operations
        .keys()
        .map(|id| (crate::call::operation_key(id), id.clone()))
        .collect();
    (table, keys)
});

/// The version of the Mattermost the requests reach, once an answer has said it (0: not yet).
#[derive(Debug, Default)]
pub struct ServerVersion(AtomicU64);

impl ServerVersion {
    /// Notes the version an `X-Version-Id` header gives (`10.11.3.12345.abc.true`).
    pub fn saw(&self, header: &str) {
        if let Some(v) = Version::from_version_id(header) {
            let packed =
                (u64::from(v.major) << 40) | (u64::from(v.minor) << 20) | u64::from(v.patch);
            self.0.store(packed, Ordering::Relaxed);
        }
    }

    /// The server's version, when an answer has said it.
    pub fn get(&self) -> Option<Version> {
        let packed = self.0.load(Ordering::Relaxed);
        (packed != 0).then_some(Version {
            major: (packed >> 40) as u32,
            minor: ((packed >> 20) & 0xFFFFF) as u32,
            patch: (packed & 0xFFFFF) as u32,
        })
    }

    /// Why `operation` (in any spelling) cannot work on this server, when its version is known and too
    /// old for it.
    pub fn refusal(&self, operation: &str) -> Option<String> {
        let version = self.get()?;
        let (table, keys) = &*NEEDS;
        let id = keys.get(&crate::call::operation_key(operation))?;
        table.refusal(id, version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operation_newer_than_the_server_is_refused_naming_the_version_it_needs() {
        let (table, _) = &*NEEDS;
        let newer = table
            .operations
            .iter()
            .find(|(_, need)| need.since.is_some() && need.not_in.is_some())
            .map(|(id, _)| id.clone())
            .expect("the table holds an operation newer than 10.11");
        let v = ServerVersion::default();
        assert_eq!(v.refusal(&newer), None, "an unknown server is not refused");
        v.saw("10.11.3.12345.4f5a6b.true");
        assert_eq!(v.get().map(|v| v.to_string()).as_deref(), Some("10.11.3"));
        let snake: String = newer
            .chars()
            .flat_map(|c| {
                if c.is_ascii_uppercase() {
                    vec!['_', c.to_ascii_lowercase()]
                } else {
                    vec![c]
                }
            })
            .collect();
        let why = v.refusal(snake.trim_start_matches('_')).expect("refused");
        assert!(why.contains("10.11.3"), "{why}");
        v.saw("11.6.0.dev.abc.false");
        assert_eq!(v.refusal(&newer), None, "the pinned release has it");
        assert_eq!(
            v.refusal("GetUser"),
            None,
            "an old operation is never refused"
        );
    }
}
