//! Teams and channels: the user's teams and channels (with unread counts), one team or channel, channel
//! search, a team's public and archived channels, channel and team members, channel counts.

use crate::context::{Ctx, Input, Output};
use crate::error::ToolError;
use crate::mattermost::{send, types};
use crate::names;
use crate::paging::pages_with_ties::{self, read_pages};
use crate::paging::whole_list::{self, After, Keyed, Order, SortKey};
use crate::paging::{Page, recently_active, straddling_ties};
use crate::summary;
use crate::tools::people::users_by_ids;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};

/// Mattermost's most public channels per team for one channel search term.
const CHANNEL_SEARCH_CAP: usize = 100;

/// The sort key of a name: the name in lowercase, so that `alpha` and `Alpha` sit together.
fn name_key(name: Option<&str>) -> SortKey {
    SortKey::Text(name.unwrap_or("").to_lowercase())
}

/// The ids and URL names of the user's teams.
async fn team_names(cx: &Ctx) -> Result<HashMap<String, String>, ToolError> {
    Ok(cx
        .my_teams()
        .await?
        .iter()
        .filter_map(|t| Some((t.id.clone()?, t.name.clone()?)))
        .collect())
}

/// The other person of a direct message channel (named `<id>__<id>`); the user for a channel with
/// oneself.
fn other_person(c: &types::Channel, me: &str) -> Option<String> {
    if c.type_.as_deref() != Some("D") {
        return None;
    }
    let (a, b) = c.name.as_deref()?.split_once("__")?;
    Some(if a == me { b } else { a }.to_string())
}

/// The user's own id, and the usernames of the other people of these direct message channels by their
/// user ids.
async fn direct_names(
    cx: &Ctx,
    channels: &[&types::Channel],
) -> Result<(String, HashMap<String, String>), ToolError> {
    let me = cx.me().await?.id.clone().unwrap_or_default();
    let others: Vec<String> = channels
        .iter()
        .filter_map(|c| other_person(c, &me))
        .collect();
    let names = if others.is_empty() {
        HashMap::new()
    } else {
        cx.usernames(others).await?
    };
    Ok((me, names))
}

/// A channel as one of the user's: named by the other person for a direct message, with the team's name
/// and, from the membership, the unread counts.
fn my_channel_summary(
    c: &types::Channel,
    teams: &HashMap<String, String>,
    me: &str,
    usernames: &HashMap<String, String>,
    member: Option<&types::ChannelMember>,
) -> Value {
    let team = c.team_id.as_deref().and_then(|t| teams.get(t));
    let with = other_person(c, me).and_then(|id| usernames.get(&id));
    summary::my_channel(
        c,
        team.map(String::as_str),
        with.map(String::as_str),
        member,
    )
}

// ---- teams ----

pub async fn list_teams(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let after = input.position::<After>("list_teams")?;
    let teams = send(cx.mm.api.get_teams_for_user().user_id("me").send())
        .await
        .map_err(|e| cx.fail(e, "teams of the user", "me"))?
        .into_inner();
    let keyed = teams
        .iter()
        .map(|t| {
            Keyed::new(
                name_key(t.display_name.as_deref()),
                t.id.clone().unwrap_or_default(),
                summary::team(t),
            )
        })
        .collect();
    Ok(Output::Page(whole_page(keyed, after, input.limit)))
}

/// A page of a whole list sorted ascending, continued after `after`.
fn whole_page(keyed: Vec<Keyed<Value>>, after: Option<After>, limit: u32) -> Page {
    let sorted = whole_list::sort(keyed, Order::Ascending);
    let (items, next) = whole_list::page(&sorted, Order::Ascending, after.as_ref(), limit as usize);
    Page::new(items)
        .continue_at(next)
        .with_total(sorted.len() as u64)
}

pub async fn get_team(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let t = names::team_of(cx, input.args.str("team").unwrap_or_default()).await?;
    let member = cx
        .my_teams()
        .await?
        .iter()
        .any(|m| m.id.is_some() && m.id == t.id);
    let mut out = summary::team(&t);
    if let Some(o) = out.as_object_mut() {
        o.insert("member".into(), json!(member));
    }
    Ok(Output::One(out))
}

// ---- the user's channels ----

pub async fn list_channels(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let after = input.position::<After>("list_channels")?;
    let team = input.args.str("team");
    let unread_only = input.args.flag("unread_only");
    let (items, next, total) = recently_active::page(
        &cx.lists,
        "list_channels",
        &input.fingerprint,
        after,
        input.limit as usize,
        || my_channels(cx, team, unread_only),
    )
    .await?;
    Ok(Output::Page(
        Page::new(items).continue_at(next).with_total(total as u64),
    ))
}

/// The user's live channels (of one team and no team, when `team` is given), keyed by last post.
async fn my_channels(
    cx: &Ctx,
    team: Option<&str>,
    unread_only: bool,
) -> Result<Vec<Keyed<Value>>, ToolError> {
    let team_id = match team {
        Some(t) => Some(names::team_id(cx, t).await?),
        None => None,
    };
    let channels = crate::mattermost::channels_for_user(&cx.mm.api, None)
        .await
        .map_err(|e| cx.fail(e, "channels of the user", "me"))?;

    let teams = team_names(cx).await?;
    let read_teams: Vec<String> = match &team_id {
        Some(t) => vec![t.clone()],
        None => teams.keys().cloned().collect(),
    };
    let members = memberships(cx, &read_teams).await?;
    let live: Vec<&types::Channel> = channels
        .iter()
        .filter(|c| c.delete_at.unwrap_or(0) == 0)
        .filter(|c| {
            let t = c.team_id.as_deref().unwrap_or("");
            team_id
                .as_deref()
                .is_none_or(|want| t == want || t.is_empty())
        })
        .filter(|c| {
            let m = c.id.as_deref().and_then(|id| members.get(id));
            !unread_only || m.is_some_and(|m| has_unread(c, m))
        })
        .collect();
    let (me, usernames) = direct_names(cx, &live).await?;
    Ok(live
        .into_iter()
        .map(|c| {
            let id = c.id.clone().unwrap_or_default();
            let member = members.get(&id);
            let item = my_channel_summary(c, &teams, &me, &usernames, member);
            Keyed::new(recently_active::key(c.last_post_at), id, item)
        })
        .collect())
}

fn has_unread(c: &types::Channel, m: &types::ChannelMember) -> bool {
    summary::unread_posts(c, m) > 0 || m.mention_count.unwrap_or(0) > 0
}

/// The user's channel memberships (which hold the read counts) in these teams, by channel id; direct
/// and group messages come with every team. A user in no team has only direct and group messages, read
/// from the memberships list of every team.
async fn memberships(
    cx: &Ctx,
    team_ids: &[String],
) -> Result<HashMap<String, types::ChannelMember>, ToolError> {
    let mut out = HashMap::new();
    if team_ids.is_empty() {
        let all = read_pages(|page, per_page| async move {
            send(
                cx.mm
                    .api
                    .get_channel_members_with_team_data_for_user()
                    .user_id("me")
                    .page(page)
                    .per_page(per_page)
                    .send(),
            )
            .await
            .map(|a| a.into_inner())
            .map_err(|e| cx.fail(e, "channel memberships of the user", "me"))
        })
        .await?;
        for m in all {
            let member = types::ChannelMember {
                channel_id: m.channel_id,
                user_id: m.user_id,
                msg_count: m.msg_count,
                mention_count: m.mention_count,
                last_viewed_at: m.last_viewed_at,
                last_update_at: m.last_update_at,
                roles: m.roles,
                notify_props: m.notify_props,
            };
            if let Some(id) = member.channel_id.clone() {
                out.insert(id, member);
            }
        }
        return Ok(out);
    }
    for t in team_ids {
        let list = send(
            cx.mm
                .api
                .get_channel_members_for_user()
                .user_id("me")
                .team_id(t)
                .send(),
        )
        .await
        .map_err(|e| cx.fail(e, "channel memberships in the team", t))?
        .into_inner();
        for m in list {
            if let Some(id) = m.channel_id.clone() {
                out.insert(id, m);
            }
        }
    }
    Ok(out)
}

pub async fn get_channel(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let reference = input.args.str("channel").unwrap_or_default();
    let id = names::channel_id(cx, reference, input.args.str("team")).await?;
    let c = send(cx.mm.api.get_channel().channel_id(&id).send())
        .await
        .map_err(|e| cx.fail(e, "channel", reference))?
        .into_inner();
    let member = match send(
        cx.mm
            .api
            .get_channel_member()
            .channel_id(&id)
            .user_id("me")
            .send(),
    )
    .await
    {
        Ok(m) => Some(m.into_inner()),
        Err(e) if e.status() == Some(404) => None,
        Err(e) => return Err(cx.fail(e, "channel", reference)),
    };
    let stats = send(cx.mm.api.get_channel_stats().channel_id(&id).send())
        .await
        .map_err(|e| cx.fail(e, "channel", reference))?
        .into_inner();
    let teams = team_names(cx).await?;
    let (me, usernames) = direct_names(cx, &[&c]).await?;
    let mut out = my_channel_summary(&c, &teams, &me, &usernames, member.as_ref());
    if let Some(o) = out.as_object_mut() {
        o.insert("member".into(), json!(member.is_some()));
        o.insert("member_count".into(), json!(stats.member_count));
    }
    Ok(Output::One(out))
}

pub async fn get_channel_stats(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let reference = input.args.str("channel").unwrap_or_default();
    let id = names::channel_id(cx, reference, input.args.str("team")).await?;
    let s = send(cx.mm.api.get_channel_stats().channel_id(&id).send())
        .await
        .map_err(|e| cx.fail(e, "channel", reference))?
        .into_inner();
    Ok(Output::One(json!({
        "channel_id": id,
        "member_count": s.member_count.unwrap_or(0),
        "guest_count": s.guest_count.unwrap_or(0),
        "pinned_post_count": s.pinnedpost_count.unwrap_or(0),
        "file_count": s.files_count.unwrap_or(0),
    })))
}

// ---- channel search ----

pub async fn search_channels(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let after = input.position::<After>("search_channels")?;
    let term = input
        .args
        .str("term")
        .unwrap_or_default()
        .trim()
        .to_string();
    let teams: Vec<types::Team> = match input.args.str("team") {
        Some(t) => vec![names::team_of(cx, t).await?],
        None => cx.my_teams().await?.to_vec(),
    };
    let mut found = Vec::new();
    let mut capped = false;
    let body = types::SearchChannelsBody { term: term.clone() };
    for t in &teams {
        let tid = t.id.clone().unwrap_or_default();
        let list = send(
            cx.mm
                .api
                .search_channels()
                .team_id(&tid)
                .body(body.clone())
                .send(),
        )
        .await
        .map_err(|e| cx.fail(e, "channel search in the team", &tid))?
        .into_inner();
        capped |= list.len() >= CHANNEL_SEARCH_CAP;
        found.extend(list);
    }
    let mine = cx.my_channels().await?;
    let member_of: HashSet<&str> = mine.iter().filter_map(|c| c.id.as_deref()).collect();
    let in_teams: HashSet<&str> = teams.iter().filter_map(|t| t.id.as_deref()).collect();
    let wanted = term.to_lowercase();
    found.extend(
        mine.iter()
            .filter(|c| c.type_.as_deref() != Some("D"))
            .filter(|c| {
                let t = c.team_id.as_deref().unwrap_or("");
                t.is_empty() || in_teams.contains(t)
            })
            .filter(|c| {
                [&c.name, &c.display_name, &c.purpose]
                    .iter()
                    .any(|f| f.as_deref().unwrap_or("").to_lowercase().contains(&wanted))
            })
            .cloned(),
    );
    let names: HashMap<&str, &str> = teams
        .iter()
        .filter_map(|t| Some((t.id.as_deref()?, t.name.as_deref()?)))
        .collect();
    let keyed = found
        .iter()
        .map(|c| {
            let team = c.team_id.as_deref().and_then(|t| names.get(t).copied());
            let mut item = summary::channel(c, team);
            let member = c.id.as_deref().is_some_and(|id| member_of.contains(id));
            if let Some(o) = item.as_object_mut() {
                o.insert("member".into(), json!(member));
            }
            let key = name_key(c.display_name.as_deref());
            Keyed::new(key, c.id.clone().unwrap_or_default(), item)
        })
        .collect();
    let mut page = whole_page(keyed, after, input.limit);
    page.capped = capped;
    Ok(Output::Page(page))
}

// ---- a team's channels ----

pub async fn list_team_channels(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    team_channels(cx, input, "list_team_channels", false).await
}

pub async fn list_archived_channels(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    team_channels(cx, input, "list_archived_channels", true).await
}

async fn team_channels(
    cx: &Ctx,
    input: Input,
    tool: &str,
    archived: bool,
) -> Result<Output, ToolError> {
    let after = input.position::<After>(tool)?;
    let team = input.args.str("team").unwrap_or_default();
    let read_whole = || async move {
        let team_id = names::team_id(cx, team).await?;
        let channels = straddling_ties::read_all(
            |page, per_page| team_channels_page(cx, &team_id, archived, page, per_page),
            |c: &types::Channel| c.display_name.clone().unwrap_or_default(),
            |c: &types::Channel| c.id.clone().unwrap_or_default(),
        )
        .await?;
        Ok(channels
            .iter()
            .map(|c| {
                Keyed::new(
                    name_key(c.display_name.as_deref()),
                    c.id.clone().unwrap_or_default(),
                    summary::channel(c, None),
                )
            })
            .collect())
    };
    kept_page(cx, &input, tool, after, read_whole).await
}

async fn team_channels_page(
    cx: &Ctx,
    team_id: &str,
    archived: bool,
    page: i64,
    per_page: i64,
) -> Result<Vec<types::Channel>, ToolError> {
    let answer = if archived {
        send(
            cx.mm
                .api
                .get_deleted_channels_for_team()
                .team_id(team_id)
                .page(page)
                .per_page(per_page)
                .send(),
        )
        .await
    } else {
        send(
            cx.mm
                .api
                .get_public_channels_for_team()
                .team_id(team_id)
                .page(page)
                .per_page(per_page)
                .send(),
        )
        .await
    };
    answer
        .map(|a| a.into_inner())
        .map_err(|e| cx.fail(e, "team", team_id))
}

/// One page of a list kept for the cursor chain (see `paging::pages_with_ties`), by key ascending.
async fn kept_page<F, Fut>(
    cx: &Ctx,
    input: &Input,
    tool: &str,
    after: Option<After>,
    read_whole: F,
) -> Result<Output, ToolError>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Vec<Keyed<Value>>, ToolError>>,
{
    let (items, next, total) = pages_with_ties::page(
        &cx.lists,
        tool,
        &input.fingerprint,
        Order::Ascending,
        after,
        input.limit as usize,
        read_whole,
    )
    .await?;
    Ok(Output::Page(
        Page::new(items).continue_at(next).with_total(total as u64),
    ))
}

// ---- members ----

/// People keyed by username then id, each with a role flag.
async fn people_keyed(
    cx: &Ctx,
    members: Vec<(String, bool)>,
    role: &str,
) -> Result<Vec<Keyed<Value>>, ToolError> {
    let ids: Vec<String> = members.iter().map(|(id, _)| id.clone()).collect();
    let users = users_by_ids(cx, &ids).await?;
    Ok(members
        .into_iter()
        .map(|(id, admin)| {
            let user = users.get(&id);
            let mut item = user.map(summary::user).unwrap_or_else(|| json!({"id": id}));
            if admin && let Some(o) = item.as_object_mut() {
                o.insert(role.into(), json!(true));
            }
            let key = name_key(user.and_then(|u| u.username.as_deref()));
            Keyed::new(key, id, item)
        })
        .collect())
}

pub async fn list_channel_members(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let after = input.position::<After>("list_channel_members")?;
    let channel = input.args.str("channel").unwrap_or_default();
    let team = input.args.str("team");
    let read_whole = || async move {
        let channel_id = names::channel_id(cx, channel, team).await?;
        let members = channel_members(cx, &channel_id, channel).await?;
        let mut seen = HashSet::new();
        let list = members
            .into_iter()
            .filter_map(|m| {
                let admin = m
                    .roles
                    .as_deref()
                    .is_some_and(|r| r.split_whitespace().any(|r| r == "channel_admin"));
                m.user_id.map(|id| (id, admin))
            })
            .filter(|(id, _)| seen.insert(id.clone()))
            .collect();
        people_keyed(cx, list, "channel_admin").await
    };
    kept_page(cx, &input, "list_channel_members", after, read_whole).await
}

/// Every member of a channel: in one response (`per_page=0`, Mattermost 11.6), or, when a server older
/// than 11.6 answers that with nothing, page by page.
async fn channel_members(
    cx: &Ctx,
    channel_id: &str,
    reference: &str,
) -> Result<Vec<types::ChannelMember>, ToolError> {
    let fetch = |page: i64, per_page: i64| async move {
        send(
            cx.mm
                .api
                .get_channel_members()
                .channel_id(channel_id)
                .page(page)
                .per_page(per_page)
                .send(),
        )
        .await
        .map(|a| a.into_inner())
        .map_err(|e| cx.fail(e, "channel", reference))
    };
    let all = fetch(0, 0).await?;
    if !all.is_empty() {
        return Ok(all);
    }
    read_pages(fetch).await
}

pub async fn list_team_members(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let after = input.position::<After>("list_team_members")?;
    let team = input.args.str("team").unwrap_or_default();
    let exclude_deactivated = !input.args.flag("include_deactivated");
    let read_whole = || async move {
        let team_id = names::team_id(cx, team).await?;
        let members = read_pages(|page, per_page| {
            let team_id = team_id.as_str();
            async move {
                send(
                    cx.mm
                        .api
                        .get_team_members()
                        .team_id(team_id)
                        .exclude_deleted_users(exclude_deactivated)
                        .page(page)
                        .per_page(per_page)
                        .send(),
                )
                .await
                .map(|a| a.into_inner())
                .map_err(|e| cx.fail(e, "team", team))
            }
        })
        .await?;
        let mut seen = HashSet::new();
        let list = members
            .into_iter()
            .filter_map(|m| m.user_id.map(|id| (id, m.scheme_admin == Some(true))))
            .filter(|(id, _)| seen.insert(id.clone()))
            .collect();
        people_keyed(cx, list, "team_admin").await
    };
    kept_page(cx, &input, "list_team_members", after, read_whole).await
}
