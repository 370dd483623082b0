//! Matching a name against candidates (a whole name first, then a part of one), and the errors for
//! a name that matches several things or nothing, with the closest names.

use crate::error::{ErrorKind, ToolError, quote};
use serde_json::{Value, json};

/// Levenshtein distance, on lowercase characters.
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// One thing a name may mean: its id, the names it goes by, and how to show it as a candidate.
pub(crate) struct Candidate<T> {
    pub(crate) item: T,
    pub(crate) names: Vec<String>,
    pub(crate) shown: Value,
}

/// What a name matched.
pub(crate) enum Matched<T> {
    One(T),
    Many(Vec<Value>),
    None(Vec<String>),
}

/// Matches `wanted` against the candidates: a whole name (case-insensitive) first, then a part of one.
/// Several whole matches are ambiguous, except that a reference written as a URL name (lowercase, no
/// spaces) that is exactly one candidate's first name means that one. Nothing matched gives the five
/// closest names.
pub(crate) fn choose<T>(wanted: &str, candidates: Vec<Candidate<T>>) -> Matched<T> {
    let written = wanted.trim();
    let w = written.to_lowercase();
    let matching = |test: &dyn Fn(&Candidate<T>) -> bool| -> Vec<usize> {
        candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| test(c))
            .map(|(i, _)| i)
            .collect()
    };
    // The first name is the one a thing is addressed by (a channel's or team's URL name, a username):
    // written as such (`random`, not `Random`), an exact match of it wins over another's display name
    // that is the same word. A reference written otherwise is a display name, and names all it matches.
    let as_url_name = written == w && !w.chars().any(char::is_whitespace);
    let primary = if as_url_name {
        matching(&|c| c.names.first().is_some_and(|n| n == written))
    } else {
        Vec::new()
    };
    let whole = if primary.len() == 1 {
        primary
    } else {
        matching(&|c| c.names.iter().any(|n| n.to_lowercase() == w))
    };
    let picked = if whole.is_empty() {
        candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| !w.is_empty() && c.names.iter().any(|n| n.to_lowercase().contains(&w)))
            .map(|(i, _)| i)
            .collect()
    } else {
        whole
    };
    match picked.len() {
        0 => {
            let mut names: Vec<(usize, String)> = candidates
                .iter()
                .flat_map(|c| c.names.iter())
                .filter(|n| !n.is_empty())
                .map(|n| (distance(&w, n), n.clone()))
                .collect();
            names.sort();
            names.dedup_by(|a, b| a.1 == b.1);
            Matched::None(names.into_iter().take(5).map(|(_, n)| n).collect())
        }
        1 => {
            let i = picked[0];
            match candidates.into_iter().nth(i) {
                Some(c) => Matched::One(c.item),
                None => Matched::None(Vec::new()),
            }
        }
        _ => Matched::Many(
            picked
                .iter()
                .filter_map(|i| candidates.get(*i))
                .map(|c| c.shown.clone())
                .collect(),
        ),
    }
}

pub(crate) fn ambiguous(
    what: &str,
    reference: &str,
    candidates: Vec<Value>,
    how: &str,
) -> ToolError {
    ToolError::new(
        ErrorKind::Ambiguous,
        format!(
            "{} names more than one {what}: {}. Call again with the id of the one you mean{how}.",
            quote(reference),
            candidates
                .iter()
                .map(|c| format!(
                    "{} ({})",
                    c["label"].as_str().unwrap_or(""),
                    c["id"].as_str().unwrap_or("")
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
    .with("candidates", Value::Array(candidates))
}

pub(crate) fn unknown(what: &str, reference: &str, closest: Vec<String>, next: &str) -> ToolError {
    let hint = if closest.is_empty() {
        String::new()
    } else {
        format!(" The closest names are: {}.", closest.join(", "))
    };
    ToolError::new(
        ErrorKind::NotFound,
        format!("No {what} is named {}.{hint} {next}", quote(reference)),
    )
    .with("closest", json!(closest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("Town", "town"), 0);
    }

    fn cand(id: &str, names: &[&str]) -> Candidate<String> {
        Candidate {
            item: id.into(),
            names: names.iter().map(|s| s.to_string()).collect(),
            shown: json!({"id": id}),
        }
    }

    #[test]
    fn a_whole_name_wins_over_parts_and_ties_are_ambiguous() {
        let c = || {
            vec![
                cand("1", &["town-square", "Town Square"]),
                cand("2", &["town-hall", "Town Hall"]),
            ]
        };
        assert!(matches!(choose("Town Square", c()), Matched::One(id) if id == "1"));
        assert!(matches!(choose("hall", c()), Matched::One(id) if id == "2"));
        assert!(matches!(choose("town", c()), Matched::Many(v) if v.len() == 2));
        assert!(
            matches!(choose("twon-square", c()), Matched::None(v) if v.first().map(String::as_str) == Some("town-square"))
        );
        // Written as a URL name, a URL name wins over another's display name that is the same word;
        // written as a display name ("Random"), it names both channels displayed so, which is
        // ambiguous (it used to pick the one whose URL name is `random`, silently).
        let random = || {
            vec![
                cand("1", &["random-2", "Random"]),
                cand("2", &["random", "Random"]),
            ]
        };
        assert!(matches!(choose("random", random()), Matched::One(id) if id == "2"));
        assert!(matches!(choose(" random ", random()), Matched::One(id) if id == "2"));
        assert!(matches!(choose("Random", random()), Matched::Many(v) if v.len() == 2));
        assert!(matches!(choose("RANDOM", random()), Matched::Many(v) if v.len() == 2));
        // One channel displayed "Random" is that channel, however it is written.
        let one = vec![
            cand("1", &["random-2", "Random"]),
            cand("3", &["other", "Other"]),
        ];
        assert!(matches!(choose("Random", one), Matched::One(id) if id == "1"));
    }
}
