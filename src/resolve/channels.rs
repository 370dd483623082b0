//! A channel named by id, name (`town-square`, `~town-square`), display name, `@username` (the
//! direct message channel with them), its URL, or the permalink of a post in it.

use super::matching::{Candidate, Matched, ambiguous, choose, unknown};
use super::people::user;
use super::posts::post_id;
use super::teams::{team_name_like, team_of};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::ids::is_id;
use crate::mattermost::types;
use serde_json::json;

pub(crate) fn channel_name_like(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

/// Resolves a channel reference to its id. `team` (a team reference) narrows a name to one team.
pub(crate) async fn channel_id(
    cx: &Ctx,
    reference: &str,
    team: Option<&str>,
) -> Result<String, ToolError> {
    Ok(channel(cx, reference, team).await?.id)
}

/// A resolved channel: its id, and the channel when resolution had to read it.
pub(crate) struct ResolvedChannel {
    pub(crate) id: String,
    pub(crate) channel: Option<types::Channel>,
}

pub(crate) async fn channel(
    cx: &Ctx,
    reference: &str,
    team: Option<&str>,
) -> Result<ResolvedChannel, ToolError> {
    match channel_once(cx, reference, team).await {
        // A name no reused list knows may be new: read the lists again, once.
        Err(e) if e.kind == ErrorKind::NotFound && cx.forget_own_lists() => {
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
            match cx
                .send(
                    cx.api()
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
        let p = cx
            .send(cx.api().get_post().post_id(&id).send())
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
            let c = cx
                .send(
                    cx.api()
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
            ErrorKind::NotFound,
            format!(
                "You have no direct message channel with {} (@{}). Nothing was ever written between you.",
                quote(reference),
                other.username.unwrap_or_default()
            ),
        )),
    }
}
