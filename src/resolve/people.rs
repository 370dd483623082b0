//! People named by id, username (`alice`, `@alice`), email or display name (their full name or
//! nickname, whole), with the closest usernames suggested for a name nobody has.

use super::matching::{ambiguous, distance, unknown};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::ids::is_id;
use crate::mattermost::facts::UserFacts;
use crate::mattermost::types;

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
pub(crate) async fn user(cx: &Ctx, reference: &str) -> Result<types::User, ToolError> {
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
pub(crate) async fn users(
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
            match cx.send(cx.api().get_user_by_email().email(t).send()).await {
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
        let list = cx
            .send(cx.api().get_users_by_ids().body(ids.clone()).send())
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
        let list = cx
            .send(cx.api().get_users_by_usernames().body(names.clone()).send())
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
        match by_display_name(cx, &r).await? {
            Ok(u) => {
                cx.learn_username(u.id(), u.username());
                found.push((r, u));
            }
            Err(closest) => suggestions.push((r, closest)),
        }
    }
    Ok((found, suggestions))
}

/// Whether `name` is a person's display name: their full name or their nickname, whole, in any case.
fn displayed_as(u: &types::User, name: &str) -> bool {
    let n = name.trim().to_lowercase();
    let full = u.full_name().map(|f| f.trim().to_lowercase());
    let nick = u.nickname.as_deref().map(|k| k.trim().to_lowercase());
    !n.is_empty() && (full.as_deref() == Some(n.as_str()) || nick.as_deref() == Some(n.as_str()))
}

/// A reference no username, id or email matched, taken as a display name: the one person a user search
/// finds whose full name or nickname it is, or the closest usernames. A name of one word is searched by
/// its start (the search that suggests the closest names, one request); a name of several words whole
/// first. Several people displayed by the name are refused with each of them.
async fn by_display_name(
    cx: &Ctx,
    reference: &str,
) -> Result<Result<types::User, Vec<String>>, ToolError> {
    let name = reference.trim().trim_start_matches('@').trim();
    let whole = name.contains(char::is_whitespace);
    let mut seen = if whole {
        search_people(cx, name).await?
    } else {
        Vec::new()
    };
    if !whole || seen.is_empty() {
        seen.extend(search_people(cx, &start_of(reference, 3)).await?);
    }
    if seen.is_empty() && name.chars().count() > 2 {
        // A typo in the third character (`alcie`): the first two find the name meant.
        seen.extend(search_people(cx, &start_of(reference, 2)).await?);
    }
    let mut named: Vec<types::User> = seen
        .iter()
        .filter(|u| displayed_as(u, name))
        .cloned()
        .collect();
    named.dedup_by(|a, b| a.id == b.id);
    match named.len() {
        0 => {}
        1 => return Ok(named.pop().ok_or_else(Vec::new)),
        _ => {
            let shown = named
                .iter()
                .map(|u| {
                    serde_json::json!({
                        "id": u.id(), "label": format!("@{} ({})", u.username(), u.full_name().unwrap_or_default()),
                        "username": u.username(),
                    })
                })
                .collect();
            return Err(ambiguous(
                "person",
                reference,
                shown,
                " (or their username)",
            ));
        }
    }
    let mut names: Vec<(usize, String)> = seen
        .into_iter()
        .filter_map(|u| u.username)
        .map(|n| (distance(name, &n), n))
        .collect();
    names.sort();
    names.dedup();
    Ok(Err(names.into_iter().take(5).map(|(_, n)| n).collect()))
}

/// The first `n` characters of a name: the user search term that suggests the closest usernames.
fn start_of(reference: &str, n: usize) -> String {
    reference
        .trim()
        .trim_start_matches('@')
        .split('@')
        .next()
        .unwrap_or("")
        .chars()
        .take(n)
        .collect()
}

/// The people a user search on `term` finds (none for a blank term or a refused search).
async fn search_people(cx: &Ctx, term: &str) -> Result<Vec<types::User>, ToolError> {
    if term.trim().is_empty() {
        return Ok(Vec::new());
    }
    let body = types::SearchUsersBody {
        term: term.to_string(),
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
    Ok(
        match cx.send(cx.api().search_users().body(body).send()).await {
            Ok(l) => l.into_inner(),
            Err(_) => Vec::new(),
        },
    )
}
