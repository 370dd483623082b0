//! The route table: method + path template → handler, with the path-variable regexes of
//! `api4/api.go` (a segment that fails its regex means no route, so a 404).

use crate::reply::HResult;
use crate::routes::{
    Ctx, channels, files, integrations, misc, oauth, posts, search, teams, threads, users, writes,
};

pub(crate) type Handler = fn(&mut Ctx) -> HResult;

pub(crate) struct Route {
    pub(crate) method: &'static str,
    /// The template as in the OpenAPI spec, e.g. `/api/v4/channels/{channel_id}/posts`.
    pub(crate) template: &'static str,
    pub(crate) handler: Handler,
    /// Served without a session (`APIHandler` rather than `APISessionRequired`).
    pub(crate) public: bool,
}

const fn r(method: &'static str, template: &'static str, handler: Handler) -> Route {
    Route {
        method,
        template,
        handler,
        public: false,
    }
}

const fn public(method: &'static str, template: &'static str, handler: Handler) -> Route {
    Route {
        method,
        template,
        handler,
        public: true,
    }
}

/// Literal routes come before the ones whose variable would also match the literal
/// (gorilla/mux tries routes in registration order).
pub(crate) static ROUTES: &[Route] = &[
    // writes (routes/writes.rs)
    r("POST", "/api/v4/teams", writes::create_team),
    r("DELETE", "/api/v4/teams/{team_id}", writes::archive_team),
    r(
        "DELETE",
        "/api/v4/teams/{team_id}/members/{user_id}",
        writes::remove_team_member,
    ),
    r("POST", "/api/v4/channels", writes::create_channel),
    r("POST", "/api/v4/channels/direct", writes::create_direct),
    r("POST", "/api/v4/channels/group", writes::create_group),
    r(
        "DELETE",
        "/api/v4/channels/{channel_id}",
        writes::archive_channel,
    ),
    r(
        "POST",
        "/api/v4/channels/{channel_id}/members",
        writes::add_channel_member,
    ),
    r(
        "DELETE",
        "/api/v4/channels/{channel_id}/members/{user_id}",
        writes::remove_channel_member,
    ),
    r("POST", "/api/v4/posts", writes::create_post),
    r("PUT", "/api/v4/posts/{post_id}", writes::update_post),
    r("PUT", "/api/v4/posts/{post_id}/patch", writes::patch_post),
    r("DELETE", "/api/v4/posts/{post_id}", writes::delete_post),
    r("POST", "/api/v4/posts/{post_id}/pin", writes::pin_post),
    r("POST", "/api/v4/posts/{post_id}/unpin", writes::unpin_post),
    r("POST", "/api/v4/reactions", writes::save_reaction),
    r(
        "DELETE",
        "/api/v4/users/{user_id}/posts/{post_id}/reactions/{emoji_name}",
        writes::delete_reaction,
    ),
    r(
        "POST",
        "/api/v4/users/{user_id}/posts/{post_id}/reminder",
        writes::set_reminder,
    ),
    r(
        "PUT",
        "/api/v4/users/{user_id}/preferences",
        writes::update_preferences,
    ),
    r(
        "POST",
        "/api/v4/users/{user_id}/preferences/delete",
        writes::delete_preferences,
    ),
    r(
        "PUT",
        "/api/v4/users/{user_id}/teams/{team_id}/threads/{thread_id}/following",
        writes::follow_thread,
    ),
    r(
        "DELETE",
        "/api/v4/users/{user_id}/teams/{team_id}/threads/{thread_id}/following",
        writes::unfollow_thread,
    ),
    r(
        "PUT",
        "/api/v4/users/{user_id}/status",
        writes::update_status,
    ),
    r(
        "PUT",
        "/api/v4/users/{user_id}/status/custom",
        writes::update_custom_status,
    ),
    r(
        "DELETE",
        "/api/v4/users/{user_id}/status/custom",
        writes::remove_custom_status,
    ),
    r("POST", "/api/v4/drafts", writes::upsert_draft),
    r(
        "DELETE",
        "/api/v4/users/{user_id}/channels/{channel_id}/drafts",
        writes::delete_draft,
    ),
    r(
        "DELETE",
        "/api/v4/users/{user_id}/channels/{channel_id}/drafts/{thread_id}",
        writes::delete_draft,
    ),
    r("POST", "/api/v4/files", writes::upload_files),
    public("GET", "/api/v4/system/ping", misc::ping),
    public("GET", "/api/v4/config/client", misc::client_config),
    public(
        "GET",
        "/.well-known/oauth-authorization-server",
        oauth::metadata,
    ),
    // users
    r("POST", "/api/v4/users/ids", users::by_ids),
    r("POST", "/api/v4/users/usernames", users::by_usernames),
    r("POST", "/api/v4/users/search", users::search),
    r("POST", "/api/v4/users/status/ids", users::statuses_by_ids),
    r("GET", "/api/v4/users/autocomplete", users::autocomplete),
    r(
        "GET",
        "/api/v4/users/username/{username}",
        users::by_username,
    ),
    r("GET", "/api/v4/users/email/{email}", users::by_email),
    r("GET", "/api/v4/users", users::list),
    r("GET", "/api/v4/users/{user_id}", users::get),
    r("GET", "/api/v4/users/{user_id}/status", users::status),
    r("GET", "/api/v4/users/{user_id}/teams", teams::for_user),
    r(
        "GET",
        "/api/v4/users/{user_id}/teams/members",
        teams::members_for_user,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/channels",
        channels::for_user,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/channel_members",
        channels::memberships_for_user,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/teams/{team_id}/channels",
        channels::for_team_for_user,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/teams/{team_id}/channels/members",
        channels::members_for_team_for_user,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/teams/{team_id}/threads",
        threads::list,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/teams/{team_id}/threads/{thread_id}",
        threads::get,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/teams/{team_id}/drafts",
        posts::drafts,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/posts/flagged",
        posts::flagged,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/channels/{channel_id}/posts/unread",
        posts::around_unread,
    ),
    // teams
    r("GET", "/api/v4/teams", teams::list),
    r("GET", "/api/v4/teams/name/{team_name}", teams::by_name),
    r(
        "GET",
        "/api/v4/teams/name/{team_name}/channels/name/{channel_name}",
        channels::by_team_name_and_name,
    ),
    r("GET", "/api/v4/teams/{team_id}", teams::get),
    r("GET", "/api/v4/teams/{team_id}/members", teams::members),
    r(
        "GET",
        "/api/v4/teams/{team_id}/channels",
        channels::public_for_team,
    ),
    r(
        "GET",
        "/api/v4/teams/{team_id}/channels/deleted",
        channels::deleted_for_team,
    ),
    r(
        "POST",
        "/api/v4/teams/{team_id}/channels/search",
        channels::search,
    ),
    r(
        "GET",
        "/api/v4/teams/{team_id}/channels/name/{channel_name}",
        channels::by_name,
    ),
    r(
        "POST",
        "/api/v4/teams/{team_id}/posts/search",
        search::posts_in_team,
    ),
    r(
        "POST",
        "/api/v4/teams/{team_id}/files/search",
        search::files_in_team,
    ),
    // channels
    r(
        "POST",
        "/api/v4/channels/members/{user_id}/view",
        channels::view,
    ),
    r("GET", "/api/v4/channels/{channel_id}", channels::get),
    r(
        "GET",
        "/api/v4/channels/{channel_id}/posts",
        posts::for_channel,
    ),
    r(
        "GET",
        "/api/v4/channels/{channel_id}/members",
        channels::members,
    ),
    r(
        "POST",
        "/api/v4/channels/{channel_id}/members/ids",
        channels::members_by_ids,
    ),
    r(
        "GET",
        "/api/v4/channels/{channel_id}/members/{user_id}",
        channels::member,
    ),
    r(
        "GET",
        "/api/v4/channels/{channel_id}/stats",
        channels::stats,
    ),
    r(
        "GET",
        "/api/v4/channels/{channel_id}/pinned",
        channels::pinned,
    ),
    // posts
    r("POST", "/api/v4/posts/ids", posts::by_ids),
    r("POST", "/api/v4/posts/search", search::posts_all_teams),
    r("GET", "/api/v4/posts/{post_id}", posts::get),
    r("GET", "/api/v4/posts/{post_id}/thread", posts::thread),
    r(
        "GET",
        "/api/v4/posts/{post_id}/edit_history",
        posts::edit_history,
    ),
    r("GET", "/api/v4/posts/{post_id}/reactions", posts::reactions),
    r(
        "GET",
        "/api/v4/posts/{post_id}/files/info",
        files::infos_for_post,
    ),
    // files
    r("POST", "/api/v4/files/search", search::files_all_teams),
    r("GET", "/api/v4/files/{file_id}", files::content),
    r("GET", "/api/v4/files/{file_id}/info", files::info),
    // emoji
    r("GET", "/api/v4/emoji", misc::emoji_list),
    r(
        "GET",
        "/api/v4/emoji/name/{emoji_name}",
        misc::emoji_by_name,
    ),
    r("GET", "/api/v4/emoji/{emoji_id}", misc::emoji_get),
    // reached through the operation gateway only (routes/integrations.rs)
    r(
        "GET",
        "/api/v4/hooks/incoming",
        integrations::incoming_hooks,
    ),
    r(
        "POST",
        "/api/v4/hooks/incoming",
        integrations::create_incoming_hook,
    ),
    r(
        "GET",
        "/api/v4/hooks/incoming/{hook_id}",
        integrations::incoming_hook,
    ),
    r(
        "GET",
        "/api/v4/hooks/outgoing",
        integrations::outgoing_hooks,
    ),
    r(
        "GET",
        "/api/v4/hooks/outgoing/{hook_id}",
        integrations::outgoing_hook,
    ),
    r("GET", "/api/v4/bots", integrations::bots),
    r("GET", "/api/v4/bots/{bot_user_id}", integrations::bot),
    r(
        "GET",
        "/api/v4/channels/{channel_id}/bookmarks",
        integrations::bookmarks,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/teams/{team_id}/channels/categories/order",
        integrations::sidebar_category_order,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/teams/{team_id}/channels/categories",
        integrations::sidebar_categories,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/preferences",
        integrations::preferences,
    ),
    r(
        "GET",
        "/api/v4/users/{user_id}/preferences/{category}",
        integrations::preferences_by_category,
    ),
    r("GET", "/api/v4/limits/server", integrations::server_limits),
];

fn alnum(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The regex of a path variable, as `api4/api.go` declares it.
fn var_matches(name: &str, seg: &str) -> bool {
    match name {
        "username" => {
            !seg.is_empty()
                && seg
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
        }
        "email" => !seg.is_empty(),
        "category" | "preference_name" => {
            !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        }
        "team_name" | "channel_name" => {
            !seg.is_empty()
                && seg
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_-".contains(&b))
        }
        "emoji_name" => {
            !seg.is_empty()
                && seg
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_-+".contains(&b))
        }
        _ => alnum(seg),
    }
}

fn segments(path: &str) -> Vec<&str> {
    path.trim_end_matches('/').split('/').skip(1).collect()
}

/// Match a template against a raw path; returns the decoded variables.
fn match_template(template: &'static str, path: &str) -> Option<Vec<(&'static str, String)>> {
    let t = segments(template);
    let p = segments(path);
    if t.len() != p.len() {
        return None;
    }
    let mut vars = Vec::new();
    for (ts, ps) in t.iter().zip(p.iter()) {
        if let Some(name) = ts.strip_prefix('{').and_then(|x| x.strip_suffix('}')) {
            let decoded = crate::params::decode_path_segment(ps);
            if !var_matches(name, &decoded) {
                return None;
            }
            vars.push((name, decoded));
        } else if ts != ps {
            return None;
        }
    }
    Some(vars)
}

/// Every route served: its method and path template, in the order they are tried.
pub fn served() -> Vec<(&'static str, &'static str)> {
    ROUTES.iter().map(|r| (r.method, r.template)).collect()
}

/// The route for a method and path, with its variables.
pub(crate) fn find(
    method: &str,
    path: &str,
) -> Option<(&'static Route, Vec<(&'static str, String)>)> {
    ROUTES
        .iter()
        .filter(|r| r.method == method)
        .find_map(|r| match_template(r.template, path).map(|v| (r, v)))
}

fn normalize(t: &str) -> String {
    segments(t)
        .iter()
        .map(|s| {
            if s.starts_with('{') && s.ends_with('}') {
                "{}"
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Two templates name the same route (variable names may differ).
pub(crate) fn same_template(a: &str, b: &str) -> bool {
    normalize(a) == normalize(b)
}

/// A fault-rule template (any `{var}` matches one non-empty segment) against a raw path.
pub(crate) fn template_matches(template: &str, path: &str) -> bool {
    if !template.contains('{') {
        return false;
    }
    let t = segments(template);
    let p = segments(path);
    t.len() == p.len()
        && t.iter().zip(p.iter()).all(|(ts, ps)| {
            (ts.starts_with('{') && ts.ends_with('}') && !ps.is_empty()) || ts == ps
        })
}
