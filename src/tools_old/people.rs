//! People: who the server acts as, people by name, user search, presence; and the user lookups by id
//! that member lists share.

use crate::context::{Ctx, Input, Output};
use crate::error::{ToolError, quote};
use crate::mattermost::{send, types};
use crate::names;
use crate::paging::Page;
use crate::paging::whole_list::{After, SortKey};
use crate::summary;
use crate::time::rfc3339;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};

pub async fn get_me(cx: &Ctx, _input: Input) -> Result<Output, ToolError> {
    let answer = send(cx.mm.api.get_user().user_id("me").send())
        .await
        .map_err(|e| cx.fail(e, "user", "me"))?;
    let version = answer
        .headers()
        .get("x-version-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let u = answer.into_inner();
    if let (Some(id), Some(name)) = (&u.id, &u.username) {
        cx.learn_username(id, name);
    }
    let timezone = u.timezone.as_ref().map(|tz| {
        let automatic = tz.use_automatic_timezone.as_deref() == Some("true");
        let zone = if automatic {
            tz.automatic_timezone.clone()
        } else {
            tz.manual_timezone.clone()
        };
        json!(zone.filter(|z| !z.is_empty()))
    });
    let mut out = json!({
        "id": u.id,
        "username": u.username,
        "first_name": u.first_name,
        "last_name": u.last_name,
        "nickname": u.nickname,
        "email": u.email,
        "roles": u.roles.as_deref().map(|r| r.split_whitespace().collect::<Vec<_>>()).unwrap_or_default(),
        "locale": u.locale,
        "timezone": timezone.unwrap_or(Value::Null),
        "is_bot": u.is_bot.unwrap_or(false),
        "created": u.create_at.map(rfc3339),
        "mattermost_url": cx.mm.url,
    });
    if let (Some(v), Some(obj)) = (version, out.as_object_mut()) {
        let release: Vec<&str> = v.split('.').take(3).collect();
        obj.insert("mattermost_version".into(), json!(release.join(".")));
        obj.insert("mattermost_version_id".into(), json!(v));
    }
    Ok(Output::One(out))
}

/// The people `references` name, each once in the order first named, and for each name nobody has the
/// closest usernames. Fails only when nobody at all is found.
async fn people_named(
    cx: &Ctx,
    references: &[String],
) -> Result<(Vec<types::User>, Vec<Value>), ToolError> {
    let (found, missing) = names::users(cx, references).await?;
    let not_found: Vec<Value> = missing
        .iter()
        .map(|(r, closest)| json!({"reference": r, "closest": closest}))
        .collect();
    if found.is_empty() {
        let each: Vec<String> = missing
            .iter()
            .map(|(r, closest)| match closest.is_empty() {
                true => quote(r),
                false => format!("{} (closest: {})", quote(r), closest.join(", ")),
            })
            .collect();
        return Err(ToolError::new(
            "not_found",
            format!(
                "Nobody is named {}. Give usernames, user ids or emails; call search_users to find people by \
                 part of a name.",
                each.join(", ")
            ),
        )
        .with("not_found", Value::Array(not_found)));
    }
    let first_named = |r: &str| references.iter().position(|x| x == r).unwrap_or(usize::MAX);
    let mut ordered = found;
    ordered.sort_by_key(|(r, _)| first_named(r));
    let mut seen = HashSet::new();
    let people = ordered
        .into_iter()
        .map(|(_, u)| u)
        .filter(|u| seen.insert(u.id.clone()))
        .collect();
    Ok((people, not_found))
}

/// The answer of a tool bounded by its input: the items, how many, and the names nobody has.
fn bounded(items: Vec<Value>, not_found: Vec<Value>) -> Output {
    Output::One(json!({
        "items": items,
        "returned": items.len(),
        "not_found": not_found,
    }))
}

pub async fn get_users(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let (people, not_found) = people_named(cx, &input.args.list("users")).await?;
    Ok(bounded(
        people.iter().map(summary::user).collect(),
        not_found,
    ))
}

pub async fn get_status(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let (people, not_found) = people_named(cx, &input.args.list("users")).await?;
    let ids: Vec<String> = people.iter().filter_map(|u| u.id.clone()).collect();
    let statuses = send(
        cx.mm
            .api
            .get_users_statuses_by_ids()
            .body(ids.clone())
            .send(),
    )
    .await
    .map_err(|e| cx.fail(e, "statuses of the users", &ids.join(",")))?
    .into_inner();
    let by_user: HashMap<&str, &types::Status> = statuses
        .iter()
        .filter_map(|s| s.user_id.as_deref().map(|id| (id, s)))
        .collect();
    let items = people
        .iter()
        .map(|u| summary::status(u, u.id.as_deref().and_then(|id| by_user.get(id).copied())))
        .collect();
    Ok(bounded(items, not_found))
}

/// Mattermost's most users for one search term (`UserSearchMaxLimit`; more is a 400, not a clamp).
const USER_SEARCH_CAP: i64 = 1000;

pub async fn search_users(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let args = &input.args;
    let term = args.str("term").unwrap_or_default().trim().to_string();
    let team_id = match args.str("team") {
        Some(t) => Some(names::team_id(cx, t).await?),
        None => None,
    };
    let in_channel_id = match args.str("channel") {
        Some(c) => Some(names::channel_id(cx, c, args.str("team")).await?),
        None => None,
    };
    let after = input.position::<After>("search_users")?;
    let limit = input.limit as usize;
    // The first page needs one user more than it shows to know whether more follow; a later page must
    // find its position, which only the whole (capped) answer holds.
    let ask = match after {
        None => (limit as i64 + 1).min(USER_SEARCH_CAP),
        Some(_) => USER_SEARCH_CAP,
    };
    let body = types::SearchUsersBody {
        term: term.clone(),
        limit: ask,
        allow_inactive: Some(args.flag("include_deactivated")),
        team_id,
        in_channel_id,
        group_constrained: None,
        in_group_id: None,
        not_in_channel_id: None,
        not_in_team_id: None,
        without_team: None,
    };
    let found = send(cx.mm.api.search_users().body(body).send())
        .await
        .map_err(|e| cx.fail(e, "user search", &term))?
        .into_inner();
    let complete = (found.len() as i64) < ask;
    let mut seen = HashSet::new();
    let listed: Vec<types::User> = found
        .into_iter()
        .filter(|u| seen.insert(u.id.clone()))
        .collect();
    for u in &listed {
        if let (Some(id), Some(name)) = (&u.id, &u.username) {
            cx.learn_username(id, name);
        }
    }
    let start = after.as_ref().map_or(0, |a| resume_after(&listed, a));
    let end = (start + limit).min(listed.len());
    let shown = &listed[start.min(end)..end];
    let next = shown.last().filter(|_| end < listed.len()).map(|u| After {
        k: SortKey::Text(u.username.clone().unwrap_or_default()),
        id: u.id.clone().unwrap_or_default(),
    });
    let mut page = Page::new(shown.iter().map(summary::user).collect()).continue_at(next);
    if complete {
        page = page.with_total(listed.len() as u64);
    }
    page.capped = ask == USER_SEARCH_CAP && !complete;
    Ok(Output::Page(page))
}

/// Where a page continues in a user search answer, which Mattermost orders by username (unique) in
/// its database's collation: after the user of the position, or, when that user is no longer in the
/// answer, before the first username that sorts after it.
fn resume_after(listed: &[types::User], after: &After) -> usize {
    if let Some(i) = listed
        .iter()
        .position(|u| u.id.as_deref() == Some(after.id.as_str()))
    {
        return i + 1;
    }
    let SortKey::Text(last) = &after.k else {
        return 0;
    };
    listed
        .iter()
        .position(|u| u.username.as_deref().unwrap_or("") > last.as_str())
        .unwrap_or(listed.len())
}

/// Users by id, 200 to a request, as a map by id (an id Mattermost does not know is left out).
pub async fn users_by_ids(
    cx: &Ctx,
    ids: &[String],
) -> Result<HashMap<String, types::User>, ToolError> {
    let mut out = HashMap::new();
    for chunk in ids.chunks(ID_BATCH) {
        let users = send(cx.mm.api.get_users_by_ids().body(chunk.to_vec()).send())
            .await
            .map_err(|e| cx.fail(e, "users", &chunk.join(",")))?
            .into_inner();
        for u in users {
            if let (Some(id), Some(name)) = (&u.id, &u.username) {
                cx.learn_username(id, name);
                out.insert(id.clone(), u);
            }
        }
    }
    Ok(out)
}

/// How many ids one GetUsersByIds request carries.
const ID_BATCH: usize = 200;
