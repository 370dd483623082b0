//! The bounds of watching (from `crate::config::VARIABLES`).

use std::time::Duration;

/// How much watching one process allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchSettings {
    /// Distinct resources one person may watch at once (`MATTERMOST_MCP_MAX_WATCHES`).
    pub per_person: usize,
    /// Persons who may watch at once, each with one Mattermost socket (`MATTERMOST_MCP_MAX_WATCHERS`).
    pub people: usize,
    /// How long a person's socket stays open once nothing is watched (`MATTERMOST_MCP_WATCH_IDLE_SECS`).
    pub idle: Duration,
}

impl Default for WatchSettings {
    fn default() -> Self {
        WatchSettings {
            per_person: 50,
            people: 1000,
            idle: Duration::from_secs(30),
        }
    }
}

impl WatchSettings {
    /// The settings from the environment through `get`, each checked: a value that is not accepted
    /// is named with what is.
    pub fn from(get: impl Fn(&str) -> Option<String>) -> Result<WatchSettings, String> {
        use crate::config::{MAX_WATCHERS, MAX_WATCHES, WATCH_IDLE};
        let d = WatchSettings::default();
        let count = |name: &str, default: usize, max: usize| -> Result<usize, String> {
            match get(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
            {
                None => Ok(default),
                Some(v) => match v.parse::<usize>() {
                    Ok(n) if (1..=max).contains(&n) => Ok(n),
                    _ => Err(format!(
                        "{name}={v:?} is not accepted: give a whole number from 1 to {max} (default {default})."
                    )),
                },
            }
        };
        Ok(WatchSettings {
            per_person: count(MAX_WATCHES, d.per_person, 10_000)?,
            people: count(MAX_WATCHERS, d.people, 1_000_000)?,
            idle: crate::config::seconds(WATCH_IDLE, get(WATCH_IDLE), d.idle.as_secs())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_have_defaults_and_refuse_what_is_not_a_count() {
        assert_eq!(WatchSettings::from(|_| None), Ok(WatchSettings::default()));
        let s = WatchSettings::from(|k| (k == crate::config::MAX_WATCHES).then(|| "3".into()))
            .expect("accepted");
        assert_eq!(s.per_person, 3);
        let e = WatchSettings::from(|k| (k == crate::config::MAX_WATCHERS).then(|| "lots".into()))
            .expect_err("refused");
        assert!(
            e.contains("MATTERMOST_MCP_MAX_WATCHERS=\"lots\"") && e.contains("whole number"),
            "{e}"
        );
    }
}
