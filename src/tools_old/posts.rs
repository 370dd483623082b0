//! Reading posts and what hangs off them: a channel (by time, since a time, what is unread), a thread,
//! followed threads, pinned and saved posts, post search and mentions, a post's reactions, drafts and
//! custom emoji. Each tool resolves its arguments, pages through its strategy (`crate::paging`) and
//! shows what it read through `crate::summary`.

use crate::context::{Ctx, Input, Output};
use crate::error::ToolError;
use crate::mattermost::types::Post;
use crate::mattermost::{send, types};
use crate::names;
use crate::paging::followed_threads;
use crate::paging::pages_with_ties;
use crate::paging::posts_by_time::{self, Mode, Position, Posts, Query, Start};
use crate::paging::search_capped::{self, Search};
use crate::paging::whole_list::{self, After, Keyed, Order, SortKey};
use crate::paging::{Page, offset_quirk, since, thread};
use crate::summary::{self, MESSAGE_CUT};
use crate::time::rfc3339;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};

/// How many read posts `read_unread` shows before the first unread one.
pub const CONTEXT: u32 = 3;

/// Post summaries for a page, with the authors' usernames (one lookup for those not yet known).
pub async fn summaries(cx: &Ctx, posts: &[Post]) -> Result<Vec<Value>, ToolError> {
    let names = cx.usernames(summary::authors(posts)).await?;
    Ok(posts
        .iter()
        .map(|p| summary::post(p, &names, &cx.mm.url, Some(MESSAGE_CUT)))
        .collect())
}

/// Labels (`~name`, `@username`, a group's names) of the user's channels among `ids`; a channel that
/// is not the user's own keeps no label.
pub async fn channel_labels<'a>(
    cx: &Ctx,
    ids: impl IntoIterator<Item = &'a str>,
) -> Result<HashMap<String, String>, ToolError> {
    let wanted: HashSet<&str> = ids.into_iter().collect();
    if wanted.is_empty() {
        return Ok(HashMap::new());
    }
    let mine = cx.my_channels().await?;
    let me = cx.me().await?.id.clone().unwrap_or_default();
    let chans: Vec<&types::Channel> = mine
        .iter()
        .filter(|c| c.id.as_deref().is_some_and(|id| wanted.contains(id)))
        .collect();
    let others = chans
        .iter()
        .filter(|c| c.type_.as_deref() == Some("D"))
        .flat_map(|c| c.name.as_deref().unwrap_or("").split("__"))
        .filter(|id| *id != me)
        .map(str::to_string);
    let names = cx.usernames(others.collect::<Vec<_>>()).await?;
    Ok(chans
        .iter()
        .map(|c| {
            (
                c.id.clone().unwrap_or_default(),
                summary::channel_label(c, &me, &names),
            )
        })
        .collect())
}

/// Post summaries that say which channel each post is in.
async fn summaries_in_channels(cx: &Ctx, posts: &[Post]) -> Result<Vec<Value>, ToolError> {
    let items = summaries(cx, posts).await?;
    let labels = channel_labels(cx, posts.iter().filter_map(|p| p.channel_id.as_deref())).await?;
    Ok(posts
        .iter()
        .zip(items)
        .map(|(p, v)| {
            let channel = p.channel_id.as_deref().unwrap_or("");
            summary::with_channel(v, channel, labels.get(channel).map(String::as_str))
        })
        .collect())
}

fn created(p: &Post) -> i64 {
    p.create_at.unwrap_or(0)
}

fn post_id_of(p: &Post) -> String {
    p.id.clone().unwrap_or_default()
}

/// Posts keyed newest first, ties by id.
fn newest_first(posts: Vec<Post>) -> Vec<Keyed<Post>> {
    search_capped::ordered(posts, created, post_id_of)
}

/// The channel a channel tool reads, resolved from its `channel` and `team` arguments.
async fn channel_of(cx: &Ctx, input: &Input) -> Result<String, ToolError> {
    let args = &input.args;
    names::channel_id(
        cx,
        args.str("channel").unwrap_or_default(),
        args.str("team"),
    )
    .await
}

/// The teams a tool reads: the one given, or all of the user's.
async fn teams_of(cx: &Ctx, input: &Input) -> Result<Vec<String>, ToolError> {
    match input.args.str("team") {
        Some(t) => Ok(vec![names::team_id(cx, t).await?]),
        None => Ok(cx
            .my_teams()
            .await?
            .iter()
            .filter_map(|t| t.id.clone())
            .collect()),
    }
}

/// The note for a millisecond Mattermost holds more posts or threads in than it can be asked for.
fn incomplete(ms: i64, what: &str) -> Value {
    json!({
        "time": rfc3339(ms),
        "note": format!(
            "Mattermost holds 200 {what} or more in this one millisecond and can only be asked for 200 of them; \
             the others cannot be read in order. Search (search_posts) can still find them."
        ),
    })
}

/// A page of a channel's posts, with where the next starts.
fn channel_page(items: Vec<Value>, posts: &Posts, channel_id: &str) -> Page {
    let mut page = Page::new(items)
        .continue_at(posts.next.clone())
        .with("channel_id", json!(channel_id));
    if let Some(ms) = posts.incomplete_millisecond {
        page = page.with("incomplete_millisecond", incomplete(ms, "posts"));
    }
    page
}

// ---- read_channel ----

pub async fn read_channel(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let args = &input.args;
    let channel_id = channel_of(cx, &input).await?;
    let q = Query {
        channel_id: channel_id.clone(),
        roots_only: args.flag("roots_only"),
    };
    let given: Vec<&str> = ["before", "after", "since"]
        .into_iter()
        .filter(|k| args.str(k).is_some())
        .collect();
    if given.len() > 1 {
        return Err(ToolError::bad_argument(format!(
            "read_channel takes one of before, after and since, not {}. Call again with one of them.",
            given.join(" and ")
        )));
    }
    let position = input.position::<Position>("read_channel")?;
    let (posts, total): (Posts, Option<u64>) = match position {
        Some(p) => (
            posts_by_time::page(cx, &q, Start::At(p), input.limit).await?,
            None,
        ),
        None => {
            if let Some(b) = args.str("before") {
                let start = Start::Before(names::post_id(b)?);
                (posts_by_time::page(cx, &q, start, input.limit).await?, None)
            } else if let Some(a) = args.str("after") {
                let start = Start::After(names::post_id(a)?);
                (posts_by_time::page(cx, &q, start, input.limit).await?, None)
            } else if let Some(t) = args.time("since") {
                since::first_page(cx, &q, t, input.limit).await?
            } else {
                let start = Start::Newest;
                (posts_by_time::page(cx, &q, start, input.limit).await?, None)
            }
        }
    };
    let items = summaries(cx, &posts.posts).await?;
    let mut page = channel_page(items, &posts, &channel_id);
    if let Some(total) = total {
        page = page.with_total(total);
    }
    Ok(Output::Page(page))
}

// ---- read_unread ----

pub async fn read_unread(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let channel_id = channel_of(cx, &input).await?;
    let q = Query {
        channel_id: channel_id.clone(),
        roots_only: false,
    };
    if let Some(p) = input.position::<Position>("read_unread")? {
        let posts = posts_by_time::page(cx, &q, Start::At(p), input.limit).await?;
        let items = summaries(cx, &posts.posts).await?;
        return Ok(Output::Page(channel_page(items, &posts, &channel_id)));
    }
    let member = send(
        cx.mm
            .api
            .get_channel_member()
            .channel_id(&channel_id)
            .user_id("me")
            .send(),
    )
    .await
    .map_err(|e| cx.fail(e, "channel", input.args.str("channel").unwrap_or("")))?
    .into_inner();
    let viewed = member.last_viewed_at.unwrap_or(0);
    if viewed <= 0 {
        return never_viewed(cx, &q, input.limit).await;
    }
    let (posts, total) = since::first_page(cx, &q, viewed + 1, input.limit).await?;
    let before = read_before(cx, &q, posts.posts.first(), viewed).await?;
    let mut all = before.clone();
    all.extend(posts.posts.iter().cloned());
    let mut items = summaries(cx, &all).await?;
    let unread = items.split_off(before.len());
    let context: Vec<Value> = items
        .into_iter()
        .map(|mut v| {
            v["read"] = json!(true);
            v
        })
        .collect();
    let count = total.unwrap_or(posts.posts.len() as u64);
    let mut page = channel_page(unread, &posts, &channel_id)
        .with_total(count)
        .with("last_viewed", json!(rfc3339(viewed)))
        .with("unread_count", json!(count))
        .with("context", Value::Array(context));
    match posts.posts.first() {
        Some(first) => {
            page = page.with(
                "first_unread",
                json!({"id": first.id, "time": rfc3339(created(first))}),
            );
        }
        None => {
            page = page.with(
                "note",
                json!(
                    "Nothing is unread in this channel: context holds its latest posts, all read."
                ),
            );
        }
    }
    Ok(Output::Page(page))
}

/// The read posts just before the first unread one (or the latest posts, when nothing is unread),
/// oldest first: at most [`CONTEXT`], none written after `viewed`.
async fn read_before(
    cx: &Ctx,
    q: &Query,
    first_unread: Option<&Post>,
    viewed: i64,
) -> Result<Vec<Post>, ToolError> {
    let mode = match first_unread {
        Some(p) => Mode::Before(post_id_of(p)),
        None => Mode::Newest,
    };
    let mut posts: Vec<Post> = posts_by_time::fetch(cx, q, &mode, CONTEXT)
        .await?
        .into_iter()
        .filter(|p| created(p) <= viewed)
        .collect();
    posts.sort_by(|a, b| (created(a), &a.id).cmp(&(created(b), &b.id)));
    Ok(posts)
}

/// A channel the person never viewed: every post is unread, read newest page first, going back.
async fn never_viewed(cx: &Ctx, q: &Query, limit: u32) -> Result<Output, ToolError> {
    let posts = posts_by_time::page(cx, q, Start::Newest, limit).await?;
    let items = summaries(cx, &posts.posts).await?;
    let page = channel_page(items, &posts, &q.channel_id)
        .with("never_viewed", json!(true))
        .with(
            "note",
            json!(
                "You never viewed this channel, so every post in it is unread. This reads it newest page \
                 first (each page oldest first); next_cursor goes further back."
            ),
        );
    Ok(Output::Page(page))
}

// ---- read_thread ----

pub async fn read_thread(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let given = names::post_id(input.args.str("post").unwrap_or_default())?;
    let from = input.position::<thread::Position>("read_thread")?;
    let page = thread::page(cx, &given, from.as_ref(), input.limit).await?;
    let names = cx.usernames(summary::authors(&page.posts)).await?;
    let items = page
        .posts
        .iter()
        .map(|p| summary::post(p, &names, &cx.mm.url, None))
        .collect();
    let mut out = Page::new(items)
        .continue_at(page.next)
        .with("root_id", json!(page.root_id));
    if let Some(c) = page.posts.first().and_then(|p| p.channel_id.as_deref()) {
        out = out.with("channel_id", json!(c));
    }
    Ok(Output::Page(out))
}

// ---- list_threads ----

pub async fn list_threads(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let teams = teams_of(cx, &input).await?;
    let sources = followed_threads::sources(&teams, input.args.flag("unread_only"));
    let after = input.position::<After>("list_threads")?;
    let mut overflow = None;
    let (items, next, total) = pages_with_ties::page(
        &cx.lists,
        "list_threads",
        &input.fingerprint,
        Order::Descending,
        after,
        input.limit as usize,
        || read_threads(cx, &sources, &mut overflow),
    )
    .await?;
    let mut page = Page::new(items).continue_at(next).with_total(total as u64);
    if let Some(ms) = overflow {
        page = page.with("incomplete_millisecond", incomplete(ms, "threads"));
    }
    Ok(Output::Page(page))
}

/// Every followed thread of the sources, summarised and keyed by last reply.
async fn read_threads(
    cx: &Ctx,
    sources: &[followed_threads::Source],
    overflow: &mut Option<i64>,
) -> Result<Vec<Keyed<Value>>, ToolError> {
    let read = followed_threads::read_all(cx, sources).await?;
    *overflow = read.incomplete_millisecond;
    let people = read.threads.iter().flat_map(|t| {
        let root = t.post.as_ref().and_then(|p| p.user_id.clone());
        let participants = t.participants.iter().flatten().filter_map(|u| u.id.clone());
        root.into_iter().chain(participants)
    });
    let names = cx.usernames(people.collect::<Vec<_>>()).await?;
    let channel = |t: &types::UserThread| {
        t.post
            .as_ref()
            .and_then(|p| p.channel_id.clone())
            .unwrap_or_default()
    };
    let labels = channel_labels(
        cx,
        read.threads
            .iter()
            .filter_map(|t| t.post.as_ref().and_then(|p| p.channel_id.as_deref())),
    )
    .await?;
    Ok(read
        .threads
        .iter()
        .map(|t| {
            let c = channel(t);
            let v = summary::with_channel(
                summary::thread(t, &names, &cx.mm.url),
                &c,
                labels.get(&c).map(String::as_str),
            );
            let key = SortKey::Int(followed_threads::last_reply(t));
            Keyed::new(key, t.id.clone().unwrap_or_default(), v)
        })
        .collect())
}

// ---- list_pinned_posts ----

pub async fn list_pinned_posts(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let channel_id = channel_of(cx, &input).await?;
    let list = send(cx.mm.api.get_pinned_posts().channel_id(&channel_id).send())
        .await
        .map_err(|e| cx.fail(e, "channel", input.args.str("channel").unwrap_or("")))?
        .into_inner();
    let mut by_id = list.posts.unwrap_or_default();
    let posts: Vec<Post> = list
        .order
        .unwrap_or_default()
        .iter()
        .filter_map(|id| by_id.remove(id))
        .collect();
    let sorted = newest_first(posts);
    let after = input.position::<After>("list_pinned_posts")?;
    let (shown, next) = whole_list::page(
        &sorted,
        Order::Descending,
        after.as_ref(),
        input.limit as usize,
    );
    let items = summaries(cx, &shown).await?;
    let page = Page::new(items)
        .continue_at(next)
        .with_total(sorted.len() as u64)
        .with("channel_id", json!(channel_id));
    Ok(Output::Page(page))
}

// ---- list_saved ----

pub async fn list_saved(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let after = input.position::<After>("list_saved")?;
    let mut overflow = None;
    let (items, next, total) = pages_with_ties::page(
        &cx.lists,
        "list_saved",
        &input.fingerprint,
        Order::Descending,
        after,
        input.limit as usize,
        || read_saved(cx, &mut overflow),
    )
    .await?;
    let mut page = Page::new(items).continue_at(next).with_total(total as u64);
    if let Some(ms) = overflow {
        page = page.with("incomplete_millisecond", incomplete(ms, "saved posts"));
    }
    Ok(Output::Page(page))
}

/// Every saved post, summarised and keyed by creation time.
async fn read_saved(cx: &Ctx, overflow: &mut Option<i64>) -> Result<Vec<Keyed<Value>>, ToolError> {
    let read = offset_quirk::read_all(cx).await?;
    *overflow = read.incomplete_millisecond;
    let items = summaries_in_channels(cx, &read.posts).await?;
    Ok(read
        .posts
        .iter()
        .zip(items)
        .map(|(p, v)| Keyed::new(SortKey::Int(created(p)), post_id_of(p), v))
        .collect())
}

// ---- search_posts, list_mentions ----

/// A page of a post search's matches, newest first, marked when Mattermost's cap cut them; with the
/// time of the oldest match when it did (older ones are reached from there).
async fn matches_page(
    cx: &Ctx,
    input: &Input,
    tool: &str,
    found: search_capped::Found<Post>,
) -> Result<(Page, Option<i64>), ToolError> {
    let sorted = newest_first(found.items);
    let after = input.position::<After>(tool)?;
    let (shown, next) = whole_list::page(
        &sorted,
        Order::Descending,
        after.as_ref(),
        input.limit as usize,
    );
    let items = summaries_in_channels(cx, &shown).await?;
    let mut page = Page::new(items)
        .continue_at(next)
        .with_total(sorted.len() as u64);
    page.capped = found.capped;
    let oldest = sorted
        .last()
        .filter(|_| found.capped)
        .map(|k| created(&k.item));
    Ok((page, oldest))
}

/// The team a search is narrowed to, if `team` was given.
pub async fn search_team(cx: &Ctx, input: &Input) -> Result<Option<String>, ToolError> {
    match input.args.str("team") {
        Some(t) => Ok(Some(names::team_id(cx, t).await?)),
        None => Ok(None),
    }
}

pub async fn search_posts(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let team = search_team(cx, &input).await?;
    let terms = input
        .args
        .str("terms")
        .unwrap_or_default()
        .trim()
        .to_string();
    let s = Search::asked(team.as_deref(), &terms, &input.args);
    let found = search_capped::posts(cx, &s).await?;
    let (mut page, oldest) = matches_page(cx, &input, "search_posts", found).await?;
    if let Some(oldest) = oldest {
        page = page.with("older", search_capped::older(&terms, oldest, "posts"));
    }
    Ok(Output::Page(page))
}

/// The person's mention keys: `@username`, their first name when their notification settings make it
/// a mention, and their own keys. Channel-wide mentions (@channel, @all, @here) are not personal.
fn mention_keys(me: &types::User) -> Vec<String> {
    let mut keys = vec![format!("@{}", me.username.as_deref().unwrap_or(""))];
    if let Some(np) = &me.notify_props {
        let first = me.first_name.as_deref().unwrap_or("").trim();
        if np.first_name.as_deref() == Some("true") && !first.is_empty() {
            keys.push(first.to_string());
        }
        for k in np.mention_keys.as_deref().unwrap_or("").split(',') {
            let k = k.trim();
            if !k.is_empty() && !keys.iter().any(|have| have.eq_ignore_ascii_case(k)) {
                keys.push(k.to_string());
            }
        }
    }
    keys
}

/// The search terms for mention keys: each key a term, quoted when it holds a space or a colon.
fn mention_terms(keys: &[String], before: Option<&str>) -> String {
    let mut terms: Vec<String> = keys
        .iter()
        .map(|k| {
            if k.contains(char::is_whitespace) || k.contains(':') {
                format!("\"{}\"", k.replace('"', ""))
            } else {
                k.clone()
            }
        })
        .collect();
    if let Some(day) = before {
        terms.push(format!("before:{day}"));
    }
    terms.join(" ")
}

fn word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// Whether `message` mentions `key` as Mattermost reads mentions: the key as a whole word (a username
/// goes on through `.` followed by more of it), case-insensitively.
pub fn mentions(message: &str, key: &str) -> bool {
    let m = message.to_lowercase();
    let k = key.to_lowercase();
    if k.is_empty() {
        return false;
    }
    m.match_indices(&k).any(|(i, _)| {
        let before = m[..i].chars().next_back();
        let mut after = m[i + k.len()..].chars();
        let free_before = before.is_none_or(|c| !word_char(c) && c != '@' && c != '.');
        let free_after = match after.next() {
            None => true,
            Some('.') => !after.next().is_some_and(word_char),
            Some(c) => !word_char(c),
        };
        free_before && free_after
    })
}

pub async fn list_mentions(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let team = search_team(cx, &input).await?;
    let me = cx.me().await?;
    let my_id = me.id.clone().unwrap_or_default();
    let keys = mention_keys(me);
    let before = input
        .args
        .time("before")
        .map(|t| rfc3339(t).get(..10).unwrap_or_default().to_string());
    let terms = mention_terms(&keys, before.as_deref());
    let s = Search {
        team_id: team.as_deref(),
        terms: &terms,
        any: true,
        archived: false,
    };
    let mut found = search_capped::posts(cx, &s).await?;
    found.items.retain(|p| {
        p.user_id.as_deref() != Some(my_id.as_str())
            && keys
                .iter()
                .any(|k| mentions(p.message.as_deref().unwrap_or(""), k))
    });
    let (page, oldest) = matches_page(cx, &input, "list_mentions", found).await?;
    let mut page = page.with("mention_keys", json!(keys));
    if let Some(oldest) = oldest {
        page = page.with(
            "older",
            json!({
                "before": search_capped::day_after(oldest),
                "note": "Mattermost answers at most the 100 newest matches. Call again with this `before` (and no \
                         cursor) to reach older mentions; the oldest day shown is searched again.",
            }),
        );
    }
    Ok(Output::Page(page))
}

// ---- list_reactions ----

pub async fn list_reactions(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let given = input.args.str("post").unwrap_or_default();
    let post_id = names::post_id(given)?;
    let reactions = send(cx.mm.api.get_reactions().post_id(&post_id).send())
        .await
        .map_err(|e| cx.fail(e, "post", given))?
        .into_inner();
    let names = cx
        .usernames(
            reactions
                .iter()
                .filter_map(|r| r.user_id.clone())
                .collect::<Vec<_>>(),
        )
        .await?;
    let items = summary::reactions(&reactions, &names);
    Ok(Output::One(json!({
        "post_id": post_id,
        "returned": items.len(),
        "reactions": reactions.len(),
        "items": items,
    })))
}

// ---- list_drafts ----

/// A feature an administrator turned off (Mattermost answers 501).
fn disabled(e: ToolError, what: &str, setting: &str) -> ToolError {
    if e.data.get("status") == Some(&json!(501)) {
        ToolError::new(
            "disabled",
            format!(
                "{what} are turned off on this Mattermost ({setting}), so there are none to list. Ask its \
                 administrator to turn them on."
            ),
        )
    } else {
        e
    }
}

pub async fn list_drafts(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let teams = teams_of(cx, &input).await?;
    let after = input.position::<After>("list_drafts")?;
    let (items, next, total) = pages_with_ties::page(
        &cx.lists,
        "list_drafts",
        &input.fingerprint,
        Order::Descending,
        after,
        input.limit as usize,
        || read_drafts(cx, &teams),
    )
    .await?;
    let page = Page::new(items).continue_at(next).with_total(total as u64);
    Ok(Output::Page(page))
}

/// Every draft of the teams (direct and group message drafts come under each; kept once), summarised
/// and keyed by when it was last changed.
async fn read_drafts(cx: &Ctx, teams: &[String]) -> Result<Vec<Keyed<Value>>, ToolError> {
    let mut drafts: Vec<types::GetDraftsResponseItem> = Vec::new();
    for team in teams {
        let got = send(cx.mm.api.get_drafts().user_id("me").team_id(team).send())
            .await
            .map_err(|e| cx.fail(e, "drafts of team", team))
            .map_err(|e| disabled(e, "Synced drafts", "ServiceSettings.AllowSyncedDrafts"))?
            .into_inner();
        drafts.extend(got.into_iter().filter(|d| d.delete_at.unwrap_or(0) == 0));
    }
    let labels = channel_labels(cx, drafts.iter().filter_map(|d| d.channel_id.as_deref())).await?;
    Ok(drafts
        .iter()
        .map(|d| {
            let c = d.channel_id.as_deref().unwrap_or("");
            let v = summary::with_channel(summary::draft(d), c, labels.get(c).map(String::as_str));
            Keyed::new(
                SortKey::Int(d.update_at.unwrap_or(0)),
                summary::draft_id(d),
                v,
            )
        })
        .collect())
}

// ---- list_emoji ----

pub async fn list_emoji(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let after = input.position::<After>("list_emoji")?;
    let (items, next, total) = pages_with_ties::page(
        &cx.lists,
        "list_emoji",
        &input.fingerprint,
        Order::Ascending,
        after,
        input.limit as usize,
        || read_emoji(cx),
    )
    .await?;
    let page = Page::new(items).continue_at(next).with_total(total as u64);
    Ok(Output::Page(page))
}

/// Every custom emoji, by name. With `sort=name` Mattermost's pages are stable (names are unique), but
/// a page of the tool rarely lines up with one of Mattermost's (its offset moves as emoji are added or
/// removed, and the tool's limit is not 200), so the list is read whole once per cursor chain and kept
/// ([`pages_with_ties`]): later pages cost no request, and a cursor that outlives the kept list reads
/// it again and goes on after its name.
async fn read_emoji(cx: &Ctx) -> Result<Vec<Keyed<Value>>, ToolError> {
    let all = pages_with_ties::read_pages(|page, per_page| async move {
        send(
            cx.mm
                .api
                .get_emoji_list()
                .page(page)
                .per_page(per_page)
                .sort("name")
                .send(),
        )
        .await
        .map(|r| r.into_inner())
        .map_err(|e| cx.fail(e, "custom emoji", "list"))
        .map_err(|e| disabled(e, "Custom emoji", "ServiceSettings.EnableCustomEmoji"))
    })
    .await?;
    let names = cx
        .usernames(
            all.iter()
                .filter_map(|e| e.creator_id.clone())
                .collect::<Vec<_>>(),
        )
        .await?;
    Ok(all
        .iter()
        .filter(|e| e.delete_at.unwrap_or(0) == 0)
        .map(|e| {
            let name = e.name.clone().unwrap_or_default();
            Keyed::new(
                SortKey::Text(name),
                e.id.clone().unwrap_or_default(),
                summary::emoji(e, &names),
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mention_is_the_key_as_a_whole_word() {
        assert!(mentions("hi @alice, look", "@alice"));
        assert!(mentions("@Alice.", "@alice"));
        assert!(!mentions("hi @alicebob", "@alice"));
        assert!(!mentions("hi @alice.smith", "@alice"));
        assert!(!mentions("mail bob@alice", "@alice"));
        assert!(mentions("Alice: ping", "alice"));
        assert!(!mentions("Malice", "alice"));
    }

    #[test]
    fn mention_keys_follow_the_notification_settings() {
        let mut me = types::User {
            username: Some("alice".into()),
            first_name: Some("Alice".into()),
            ..types::User::default()
        };
        assert_eq!(mention_keys(&me), ["@alice"]);
        me.notify_props = Some(types::UserNotifyProps {
            first_name: Some("true".into()),
            mention_keys: Some("oncall, release train,Alice".into()),
            ..types::UserNotifyProps::default()
        });
        assert_eq!(
            mention_keys(&me),
            ["@alice", "Alice", "oncall", "release train"]
        );
        assert_eq!(
            mention_terms(&mention_keys(&me), Some("2026-01-02")),
            "@alice Alice oncall \"release train\" before:2026-01-02"
        );
    }
}
