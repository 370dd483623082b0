//! The checks a message passes before anything is sent or asked: its length against the server's
//! `MaxPostSize`, `@mentions` that name nobody, text that looks like a credential; and whom its
//! channel-wide mentions (`@channel`, `@all`, `@here`) notify, for the question.

use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::types;
use crate::resolve::distance;

/// The most members whose statuses are read to count who `@here` notifies.
const HERE_COUNTED_UP_TO: i64 = 1000;

/// The server's limits, from its client configuration.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// `MaxPostSize`: the most characters a message may have.
    pub max_post: usize,
    /// `MaxFileSize`: the most bytes a file may have.
    pub max_file: u64,
}

/// The server's limits (GetClientConfig `format=old`, reused for a few minutes).
pub async fn limits(cx: &Ctx) -> Result<Limits, ToolError> {
    let config = crate::tools::shared::config::client_config(cx).await?;
    let number = |key: &str, default: u64| {
        config
            .get(key)
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(default)
    };
    let l = Limits {
        max_post: number("MaxPostSize", 4000) as usize,
        max_file: number("MaxFileSize", 100 * 1024 * 1024),
    };
    Ok(l)
}

/// Refuses a message longer than the server takes, with both numbers.
pub fn length(tool: &str, message: &str, limits: &Limits) -> Result<(), ToolError> {
    let n = message.chars().count();
    if n > limits.max_post {
        return Err(ToolError::bad_argument(format!(
            "The message of {tool} is {n} characters long; this Mattermost takes at most {} (its MaxPostSize). \
             Nothing was sent. Shorten it, or split it over several posts.",
            limits.max_post
        ))
        .with("length", serde_json::json!(n))
        .with("max", serde_json::json!(limits.max_post)));
    }
    Ok(())
}

/// The text of a message outside code (fenced blocks and inline code), where Mattermost finds mentions.
fn outside_code(message: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in message.lines() {
        if line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced {
            out.push('\n');
            continue;
        }
        let mut inline = false;
        for c in line.chars() {
            if c == '`' {
                inline = !inline;
                out.push(' ');
            } else if !inline {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// The mentions of a message: the usernames named (`@alice`) and the channel-wide mentions
/// (`channel`, `all`, `here`), each once, in order.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Mentions {
    pub people: Vec<String>,
    pub channel_wide: Vec<&'static str>,
}

/// Reads a message's mentions as Mattermost does: `@` at the start or after a character that is not
/// part of a word, then a username's characters (a trailing `.`, `-` or `_` is punctuation).
pub fn mentions(message: &str) -> Mentions {
    let text = outside_code(message);
    let chars: Vec<char> = text.chars().collect();
    let word = |c: char| c.is_alphanumeric() || "._-".contains(c);
    let mut out = Mentions::default();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '@' && (i == 0 || !word(chars[i - 1]) && chars[i - 1] != '@') {
            let start = i + 1;
            let mut end = start;
            while end < chars.len()
                && (chars[end].is_ascii_alphanumeric() || "._-".contains(chars[end]))
            {
                end += 1;
            }
            let name: String = chars[start..end]
                .iter()
                .collect::<String>()
                .trim_end_matches(['.', '-', '_'])
                .to_ascii_lowercase();
            i = end.max(start);
            if name.is_empty() {
                continue;
            }
            match name.as_str() {
                "channel" | "all" | "here" => {
                    let wide = match name.as_str() {
                        "channel" => "channel",
                        "all" => "all",
                        _ => "here",
                    };
                    if !out.channel_wide.contains(&wide) {
                        out.channel_wide.push(wide);
                    }
                }
                _ => {
                    if !out.people.contains(&name) {
                        out.people.push(name);
                    }
                }
            }
            continue;
        }
        i += 1;
    }
    out
}

/// Refuses a message whose `@mentions` name nobody, naming each with the closest usernames.
pub async fn mentioned_people(cx: &Ctx, tool: &str, names: &[String]) -> Result<(), ToolError> {
    if names.is_empty() {
        return Ok(());
    }
    let found = cx
        .call(
            cx.api()
                .get_users_by_usernames()
                .body(names.to_vec())
                .send(),
            "users",
            &names.join(","),
        )
        .await?;
    let known: Vec<String> = found
        .iter()
        .filter_map(|u| u.username.as_deref().map(str::to_ascii_lowercase))
        .collect();
    let missing: Vec<&String> = names.iter().filter(|n| !known.contains(n)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut parts = Vec::new();
    let mut closest_all = serde_json::Map::new();
    for name in &missing {
        let closest = closest_usernames(cx, name).await;
        closest_all.insert((*name).clone(), serde_json::json!(closest));
        if closest.is_empty() {
            parts.push(format!("@{name} (nobody has a name like it)"));
        } else {
            parts.push(format!(
                "@{name} (closest: {})",
                closest
                    .iter()
                    .map(|c| format!("@{c}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    Err(ToolError::bad_argument(format!(
        "The message of {tool} mentions nobody by {}. Nothing was sent. Fix the names (or write them without @ \
         if no one is meant).",
        parts.join("; ")
    ))
    .with("unknown_mentions", serde_json::Value::Object(closest_all)))
}

/// The usernames closest to `name`, from user searches on its start (3, then 2, then 1 characters,
/// until one finds someone); empty when nobody is found or the search fails.
async fn closest_usernames(cx: &Ctx, name: &str) -> Vec<String> {
    for len in [3, 2, 1] {
        let term: String = name.chars().take(len).collect();
        if term.chars().count() < len && len > 1 {
            continue;
        }
        let body = types::SearchUsersBody {
            term,
            limit: 20,
            allow_inactive: Some(true),
            group_constrained: None,
            in_channel_id: None,
            in_group_id: None,
            not_in_channel_id: None,
            not_in_team_id: None,
            team_id: None,
            without_team: None,
        };
        let Ok(list) = cx.send(cx.api().search_users().body(body).send()).await else {
            return Vec::new();
        };
        let mut names: Vec<(usize, String)> = list
            .into_inner()
            .into_iter()
            .filter_map(|u| u.username)
            .map(|n| (distance(name, &n), n))
            .collect();
        if names.is_empty() {
            continue;
        }
        names.sort();
        return names.into_iter().take(3).map(|(_, n)| n).collect();
    }
    Vec::new()
}

/// What the channel-wide mentions of a message notify, for the question: one line each.
pub async fn reach(
    cx: &Ctx,
    channel_id: &str,
    members: i64,
    wide: &[&'static str],
) -> Result<Vec<String>, ToolError> {
    let others = (members - 1).max(0);
    let mut lines = Vec::new();
    for w in wide {
        match *w {
            "here" => {
                let online = online_members(cx, channel_id, members).await?;
                lines.push(match online {
                    Some(n) => format!(
                        "@here notifies the channel's members who are online now: {n} of its {others} other members."
                    ),
                    None => format!(
                        "@here notifies the channel's members who are online now (up to {others} people)."
                    ),
                });
            }
            other => lines.push(format!(
                "@{other} notifies every member of the channel: {others} people besides you."
            )),
        }
    }
    Ok(lines)
}

/// How many of a channel's other members are online now, when it has at most 1000 members.
async fn online_members(
    cx: &Ctx,
    channel_id: &str,
    members: i64,
) -> Result<Option<usize>, ToolError> {
    if members > HERE_COUNTED_UP_TO {
        return Ok(None);
    }
    let me = cx.my_id().await?;
    let mut ids = Vec::new();
    for page in 0..(HERE_COUNTED_UP_TO / 200) {
        let batch = cx
            .call(
                cx.api()
                    .get_channel_members()
                    .channel_id(channel_id)
                    .page(page)
                    .per_page(200)
                    .send(),
                "channel",
                channel_id,
            )
            .await?;
        let n = batch.len();
        ids.extend(
            batch
                .into_iter()
                .filter_map(|m| m.user_id)
                .filter(|id| *id != me),
        );
        if n < 200 {
            break;
        }
    }
    let mut online = 0;
    for chunk in ids.chunks(200) {
        let statuses = cx
            .call(
                cx.api()
                    .get_users_statuses_by_ids()
                    .body(chunk.to_vec())
                    .send(),
                "users",
                "statuses",
            )
            .await?;
        online += statuses
            .iter()
            .filter(|s| s.status.as_deref() == Some("online"))
            .count();
    }
    Ok(Some(online))
}

/// A token format: its prefix, how many of its characters follow at least, which characters, and what
/// it is.
type Pattern<'a> = (&'a str, usize, &'a dyn Fn(u8) -> bool, &'static str);

/// What in a text looks like a credential, if anything: the kind, never the value.
pub fn credential(text: &str, token: &str) -> Option<&'static str> {
    if token.len() >= 8 && text.contains(token) {
        return Some("this server's own Mattermost token");
    }
    if text.contains("PRIVATE KEY-----") || text.contains("PuTTY-User-Key-File") {
        return Some("a private key");
    }
    let bytes = text.as_bytes();
    let run = |start: usize, ok: &dyn Fn(u8) -> bool| -> usize {
        bytes[start..].iter().take_while(|b| ok(**b)).count()
    };
    let alnum = |b: u8| b.is_ascii_alphanumeric();
    let token_char = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let patterns: &[Pattern<'_>] = &[
        (
            "AKIA",
            16,
            &|b: u8| b.is_ascii_uppercase() || b.is_ascii_digit(),
            "an AWS access key",
        ),
        (
            "ASIA",
            16,
            &|b: u8| b.is_ascii_uppercase() || b.is_ascii_digit(),
            "an AWS access key",
        ),
        ("ghp_", 30, &alnum, "a GitHub token"),
        ("gho_", 30, &alnum, "a GitHub token"),
        ("ghs_", 30, &alnum, "a GitHub token"),
        ("ghu_", 30, &alnum, "a GitHub token"),
        ("github_pat_", 30, &token_char, "a GitHub token"),
        ("glpat-", 20, &token_char, "a GitLab token"),
        ("xoxb-", 20, &token_char, "a Slack token"),
        ("xoxp-", 20, &token_char, "a Slack token"),
        ("xoxa-", 20, &token_char, "a Slack token"),
        ("sk_live_", 20, &alnum, "a Stripe secret key"),
        ("sk-ant-", 30, &token_char, "an Anthropic API key"),
        ("sk-proj-", 30, &token_char, "an OpenAI API key"),
        ("AIza", 35, &token_char, "a Google API key"),
        ("npm_", 36, &alnum, "an npm token"),
        ("pypi-", 50, &token_char, "a PyPI token"),
    ];
    for (prefix, min, ok, what) in patterns {
        let mut from = 0;
        while let Some(at) = text[from..].find(prefix) {
            let start = from + at;
            let before_ok = start == 0 || !token_char(bytes[start - 1]);
            if before_ok && run(start + prefix.len(), *ok) >= *min {
                return Some(what);
            }
            from = start + prefix.len();
        }
    }
    None
}

/// Refuses a message that holds something that looks like a credential.
pub fn no_credential(cx: &Ctx, tool: &str, what: &str, text: &str) -> Result<(), ToolError> {
    match credential(text, cx.token().expose()) {
        Some(kind) => Err(ToolError::new(
            ErrorKind::Refused,
            format!(
                "The {what} of {tool} holds what looks like {kind}. Nothing was sent: credentials are never posted \
                 through this server. Remove it; if it is not a secret, describe it instead of pasting it."
            ),
        )
        .with("looks_like", serde_json::json!(kind))),
        None => Ok(()),
    }
}

/// The checks every message passes before anything is asked or sent.
pub async fn check_message(
    cx: &Ctx,
    tool: &str,
    message: &str,
) -> Result<(Limits, Mentions), ToolError> {
    let limits = limits(cx).await?;
    length(tool, message, &limits)?;
    no_credential(cx, tool, "message", message)?;
    let mentions = mentions(message);
    mentioned_people(cx, tool, &mentions.people).await?;
    Ok((limits, mentions))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_read_as_mattermost_reads_them() {
        let m = mentions(
            "hi @Alice, @bob. and @channel; mail a@b.com `@code` @here\n```\n@fenced\n```\n@all",
        );
        assert_eq!(m.people, vec!["alice".to_string(), "bob".to_string()]);
        assert_eq!(m.channel_wide, vec!["channel", "here", "all"]);
        assert_eq!(mentions("no mentions").people.len(), 0);
        assert_eq!(mentions("@a.b-c_ end").people, vec!["a.b-c".to_string()]);
    }

    #[test]
    fn credentials_are_found_by_kind_and_ordinary_text_passes() {
        let token = "abcdefghijklmnopqrstuvwxyz";
        assert_eq!(
            credential("my token is abcdefghijklmnopqrstuvwxyz!", token),
            Some("this server's own Mattermost token")
        );
        assert_eq!(
            credential("-----BEGIN OPENSSH PRIVATE KEY-----\nabc", token),
            Some("a private key")
        );
        assert_eq!(
            credential("key AKIAABCDEFGHIJKLMNOP here", token),
            Some("an AWS access key")
        );
        assert_eq!(
            credential("ghp_0123456789abcdefghijABCDEFGHIJ0123", token),
            Some("a GitHub token")
        );
        for fine in [
            "AKIA is a prefix",
            "the ghp_ prefix",
            "sk-ant is a name",
            "hello world",
            "",
        ] {
            assert_eq!(credential(fine, token), None, "{fine}");
        }
    }

    #[test]
    fn the_length_check_names_both_numbers() {
        let l = Limits {
            max_post: 5,
            max_file: 10,
        };
        assert!(length("t", "héllo", &l).is_ok());
        let e = length("t", "héllo!", &l).unwrap_err();
        assert!(
            e.message.contains('6') && e.message.contains('5'),
            "{}",
            e.message
        );
    }
}
