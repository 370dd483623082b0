//! Search terms read as Mattermost reads them, checked and resolved before any search is sent.
//!
//! The words are split as `model.splitWords` and `parseSearchFlags` split them (a quoted phrase is one
//! word; `from:`, `in:`, `channel:`, `before:`, `after:`, `on:` and `ext:`, each with a leading `-` to
//! exclude, take the rest of their word or, when that is empty, the next word). Then:
//!
//! - **Modifiers are names like any other.** `from:`/`-from:` go through the people lookup
//!   (`@alice`, `Alice`, `alice`, an email, a display name in quotes) and `in:`/`channel:` (and their
//!   exclusions) through the channel lookup (`~engineering`, `#engineering`, a display name in quotes,
//!   `@alice` for a direct message, an id), `team` narrowing names to one team. An unknown or ambiguous
//!   name is refused with the closest names before anything is searched. Mattermost is sent the form
//!   its server resolves (`App.convertUserNameToUserIds`: a username; `App.convertChannelNamesToChannelIds`:
//!   a channel name, looked up in the team searched or among direct and group messages).
//! - **The team searched.** Mattermost looks a channel name up only in the team searched (in a search
//!   of all teams, only direct and group message names), so an `in:` channel of a team, named without
//!   `team`, makes the search one of that team. Channels of two teams cannot be one search: refused.
//!   An excluded channel whose name the search cannot look up is sent as its id, which the server keeps
//!   as it is (a name it cannot resolve stays) and compares with channel ids (`buildSearchChannelFilterClause`).
//! - **Dates.** `before:`, `after:` and `on:` must be days Mattermost parses (`time.Parse("2006-01-02",
//!   PadDateStringZeros(..))`; anything else silently matches nothing or everything there); they bound
//!   the walk ([`crate::paging::search_windows`]), which adds its own `before:` in place of the person's.

use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::{ChannelFacts, ChannelKind, UserFacts};
use crate::mattermost::types;
use crate::paging::search_windows::Search;
use crate::resolve;
use serde_json::json;
use std::collections::BTreeSet;

/// `model.searchFlags`.
const FLAGS: [&str; 7] = ["from", "channel", "in", "before", "after", "on", "ext"];

/// One word of search terms as Mattermost splits them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Word {
    Plain(String),
    Flag {
        /// One of [`FLAGS`], lowercase.
        name: &'static str,
        value: String,
        exclude: bool,
    },
}

impl Word {
    /// The word as it is sent.
    pub(crate) fn text(&self) -> String {
        match self {
            Word::Plain(w) => w.clone(),
            Word::Flag {
                name,
                value,
                exclude,
            } => format!("{}{name}:{value}", if *exclude { "-" } else { "" }),
        }
    }
}

/// `model.splitWords`: whitespace-separated words, a quoted phrase (with a `-` just before it) kept
/// whole.
pub(crate) fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut in_quote = false;
    let mut location = 0;
    for (i, c) in text.char_indices() {
        if c != '"' {
            continue;
        }
        if in_quote {
            words.push(text[location..=i].to_string());
            in_quote = false;
            location = i + 1;
        } else {
            let next_start = if i > 0 && text.as_bytes()[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            words.extend(
                text[location..next_start]
                    .split_whitespace()
                    .map(String::from),
            );
            in_quote = true;
            location = next_start;
        }
    }
    words.extend(text[location..].split_whitespace().map(String::from));
    words
}

/// `model.parseSearchFlags` over [`split_words`], the plain words kept as written (Mattermost strips
/// their punctuation itself).
pub(crate) fn words(text: &str) -> Vec<Word> {
    let input = split_words(text);
    let mut out = Vec::new();
    let mut skip_next = false;
    for (i, word) in input.iter().enumerate() {
        if skip_next {
            skip_next = false;
            continue;
        }
        if let Some(colon) = word.find(':') {
            let (name, exclude) = match word.strip_prefix('-') {
                Some(_) if colon >= 1 => (&word[1..colon], true),
                _ => (&word[..colon], false),
            };
            let value = &word[colon + 1..];
            if let Some(flag) = FLAGS.iter().find(|f| f.eq_ignore_ascii_case(name)) {
                if !value.is_empty() {
                    out.push(Word::Flag {
                        name: flag,
                        value: value.to_string(),
                        exclude,
                    });
                    continue;
                } else if let Some(next) = input.get(i + 1) {
                    out.push(Word::Flag {
                        name: flag,
                        value: next.clone(),
                        exclude,
                    });
                    skip_next = true;
                    continue;
                }
            }
        }
        out.push(Word::Plain(word.clone()));
    }
    out
}

/// Days since 1970-01-01 of a date as Mattermost reads one: `PadDateStringZeros` (one-digit parts
/// get a zero), then Go's `time.Parse("2006-01-02", ..)` (four-digit year, two-digit month and day,
/// the day within its month, nothing more).
pub(crate) fn date(value: &str) -> Option<i64> {
    let padded: Vec<String> = value
        .split('-')
        .map(|p| {
            if p.len() == 1 {
                format!("0{p}")
            } else {
                p.to_string()
            }
        })
        .collect();
    let [y, m, d] = padded.as_slice() else {
        return None;
    };
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(y, 4) || !digits(m, 2) || !digits(d, 2) {
        return None;
    }
    let (y, m, d): (i64, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days_in = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if d < 1 || d > days_in {
        return None;
    }
    crate::time::parse(&format!("{y:04}-{m:02}-{d:02}")).map(|ms| ms.div_euclid(86_400_000))
}

/// The person's own date bounds: the last and first day the terms allow (`before:D` ends the day
/// before D, `on:D` is D alone and outweighs `before:`/`after:` as Mattermost's
/// `buildCreateDateFilterClause` does, `after:D` starts the day after D, `-before:D` starts on D).
/// A date Mattermost would not parse is refused.
fn date_bounds(words: &[Word]) -> Result<(Option<i64>, Option<i64>), ToolError> {
    let mut last = None;
    let mut first: Option<i64> = None;
    let mut on = None;
    for w in words {
        let Word::Flag {
            name,
            value,
            exclude,
        } = w
        else {
            continue;
        };
        if !matches!(*name, "before" | "after" | "on") {
            continue;
        }
        let day = date(value.trim_matches('"')).ok_or_else(|| {
            ToolError::bad_argument(format!(
                "{} in `terms` is not a day Mattermost reads: write YYYY-MM-DD (`{name}:2026-11-30`), a day in \
                 your Mattermost time zone.",
                quote(&w.text())
            ))
        })?;
        match (*name, *exclude) {
            ("before", false) => last = Some(day - 1),
            ("on", false) => on = Some(day),
            ("after", false) => first = Some(first.map_or(day + 1, |f| f.max(day + 1))),
            ("before", true) => first = Some(first.map_or(day, |f| f.max(day))),
            _ => {}
        }
    }
    Ok(match on {
        Some(d) => (Some(d), Some(d)),
        None => (last, first),
    })
}

fn unquoted(value: &str) -> &str {
    let v = value.trim();
    v.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(v)
}

/// Says which search term a lookup's refusal is about.
fn in_terms(term: &Word, e: ToolError) -> ToolError {
    ToolError {
        message: format!("In `terms`, {}: {}", quote(&term.text()), e.message),
        ..e
    }
}

/// A channel an `in:` term names, as the search needs it.
struct Named {
    at: usize,
    channel: types::Channel,
}

/// Reads the terms, refuses what Mattermost would silently misread, resolves `from:` and `in:` names,
/// and chooses the team searched (`team`, or the team of the `in:` channels). `any` and `archived` are
/// the tool's `match_any` and `include_archived`.
pub(crate) async fn prepare(
    cx: &Ctx,
    terms: &str,
    team: Option<&str>,
    any: bool,
    archived: bool,
) -> Result<Search, ToolError> {
    let mut ws = words(terms.trim());
    let (last_day, first_day) = date_bounds(&ws)?;
    let team_id = match team {
        Some(t) => Some(resolve::team_id(cx, t).await?),
        None => None,
    };
    for w in ws.iter_mut() {
        let term = w.clone();
        let Word::Flag {
            name: "from",
            value,
            ..
        } = w
        else {
            continue;
        };
        let person = resolve::user(cx, unquoted(value))
            .await
            .map_err(|e| in_terms(&term, e))?;
        *value = person.username().to_string();
    }
    let mut named: Vec<Named> = Vec::new();
    for (at, w) in ws.iter_mut().enumerate() {
        let term = w.clone();
        let Word::Flag {
            name: "in" | "channel",
            value,
            ..
        } = w
        else {
            continue;
        };
        let v = unquoted(value).to_string();
        if v.starts_with('@') && v.contains(',') {
            *value = named_group(cx, &term, &v).await?;
            continue;
        }
        let channel = channel_of(cx, &term, &v, team, archived).await?;
        named.push(Named { at, channel });
    }
    let team_id = team_searched(team_id, &named, &ws)?;
    for n in &named {
        let c = &n.channel;
        let by_name = c.team_id().is_empty() || team_id.as_deref() == Some(c.team_id());
        let sent = if by_name { c.name() } else { c.id() };
        if let Word::Flag { value, .. } = &mut ws[n.at] {
            *value = sent.to_string();
        }
    }
    let words = ws
        .iter()
        .filter(|w| {
            !matches!(
                w,
                Word::Flag {
                    name: "before",
                    exclude: false,
                    ..
                }
            )
        })
        .map(Word::text)
        .collect();
    Ok(Search {
        team_id,
        words,
        any,
        archived,
        last_day,
        first_day,
    })
}

/// The channel an `in:` term names: one of the person's (Mattermost searches only those), not
/// archived unless archived channels are searched.
async fn channel_of(
    cx: &Ctx,
    term: &Word,
    value: &str,
    team: Option<&str>,
    archived: bool,
) -> Result<types::Channel, ToolError> {
    let found = resolve::channel(cx, value, team)
        .await
        .map_err(|e| in_terms(term, e))?;
    let mine = cx.my_channels().await?;
    let Some(c) = mine.iter().find(|c| c.id() == found.id) else {
        let label = found
            .channel
            .as_ref()
            .map(|c| format!("~{}", c.name()))
            .unwrap_or_else(|| found.id.clone());
        return Err(ToolError::new(
            ErrorKind::NotFound,
            format!(
                "In `terms`, {}: you are not a member of {label}, and Mattermost searches only your own channels. \
                 Read it with read_channel, or join it (join_channel) to search it.",
                quote(&term.text())
            ),
        ));
    };
    if c.archived() && !archived {
        return Err(ToolError::bad_argument(format!(
            "In `terms`, {}: ~{} is archived, and archived channels are searched only with include_archived: true. \
             Call again with include_archived: true.",
            quote(&term.text()),
            c.name()
        )));
    }
    Ok(c.clone())
}

/// `in:@a,b` (a group message): every name must be a person, sent by username; Mattermost resolves
/// the group itself (`App.GetGroupChannel`).
async fn named_group(cx: &Ctx, term: &Word, value: &str) -> Result<String, ToolError> {
    let names: Vec<String> = value[1..]
        .split(',')
        .map(|n| n.trim().to_string())
        .collect();
    let (found, missing) = resolve::users(cx, &names).await?;
    if let Some((who, closest)) = missing.into_iter().next() {
        let hint = if closest.is_empty() {
            String::new()
        } else {
            format!(" The closest names are: {}.", closest.join(", "))
        };
        return Err(ToolError::new(
            ErrorKind::NotFound,
            format!(
                "In `terms`, {}: no person is named {}.{hint} Call search_users to find someone by part of their name.",
                quote(&term.text()),
                quote(&who)
            ),
        )
        .with("closest", json!(closest)));
    }
    let usernames: Vec<&str> = names
        .iter()
        .filter_map(|n| {
            found
                .iter()
                .find(|(r, _)| r == n)
                .map(|(_, u)| u.username())
        })
        .collect();
    Ok(format!("@{}", usernames.join(",")))
}

/// The team a search covers: `team` when given (its `in:` channels must be of it), else the one team
/// of the `in:` channels, else every team.
fn team_searched(
    given: Option<String>,
    named: &[Named],
    ws: &[Word],
) -> Result<Option<String>, ToolError> {
    let included = named
        .iter()
        .filter(|n| matches!(ws.get(n.at), Some(Word::Flag { exclude: false, .. })))
        .filter(|n| !n.channel.team_id().is_empty() && n.channel.kind() != ChannelKind::Direct);
    let teams: BTreeSet<&str> = included.clone().map(|n| n.channel.team_id()).collect();
    if let Some(t) = &given {
        if let Some(n) = included.clone().find(|n| n.channel.team_id() != t) {
            return Err(ToolError::bad_argument(format!(
                "In `terms`, {}: ~{} is not a channel of the team searched. Leave out `team`, or name a channel of \
                 that team.",
                quote(&ws.get(n.at).map(Word::text).unwrap_or_default()),
                n.channel.name()
            )));
        }
        return Ok(given);
    }
    match teams.len() {
        0 => Ok(None),
        1 => Ok(teams.into_iter().next().map(str::to_string)),
        _ => {
            let chans: Vec<String> = included.map(|n| format!("~{}", n.channel.name())).collect();
            Err(ToolError::bad_argument(format!(
                "`in:` names channels of {} teams ({}), and Mattermost searches one team, or all teams with only \
                 direct and group message names. Search each team in turn, with `team`.",
                teams.len(),
                chans.join(", ")
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(ws: &[Word]) -> Vec<String> {
        ws.iter().map(Word::text).collect()
    }

    #[test]
    fn words_split_as_mattermost_splits_them() {
        assert_eq!(
            split_words("a \"b c\" -\"d e\" f\"g"),
            ["a", "\"b c\"", "-\"d e\"", "f", "\"g"]
        );
        let ws =
            words("release From:Alice -in: #eng \"x y\" in:\"Release Notes\" before:2026-1-2 x:y");
        assert_eq!(
            texts(&ws),
            [
                "release",
                "from:Alice",
                "-in:#eng",
                "\"x y\"",
                "in:\"Release Notes\"",
                "before:2026-1-2",
                "x:y"
            ]
        );
        assert!(matches!(
            &ws[2],
            Word::Flag {
                name: "in",
                exclude: true,
                ..
            }
        ));
        // A flag with nothing after it is a plain word.
        assert_eq!(words("in:"), [Word::Plain("in:".into())]);
    }

    #[test]
    fn dates_are_read_as_go_parses_them() {
        assert_eq!(date("1970-01-02"), Some(1));
        assert_eq!(date("1970-1-2"), Some(1), "one-digit parts are padded");
        assert_eq!(date("2024-02-29"), date("2024-03-01").map(|d| d - 1));
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "24-01-01",
            "2024-001-01",
            "2024-01-01x",
            "today",
            "",
        ] {
            assert_eq!(date(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_persons_dates_bound_the_walk() {
        let d = |s: &str| date(s).unwrap_or_default();
        assert_eq!(
            date_bounds(&words("x before:2026-01-10 after:2026-01-01")).ok(),
            Some((Some(d("2026-01-09")), Some(d("2026-01-02"))))
        );
        assert_eq!(
            date_bounds(&words("x on:2026-01-05 before:2026-01-10")).ok(),
            Some((Some(d("2026-01-05")), Some(d("2026-01-05"))))
        );
        assert_eq!(
            date_bounds(&words("x -before:2026-01-03")).ok(),
            Some((None, Some(d("2026-01-03"))))
        );
        let refused = date_bounds(&words("x before:2026-02-30")).err();
        assert!(
            refused.is_some_and(|e| e.message.contains("`before:2026-02-30`")),
            "an impossible day is refused"
        );
    }
}
