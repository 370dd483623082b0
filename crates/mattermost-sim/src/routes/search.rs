//! Post and file search, database engine semantics: page 0 only, `per_page` ignored, at most the
//! 100 newest matches per term group (notes §5). Both routes read a JSON `model.SearchParameter`
//! body (`api4/post.go` `searchPosts`, `api4/file.go` `searchFiles`), whatever the spec says.

use std::cmp::Reverse;

use serde_json::{Map, Value, json};

use super::Ctx;
use crate::fulltext::{self, TsQuery};
use crate::render::{self, PostListOut, PostOpts};
use crate::reply::{AppError, HResult, Reply};
use crate::world::{Channel, FileInfo, Post, World};

/// One `model.SearchParams` of the list `model.ParseSearchParams` makes: plain words, hashtags, or
/// (when there are no words at all) the modifiers alone.
#[derive(Clone, Debug, Default)]
struct Params {
    terms: String,
    excluded_terms: String,
    is_hashtag: bool,
    in_channels: Vec<String>,
    excluded_channels: Vec<String>,
    from_users: Vec<String>,
    excluded_users: Vec<String>,
    after_date: String,
    excluded_after_date: String,
    before_date: String,
    excluded_before_date: String,
    on_date: String,
    excluded_date: String,
    extensions: Vec<String>,
    excluded_extensions: Vec<String>,
}

/// `splitWords`: whitespace-separated words, a quoted phrase (with a `-` just before it) kept whole.
fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut in_quote = false;
    let mut location = 0;
    for (i, c) in text.char_indices() {
        if c != '"' {
            continue;
        }
        if in_quote {
            words.push(text[location..i + 1].to_string());
            in_quote = false;
            location = i + 1;
        } else {
            let next_start = if i > 0 && text[..i].ends_with('-') {
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

/// `searchTermPuncStart` (`^[^\pL\d\s#"]+`) and `searchTermPuncEnd` (`[^\pL\p{M}\d\s*"]+$`) removed,
/// `hashtagStart` (`^#{2,}`) made one `#`.
fn strip_punctuation(word: &str) -> String {
    let w = word.trim_start_matches(|c: char| {
        !(c.is_alphabetic() || c.is_numeric() || c.is_whitespace() || c == '#' || c == '"')
    });
    let w = w.trim_end_matches(|c: char| {
        !(c.is_alphabetic() || c.is_numeric() || c.is_whitespace() || c == '*' || c == '"')
    });
    if w.starts_with("##") {
        format!("#{}", w.trim_start_matches('#'))
    } else {
        w.to_string()
    }
}

/// `validHashtag`: `^#\pL[\pL\d\-_.]*[\pL\d]$`.
fn valid_hashtag(w: &str) -> bool {
    let Some(rest) = w.strip_prefix('#') else {
        return false;
    };
    let chars: Vec<char> = rest.chars().collect();
    chars.len() >= 2
        && chars[0].is_alphabetic()
        && chars[chars.len() - 1].is_alphanumeric()
        && chars
            .iter()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

const FLAGS: &[&str] = &["from", "channel", "in", "before", "after", "on", "ext"];

/// `model.ParseSearchParams`.
fn parse_search_params(text: &str) -> Vec<Params> {
    let input = split_words(text);
    let mut words: Vec<(String, bool)> = Vec::new();
    let mut flags: Vec<(&'static str, String, bool)> = Vec::new();
    let mut skip_next = false;
    for (i, word) in input.iter().enumerate() {
        if skip_next {
            skip_next = false;
            continue;
        }
        let mut is_flag = false;
        if let Some(colon) = word.find(':') {
            let (name, exclude) = match word.strip_prefix('-') {
                Some(_) => (&word[1..colon.max(1)], true),
                None => (&word[..colon], false),
            };
            let value = &word[colon + 1..];
            if let Some(flag) = FLAGS.iter().find(|f| f.eq_ignore_ascii_case(name)) {
                if !value.is_empty() {
                    flags.push((flag, value.to_string(), exclude));
                    is_flag = true;
                } else if i + 1 < input.len() {
                    flags.push((flag, input[i + 1].clone(), exclude));
                    skip_next = true;
                    is_flag = true;
                }
            }
        }
        if !is_flag {
            let exclude = word.starts_with('-');
            let w = strip_punctuation(word);
            if !w.is_empty() {
                words.push((w, exclude));
            }
        }
    }
    let pick = |hashtag: bool, exclude: bool| -> String {
        words
            .iter()
            .filter(|(w, e)| valid_hashtag(w) == hashtag && *e == exclude)
            .map(|(w, _)| w.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut base = Params::default();
    for (name, value, exclude) in flags {
        match (name, exclude) {
            ("in" | "channel", false) => base.in_channels.push(value),
            ("in" | "channel", true) => base.excluded_channels.push(value),
            ("from", false) => base.from_users.push(value),
            ("from", true) => base.excluded_users.push(value),
            ("after", false) => base.after_date = value,
            ("after", true) => base.excluded_after_date = value,
            ("before", false) => base.before_date = value,
            ("before", true) => base.excluded_before_date = value,
            ("on", false) => base.on_date = value,
            ("on", true) => base.excluded_date = value,
            ("ext", false) => base.extensions.push(value),
            (_, _) => base.excluded_extensions.push(value),
        }
    }
    let (plain, excluded_plain) = (pick(false, false), pick(false, true));
    let (tags, excluded_tags) = (pick(true, false), pick(true, true));
    let mut list = Vec::new();
    if !plain.is_empty() || !excluded_plain.is_empty() {
        list.push(Params {
            terms: plain.clone(),
            excluded_terms: excluded_plain.clone(),
            ..base.clone()
        });
    }
    if !tags.is_empty() || !excluded_tags.is_empty() {
        list.push(Params {
            terms: tags.clone(),
            excluded_terms: excluded_tags.clone(),
            is_hashtag: true,
            ..base.clone()
        });
    }
    let any_modifier = !base.in_channels.is_empty()
        || !base.from_users.is_empty()
        || !base.excluded_channels.is_empty()
        || !base.excluded_users.is_empty()
        || !base.extensions.is_empty()
        || !base.excluded_extensions.is_empty()
        || !base.after_date.is_empty()
        || !base.excluded_after_date.is_empty()
        || !base.before_date.is_empty()
        || !base.excluded_before_date.is_empty()
        || !base.on_date.is_empty()
        || !base.excluded_date.is_empty();
    if plain.is_empty()
        && tags.is_empty()
        && excluded_plain.is_empty()
        && excluded_tags.is_empty()
        && any_modifier
    {
        list.push(base);
    }
    list
}

/// Days since 1970-01-01 of a date term as `model.SearchParams` reads it: `PadDateStringZeros`
/// (a one-digit part gets a zero), then Go's `time.Parse("2006-01-02", ..)`, which wants a
/// four-digit year, a two-digit month and day, a day within its month and nothing more (any other
/// text is an error, which each `Get*DateMillis` answers in its own way).
fn days_from_civil(s: &str) -> Option<i64> {
    let parts: Vec<String> = s
        .split('-')
        .map(|p| {
            if p.len() == 1 {
                format!("0{p}")
            } else {
                p.to_string()
            }
        })
        .collect();
    let [y, m, d] = parts.as_slice() else {
        return None;
    };
    let digits = |t: &str, n: usize| t.len() == n && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(y, 4) || !digits(m, 2) || !digits(d, 2) {
        return None;
    }
    let (y, m, d): (i64, i64, i64) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days_in = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if !(1..=days_in).contains(&d) {
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

/// The CreateAt conditions of `buildCreateDateFilterClause` (and the file store's): `on` alone
/// when given; otherwise the exclusions and bounds together. The day bounds use
/// `GetStartOfDayMillis`/`GetEndOfDayMillis` in the client's offset (`time.FixedZone` of
/// `time_zone_offset` seconds, whatever its size); a date that does not parse becomes today (after:
/// `time.Now()`, whose calendar day is the server's, UTC in Mattermost's images) or 0 (before, on),
/// as the `Get*Millis` helpers do.
struct DateFilter {
    tz_secs: i64,
    now: i64,
}

impl DateFilter {
    fn start_of_day(&self, days: i64) -> i64 {
        days.saturating_mul(DAY_MS)
            .saturating_sub(self.tz_secs.saturating_mul(1000))
    }

    fn end_of_day(&self, days: i64) -> i64 {
        self.start_of_day(days).saturating_add(DAY_MS - 1)
    }

    /// The calendar day of `time.Now()` on the server (UTC).
    fn today(&self) -> i64 {
        self.now.div_euclid(DAY_MS)
    }

    fn allows(&self, p: &Params, t: i64) -> bool {
        if !p.on_date.is_empty() {
            return match days_from_civil(&p.on_date) {
                Some(d) => t >= self.start_of_day(d) && t <= self.end_of_day(d),
                None => t == 0,
            };
        }
        if !p.excluded_date.is_empty() {
            let (a, b) = match days_from_civil(&p.excluded_date) {
                Some(d) => (self.start_of_day(d), self.end_of_day(d)),
                None => (0, 0),
            };
            if t >= a && t <= b {
                return false;
            }
        }
        if !p.after_date.is_empty() {
            let d = days_from_civil(&p.after_date).unwrap_or_else(|| self.today());
            if t < self.start_of_day(d + 1) {
                return false;
            }
        }
        if !p.before_date.is_empty() {
            let bound = days_from_civil(&p.before_date).map_or(0, |d| self.end_of_day(d - 1));
            if t > bound {
                return false;
            }
        }
        if !p.excluded_after_date.is_empty() {
            let d = days_from_civil(&p.excluded_after_date).unwrap_or_else(|| self.today());
            if t >= self.start_of_day(d + 1) {
                return false;
            }
        }
        if !p.excluded_before_date.is_empty() {
            let bound =
                days_from_civil(&p.excluded_before_date).map_or(0, |d| self.end_of_day(d - 1));
            if t <= bound {
                return false;
            }
        }
        true
    }
}

/// `removeNonAlphaNumericUnquotedTerms(terms, " ")`.
fn remove_non_alphanumeric_unquoted(terms: &str) -> String {
    terms
        .split(' ')
        .filter(|w| {
            (w.len() >= 2 && w.starts_with('"') && w.ends_with('"'))
                || w.chars().any(|c| c.is_alphanumeric())
        })
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `specialSearchChars`: `< > + - ( ) ~ :` become spaces.
fn replace_special(s: &str) -> String {
    s.chars()
        .map(|c| if "<>+-()~:".contains(c) { ' ' } else { c })
        .collect()
}

/// `wildCardRegex` (`\*($| )`) → `:* `.
fn wildcards(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '*' && (i + 1 == chars.len() || chars[i + 1] == ' ') {
            out.push_str(":* ");
            i += if i + 1 < chars.len() { 2 } else { 1 };
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The post store's `replaceSpaces`: fields joined, spaces inside quotes → `<->`, the rest → `&`
/// (`|` for excluded terms or an OR search).
fn replace_spaces(input: &str, or: bool) -> String {
    if input.is_empty() {
        return String::new();
    }
    let joined = input.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    let mut in_quote = false;
    for c in joined.chars() {
        match c {
            '"' => {
                in_quote = !in_quote;
                out.push(c);
            }
            ' ' if in_quote => out.push_str("<->"),
            ' ' => out.push(if or { '|' } else { '&' }),
            c => out.push(c),
        }
    }
    out
}

/// The text condition of one params of the post store's `search`: Ok(None) for no condition,
/// Err(()) when the tsquery does not parse (the store logs it and finds nothing).
fn post_text_query(p: &Params, or: bool) -> Result<Option<Option<TsQuery>>, ()> {
    let mut terms = p.terms.clone();
    let mut excluded = p.excluded_terms.clone();
    if !p.is_hashtag {
        terms = replace_special(&terms);
    }
    excluded = replace_special(&excluded);
    if terms.is_empty() && excluded.is_empty() {
        return Ok(None);
    }
    let terms = wildcards(&terms);
    let excluded = wildcards(&excluded);
    let mut clause = replace_spaces(&terms, or);
    let excluded_clause = replace_spaces(&excluded, true);
    if !excluded_clause.is_empty() {
        clause.push_str(&format!(" &!({excluded_clause})"));
    }
    fulltext::to_tsquery(&clause).map(Some)
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

/// `convertChannelNamesToChannelIds` → `parseAndFetchChannelIdByNameFromInFilter`: `~` trimmed;
/// `@a,b` is the group message of those users, `@a` the DM with that user, anything else
/// `GetChannelByName(name, teamID)` (that team's channel or a team-less DM/GM name, archived ones
/// only with `include_deleted_channels`). A name that does not resolve stays as it is, so it
/// matches no channel id.
fn resolve_channels(
    w: &World,
    me: &str,
    team_id: &str,
    include_deleted: bool,
    names: &[String],
) -> Vec<String> {
    names
        .iter()
        .map(|raw| {
            let name = raw.trim_start_matches('~');
            let found = if let Some(users) = name.strip_prefix('@') {
                let mut ids: Vec<String> = users.split(',').filter_map(|u| w.user_id(u)).collect();
                if name.contains(',') {
                    ids.sort();
                    w.channels
                        .iter()
                        .find(|c| {
                            if c.kind != "G" {
                                return false;
                            }
                            let mut members: Vec<String> = w
                                .channel_members
                                .iter()
                                .filter(|m| m.channel_id == c.id)
                                .map(|m| m.user_id.clone())
                                .collect();
                            members.sort();
                            let mut with_me = ids.clone();
                            if !with_me.iter().any(|i| i == me) {
                                with_me.push(me.to_string());
                                with_me.sort();
                            }
                            members == ids || members == with_me
                        })
                        .map(|c| c.id.clone())
                } else {
                    ids.first().and_then(|other| {
                        let (x, y) = if me <= other.as_str() {
                            (me, other.as_str())
                        } else {
                            (other.as_str(), me)
                        };
                        let dm = format!("{x}__{y}");
                        w.channels
                            .iter()
                            .find(|c| c.name == dm)
                            .map(|c| c.id.clone())
                    })
                }
            } else {
                w.channels
                    .iter()
                    .find(|c| {
                        c.name == name
                            && (c.team_id == team_id || c.team_id.is_empty())
                            && (include_deleted || c.delete_at == 0)
                    })
                    .map(|c| c.id.clone())
            };
            found.unwrap_or_else(|| raw.clone())
        })
        .collect()
}

/// `convertUserNameToUserIds`: a username (`@` trimmed) becomes its id; an unknown one stays.
fn resolve_users(w: &World, names: &[String]) -> Vec<String> {
    names
        .iter()
        .map(|n| {
            w.user_id(n.trim_start_matches('@'))
                .unwrap_or_else(|| n.clone())
        })
        .collect()
}

/// The app layer's conversions of one params' names to ids.
fn resolve(w: &World, me: &str, team_id: &str, include_deleted: bool, p: &mut Params) {
    p.in_channels = resolve_channels(w, me, team_id, include_deleted, &p.in_channels);
    p.excluded_channels = resolve_channels(w, me, team_id, include_deleted, &p.excluded_channels);
    p.from_users = resolve_users(w, &p.from_users);
    p.excluded_users = resolve_users(w, &p.excluded_users);
}

/// The channel sub-query of the stores: the user's memberships (not archived unless asked), in the
/// team or team-less when a team is searched, `in:` and `-in:` by id.
fn channel_ok(
    w: &World,
    me: &str,
    team_id: &str,
    include_deleted: bool,
    p: &Params,
    c: &Channel,
) -> bool {
    w.member(&c.id, me).is_some()
        && (include_deleted || c.delete_at == 0)
        && (team_id.is_empty() || c.team_id == team_id || c.team_id.is_empty())
        && (p.in_channels.is_empty() || p.in_channels.contains(&c.id))
        && !p.excluded_channels.contains(&c.id)
}

/// `buildSearchPostFilterClause`: the author must be a user (with a membership row in the searched
/// team, when a team is searched) among `from:` and not among `-from:`.
fn author_ok(w: &World, team_id: &str, p: &Params, user_id: &str) -> bool {
    if p.from_users.is_empty() && p.excluded_users.is_empty() {
        return true;
    }
    (team_id.is_empty()
        || w.team_members
            .iter()
            .any(|m| m.team_id == team_id && m.user_id == user_id))
        && (p.from_users.is_empty() || p.from_users.iter().any(|u| u == user_id))
        && !p.excluded_users.iter().any(|u| u == user_id)
}

fn search_posts(ctx: &mut Ctx, team_id: &str) -> HResult {
    let body = read_body(ctx, "api.post.search_posts.invalid_body.app_error")?;
    let render_results = |w: &World, list: &PostListOut| {
        let mut v = list.render(w, PostOpts::default());
        if let Some(o) = v.as_object_mut() {
            o.insert("matches".into(), Value::Null);
        }
        Reply::json(&v).header("Cache-Control", "no-cache, no-store, must-revalidate")
    };
    let w: &World = ctx.w;
    let me = ctx.me.clone();
    let dates = DateFilter {
        tz_secs: body.tz,
        now: crate::clock::now_ms(),
    };
    let mut merged: Vec<&Post> = Vec::new();
    // SearchPostsForUser: ParseSearchParams of the trimmed terms; "*" is never searched
    let params_list: Vec<Params> = parse_search_params(body.terms.trim())
        .into_iter()
        .filter(|p| p.terms != "*")
        .collect();
    if body.page > 0 {
        return Ok(render_results(w, &PostListOut::new(Vec::new())));
    }
    for mut p in params_list {
        resolve(w, &me, team_id, body.include_deleted_channels, &mut p);
        p.terms = remove_non_alphanumeric_unquoted(&p.terms);
        // SqlPostStore.search: nothing to search for gives nothing
        if p.terms.is_empty()
            && p.excluded_terms.is_empty()
            && p.in_channels.is_empty()
            && p.excluded_channels.is_empty()
            && p.from_users.is_empty()
            && p.excluded_users.is_empty()
            && p.on_date.is_empty()
            && p.after_date.is_empty()
            && p.before_date.is_empty()
        {
            continue;
        }
        let Ok(query) = post_text_query(&p, body.is_or) else {
            continue; // "Query error searching posts." is logged; the group adds nothing
        };
        let wanted_tags: Vec<String> = p.terms.split(' ').map(|t| t.to_uppercase()).collect();
        let mut found: Vec<&Post> = w
            .posts
            .iter()
            .filter(|post| post.delete_at == 0 && !post.kind.starts_with("system_"))
            .filter(|post| {
                w.channel_by_id(&post.channel_id).is_some_and(|c| {
                    channel_ok(w, &me, team_id, body.include_deleted_channels, &p, c)
                })
            })
            .filter(|post| author_ok(w, team_id, &p, &post.user_id))
            .filter(|post| dates.allows(&p, post.create_at))
            .filter(|post| match &query {
                None => true,
                Some(None) => false,
                Some(Some(q)) => {
                    let text = if p.is_hashtag {
                        &post.hashtags
                    } else {
                        &post.message
                    };
                    fulltext::matches(&fulltext::to_tsvector(text), q)
                }
            })
            .collect();
        ctx.rng
            .sort_ties_shuffled(&mut found, |post| Reverse(post.create_at));
        found.truncate(100);
        if p.is_hashtag {
            // the exact-match pass over the rows the full-text query found
            found.retain(|post| {
                post.hashtags
                    .split(' ')
                    .any(|tag| wanted_tags.contains(&tag.to_uppercase()))
            });
        }
        for post in found {
            if !merged.iter().any(|m| m.id == post.id) {
                merged.push(post);
            }
        }
    }
    // SortByCreateAt, then FilterPostsByChannelPermissions
    ctx.rng
        .sort_ties_shuffled(&mut merged, |post| Reverse(post.create_at));
    merged.retain(|post| {
        w.channel_by_id(&post.channel_id)
            .is_some_and(|c| w.can_read_channel(&me, c))
    });
    let list = PostListOut::new(merged.iter().map(|post| post.id.clone()).collect());
    Ok(render_results(w, &list))
}

/// POST /api/v4/teams/{team_id}/posts/search
// Mirrors server/channels/api4/post.go searchPostsInTeam (view_team) → searchPosts →
// app/post.go SearchPostsForUser → store/sqlstore/post_store.go SearchPostsForUser and search.
pub(crate) fn posts_in_team(ctx: &mut Ctx) -> HResult {
    let tid = ctx.require_id("team_id")?;
    if !ctx.w.can_view_team(&ctx.me, &tid) {
        return Err(AppError::permission());
    }
    search_posts(ctx, &tid)
}

/// POST /api/v4/posts/search (all the user's teams)
// Mirrors server/channels/api4/post.go searchPostsInAllTeams → searchPosts (team "") →
// app/post.go SearchPostsForUser → store/sqlstore/post_store.go SearchPostsForUser and search.
pub(crate) fn posts_all_teams(ctx: &mut Ctx) -> HResult {
    search_posts(ctx, "")
}

/// The text a file is searched by: `FileInfo.Content` holds the extracted text; the simulator
/// extracts only text formats (the real server also extracts PDF, Office and archive contents).
fn file_content_text(f: &FileInfo) -> String {
    let textual = f.mime_type.starts_with("text/")
        || matches!(
            f.mime_type.as_str(),
            "application/json" | "application/x-yaml"
        );
    if textual {
        String::from_utf8_lossy(&f.content).to_string()
    } else {
        String::new()
    }
}

/// The file store's text condition for one params: `(terms joined by & or |) & !(excluded | ...)`,
/// matched against the name, the name with `.,-` as spaces, or the content.
fn file_text_query(p: &Params, or: bool) -> Result<Option<Option<TsQuery>>, ()> {
    let terms = replace_special(&p.terms);
    let excluded = replace_special(&p.excluded_terms);
    if terms.is_empty() && excluded.is_empty() {
        return Ok(None);
    }
    let terms = wildcards(&terms);
    let excluded = wildcards(&excluded);
    let fields: Vec<&str> = terms.split_whitespace().collect();
    let mut clause = format!("({})", fields.join(if or { " | " } else { " & " }));
    if !excluded.trim().is_empty() {
        let ex: Vec<&str> = excluded.split_whitespace().collect();
        clause.push_str(&format!(" & !({})", ex.join(" | ")));
    }
    fulltext::to_tsquery(&clause).map(Some)
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
    let w: &World = ctx.w;
    let me = ctx.me.clone();
    let params_list: Vec<Params> = parse_search_params(body.terms.trim())
        .into_iter()
        .filter(|p| p.terms != "*")
        .map(|mut p| {
            resolve(w, &me, team_id, body.include_deleted_channels, &mut p);
            p.terms = remove_non_alphanumeric_unquoted(&p.terms);
            p
        })
        .collect();
    if body.page > 0 || params_list.is_empty() {
        return Ok(reply(Vec::new(), Map::new()));
    }
    let dates = DateFilter {
        tz_secs: body.tz,
        now: crate::clock::now_ms(),
    };
    // SqlFileInfoStore.Search puts every params' conditions into one query
    let mut queries = Vec::new();
    for p in &params_list {
        match file_text_query(p, body.is_or) {
            Ok(q) => queries.push(q),
            Err(()) => return Ok(reply(Vec::new(), Map::new())),
        }
    }
    let mut files: Vec<&FileInfo> = w
        .files
        .iter()
        .filter(|f| f.delete_at == 0 && !f.post_id.is_empty())
        .filter(|f| {
            let Some(c) = w.channel_by_id(&f.channel_id) else {
                return false;
            };
            params_list.iter().zip(queries.iter()).all(|(p, q)| {
                w.member(&c.id, &me).is_some()
                    && (body.include_deleted_channels || c.delete_at == 0)
                    && (team_id.is_empty() || c.team_id == team_id || c.team_id.is_empty())
                    && (p.in_channels.is_empty() || p.in_channels.contains(&c.id))
                    && !p.excluded_channels.contains(&c.id)
                    && (p.extensions.is_empty() || p.extensions.contains(&f.extension))
                    && !p.excluded_extensions.contains(&f.extension)
                    && (p.from_users.is_empty() || p.from_users.contains(&f.creator_id))
                    && !p.excluded_users.contains(&f.creator_id)
                    && dates.allows(p, f.create_at)
                    && match q {
                        None => true,
                        Some(None) => false,
                        Some(Some(q)) => {
                            let translated: String = f
                                .name
                                .chars()
                                .map(|c| if ".,-".contains(c) { ' ' } else { c })
                                .collect();
                            [f.name.clone(), translated, file_content_text(f)]
                                .iter()
                                .any(|t| fulltext::matches(&fulltext::to_tsvector(t), q))
                        }
                    }
            })
        })
        .collect();
    ctx.rng
        .sort_ties_shuffled(&mut files, |f| Reverse(f.create_at));
    files.truncate(100);
    files.retain(|f| {
        w.channel_by_id(&f.channel_id)
            .is_some_and(|c| w.can_read_channel(&me, c))
    });
    let order: Vec<String> = files.iter().map(|f| f.id.clone()).collect();
    let mut infos = Map::new();
    for f in &files {
        infos.insert(f.id.clone(), render::file_info(f));
    }
    Ok(reply(order, infos))
}

/// POST /api/v4/teams/{team_id}/files/search
// Mirrors server/channels/api4/file.go searchFilesInTeam (view_team) → searchFiles →
// app/file.go SearchFilesInTeamForUser → store/sqlstore/file_info_store.go Search.
pub(crate) fn files_in_team(ctx: &mut Ctx) -> HResult {
    let tid = ctx.require_id("team_id")?;
    if !ctx.w.can_view_team(&ctx.me, &tid) {
        return Err(AppError::permission());
    }
    search_files(ctx, &tid)
}

/// POST /api/v4/files/search
// Mirrors server/channels/api4/file.go searchFilesInAllTeams → searchFiles (team "") →
// app/file.go SearchFilesInTeamForUser → store/sqlstore/file_info_store.go Search.
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
        assert_eq!(
            days_from_civil("2000-3-1"),
            Some(11017),
            "PadDateStringZeros"
        );
        assert_eq!(days_from_civil("2000-02-29"), Some(11016));
        for bad in [
            "nope",
            "2001-02-29",
            "2000-13-01",
            "2000-001-01",
            "00-01-01",
            "2000-01-01x",
            "2000-01",
        ] {
            assert_eq!(days_from_civil(bad), None, "{bad}");
        }
    }

    #[test]
    fn date_terms_are_days_of_the_clients_offset() {
        let day = days_from_civil("2026-03-10").unwrap_or_default();
        let tz = DateFilter {
            tz_secs: 3600,
            now: 0,
        };
        let on = Params {
            on_date: "2026-03-10".into(),
            ..Params::default()
        };
        // 23:30 UTC on the 9th is the 10th an hour east of UTC; 23:30 UTC on the 10th is the 11th there.
        assert!(tz.allows(&on, day * DAY_MS - 1_800_000));
        assert!(!tz.allows(&on, day * DAY_MS + DAY_MS - 1_800_000));
        let before = Params {
            before_date: "2026-03-10".into(),
            ..Params::default()
        };
        assert!(tz.allows(&before, day * DAY_MS - 3_600_001));
        assert!(!tz.allows(&before, day * DAY_MS - 3_600_000));
        // A before: that does not parse keeps nothing (0); an after: that does not parse is after today.
        let bad = Params {
            before_date: "2026-02-30".into(),
            ..Params::default()
        };
        assert!(!tz.allows(&bad, day * DAY_MS));
    }

    #[test]
    fn parses_words_hashtags_and_modifiers_into_groups() {
        let list = parse_search_params(
            "hello #tag from:alice -in:town-square \"exact phrase\" wor* on:2024-01-02 -#old @bob",
        );
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].terms, "hello \"exact phrase\" wor* bob");
        assert!(!list[0].is_hashtag);
        assert_eq!(list[1].terms, "#tag");
        assert_eq!(list[1].excluded_terms, "#old");
        assert_eq!(list[0].from_users, vec!["alice"]);
        assert_eq!(list[0].excluded_channels, vec!["town-square"]);
        assert_eq!(list[0].on_date, "2024-01-02");
        let only = parse_search_params("from: carol in:dev");
        assert_eq!(only.len(), 1);
        assert_eq!(only[0].from_users, vec!["carol"]);
        assert!(only[0].terms.is_empty());
        assert_eq!(parse_search_params("#rel*")[0].terms, "#rel*");
        assert!(!parse_search_params("#rel*")[0].is_hashtag);
    }

    #[test]
    fn builds_the_tsquery_text_of_the_post_store() {
        assert_eq!(wildcards("meet* now*"), "meet:* now:* ");
        assert_eq!(replace_spaces("a \"b c\" d", false), "a&\"b<->c\"&d");
        assert_eq!(replace_spaces("a b", true), "a|b");
        let p = Params {
            excluded_terms: "x".into(),
            ..Params::default()
        };
        assert!(post_text_query(&p, false).is_err(), "excluded words alone");
    }
}
