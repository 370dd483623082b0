//! Post writes: create (with the pending-post-id de-duplication of `App.deduplicateCreatePost`),
//! full update, patch, pin and unpin (both `App.PatchPost` → `App.UpdatePost`), delete, and post
//! reminders (`api4/post.go`, `app/post.go`).

use serde_json::{Map, Value};

use super::decode::{Fields, WrongType, runes, struct_body};
use super::replies::{app_error, created, invalid, invalid_app_param, status_ok};
use crate::clock::now_ms;
use crate::params::parse_bool;
use crate::render::{self, PostOpts};
use crate::reply::{AppError, HResult, Reply};
use crate::routes::Ctx;
use crate::world::perms::Perm;
use crate::world::posting::{NewPost, parse_hashtags};
use crate::world::{Channel, MAX_POST_SIZE, Post, World};

/// `model.PostHashtagsMaxRunes`.
const HASHTAGS_MAX_RUNES: usize = 1000;
/// `model.PostFileidsMaxRunes` (the JSON of the ids: 10 ids fit, 11 do not).
const FILE_IDS_MAX_RUNES: usize = 300;
/// `model.PostPropsMaxRunes`.
const PROPS_MAX_RUNES: usize = 800_000;

/// The fields of a `model.Post` request body the handlers read.
struct PostIn {
    id: String,
    create_at: i64,
    edit_at: i64,
    is_pinned: bool,
    channel_id: String,
    root_id: String,
    message: String,
    kind: String,
    props: Option<Map<String, Value>>,
    file_ids: Option<Vec<String>>,
    pending_post_id: String,
    has_reactions: bool,
}

/// `json.NewDecoder(r.Body).Decode(&post)`: 400 `invalid_body_param` "post" on any error.
fn parse_post(body: &[u8]) -> Result<PostIn, AppError> {
    let m = struct_body(body).ok_or_else(|| invalid("post"))?;
    let f = Fields(&m);
    let read = || -> Result<PostIn, WrongType> {
        for k in ["update_at", "delete_at", "reply_count", "last_reply_at"] {
            f.int(k)?;
        }
        for k in ["user_id", "original_id", "hashtags", "message_source"] {
            f.string(k)?;
        }
        f.opt_string("remote_id")?;
        f.opt_bool("is_following")?;
        Ok(PostIn {
            id: f.string("id")?,
            create_at: f.int("create_at")?,
            edit_at: f.int("edit_at")?,
            is_pinned: f.boolean("is_pinned")?,
            channel_id: f.string("channel_id")?,
            root_id: f.string("root_id")?,
            message: f.string("message")?,
            kind: f.string("type")?,
            props: f.opt_object("props")?,
            file_ids: f.opt_strings("file_ids")?,
            pending_post_id: f.string("pending_post_id")?,
            has_reactions: f.boolean("has_reactions")?,
        })
    };
    read().map_err(|_| invalid("post"))
}

fn permission() -> AppError {
    AppError::permission()
}

/// `model.RemoveDuplicateStrings`: first occurrences, in order.
fn dedup_ids(ids: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in ids {
        if !out.contains(id) {
            out.push(id.clone());
        }
    }
    out
}

/// A post as the create and edit handlers answer it (`PreparePostForClient`: with `metadata`).
fn post_json(w: &World, post_id: &str) -> Value {
    w.post_by_id(post_id)
        .map(|p| render::post(w, p, PostOpts::default()))
        .unwrap_or(Value::Null)
}

// ----- FillInPostProps ----------------------------------------------------------------------------

/// `model.ChannelMentions`: the names of `\B~[a-zA-Z0-9\-_]+` matches, first occurrences.
fn channel_mention_names(message: &str) -> Vec<String> {
    let chars: Vec<char> = message.chars().collect();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let name_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let mut names: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let boundary = i > 0 && word(chars[i - 1]);
        if chars[i] == '~' && !boundary {
            let start = i + 1;
            let mut end = start;
            while end < chars.len() && name_char(chars[end]) {
                end += 1;
            }
            if end > start {
                let name: String = chars[start..end].iter().collect();
                if !names.contains(&name) {
                    names.push(name);
                }
                i = end;
                continue;
            }
        }
        i += 1;
    }
    names
}

/// `App.FillInPostProps`: `channel_mentions` for the mentioned channels the author can read; the
/// AI-generated marking (`ai_generated_by` must be the author or a bot; the server then writes
/// `ai_generated_by_username`; an unknown user id is dropped); burn-on-read needs a license.
fn fill_in_post_props(
    w: &World,
    author: &str,
    channel: &Channel,
    message: &str,
    kind: &str,
    props: &mut Map<String, Value>,
) -> Result<(), AppError> {
    let names = channel_mention_names(message);
    let mut mentions = Map::new();
    if !names.is_empty() {
        let mut team = channel.team_id.clone();
        if team.is_empty()
            && let Some(Value::String(t)) = props.get("current_team_id")
        {
            team = t.clone();
        }
        props.remove("current_team_id");
        for c in w.channels.iter().filter(|c| {
            names.contains(&c.name) && c.delete_at == 0 && (team.is_empty() || c.team_id == team)
        }) {
            if !w.may_read_channel(author, c).0 {
                continue;
            }
            let Some(t) = w.teams.iter().find(|t| t.id == c.team_id) else {
                continue;
            };
            mentions.insert(
                c.name.clone(),
                serde_json::json!({"display_name": c.display_name, "team_name": t.name, "id": c.id}),
            );
        }
    }
    if mentions.is_empty() {
        props.remove("channel_mentions");
    } else {
        props.insert("channel_mentions".into(), Value::Object(mentions));
    }
    if let Some(Value::String(ai)) = props.get("ai_generated_by").cloned()
        && !ai.is_empty()
    {
        match w.user_by_id(&ai) {
            None => {
                props.remove("ai_generated_by");
            }
            Some(u) if u.id == author || u.is_bot => {
                props.insert(
                    "ai_generated_by_username".into(),
                    Value::String(u.username.clone()),
                );
            }
            Some(_) => {
                return Err(app_error(
                    400,
                    "api.post.fill_in_post_props.invalid_ai_generated_user.app_error",
                    "The AI-generated user must be either the post creator or a bot.",
                ));
            }
        }
    }
    if kind == "burn_on_read" {
        return Err(app_error(
            501,
            "api.post.fill_in_post_props.burn_on_read.license.app_error",
            "Burn-on-read posts require an Enterprise Advanced license.",
        ));
    }
    Ok(())
}

/// `model.Post.IsValid` for the fields a client controls: message length against the maximum
/// post size, hashtags, type, file ids and props.
fn is_valid(
    message: &str,
    kind: &str,
    file_ids: &[String],
    props: &Map<String, Value>,
) -> Result<(), AppError> {
    if runes(message) > MAX_POST_SIZE {
        return Err(app_error(
            400,
            "model.post.is_valid.message_length.app_error",
            "Post Message property is longer than the maximum permitted length.",
        ));
    }
    if runes(&parse_hashtags(message)) > HASHTAGS_MAX_RUNES {
        return Err(app_error(
            400,
            "model.post.is_valid.hashtags.app_error",
            "Invalid hashtags.",
        ));
    }
    let known = [
        "",
        "slack_attachment",
        "add_bot_teams_channels",
        "reminder",
        "me",
        "burn_on_read",
    ];
    if !known.contains(&kind) && !kind.starts_with("system_") && !kind.starts_with("custom_") {
        return Err(app_error(
            400,
            "model.post.is_valid.type.app_error",
            "Invalid type.",
        ));
    }
    let ids_json = serde_json::to_string(file_ids).unwrap_or_default();
    if runes(&ids_json) > FILE_IDS_MAX_RUNES {
        return Err(app_error(
            400,
            "model.post.is_valid.file_ids.app_error",
            "Invalid file ids. Note that uploads are limited to 10 files maximum. Please use additional posts for more files.",
        ));
    }
    let props_json = serde_json::to_string(props).unwrap_or_default();
    if runes(&props_json) > PROPS_MAX_RUNES {
        return Err(app_error(
            400,
            "model.post.is_valid.props.app_error",
            "Invalid props.",
        ));
    }
    Ok(())
}

// ----- create -------------------------------------------------------------------------------------

/// `App.deduplicateCreatePost`. The cache is keyed by the pending post id alone (any user):
/// unknown → remember it as in flight ("") and go on; in flight → 500
/// `api.post.deduplicate_create_post.pending`; a post id → that post if the session may read it
/// (`GetPostIfAuthorized`: 201 with the stored post, no `metadata`, an empty `pending_post_id`),
/// go on creating if it may not (the entry is left as it is), 500
/// `api.post.deduplicate_create_post.failed_to_get` if it is gone (deleted).
fn deduplicate(ctx: &mut Ctx, pending: &str, now: i64) -> Result<Option<Reply>, AppError> {
    match ctx.w.pending_get(pending, now) {
        None => {
            ctx.w.pending_set(pending, "", now);
            Ok(None)
        }
        Some(id) if id.is_empty() => Err(app_error(
            500,
            "api.post.deduplicate_create_post.pending",
            "Rejected post since another client is making the same request.",
        )),
        Some(id) => {
            let failed = || {
                app_error(
                    500,
                    "api.post.deduplicate_create_post.failed_to_get",
                    "Failed to fetch original post after deduplicating a client repeating the same request.",
                )
            };
            let post = ctx
                .w
                .post_by_id(&id)
                .filter(|p| p.delete_at == 0)
                .cloned()
                .ok_or_else(failed)?;
            let channel = ctx
                .w
                .channel_by_id(&post.channel_id)
                .cloned()
                .ok_or_else(failed)?;
            if !ctx.w.may_read_channel(&ctx.me, &channel).0 {
                return Ok(None);
            }
            let mut v = render::post(ctx.w, &post, PostOpts::default());
            if let Some(m) = v.as_object_mut() {
                m.remove("metadata");
            }
            Ok(Some(created(&v)))
        }
    }
}

/// `App.CreatePost` from after the de-duplication to just before `SqlPostStore.Save`.
fn prepare(
    ctx: &Ctx,
    req: &PostIn,
    channel: &Channel,
    create_at: i64,
    now: i64,
) -> Result<NewPost, AppError> {
    let mut props = req.props.clone().unwrap_or_default();
    // model.Post.SanitizeProps: what no client may set.
    props.remove("add_channel_member");
    props.remove("force_notification");
    if ctx.w.release_major() >= 12 {
        // From 12.0 a post made with a personal access token or a user's session cannot carry the
        // identity props of integrations: SanitizeProps strips them silently (the 12.0 strip list of
        // model/post.go; 11.x keeps them). The simulated sessions are all such.
        for prop in [
            "from_webhook",
            "from_bot",
            "from_oauth_app",
            "from_plugin",
            "override_username",
            "override_icon_url",
        ] {
            props.remove(prop);
        }
    }
    if !req.root_id.is_empty() {
        let root_error = || {
            app_error(
                400,
                "api.post.create_post.root_id.app_error",
                "Invalid RootId parameter.",
            )
        };
        let root = ctx
            .w
            .post_by_id(&req.root_id)
            .filter(|p| p.delete_at == 0)
            .cloned()
            .ok_or_else(root_error)?;
        if root.channel_id != req.channel_id {
            return Err(app_error(
                400,
                "api.post.create_post.channel_root_id.app_error",
                "Invalid ChannelId for RootId parameter.",
            ));
        }
        if !root.root_id.is_empty() {
            return Err(root_error());
        }
        if root.kind == "burn_on_read" {
            return Err(app_error(
                400,
                "api.post.create_post.burn_on_read.app_error",
                "An error occurred while creating a burn-on-read post.",
            ));
        }
    }
    if ctx.w.user_by_id(&ctx.me).is_some_and(|u| u.is_bot) {
        props.insert("from_bot".into(), Value::String("true".into()));
    }
    fill_in_post_props(ctx.w, &ctx.me, channel, &req.message, &req.kind, &mut props)?;
    let create_at = if create_at == 0 { now } else { create_at };
    if !req.id.is_empty() {
        return Err(app_error(
            400,
            "app.post.save.existing.app_error",
            "You cannot update an existing Post.",
        ));
    }
    let file_ids = dedup_ids(req.file_ids.as_deref().unwrap_or_default());
    is_valid(&req.message, &req.kind, &file_ids, &props)?;
    Ok(NewPost {
        channel_id: req.channel_id.clone(),
        user_id: ctx.me.clone(),
        root_id: req.root_id.clone(),
        create_at,
        message: req.message.clone(),
        kind: req.kind.clone(),
        props,
        file_ids,
        is_pinned: req.is_pinned,
        edit_at: req.edit_at,
        has_reactions: req.has_reactions,
        pending_post_id: req.pending_post_id.clone(),
    })
}

/// `SqlPostStore.Save` onwards, answered 201 with the post as `PreparePostForClient` makes it
/// and the request's `pending_post_id`; `set_online` (default true) sets the author online unless
/// their status was set by hand.
fn store(w: &mut World, np: &NewPost, set_online: bool) -> Reply {
    let now = now_ms();
    let id = w.save_new_post(np, now);
    if set_online {
        w.set_status_online(&np.user_id, false, now);
    }
    let mut v = post_json(w, &id);
    if let Some(m) = v.as_object_mut() {
        m.insert(
            "pending_post_id".into(),
            Value::String(np.pending_post_id.clone()),
        );
    }
    created(&v)
}

/// POST /api/v4/posts — `api4/post.go` `createPost` (`createPostChecks`) →
/// `App.CreatePostAsUser` → `App.CreatePost`. Checks in the server's order: `create_post` on the
/// channel (or `create_post_public` for a public one) and `upload_file` when there are file ids
/// (403); a `system_` type (400 `api.context.invalid_param.app_error`); an archived channel (400
/// `api.post.create_post.can_not_post_to_deleted.error`); the pending-post-id de-duplication; the
/// root (400 `api.post.create_post.root_id.app_error` for a missing, deleted or reply root,
/// `channel_root_id` for another channel's); `FillInPostProps`; then `Post.IsValid` (400
/// `model.post.is_valid.message_length.app_error` over 16383 characters, ...). An error after the
/// de-duplication forgets the pending post id. Only a system admin's `create_at` is kept.
pub(crate) fn create_post(ctx: &mut Ctx) -> HResult {
    let req = parse_post(ctx.body)?;
    let now = now_ms();
    let create_at = if req.create_at != 0 && ctx.is_admin() {
        req.create_at
    } else {
        0
    };
    if !ctx.w.may_create_post(&ctx.me, &req.channel_id) {
        return Err(permission());
    }
    if req.file_ids.as_ref().is_some_and(|f| !f.is_empty())
        && !ctx
            .w
            .has_channel_permission(&ctx.me, &req.channel_id, Perm::UploadFile)
            .0
    {
        return Err(permission());
    }
    let channel = ctx
        .w
        .channel_by_id(&req.channel_id)
        .cloned()
        .ok_or_else(|| invalid_app_param("post.channel_id"))?;
    if req.kind.starts_with("system_") {
        return Err(invalid_app_param("post.type"));
    }
    if channel.delete_at != 0 {
        return Err(app_error(
            400,
            "api.post.create_post.can_not_post_to_deleted.error",
            "Can not post to deleted channel.",
        ));
    }
    let pending = req.pending_post_id.clone();
    if !pending.is_empty()
        && let Some(found) = deduplicate(ctx, &pending, now)?
    {
        return Ok(found);
    }
    let np = match prepare(ctx, &req, &channel, create_at, now) {
        Ok(np) => np,
        Err(e) => {
            if !pending.is_empty() {
                ctx.w.pending_remove(&pending);
            }
            return Err(e);
        }
    };
    let set_online = ctx
        .q("set_online")
        .is_none_or(|v| !matches!(v, "0" | "f" | "F" | "FALSE" | "false" | "False"));
    if let Some(wait) = ctx.store_delay.take() {
        ctx.deferred = Some((
            wait,
            Box::new(move |w: &mut World| Ok(store(w, &np, set_online))),
        ));
        return Ok(Reply::json(&Value::Null));
    }
    Ok(store(ctx.w, &np, set_online))
}

// ----- update, patch, pin -------------------------------------------------------------------------

/// What an update sets on the post (`App.UpdatePost` with `SafeUpdate: false`).
struct Change {
    message: String,
    is_pinned: bool,
    has_reactions: bool,
    props: Map<String, Value>,
    file_ids: Vec<String>,
}

impl Change {
    fn of(p: &Post) -> Change {
        Change {
            message: p.message.clone(),
            is_pinned: p.is_pinned,
            has_reactions: p.has_reactions,
            props: p.props.clone(),
            file_ids: p.file_ids.clone(),
        }
    }
}

/// `checkUploadFilePermissionForNewFiles`: ids the post did not have need `upload_file`.
fn check_new_files(ctx: &Ctx, new_ids: &[String], original: &Post) -> Result<(), AppError> {
    let has_new = new_ids.iter().any(|id| !original.file_ids.contains(id));
    if has_new
        && !ctx
            .w
            .has_channel_permission(&ctx.me, &original.channel_id, Perm::UploadFile)
            .0
    {
        return Err(permission());
    }
    Ok(())
}

/// `App.UpdatePost`: not a system message (400), not in an archived channel (400); a new message
/// sets EditAt and the hashtags; pinned, has_reactions, props and files come from the change
/// (`processPostFileChanges` attaches added files and deletes removed ones; a change of files or
/// attachments alone sets EditAt too); `FillInPostProps`; `SqlPostStore.Update` (history row,
/// UpdateAt, LastPostAt, the root's UpdateAt). Answers the post.
fn update(ctx: &mut Ctx, original: &Post, change: Change) -> HResult {
    if original.kind.starts_with("system_") {
        return Err(app_error(
            400,
            "api.post.update_post.system_message.app_error",
            "Unable to update system message.",
        ));
    }
    let channel = ctx
        .w
        .channel_by_id(&original.channel_id)
        .cloned()
        .ok_or_else(crate::routes::channel_not_found)?;
    if channel.delete_at != 0 {
        return Err(app_error(
            400,
            "api.post.update_post.can_not_update_post_in_deleted.error",
            "Can not update a post in a deleted channel.",
        ));
    }
    let now = now_ms();
    let mut edit_at = original.edit_at;
    if change.message != original.message {
        edit_at = now;
    }
    let new_ids = dedup_ids(&change.file_ids);
    let old_ids = dedup_ids(&original.file_ids);
    let added: Vec<String> = new_ids
        .iter()
        .filter(|i| !old_ids.contains(i))
        .cloned()
        .collect();
    let removed: Vec<String> = old_ids
        .iter()
        .filter(|i| !new_ids.contains(i))
        .cloned()
        .collect();
    let unchanged: Vec<String> = new_ids
        .iter()
        .filter(|i| old_ids.contains(i))
        .cloned()
        .collect();
    let mut file_ids = change.file_ids.clone();
    if !added.is_empty() {
        let me = ctx.me.clone();
        let attached = ctx
            .w
            .attach_files(&original.id, &original.channel_id, &me, &added);
        if attached.len() != added.len() {
            file_ids = attached.into_iter().chain(unchanged).collect();
        }
    }
    if !removed.is_empty() {
        ctx.w.delete_files_of_post(&original.id, &removed, now);
    }
    let attachments_changed = original.props.get("attachments") != change.props.get("attachments");
    if edit_at == original.edit_at && (original.file_ids != file_ids || attachments_changed) {
        edit_at = now;
    }
    let mut props = change.props;
    fill_in_post_props(
        ctx.w,
        &original.user_id,
        &channel,
        &change.message,
        &original.kind,
        &mut props,
    )?;
    let file_ids = dedup_ids(&file_ids);
    is_valid(&change.message, &original.kind, &file_ids, &props)?;
    let message = change.message;
    ctx.w.update_post_row(&original.id, now, |p| {
        if p.message != message {
            p.hashtags = parse_hashtags(&message);
        }
        p.message = message;
        p.edit_at = edit_at;
        p.is_pinned = change.is_pinned;
        p.has_reactions = change.has_reactions;
        p.props = props;
        p.file_ids = file_ids;
    });
    Ok(Reply::json(&post_json(ctx.w, &original.id)))
}

/// PUT /api/v4/posts/{post_id} — `api4/post.go` `updatePost` → `App.UpdatePost` with
/// `SafeUpdate: false`: the body is a whole post whose `id` must be the path's (400); a missing or
/// deleted post, no `edit_post` or no `create_post` on its channel, no `upload_file` for new file
/// ids, or another's post without `edit_others_posts` → 403. `is_pinned`, `has_reactions` and
/// `props` are taken from the body as they are (absent means false / empty); absent `file_ids`
/// keep the post's.
pub(crate) fn update_post(ctx: &mut Ctx) -> HResult {
    let pid = ctx.require_id("post_id")?;
    let req = parse_post(ctx.body)?;
    if req.id != pid {
        return Err(invalid("id"));
    }
    let original = ctx.live_post(&pid).map_err(|_| permission())?;
    if !ctx
        .w
        .has_channel_permission(&ctx.me, &original.channel_id, Perm::EditPost)
        .0
    {
        return Err(permission());
    }
    if !ctx.w.may_create_post(&ctx.me, &original.channel_id) {
        return Err(permission());
    }
    let file_ids = req.file_ids.unwrap_or_else(|| original.file_ids.clone());
    check_new_files(ctx, &file_ids, &original)?;
    if ctx.me != original.user_id
        && !ctx
            .w
            .has_channel_permission(&ctx.me, &original.channel_id, Perm::EditOthersPosts)
            .0
    {
        return Err(permission());
    }
    let change = Change {
        message: req.message,
        is_pinned: req.is_pinned,
        has_reactions: req.has_reactions,
        props: req.props.unwrap_or_default(),
        file_ids,
    };
    update(ctx, &original, change)
}

/// PUT /api/v4/posts/{post_id}/patch — `api4/post.go` `patchPost` (`postPatchChecks`) →
/// `App.PatchPost`: `{is_pinned?, message?, props?, file_ids?, has_reactions?}`; a missing or
/// deleted post, no `edit_post` (own) / `edit_others_posts` (another's), no `create_post`, or no
/// `upload_file` for new file ids → 403; an archived channel → 400
/// `api.post.patch_post.can_not_update_post_in_deleted.error`; then `App.UpdatePost`.
pub(crate) fn patch_post(ctx: &mut Ctx) -> HResult {
    let pid = ctx.require_id("post_id")?;
    let m = struct_body(ctx.body).ok_or_else(|| invalid("post"))?;
    let f = Fields(&m);
    let read = || -> Result<_, WrongType> {
        Ok((
            f.opt_bool("is_pinned")?,
            f.opt_string("message")?,
            f.opt_object("props")?,
            f.opt_strings("file_ids")?,
            f.opt_bool("has_reactions")?,
        ))
    };
    let (is_pinned, message, props, file_ids, has_reactions) =
        read().map_err(|_| invalid("post"))?;
    let original = ctx.live_post(&pid).map_err(|_| permission())?;
    let perm = if ctx.me == original.user_id {
        Perm::EditPost
    } else {
        Perm::EditOthersPosts
    };
    if !ctx
        .w
        .has_channel_permission(&ctx.me, &original.channel_id, perm)
        .0
    {
        return Err(permission());
    }
    if !ctx.w.may_create_post(&ctx.me, &original.channel_id) {
        return Err(permission());
    }
    if let Some(ids) = &file_ids {
        check_new_files(ctx, ids, &original)?;
    }
    patch(
        ctx,
        &original,
        is_pinned,
        message,
        props,
        file_ids,
        has_reactions,
    )
}

/// `App.PatchPost` from the archived-channel check on.
fn patch(
    ctx: &mut Ctx,
    original: &Post,
    is_pinned: Option<bool>,
    message: Option<String>,
    props: Option<Map<String, Value>>,
    file_ids: Option<Vec<String>>,
    has_reactions: Option<bool>,
) -> HResult {
    let archived = ctx
        .w
        .channel_by_id(&original.channel_id)
        .is_some_and(|c| c.delete_at != 0);
    if archived {
        return Err(app_error(
            400,
            "api.post.patch_post.can_not_update_post_in_deleted.error",
            "Can not update a post in a deleted channel.",
        ));
    }
    let mut change = Change::of(original);
    if let Some(v) = is_pinned {
        change.is_pinned = v;
    }
    if let Some(v) = message {
        change.message = v;
    }
    if let Some(v) = props {
        change.props = v;
    }
    if let Some(v) = file_ids {
        change.file_ids = v;
    }
    if let Some(v) = has_reactions {
        change.has_reactions = v;
    }
    update(ctx, original, change)
}

/// `api4/post.go` `saveIsPinnedPost`: a missing or deleted post or a channel the session cannot
/// read → 403; then `App.PatchPost` with only `is_pinned` (no edit permission is needed), so a
/// pin is a store update: history row, UpdateAt, LastPostAt. Answers `{"status":"OK"}`.
fn save_is_pinned(ctx: &mut Ctx, pinned: bool) -> HResult {
    let pid = ctx.require_id("post_id")?;
    let post = ctx.live_post(&pid).map_err(|_| permission())?;
    let channel = ctx.channel(&post.channel_id)?;
    if !ctx.w.may_read_channel(&ctx.me, &channel).0 {
        return Err(permission());
    }
    patch(ctx, &post, Some(pinned), None, None, None, None)?;
    Ok(status_ok())
}

/// POST /api/v4/posts/{post_id}/pin — `api4/post.go` `pinPost` (`saveIsPinnedPost`).
pub(crate) fn pin_post(ctx: &mut Ctx) -> HResult {
    save_is_pinned(ctx, true)
}

/// POST /api/v4/posts/{post_id}/unpin — `api4/post.go` `unpinPost` (`saveIsPinnedPost`).
pub(crate) fn unpin_post(ctx: &mut Ctx) -> HResult {
    save_is_pinned(ctx, false)
}

// ----- delete, reminder ---------------------------------------------------------------------------

/// DELETE /api/v4/posts/{post_id} — `api4/post.go` `deletePost` → `App.DeletePost`:
/// `permanent=true` → 501 (`EnableAPIPostDeletion` is off); a missing or deleted post → 404
/// `app.post.get.app_error`; `delete_post` (own) / `delete_others_posts` (another's: team and
/// system admins) → 403; an archived channel → 400. A root takes its replies along; `deleteBy`
/// is the session user. Answers `{"status":"OK"}`.
pub(crate) fn delete_post(ctx: &mut Ctx) -> HResult {
    let pid = ctx.require_id("post_id")?;
    if parse_bool(ctx.q("permanent")) {
        return Err(app_error(
            501,
            "api.post.delete_post.not_enabled.app_error",
            "Cannot delete post, ServiceSettings.EnableAPIPostDeletion is not enabled.",
        ));
    }
    let post = ctx.live_post(&pid)?;
    let perm = if ctx.me == post.user_id {
        Perm::DeletePost
    } else {
        Perm::DeleteOthersPosts
    };
    if !ctx
        .w
        .has_channel_permission(&ctx.me, &post.channel_id, perm)
        .0
    {
        return Err(permission());
    }
    if ctx
        .w
        .channel_by_id(&post.channel_id)
        .is_some_and(|c| c.delete_at != 0)
    {
        return Err(app_error(
            400,
            "api.post.delete_post.can_not_delete_post_in_deleted.error",
            "Can not delete a post in a deleted channel.",
        ));
    }
    let me = ctx.me.clone();
    ctx.w.delete_post_by(&pid, now_ms(), &me);
    Ok(status_ok())
}

/// POST /api/v4/users/{user_id}/posts/{post_id}/reminder — `api4/post.go` `setPostReminder` →
/// `App.SetPostReminder`: `{target_time}` in seconds, not validated (a past time is stored too);
/// another user's reminder needs `edit_other_users` (403); a post the session cannot read → 403;
/// a body that does not decode → 400 `target_time`; an unknown post id (an admin gets this far)
/// → 500. Upserts the reminder; the ephemeral confirmation is not stored. `{"status":"OK"}`.
pub(crate) fn set_reminder(ctx: &mut Ctx) -> HResult {
    let pid = ctx.require_id("post_id")?;
    let uid = ctx.require_id("user_id")?;
    if ctx.me != uid && !ctx.w.may_act_for_user(&ctx.me, &uid) {
        return Err(permission());
    }
    if !ctx.w.may_read_post(&ctx.me, &pid) {
        return Err(permission());
    }
    let m = struct_body(ctx.body).ok_or_else(|| invalid("target_time"))?;
    let target = Fields(&m)
        .int("target_time")
        .map_err(|_| invalid("target_time"))?;
    if ctx.w.post_by_id(&pid).is_none() {
        return Err(app_error(500, "<untranslated>", ""));
    }
    ctx.w.set_reminder(&uid, &pid, target);
    Ok(status_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_mentions_follow_the_servers_pattern() {
        assert_eq!(
            channel_mention_names("see ~town-square and ~off_topic, ~town-square again"),
            vec!["town-square".to_string(), "off_topic".to_string()]
        );
        assert!(channel_mention_names("a~b ~ ~~").is_empty());
        assert_eq!(channel_mention_names("~x"), vec!["x".to_string()]);
    }

    #[test]
    fn post_bodies_decode_like_go() {
        assert!(parse_post(b"").is_err());
        assert!(parse_post(br#"{"message": 5}"#).is_err());
        assert!(parse_post(br#"{"file_ids": "x"}"#).is_err());
        let p = parse_post(br#"{"Channel_Id": "c", "message": "m"} trailing"#).unwrap();
        assert_eq!((p.channel_id.as_str(), p.message.as_str()), ("c", "m"));
        assert!(parse_post(b"null").is_ok());
    }

    #[test]
    fn validity_limits() {
        let props = Map::new();
        assert!(is_valid(&"x".repeat(MAX_POST_SIZE), "", &[], &props).is_ok());
        assert!(is_valid(&"é".repeat(MAX_POST_SIZE + 1), "", &[], &props).is_err());
        let ten: Vec<String> = (0..10).map(|i| format!("{i:026}")).collect();
        assert!(is_valid("", "", &ten, &props).is_ok());
        let eleven: Vec<String> = (0..11).map(|i| format!("{i:026}")).collect();
        assert_eq!(
            is_valid("", "", &eleven, &props).unwrap_err().id,
            "model.post.is_valid.file_ids.app_error"
        );
        assert!(is_valid("", "custom_poll", &[], &props).is_ok());
        assert!(is_valid("", "bogus", &[], &props).is_err());
    }
}
