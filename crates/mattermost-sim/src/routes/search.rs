//! Post and file search, database engine semantics: page 0 only, `per_page` ignored, at most the
//! 100 newest matches per term group (notes §5). Both routes read a JSON `model.SearchParameter`
//! body (`api4/post.go` `searchPosts`, `api4/file.go` `searchFiles`), whatever the spec says.

use std::cmp::Reverse;

use serde_json::{Map, Value, json};

use super::Ctx;
use crate::http::{AppError, HResult, Reply};
use crate::render::{self, PostListOut, PostOpts};
use crate::world::{Channel, FileInfo, Post, World};

#[derive(Clone, Debug)]
struct Term {
    text: String,
    prefix: bool,
    phrase: bool,
}

#[derive(Default, Debug)]
struct Parsed {
    words: Vec<Term>,
    hashtags: Vec<Term>,
    excluded: Vec<Term>,
    from: Vec<String>,
    not_from: Vec<String>,
    in_channels: Vec<String>,
    not_in_channels: Vec<String>,
    exts: Vec<String>,
    not_exts: Vec<String>,
    /// CreateAt must be < this
    before: Option<i64>,
    /// CreateAt must be >= this
    after: Option<i64>,
}

fn tokens(s: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_quote = false;
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => {
                if in_quote {
                    out.push((std::mem::take(&mut cur), true));
                    quoted = false;
                } else {
                    quoted = true;
                }
                in_quote = !in_quote;
            }
            c if c.is_whitespace() && !in_quote => {
                if !cur.is_empty() {
                    out.push((std::mem::take(&mut cur), quoted));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push((cur, quoted));
    }
    out
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date.
fn days_from_civil(s: &str) -> Option<i64> {
    let mut it = s.splitn(3, '-');
    let y: i64 = it.next()?.parse().ok()?;
    let m: i64 = it.next()?.parse().ok()?;
    let d: i64 = it.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

const DAY_MS: i64 = 86_400_000;

fn parse_terms(terms: &str, tz_offset_secs: i64) -> Parsed {
    let mut p = Parsed::default();
    let day_start = |d: &str| days_from_civil(d).map(|days| days * DAY_MS - tz_offset_secs * 1000);
    for (tok, phrase) in tokens(terms) {
        let (neg, body) = match tok.strip_prefix('-') {
            Some(rest) if !rest.is_empty() => (true, rest.to_string()),
            _ => (false, tok.clone()),
        };
        if !phrase && let Some((k, v)) = body.split_once(':') {
            let v = v.to_string();
            match k.to_ascii_lowercase().as_str() {
                "from" => {
                    let v = v.trim_start_matches('@').to_string();
                    if neg {
                        p.not_from.push(v)
                    } else {
                        p.from.push(v)
                    }
                    continue;
                }
                "in" | "channel" => {
                    let v = v.trim_start_matches('~').to_string();
                    if neg {
                        p.not_in_channels.push(v)
                    } else {
                        p.in_channels.push(v)
                    }
                    continue;
                }
                "ext" => {
                    let v = v.trim_start_matches('.').to_ascii_lowercase();
                    if neg {
                        p.not_exts.push(v)
                    } else {
                        p.exts.push(v)
                    }
                    continue;
                }
                "before" => {
                    if let Some(s) = day_start(&v) {
                        p.before = Some(s);
                    }
                    continue;
                }
                "after" => {
                    if let Some(s) = day_start(&v) {
                        p.after = Some(s + DAY_MS);
                    }
                    continue;
                }
                "on" => {
                    if let Some(s) = day_start(&v) {
                        p.after = Some(s);
                        p.before = Some(s + DAY_MS);
                    }
                    continue;
                }
                _ => {}
            }
        }
        let lower = body.to_lowercase();
        let prefix = !phrase && lower.ends_with('*');
        let text = lower.trim_end_matches('*').to_string();
        if text.is_empty() {
            continue;
        }
        let term = Term {
            text,
            prefix,
            phrase,
        };
        if neg {
            p.excluded.push(term);
        } else if !phrase && term.text.starts_with('#') {
            p.hashtags.push(term);
        } else {
            p.words.push(term);
        }
    }
    p
}

fn words_of(s: &str) -> Vec<String> {
    s.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_string())
        .collect()
}

fn term_matches(t: &Term, text_lower: &str, words: &[String]) -> bool {
    if t.phrase
        || t.text
            .contains(|c: char| !(c.is_alphanumeric() || c == '_'))
    {
        return text_lower.contains(&t.text);
    }
    words.iter().any(|w| {
        if t.prefix {
            w.starts_with(&t.text)
        } else {
            *w == t.text
        }
    })
}

fn hashtag_matches(t: &Term, hashtags: &str) -> bool {
    hashtags.split_whitespace().any(|h| {
        let h = h.to_lowercase();
        if t.prefix {
            h.starts_with(&t.text)
        } else {
            h == t.text
        }
    })
}

fn all_or_any(terms: &[Term], or: bool, f: impl Fn(&Term) -> bool) -> bool {
    if or {
        terms.iter().any(&f)
    } else {
        terms.iter().all(&f)
    }
}

struct Body {
    terms: String,
    is_or: bool,
    tz: i64,
    page: i64,
    include_deleted_channels: bool,
}

fn read_body(ctx: &Ctx, invalid_id: &str) -> Result<Body, AppError> {
    let v: Value = serde_json::from_slice(ctx.body)
        .map_err(|_| AppError::new(400, invalid_id, "Unable to parse the search parameters."))?;
    let Some(o) = v.as_object() else {
        return Err(AppError::new(
            400,
            invalid_id,
            "Unable to parse the search parameters.",
        ));
    };
    let int = |k: &str| -> Result<i64, AppError> {
        match o.get(k) {
            None | Some(Value::Null) => Ok(0),
            Some(x) => x.as_i64().ok_or_else(|| {
                AppError::new(400, invalid_id, "Unable to parse the search parameters.")
            }),
        }
    };
    let terms = match o.get("terms") {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => String::new(),
        Some(_) => {
            return Err(AppError::new(
                400,
                invalid_id,
                "Unable to parse the search parameters.",
            ));
        }
    };
    if terms.is_empty() {
        return Err(AppError::invalid_param("terms"));
    }
    let boolean = |k: &str| o.get(k).and_then(|x| x.as_bool()).unwrap_or(false);
    Ok(Body {
        terms,
        is_or: boolean("is_or_search"),
        tz: int("time_zone_offset")?,
        page: int("page")?,
        include_deleted_channels: boolean("include_deleted_channels"),
    })
}

/// Channels searched: the user's memberships, in the team (and DMs/GMs) or in every team.
fn searchable_channels<'a>(
    w: &'a World,
    me: &str,
    team_id: &str,
    include_archived: bool,
) -> Vec<&'a Channel> {
    w.channels
        .iter()
        .filter(|c| w.member(&c.id, me).is_some())
        .filter(|c| include_archived || c.delete_at == 0)
        .filter(|c| team_id.is_empty() || c.team_id == team_id || c.team_id.is_empty())
        .collect()
}

fn channel_filter(p: &Parsed, w: &World, c: &Channel) -> bool {
    let names = |c: &Channel| {
        let mut v = vec![c.name.to_lowercase()];
        if c.kind == "D" {
            for id in c.name.split("__") {
                if let Some(u) = w.user_by_id(id) {
                    v.push(u.username.to_lowercase());
                    v.push(format!("@{}", u.username.to_lowercase()));
                }
            }
        }
        v
    };
    let n = names(c);
    (p.in_channels.is_empty() || p.in_channels.iter().any(|x| n.contains(&x.to_lowercase())))
        && !p
            .not_in_channels
            .iter()
            .any(|x| n.contains(&x.to_lowercase()))
}

fn user_filter(p: &Parsed, w: &World, user_id: &str) -> bool {
    let name = w
        .user_by_id(user_id)
        .map(|u| u.username.to_lowercase())
        .unwrap_or_default();
    (p.from.is_empty() || p.from.iter().any(|f| f.to_lowercase() == name))
        && !p.not_from.iter().any(|f| f.to_lowercase() == name)
}

fn time_filter(p: &Parsed, t: i64) -> bool {
    p.before.is_none_or(|b| t < b) && p.after.is_none_or(|a| t >= a)
}

fn search_posts(ctx: &mut Ctx, team_id: &str) -> HResult {
    let body = read_body(ctx, "api.post.search_posts.invalid_body.app_error")?;
    let empty = PostListOut::new(Vec::new());
    let render_results = |w: &World, list: &PostListOut| {
        let mut v = list.render(w, PostOpts::default());
        if let Some(o) = v.as_object_mut() {
            o.insert("matches".into(), Value::Null);
        }
        Reply::json(&v).header("Cache-Control", "no-cache, no-store, must-revalidate")
    };
    if body.page > 0 {
        return Ok(render_results(ctx.w, &empty));
    }
    let p = parse_terms(&body.terms, body.tz);
    let w: &World = ctx.w;
    let chans = searchable_channels(w, &ctx.me, team_id, body.include_deleted_channels);
    let base: Vec<&Post> = w
        .posts
        .iter()
        .filter(|post| post.delete_at == 0 && !post.kind.starts_with("system_"))
        .filter(|post| {
            chans
                .iter()
                .any(|c| c.id == post.channel_id && channel_filter(&p, w, c))
        })
        .filter(|post| user_filter(&p, w, &post.user_id) && time_filter(&p, post.create_at))
        .filter(|post| {
            let lower = post.message.to_lowercase();
            let words = words_of(&post.message);
            !p.excluded
                .iter()
                .any(|t| term_matches(t, &lower, &words) || hashtag_matches(t, &post.hashtags))
        })
        .collect();
    let mut groups: Vec<Vec<&Post>> = Vec::new();
    if !p.words.is_empty() {
        groups.push(
            base.iter()
                .copied()
                .filter(|post| {
                    let lower = post.message.to_lowercase();
                    let words = words_of(&post.message);
                    all_or_any(&p.words, body.is_or, |t| term_matches(t, &lower, &words))
                })
                .collect(),
        );
    }
    if !p.hashtags.is_empty() {
        groups.push(
            base.iter()
                .copied()
                .filter(|post| {
                    all_or_any(&p.hashtags, body.is_or, |t| {
                        hashtag_matches(t, &post.hashtags)
                    })
                })
                .collect(),
        );
    }
    if p.words.is_empty() && p.hashtags.is_empty() {
        groups.push(base.clone());
    }
    let mut merged: Vec<&Post> = Vec::new();
    for mut g in groups {
        ctx.rng
            .sort_ties_shuffled(&mut g, |post| Reverse(post.create_at));
        g.truncate(100);
        for post in g {
            if !merged.iter().any(|m| m.id == post.id) {
                merged.push(post);
            }
        }
    }
    merged.retain(|post| {
        w.channel_by_id(&post.channel_id)
            .is_some_and(|c| w.can_read_channel(&ctx.me, c))
    });
    ctx.rng
        .sort_ties_shuffled(&mut merged, |post| Reverse(post.create_at));
    let list = PostListOut::new(merged.iter().map(|post| post.id.clone()).collect());
    Ok(render_results(w, &list))
}

/// POST /api/v4/teams/{team_id}/posts/search
pub(crate) fn posts_in_team(ctx: &mut Ctx) -> HResult {
    let tid = ctx.require_id("team_id")?;
    if !ctx.w.can_view_team(&ctx.me, &tid) {
        return Err(AppError::permission());
    }
    search_posts(ctx, &tid)
}

/// POST /api/v4/posts/search (all the user's teams)
pub(crate) fn posts_all_teams(ctx: &mut Ctx) -> HResult {
    search_posts(ctx, "")
}

fn search_files(ctx: &mut Ctx, team_id: &str) -> HResult {
    let body = read_body(ctx, "api.post.search_files.invalid_body.app_error")?;
    let reply = |order: Vec<String>, infos: Map<String, Value>| {
        Reply::json(&json!({
            "order": order,
            "file_infos": infos,
            "next_file_info_id": "",
            "prev_file_info_id": "",
            "first_inaccessible_file_time": 0
        }))
        .header("Cache-Control", "no-cache, no-store, must-revalidate")
    };
    if body.page > 0 {
        return Ok(reply(Vec::new(), Map::new()));
    }
    let p = parse_terms(&body.terms, body.tz);
    let w: &World = ctx.w;
    let chans = searchable_channels(w, &ctx.me, team_id, body.include_deleted_channels);
    let terms: Vec<Term> = p.words.iter().chain(p.hashtags.iter()).cloned().collect();
    let mut files: Vec<&FileInfo> = w
        .files
        .iter()
        .filter(|f| f.delete_at == 0 && !f.post_id.is_empty())
        .filter(|f| {
            chans
                .iter()
                .any(|c| c.id == f.channel_id && channel_filter(&p, w, c))
        })
        .filter(|f| user_filter(&p, w, &f.creator_id) && time_filter(&p, f.create_at))
        .filter(|f| {
            (p.exts.is_empty() || p.exts.contains(&f.extension))
                && !p.not_exts.contains(&f.extension)
        })
        .filter(|f| {
            let text = format!("{} {}", f.name, String::from_utf8_lossy(&f.content)).to_lowercase();
            let words = words_of(&text);
            (terms.is_empty() || all_or_any(&terms, body.is_or, |t| term_matches(t, &text, &words)))
                && !p.excluded.iter().any(|t| term_matches(t, &text, &words))
        })
        .collect();
    ctx.rng
        .sort_ties_shuffled(&mut files, |f| Reverse(f.create_at));
    files.truncate(100);
    files.retain(|f| {
        w.channel_by_id(&f.channel_id)
            .is_some_and(|c| w.can_read_channel(&ctx.me, c))
    });
    let order: Vec<String> = files.iter().map(|f| f.id.clone()).collect();
    let mut infos = Map::new();
    for f in &files {
        infos.insert(f.id.clone(), render::file_info(f));
    }
    Ok(reply(order, infos))
}

/// POST /api/v4/teams/{team_id}/files/search
pub(crate) fn files_in_team(ctx: &mut Ctx) -> HResult {
    let tid = ctx.require_id("team_id")?;
    if !ctx.w.can_view_team(&ctx.me, &tid) {
        return Err(AppError::permission());
    }
    search_files(ctx, &tid)
}

/// POST /api/v4/files/search
pub(crate) fn files_all_teams(ctx: &mut Ctx) -> HResult {
    search_files(ctx, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_days() {
        assert_eq!(days_from_civil("1970-01-01"), Some(0));
        assert_eq!(days_from_civil("2000-03-01"), Some(11017));
        assert_eq!(days_from_civil("nope"), None);
    }

    #[test]
    fn parses_modifiers() {
        let p = parse_terms(
            "hello #tag from:alice -in:town-square \"exact phrase\" wor* on:2024-01-02",
            0,
        );
        assert_eq!(p.words.len(), 3);
        assert_eq!(p.hashtags.len(), 1);
        assert_eq!(p.from, vec!["alice"]);
        assert_eq!(p.not_in_channels, vec!["town-square"]);
        assert!(p.before.is_some() && p.after.is_some());
    }
}
