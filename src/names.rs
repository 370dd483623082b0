//! References a model gives for channels, teams, people and posts, turned into Mattermost objects.
//!
//! Every tool that takes a channel, team, user or post accepts its id, and also:
//! - a channel by name (`town-square`, `~town-square`), display name, `@alice` (the direct message
//!   channel with alice), its URL (`https://host/team/channels/name`) or a post's permalink;
//! - a team by name or display name;
//! - a person by username (`alice`, `@alice`) or email;
//! - a post by permalink.
//!
//! Names match case-insensitively, a whole name first, then a part of one. An ambiguous name is refused
//! with every candidate and its id; an unknown one with the closest names. An id is taken as it is, with
//! no request: Mattermost's own answer then says whether it exists. The operations resolution may send
//! are declared once here ([`calls`]) and added to every tool that takes that kind of argument.

use crate::args::Kind;
use crate::context::Ctx;
use crate::error::{ToolError, quote};
use crate::ids::is_id;
use crate::mattermost::{send, types};
use crate::table::{Call, ME, MY_CHANNELS, MY_TEAMS, Source};
use serde_json::{Value, json};

const CHANNEL_CALLS: &[Call] = &[
    MY_CHANNELS,
    Call {
        operation: "GetChannelByName",
        params: &[
            (
                "team_id",
                Source::Paging("each of the user's teams (or the one given) in turn"),
            ),
            ("channel_name", Source::Arg("channel")),
            (
                "include_deleted",
                Source::Fixed("true", "an archived public channel can still be named"),
            ),
        ],
    },
    Call {
        operation: "GetChannelByNameForTeamName",
        params: &[
            ("team_name", Source::Arg("channel")),
            ("channel_name", Source::Arg("channel")),
            (
                "include_deleted",
                Source::Fixed(
                    "true",
                    "a channel URL of an archived channel still resolves",
                ),
            ),
        ],
    },
    Call {
        operation: "GetPost",
        params: &[
            ("post_id", Source::Arg("channel")),
            (
                "include_deleted",
                Source::Omitted("a permalink to a deleted post names no channel the user can read"),
            ),
        ],
    },
    ME,
    Call {
        operation: "GetUsersByUsernames",
        params: &[("body", Source::Arg("channel"))],
    },
];

const TEAM_CALLS: &[Call] = &[
    MY_TEAMS,
    Call {
        operation: "GetTeamByName",
        params: &[("name", Source::Arg("team"))],
    },
    Call {
        operation: "GetTeam",
        params: &[("team_id", Source::Arg("team"))],
    },
];

/// The lookups that turn people's names, ids and emails into people, with the search that suggests the
/// closest usernames for a name nobody has.
pub const USER_CALLS: &[Call] = &[
    Call {
        operation: "GetUsersByUsernames",
        params: &[("body", Source::Arg("user"))],
    },
    Call {
        operation: "GetUsersByIds",
        params: &[
            ("body", Source::Arg("user")),
            (
                "since",
                Source::Omitted("a person named by id is wanted whenever they last changed"),
            ),
        ],
    },
    Call {
        operation: "GetUserByEmail",
        params: &[("email", Source::Arg("user"))],
    },
    Call {
        operation: "SearchUsers",
        params: &[
            ("body.term", Source::Arg("user")),
            (
                "body.limit",
                Source::Fixed(
                    "20",
                    "enough to suggest the closest usernames for a name nobody has",
                ),
            ),
            (
                "body.allow_inactive",
                Source::Fixed("true", "a deactivated person can still be named"),
            ),
            (
                "body.team_id",
                Source::Omitted("suggestions come from the whole server"),
            ),
            (
                "body.not_in_team_id",
                Source::Omitted("not a filter suggestions need"),
            ),
            (
                "body.in_channel_id",
                Source::Omitted("suggestions come from the whole server"),
            ),
            (
                "body.not_in_channel_id",
                Source::Omitted("not a filter suggestions need"),
            ),
            (
                "body.in_group_id",
                Source::Omitted("groups need a licence; not a filter suggestions need"),
            ),
            (
                "body.group_constrained",
                Source::Omitted("groups need a licence; not a filter suggestions need"),
            ),
            (
                "body.without_team",
                Source::Omitted("not a filter suggestions need"),
            ),
        ],
    },
];

const POST_CALLS: &[Call] = &[];

/// The operations resolving an argument of this kind may send. A channel's resolution may resolve a
/// team (`team`, or the user's teams a name is looked up in) and a person (`@alice` for a direct
/// message channel), so it may send theirs too.
pub fn calls(kind: Kind) -> Vec<&'static Call> {
    let groups: &[&'static [Call]] = match kind {
        Kind::Channel => &[CHANNEL_CALLS, TEAM_CALLS, USER_CALLS],
        Kind::Team => &[TEAM_CALLS],
        Kind::User | Kind::Users { .. } => &[USER_CALLS],
        Kind::Post => &[POST_CALLS],
        _ => &[],
    };
    let mut out: Vec<&'static Call> = Vec::new();
    for c in groups.iter().flat_map(|g| g.iter()) {
        if !out.iter().any(|k| k.operation == c.operation) {
            out.push(c);
        }
    }
    out
}

// ---- posts ----

/// A post reference: an id, or a permalink (`https://host/team/pl/<id>`, `.../_redirect/pl/<id>`).
pub fn post_id(reference: &str) -> Result<String, ToolError> {
    let r = reference.trim();
    if is_id(r) {
        return Ok(r.to_string());
    }
    let path = r.split(['?', '#']).next().unwrap_or("");
    if let Some((_, id)) = path.trim_end_matches('/').rsplit_once("/pl/")
        && is_id(id)
    {
        return Ok(id.to_string());
    }
    Err(ToolError::bad_argument(format!(
        "{} is not a post: give a post id (26 lowercase letters and digits) or a post's permalink \
         (https://<server>/<team>/pl/<post id>), as read and search tools return them.",
        quote(reference)
    )))
}

// ---- matching ----

/// Levenshtein distance, on lowercase characters.
pub fn distance(a: &str, b: &str) -> usize {
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
pub struct Candidate<T> {
    pub item: T,
    pub names: Vec<String>,
    pub shown: Value,
}

/// What a name matched.
pub enum Matched<T> {
    One(T),
    Many(Vec<Value>),
    None(Vec<String>),
}

/// Matches `wanted` against the candidates: a whole name (case-insensitive) first, then a part of one.
/// Nothing matched gives the five closest names.
pub fn choose<T>(wanted: &str, candidates: Vec<Candidate<T>>) -> Matched<T> {
    let w = wanted.trim().to_lowercase();
    let matching = |test: &dyn Fn(&Candidate<T>) -> bool| -> Vec<usize> {
        candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| test(c))
            .map(|(i, _)| i)
            .collect()
    };
    // The first name is the one a thing is addressed by (a channel's or team's URL name, a username):
    // a whole match of it wins over a display name that happens to be the same.
    let primary = matching(&|c| c.names.first().is_some_and(|n| n.to_lowercase() == w));
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

fn ambiguous(what: &str, reference: &str, candidates: Vec<Value>, how: &str) -> ToolError {
    ToolError::new(
        "ambiguous",
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

fn unknown(what: &str, reference: &str, closest: Vec<String>, next: &str) -> ToolError {
    let hint = if closest.is_empty() {
        String::new()
    } else {
        format!(" The closest names are: {}.", closest.join(", "))
    };
    ToolError::new(
        "not_found",
        format!("No {what} is named {}.{hint} {next}", quote(reference)),
    )
    .with("closest", json!(closest))
}

// ---- channels ----

/// The kind of a channel as tools show it.
pub fn channel_kind(c: &types::Channel) -> &'static str {
    match c.type_.as_deref() {
        Some("O") => "public",
        Some("P") => "private",
        Some("D") => "direct",
        Some("G") => "group",
        _ => "unknown",
    }
}

fn channel_name_like(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

fn team_name_like(s: &str) -> bool {
    (2..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Resolves a channel reference to its id. `team` (a team reference) narrows a name to one team.
pub async fn channel_id(
    cx: &Ctx,
    reference: &str,
    team: Option<&str>,
) -> Result<String, ToolError> {
    Ok(channel(cx, reference, team).await?.id)
}

/// A resolved channel: its id, and the channel when resolution had to read it.
pub struct ResolvedChannel {
    pub id: String,
    pub channel: Option<types::Channel>,
}

pub async fn channel(
    cx: &Ctx,
    reference: &str,
    team: Option<&str>,
) -> Result<ResolvedChannel, ToolError> {
    match channel_once(cx, reference, team).await {
        // A name no reused list knows may be new: read the lists again, once.
        Err(e) if e.kind == "not_found" && cx.forget_own_lists() => {
            channel_once(cx, reference, team).await
        }
        other => other,
    }
}

async fn channel_once(
    cx: &Ctx,
    reference: &str,
    team: Option<&str>,
) -> Result<ResolvedChannel, ToolError> {
    let r = reference.trim();
    if is_id(r) {
        return Ok(ResolvedChannel {
            id: r.to_string(),
            channel: None,
        });
    }
    if r.starts_with("http://") || r.starts_with("https://") {
        return channel_from_url(cx, r).await;
    }
    if let Some(username) = r.strip_prefix('@') {
        return direct_channel(cx, username, reference).await;
    }
    let wanted = r.trim_start_matches(['~', '#']);
    let team_id = match team {
        Some(t) => Some(team_of(cx, t).await?.id.unwrap_or_default()),
        None => None,
    };
    let mine = cx.my_channels().await?;
    let teams = cx.my_teams().await?;
    let team_label = |id: &str| {
        teams
            .iter()
            .find(|t| t.id.as_deref() == Some(id))
            .and_then(|t| t.name.clone())
            .unwrap_or_default()
    };
    let candidates: Vec<Candidate<types::Channel>> = mine
        .iter()
        .filter(|c| team_id.as_deref().is_none_or(|t| c.team_id.as_deref() == Some(t) || c.team_id.as_deref() == Some("")))
        .map(|c| Candidate {
            names: vec![c.name.clone().unwrap_or_default(), c.display_name.clone().unwrap_or_default()],
            shown: json!({
                "id": c.id, "label": format!("~{} {}", c.name.as_deref().unwrap_or(""), team_label(c.team_id.as_deref().unwrap_or(""))).trim().to_string(),
                "name": c.name, "display_name": c.display_name, "team": team_label(c.team_id.as_deref().unwrap_or("")),
            }),
            item: c.clone(),
        })
        .collect();
    let closest = match choose(wanted, candidates) {
        Matched::One(c) => {
            return Ok(ResolvedChannel {
                id: c.id.clone().unwrap_or_default(),
                channel: Some(c),
            });
        }
        Matched::Many(c) => {
            let teams: std::collections::BTreeSet<&str> =
                c.iter().filter_map(|x| x["team"].as_str()).collect();
            let hint = if teams.len() > 1 {
                ", or give `team`"
            } else {
                ""
            };
            return Err(ambiguous("channel", reference, c, hint));
        }
        Matched::None(closest) => closest,
    };
    // Not one of the user's channels: a public channel of one of their teams, by its exact name.
    if channel_name_like(wanted) {
        let mut found = Vec::new();
        for t in teams.iter().filter(|t| {
            team_id
                .as_deref()
                .is_none_or(|id| t.id.as_deref() == Some(id))
        }) {
            let tid = t.id.clone().unwrap_or_default();
            match send(
                cx.mm
                    .api
                    .get_channel_by_name()
                    .team_id(&tid)
                    .channel_name(wanted)
                    .include_deleted(true)
                    .send(),
            )
            .await
            {
                Ok(c) => found.push((c.into_inner(), t.name.clone().unwrap_or_default())),
                Err(e) if matches!(e.status(), Some(404 | 403)) => {}
                Err(e) => return Err(cx.fail(e, "channel", reference)),
            }
        }
        match found.len() {
            1 => {
                let (c, _) = found.remove(0);
                return Ok(ResolvedChannel {
                    id: c.id.clone().unwrap_or_default(),
                    channel: Some(c),
                });
            }
            n if n > 1 => {
                let shown = found
                    .iter()
                    .map(|(c, t)| json!({"id": c.id, "label": format!("~{} {t}", c.name.as_deref().unwrap_or("")), "team": t}))
                    .collect();
                return Err(ambiguous("channel", reference, shown, ", or give `team`"));
            }
            _ => {}
        }
    }
    Err(unknown(
        "channel you can read",
        reference,
        closest,
        "Call search_channels to find a channel by part of its name, or list_channels for yours.",
    ))
}

async fn channel_from_url(cx: &Ctx, url: &str) -> Result<ResolvedChannel, ToolError> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    if path.contains("/pl/") {
        let id = post_id(url)?;
        let p = send(cx.mm.api.get_post().post_id(&id).send())
            .await
            .map_err(|e| cx.fail(e, "post", url))?
            .into_inner();
        let cid = p.channel_id.unwrap_or_default();
        return Ok(ResolvedChannel {
            id: cid,
            channel: None,
        });
    }
    let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if let Some(i) = parts.iter().position(|s| *s == "channels")
        && i >= 1
        && i + 1 < parts.len()
    {
        let (team, name) = (parts[i - 1], parts[i + 1]);
        if team_name_like(team) && channel_name_like(name) {
            let c = send(
                cx.mm
                    .api
                    .get_channel_by_name_for_team_name()
                    .team_name(team)
                    .channel_name(name)
                    .include_deleted(true)
                    .send(),
            )
            .await
            .map_err(|e| cx.fail(e, "channel", url))?
            .into_inner();
            return Ok(ResolvedChannel {
                id: c.id.clone().unwrap_or_default(),
                channel: Some(c),
            });
        }
    }
    Err(ToolError::bad_argument(format!(
        "{} is not a channel's address: give https://<server>/<team>/channels/<name>, a post's permalink, the \
         channel's id or its name.",
        quote(url)
    )))
}

async fn direct_channel(
    cx: &Ctx,
    username: &str,
    reference: &str,
) -> Result<ResolvedChannel, ToolError> {
    let other = user(cx, username).await?;
    let me = cx.me().await?;
    let (a, b) = (
        me.id.clone().unwrap_or_default(),
        other.id.clone().unwrap_or_default(),
    );
    let name = if a <= b {
        format!("{a}__{b}")
    } else {
        format!("{b}__{a}")
    };
    let mine = cx.my_channels().await?;
    match mine
        .iter()
        .find(|c| c.name.as_deref() == Some(name.as_str()))
    {
        Some(c) => Ok(ResolvedChannel {
            id: c.id.clone().unwrap_or_default(),
            channel: Some(c.clone()),
        }),
        None => Err(ToolError::new(
            "not_found",
            format!(
                "You have no direct message channel with {} (@{}). Nothing was ever written between you.",
                quote(reference),
                other.username.unwrap_or_default()
            ),
        )),
    }
}

// ---- teams ----

/// Resolves a team reference (id, name or display name).
pub async fn team_of(cx: &Ctx, reference: &str) -> Result<types::Team, ToolError> {
    let r = reference.trim();
    if is_id(r) {
        return send(cx.mm.api.get_team().team_id(r).send())
            .await
            .map(|t| t.into_inner())
            .map_err(|e| cx.fail(e, "team", reference));
    }
    let teams = cx.my_teams().await?;
    let candidates = teams
        .iter()
        .map(|t| Candidate {
            names: vec![
                t.name.clone().unwrap_or_default(),
                t.display_name.clone().unwrap_or_default(),
            ],
            shown: json!({"id": t.id, "label": t.display_name, "name": t.name}),
            item: t.clone(),
        })
        .collect();
    let closest = match choose(r, candidates) {
        Matched::One(t) => return Ok(t),
        Matched::Many(c) => return Err(ambiguous("team", reference, c, "")),
        Matched::None(closest) => closest,
    };
    if team_name_like(r) {
        match send(cx.mm.api.get_team_by_name().name(r).send()).await {
            Ok(t) => return Ok(t.into_inner()),
            Err(e) if matches!(e.status(), Some(404 | 403)) => {}
            Err(e) => return Err(cx.fail(e, "team", reference)),
        }
    }
    Err(unknown(
        "team you belong to",
        reference,
        closest,
        "Call list_teams for your teams.",
    ))
}

/// Resolves a team reference to its id (an id is taken as it is).
pub async fn team_id(cx: &Ctx, reference: &str) -> Result<String, ToolError> {
    let r = reference.trim();
    if is_id(r) {
        return Ok(r.to_string());
    }
    Ok(team_of(cx, reference).await?.id.unwrap_or_default())
}

// ---- people ----

/// Looks like an email address, in characters that cannot change a request's path.
fn email_like(s: &str) -> bool {
    let ok_local = |c: char| c.is_ascii_alphanumeric() || "._%+-".contains(c);
    let ok_domain = |c: char| c.is_ascii_alphanumeric() || ".-".contains(c);
    s.split_once('@').is_some_and(|(a, b)| {
        !a.is_empty()
            && a.chars().all(ok_local)
            && b.contains('.')
            && b.chars().all(ok_domain)
            && !b.starts_with('.')
    })
}

/// Resolves one person (id, username, @username or email).
pub async fn user(cx: &Ctx, reference: &str) -> Result<types::User, ToolError> {
    let (found, missing) = users(cx, &[reference.to_string()]).await?;
    if let Some(u) = found.into_iter().next() {
        return Ok(u.1);
    }
    let closest = missing.into_iter().next().map(|m| m.1).unwrap_or_default();
    Err(unknown(
        "person",
        reference,
        closest,
        "Call search_users to find someone by part of their name.",
    ))
}

/// Resolves people. Returns those found (with the reference each was found by) and, for each
/// reference nobody has, the closest usernames.
pub async fn users(
    cx: &Ctx,
    references: &[String],
) -> Result<(Vec<(String, types::User)>, Vec<(String, Vec<String>)>), ToolError> {
    let mut found = Vec::new();
    let mut missing = Vec::new();
    let mut by_id = Vec::new();
    let mut by_name = Vec::new();
    for r in references {
        let t = r.trim();
        if is_id(t) {
            by_id.push((r.clone(), t.to_string()));
        } else if email_like(t) {
            match send(cx.mm.api.get_user_by_email().email(t).send()).await {
                Ok(u) => found.push((r.clone(), u.into_inner())),
                Err(e) if matches!(e.status(), Some(404 | 400)) => missing.push(r.clone()),
                Err(e) => return Err(cx.fail(e, "user", r)),
            }
        } else {
            by_name.push((r.clone(), t.trim_start_matches('@').to_lowercase()));
        }
    }
    if !by_id.is_empty() {
        let ids: Vec<String> = by_id.iter().map(|(_, id)| id.clone()).collect();
        let list = send(cx.mm.api.get_users_by_ids().body(ids.clone()).send())
            .await
            .map_err(|e| cx.fail(e, "users", &ids.join(",")))?
            .into_inner();
        for (r, id) in by_id {
            match list.iter().find(|u| u.id.as_deref() == Some(id.as_str())) {
                Some(u) => found.push((r, u.clone())),
                None => missing.push(r),
            }
        }
    }
    if !by_name.is_empty() {
        let names: Vec<String> = by_name.iter().map(|(_, n)| n.clone()).collect();
        let list = send(
            cx.mm
                .api
                .get_users_by_usernames()
                .body(names.clone())
                .send(),
        )
        .await
        .map_err(|e| cx.fail(e, "users", &names.join(",")))?
        .into_inner();
        for (r, n) in by_name {
            match list.iter().find(|u| {
                u.username.as_deref().map(str::to_lowercase).as_deref() == Some(n.as_str())
            }) {
                Some(u) => found.push((r, u.clone())),
                None => missing.push(r),
            }
        }
    }
    for (_, u) in &found {
        if let (Some(id), Some(name)) = (&u.id, &u.username) {
            cx.learn_username(id, name);
        }
    }
    let mut suggestions = Vec::new();
    for r in missing {
        suggestions.push((r.clone(), closest_usernames(cx, &r).await?));
    }
    Ok((found, suggestions))
}

/// The usernames closest to a name nobody has, from a user search on its start.
async fn closest_usernames(cx: &Ctx, reference: &str) -> Result<Vec<String>, ToolError> {
    let term: String = reference
        .trim()
        .trim_start_matches('@')
        .split('@')
        .next()
        .unwrap_or("")
        .chars()
        .take(3)
        .collect();
    if term.trim().is_empty() {
        return Ok(Vec::new());
    }
    let body = types::SearchUsersBody {
        term: term.clone(),
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
    let list = match send(cx.mm.api.search_users().body(body).send()).await {
        Ok(l) => l.into_inner(),
        Err(_) => return Ok(Vec::new()),
    };
    let mut names: Vec<(usize, String)> = list
        .into_iter()
        .filter_map(|u| u.username)
        .map(|n| (distance(reference.trim_start_matches('@'), &n), n))
        .collect();
    names.sort();
    Ok(names.into_iter().take(5).map(|(_, n)| n).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posts_are_ids_or_permalinks() {
        let id = "abcdefghijklmnopqrstuvwxyz";
        assert_eq!(post_id(id).ok().as_deref(), Some(id));
        assert_eq!(
            post_id(&format!("https://chat.example.com/eng/pl/{id}"))
                .ok()
                .as_deref(),
            Some(id)
        );
        assert_eq!(
            post_id(&format!("https://c/_redirect/pl/{id}?x=1"))
                .ok()
                .as_deref(),
            Some(id)
        );
        for bad in [
            "abc",
            "../../users/me",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "https://c/pl/short",
        ] {
            assert!(post_id(bad).is_err(), "{bad}");
        }
    }

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
        // A URL name wins over another's display name that is the same word.
        let random = || {
            vec![
                cand("1", &["random-2", "Random"]),
                cand("2", &["random", "Random"]),
            ]
        };
        assert!(matches!(choose("random", random()), Matched::One(id) if id == "2"));
        assert!(matches!(choose("Random", random()), Matched::One(id) if id == "2"));
    }
}
