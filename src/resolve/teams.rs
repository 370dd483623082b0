//! A team named by id, URL name or display name.

use super::matching::{Candidate, Matched, ambiguous, choose, unknown};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::ids::is_id;
use crate::mattermost::types;
use serde_json::json;

/// Whether `s` could be a team's URL name: 2 to 64 lowercase letters, digits and `-`.
pub(crate) fn team_name_like(s: &str) -> bool {
    (2..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Resolves a team reference (id, name or display name).
pub(crate) async fn team_of(cx: &Ctx, reference: &str) -> Result<types::Team, ToolError> {
    let r = reference.trim();
    if is_id(r) {
        return cx
            .send(cx.api().get_team().team_id(r).send())
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
        match cx.send(cx.api().get_team_by_name().name(r).send()).await {
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
pub(crate) async fn team_id(cx: &Ctx, reference: &str) -> Result<String, ToolError> {
    let r = reference.trim();
    if is_id(r) {
        return Ok(r.to_string());
    }
    Ok(team_of(cx, reference).await?.id.unwrap_or_default())
}
