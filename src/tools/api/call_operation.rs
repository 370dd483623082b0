//! `call_operation`: sends one operation of the catalog through the generated client and the transport
//! every tool uses (the person's token, retries of reads, error mapping, request counting), in a call
//! scope that declares exactly that operation (its [`plan`]).
//!
//! Before any request the parameters are checked against the operation: unknown names are refused with
//! the accepted ones, missing required ones named, types and enums checked, the paging parameters the
//! gateway walks itself refused, and a path value may hold only the characters of Mattermost's ids,
//! names and emails (the generated client percent-encodes it besides, so no value changes the path).
//!
//! A read is always callable and never asks. A write is refused without `MATTERMOST_ALLOW_WRITES=true`
//! (by the server, from the plan) and asks the person first as the writing tools do
//! (`crate::confirm`, both protocol forms), showing the method, the path with its values, the query
//! and the body; declined, nothing is sent; confirmed, it is sent once, never retried.
//!
//! The answer is paged like every list (`super::answers`): a `page`/`per_page` list is walked by
//! offset, one or two Mattermost pages per call, saying that offset paging can skip or repeat items
//! while the list changes; a `before`/`after` list by the id of the last item shown; anything else is
//! read once and cut into pages (a list by item, an object between its fields, bytes by offset), kept
//! for the cursor chain so that later pages cost no request (a read is read again when it is no
//! longer kept; a write's answer is never sent for again).

use super::OPERATION;
use super::answers::{self, Called, Position, Shaped};
use crate::args::{Arg, Kind, Limit};
use crate::confirm::{self, Question};
use crate::context::Ctx;
use crate::error::About;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::MmError;
use crate::mattermost::operations::{
    self, Access, Answer as Reply, BODY, DispatchError, Entry, PagingKind, Params,
};
use crate::paging::{Page, Strategy};
use crate::tool::{Answer, Asks, Code, Hints, Input, Plan, Stop, Tool, Toolset};
use mattermost_spec::catalog::TypeInfo;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The parameters of the operation.
pub const PARAMS: Arg = Arg {
    name: "params",
    kind: Kind::Object { max: 65_536 },
    required: false,
    about: "Path and query parameters by name; the request body under `body`.",
    shapes: Some("the operation's parameters, checked against it before anything is sent"),
};

pub const TOOL: Tool = Tool {
    name: "call_operation",
    title: "Call a Mattermost API operation",
    description: "Sends one operation (from find_operations) as you, its params checked first; lists and large \
                  answers come paged. Reads never ask. A write needs writes allowed and asks you first, \
                  showing the request.",
    toolset: Toolset::Api,
    args: &[OPERATION, PARAMS],
    answer: Answer::List {
        // The gateway pages by the operation's kind (`super::answers`).
        strategy: Strategy::ByOperation,
        limit: Limit::new(30, 200),
    },
    hints: Hints {
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
    },
    asks: Asks::First("a write through the gateway may change what others see"),
    calls: &[],
    code: Code {
        plan: Some(plan),
        ..crate::list!(run => Value, Called)
    },
};

#[derive(Deserialize)]
struct Args {
    operation: String,
    #[serde(default)]
    params: Map<String, Value>,
}

/// The call's plan: exactly the operation it names, writing when that operation writes. An unknown or
/// uncallable operation is refused here, before anything is sent.
pub fn plan(args: &Map<String, Value>) -> Result<Plan, ToolError> {
    let name = args.get("operation").and_then(Value::as_str).unwrap_or("");
    let e = callable(name)?;
    Ok(Plan {
        operations: vec![e.id.as_str()],
        writes: e.access == Access::Write,
    })
}

fn callable(name: &str) -> Result<&'static Entry, ToolError> {
    let e = super::entry(name)?;
    match &e.not_callable {
        Some(why) => Err(ToolError::bad_argument(format!(
            "{} cannot be sent through call_operation: {why}. Nothing was sent.{}",
            e.id,
            if e.id == "UploadFile" {
                " create_post and send_direct_message attach files."
            } else {
                ""
            }
        ))),
        None => Ok(e),
    }
}

/// What is kept of an answer for its cursor chain.
struct Kept {
    shaped: Shaped,
    extra: Called,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<Value, Called>, Stop> {
    let e = callable(&input.args.operation)?;
    let params = input.args.params.clone();
    check(e, &params)?;
    let position = input.position::<Position>()?;
    if e.access == Access::Write {
        return write(cx, &input, e, &params, position).await;
    }
    Ok(match e.paging.kind {
        PagingKind::PagePerPage | PagingKind::Offset => {
            by_offset(cx, &input, e, &params, position).await?
        }
        PagingKind::BeforeAfter => by_key(cx, &input, e, &params, position).await?,
        _ => whole(cx, &input, e, &params, position).await?,
    })
}

// ----- checks -----------------------------------------------------------------------------------

/// The paging parameters the gateway sets itself for an operation of this kind (`page`, `per_page`,
/// `body.page`, ...), which a call may not give.
fn owned(e: &Entry) -> Vec<&str> {
    let walked: &[&str] = match e.paging.kind {
        PagingKind::PagePerPage | PagingKind::Offset => {
            &["page", "per_page", "perPage", "logs_per_page"]
        }
        PagingKind::BeforeAfter => &["page", "per_page"],
        _ => &[],
    };
    e.paging
        .params
        .iter()
        .map(String::as_str)
        .filter(|p| walked.contains(&p.trim_start_matches("body.")))
        .collect()
}

/// Whether `v` is a value the generated client reads as `t` (leniently, as the dispatcher reads it: a
/// string holding a number, a boolean or JSON; one value for an array of one).
fn fits(t: &TypeInfo, v: &Value) -> bool {
    let text = v.as_str();
    let parsed = text.and_then(|s| serde_json::from_str::<Value>(s).ok());
    let as_json = |f: &dyn Fn(&Value) -> bool| f(v) || parsed.as_ref().is_some_and(f);
    match t.ty.as_str() {
        "string" => v.is_string(),
        "integer" => as_json(&|x| x.is_i64() || x.is_u64()),
        "number" => as_json(&Value::is_number),
        "boolean" => as_json(&Value::is_boolean),
        "object" => as_json(&Value::is_object),
        _ => true,
    }
}

/// `v` is one of `t`'s enum values (as it is, or as the text of one).
fn in_enum(t: &TypeInfo, v: &Value) -> bool {
    let unquoted = |x: &Value| {
        x.as_str()
            .map(str::to_string)
            .unwrap_or_else(|| x.to_string())
    };
    t.enum_values.is_empty()
        || t.enum_values
            .iter()
            .any(|e| e == v || unquoted(e) == unquoted(v))
}

/// A path value that names an object and nothing else: the characters of Mattermost's ids, names,
/// emails and emoji.
fn plain_path_value(s: &str) -> bool {
    !s.is_empty()
        && s != "."
        && s != ".."
        && s.len() <= 256
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.@+:~".contains(&b))
}

fn refused(e: &Entry, name: &str, value: &Value, why: String) -> ToolError {
    ToolError::bad_argument(format!(
        "{}: the parameter `{name}` is {}: {why}. Nothing was sent; see describe_operation {} and call again.",
        e.id,
        quote(&value.to_string()),
        e.id
    ))
    .with("parameter", json!(name))
}

/// Checks `params` against the operation before anything is sent (the dispatcher checks again as it
/// builds the request).
fn check(e: &Entry, params: &Params) -> Result<(), ToolError> {
    let accepted = operations::accepted(e);
    let owned = owned(e);
    for (name, value) in params {
        if !accepted.contains(name) {
            return Err(ToolError::bad_argument(format!(
                "{} takes no parameter {}; it takes: {}. Nothing was sent; call again without it.",
                e.id,
                quote(name),
                if accepted.is_empty() {
                    "none".to_string()
                } else {
                    accepted.join(", ")
                }
            ))
            .with("accepted", json!(accepted)));
        }
        if owned.contains(&name.as_str()) {
            return Err(paged_by_gateway(e, name));
        }
        if value.is_null() {
            continue;
        }
        if name == BODY {
            check_body(e, value, &owned)?;
            continue;
        }
        let Some(p) = e.param(name) else { continue };
        let wants_array = p.schema.ty == "array";
        if !wants_array && !fits(&p.schema, value) {
            return Err(refused(
                e,
                name,
                value,
                format!("it must be {}", p.schema.describe()),
            ));
        }
        if !in_enum(&p.schema, value) {
            return Err(refused(
                e,
                name,
                value,
                format!("it must be {}", p.schema.describe()),
            ));
        }
        if p.location == "path" {
            let text = value
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| value.to_string());
            if !plain_path_value(&text) {
                return Err(refused(
                    e,
                    name,
                    value,
                    "a path value holds only letters, digits and - _ . @ + : ~ (an id, a name or an email), \
                     never / ? # % or spaces"
                        .into(),
                ));
            }
        }
    }
    for p in e.params.iter().filter(|p| p.required) {
        if params.get(&p.name).is_none_or(Value::is_null) {
            return Err(ToolError::bad_argument(format!(
                "{} needs the parameter `{}` ({}, in the {}). Nothing was sent; call again with it in params.",
                e.id,
                p.name,
                p.schema.describe(),
                p.location
            ))
            .with("parameter", json!(p.name)));
        }
    }
    if let Some(b) = &e.body
        && b.required
        && params.get(BODY).is_none_or(Value::is_null)
    {
        return Err(ToolError::bad_argument(format!(
            "{} needs a body: params.body = {}. Nothing was sent; see describe_operation {} for its fields.",
            e.id,
            operations::expected(e, BODY),
            e.id
        ))
        .with("parameter", json!(BODY)));
    }
    Ok(())
}

/// The body's type, and for an object body its top-level fields' types and enums.
fn check_body(e: &Entry, body: &Value, owned: &[&str]) -> Result<(), ToolError> {
    let Some(spec) = &e.body else { return Ok(()) };
    if spec.schema.ty == "object" {
        let Some(map) = body.as_object() else {
            return Err(refused(
                e,
                BODY,
                body,
                format!("it must be {}", operations::expected(e, BODY)),
            ));
        };
        for (name, value) in map {
            if owned.contains(&format!("body.{name}").as_str()) {
                return Err(paged_by_gateway(e, &format!("body.{name}")));
            }
            let Some(f) = spec.fields.iter().find(|f| &f.name == name) else {
                continue;
            };
            if value.is_null() || f.schema.ty == "array" {
                continue;
            }
            if !fits(&f.schema, value) || !in_enum(&f.schema, value) {
                return Err(refused(
                    e,
                    &format!("body.{name}"),
                    value,
                    format!("it must be {}", f.schema.describe()),
                ));
            }
        }
    } else if spec.schema.ty != "array" && !fits(&spec.schema, body) {
        return Err(refused(
            e,
            BODY,
            body,
            format!("it must be {}", spec.schema.describe()),
        ));
    }
    Ok(())
}

fn paged_by_gateway(e: &Entry, name: &str) -> ToolError {
    ToolError::bad_argument(format!(
        "call_operation pages {} itself, so `{name}` is its to set: leave it out. `limit` is the page size and \
         the answer's next_cursor gives the next page. Nothing was sent.",
        e.id
    ))
    .with("parameter", json!(name))
}

// ----- requests ---------------------------------------------------------------------------------

fn shown_value(v: &Value) -> String {
    v.as_str()
        .map(str::to_string)
        .unwrap_or_else(|| v.to_string())
}

/// The request as sent: method, path with its values, and the query.
pub fn request_of(e: &Entry, params: &Params) -> String {
    let mut path = e.path.clone();
    let mut query = Vec::new();
    for p in &e.params {
        let Some(v) = params.get(&p.name).filter(|v| !v.is_null()) else {
            continue;
        };
        match p.location.as_str() {
            "path" => path = path.replace(&format!("{{{}}}", p.name), &shown_value(v)),
            "query" => query.push(format!("{}={}", p.name, shown_value(v))),
            _ => {}
        }
    }
    if query.is_empty() {
        format!("{} {path}", e.method)
    } else {
        format!("{} {path}?{}", e.method, query.join("&"))
    }
}

/// Sets a paging parameter (`name`, or `body.name` inside the body), as the type the operation takes.
fn set(e: &Entry, params: &mut Params, name: &str, n: i64) {
    let (target, field) = match name.strip_prefix("body.") {
        Some(f) => (true, f),
        None => (false, name),
    };
    let ty = if target {
        e.body
            .as_ref()
            .and_then(|b| b.fields.iter().find(|f| f.name == field))
            .map(|f| f.schema.ty.clone())
    } else {
        e.param(field).map(|p| p.schema.ty.clone())
    };
    let value = if ty.as_deref() == Some("string") {
        json!(n.to_string())
    } else {
        json!(n)
    };
    if target {
        let body = params.entry(BODY).or_insert_with(|| json!({}));
        if let Some(map) = body.as_object_mut() {
            map.insert(field.to_string(), value);
        }
    } else {
        params.insert(field.to_string(), value);
    }
}

/// Sends the operation once with `params`, reading at most `cap` bytes of a binary answer.
async fn send(
    cx: &Ctx,
    e: &Entry,
    params: &Params,
    cap: usize,
) -> Result<(Reply, String), ToolError> {
    let request = request_of(e, params);
    match operations::call_capped(&cx.mm.api, &e.id, params, cap).await {
        Ok(reply) => Ok((reply, request)),
        Err(d) => Err(failed(cx, e, d, &request)),
    }
}

/// A failure as the model reads it: what was refused and why, and what to do next.
fn failed(cx: &Ctx, e: &Entry, d: DispatchError, request: &str) -> ToolError {
    let error = match d {
        DispatchError::Mattermost { error, .. } => error,
        other => {
            return ToolError::bad_argument(other.to_string()).with("operation", json!(e.id));
        }
    };
    let unsure = e.access == Access::Write && error.may_not_have_arrived();
    let needs = if super::admin_only(e) {
        " It needs a system administrator.".to_string()
    } else if !e.permissions.required.is_empty() {
        format!(
            " It needs the permission {}.",
            e.permissions.required.join(", ")
        )
    } else {
        String::new()
    };
    let mut err = match error {
        MmError::Api { status: 403, id, message, .. } => ToolError::new(
            ErrorKind::Forbidden,
            format!(
                "Mattermost refused {request} for you (403 {id}: {message}).{needs} Nothing was changed; ask someone \
                 who has the permission, or use another operation."
            ),
        ),
        MmError::Api { status: 404, id, message, .. } => ToolError::new(
            ErrorKind::NotFound,
            format!(
                "Mattermost answered {request} with 404 ({id}: {message}): an id in params may be wrong, or name \
                 something you cannot see. Find the id with a list or search tool and call again."
            ),
        ),
        MmError::Api { status: 501, id, message, .. } => ToolError::new(
            ErrorKind::Disabled,
            format!(
                "{} is not available on this Mattermost (501 {id}: {message}): the feature is off or needs a \
                 licence. Nothing was changed.",
                e.id
            ),
        ),
        MmError::Api { status, id, message, request_id } if status >= 500 => ToolError::new(
            ErrorKind::MattermostFailed,
            format!(
                "Mattermost failed on {request} ({status} {id}: {message}; request id {request_id}). Try again in a \
                 moment; if it keeps failing, give the request id to the Mattermost administrator."
            ),
        )
        .with("status", json!(status)),
        MmError::Api { status, id, message, .. } => ToolError::new(
            ErrorKind::MattermostRefused,
            format!(
                "Mattermost refused {request} ({status} {id}: {message}). Check params against describe_operation {} \
                 and call again.",
                e.id
            ),
        )
        .with("status", json!(status)),
        other => other.about("operation", &e.id, cx.url()),
    };
    if unsure {
        err.message.push_str(
            " The request may or may not have reached Mattermost: read back what it changes before trying again.",
        );
    }
    err.with("operation", json!(e.id))
}

/// Mattermost's answer, read for paging: a list for an operation that lists (or an array), otherwise
/// as it is.
fn shape(e: &Entry, reply: Reply) -> (Shaped, u16, Option<String>) {
    match reply {
        Reply::Json { status, value } => {
            let listing = e.paging.kind != PagingKind::None || value.is_array();
            let shaped = match (listing, answers::list_of(&value), value) {
                (true, Some((items, meta)), _) => Shaped::List { items, meta },
                (_, _, Value::Object(map)) => Shaped::Object(map),
                (_, _, Value::Array(items)) => Shaped::List {
                    items,
                    meta: Map::new(),
                },
                (_, _, other) => Shaped::Scalar(other),
            };
            (shaped, status, None)
        }
        Reply::Empty { status } => (Shaped::Empty, status, None),
        Reply::Bytes {
            status,
            content_type,
            bytes,
            truncated,
        } => (
            Shaped::Bytes {
                content_type: content_type.clone(),
                bytes,
                cut: truncated,
            },
            status,
            content_type,
        ),
    }
}

/// A page of a shaped answer, with what the call says beside it.
fn page_of(
    shaped: &Shaped,
    position: Option<&Position>,
    limit: usize,
    mut extra: Called,
) -> Page<Value, Called> {
    let cut = answers::page(shaped, position, limit);
    extra.part = cut.part;
    extra.answer = answers::kind_of(shaped).into();
    if let Shaped::List { meta, .. } = shaped
        && !meta.is_empty()
    {
        extra.meta = Some(meta.clone());
    }
    let total = match shaped {
        Shaped::List { items, .. } => Some(items.len() as u64),
        Shaped::Scalar(_) | Shaped::Empty => Some(cut.items.len() as u64),
        _ => None,
    };
    let mut page = Page::new(cut.items).continue_at(cut.next);
    if let Some(t) = total {
        page = page.with_total(t);
    }
    page.with_extra(extra)
}

fn note(e: &Entry) -> Option<String> {
    match e.paging.kind {
        PagingKind::CursorField | PagingKind::Keyset | PagingKind::LimitOnly => {
            let mut s = super::how_paged(e);
            if let Some(n) = &e.paging.note {
                s.push_str(&format!(" {n}."));
            }
            Some(s)
        }
        _ => e.paging.note.clone(),
    }
}

/// A read answered whole: read once, cut into pages, kept for the cursor chain; read again when a
/// later page finds it no longer kept.
async fn whole(
    cx: &Ctx,
    input: &Input<Args>,
    e: &Entry,
    params: &Params,
    position: Option<Position>,
) -> Result<Page<Value, Called>, ToolError> {
    let key = input.list_key();
    let kept = match position {
        Some(_) => cx.lists.get::<Kept>(&key),
        None => None,
    };
    let kept = match kept {
        Some(k) => k,
        None => {
            let (reply, request) = send(cx, e, params, answers::MAX_BYTES).await?;
            let (shaped, status, content_type) = shape(e, reply);
            let kept = Arc::new(Kept {
                shaped,
                extra: Called {
                    request,
                    status,
                    content_type,
                    paging_note: note(e),
                    ..Called::default()
                },
            });
            let more = answers::page(&kept.shaped, position.as_ref(), input.limit as usize)
                .next
                .is_some();
            if more {
                cx.lists
                    .put(key, kept.clone(), answers::size_of(&kept.shaped));
            }
            kept
        }
    };
    Ok(page_of(
        &kept.shaped,
        position.as_ref(),
        input.limit as usize,
        kept.extra.clone(),
    ))
}

/// A write: asked, sent once, its answer paged (kept for the cursor chain, never sent for again).
async fn write(
    cx: &Ctx,
    input: &Input<Args>,
    e: &Entry,
    params: &Params,
    position: Option<Position>,
) -> Result<Page<Value, Called>, Stop> {
    let key = input.list_key();
    if let Some(p) = position {
        let kept = cx.lists.get::<Kept>(&key).ok_or_else(|| {
            ToolError::new(
                ErrorKind::BadCursor,
                format!(
                    "The rest of the answer of this {} is no longer kept (answers are kept for ten minutes), and a \
                     write is never sent again to read it. Nothing was sent. Read what it changed with a reading \
                     operation instead.",
                    e.id
                ),
            )
        })?;
        return Ok(page_of(
            &kept.shaped,
            Some(&p),
            input.limit as usize,
            kept.extra.clone(),
        ));
    }
    confirm::preflight(input)?;
    let question = question(e, params);
    let confirmed = confirm::ask(cx, input, &question).await?;
    let (reply, request) = send(cx, e, params, answers::MAX_BYTES).await?;
    let (shaped, status, content_type) = shape(e, reply);
    let kept = Arc::new(Kept {
        shaped,
        extra: Called {
            request,
            status,
            content_type,
            confirmed: Some(confirmed),
            ..Called::default()
        },
    });
    let page = page_of(&kept.shaped, None, input.limit as usize, kept.extra.clone());
    if page.next.is_some() {
        cx.lists
            .put(key, kept.clone(), answers::size_of(&kept.shaped));
    }
    Ok(page)
}

/// JSON with its object keys sorted, so that the same parameters always bind the same confirmation.
fn canonical(v: &Value) -> String {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", Value::String((*k).clone()), canonical(&map[*k])))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(list) => format!(
            "[{}]",
            list.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}

/// The most characters of a body a question shows; a longer one is cut there, saying how much more it
/// holds (what is confirmed is the whole of it: the answer is bound to every parameter).
const SHOWN_BODY: usize = 4000;

/// What the person is asked before a write: the method, the path with its values, the query and the
/// body, exactly as they will be sent.
pub fn question(e: &Entry, params: &Params) -> Question {
    let request = request_of(e, params);
    let body = match params.get(BODY).filter(|b| !b.is_null()) {
        Some(b) => {
            let pretty = serde_json::to_string_pretty(b).unwrap_or_else(|_| b.to_string());
            let count = pretty.chars().count();
            if count > SHOWN_BODY {
                let head: String = pretty.chars().take(SHOWN_BODY).collect();
                format!(
                    "\n\nBody (its first {SHOWN_BODY} of {count} characters):\n{}",
                    crate::confirm::shown(&format!("{head}…"))
                )
            } else {
                format!("\n\nBody:\n{}", crate::confirm::shown(&pretty))
            }
        }
        None => String::new(),
    };
    let admin = if super::admin_only(e) {
        " It is an administrator's operation."
    } else {
        ""
    };
    Question {
        action: format!("Send {} {}", e.method, e.path),
        text: format!(
            "Send this request to Mattermost as you ({}, {})?\n\n{request}{body}\n\nIt changes something in \
             Mattermost, which others may see.{admin}",
            e.id,
            e.tags.first().map(String::as_str).unwrap_or("api")
        ),
        binding: vec![e.id.clone(), canonical(&Value::Object(params.clone()))],
    }
}

// ----- paging by offset and by key ----------------------------------------------------------------

/// The names of an operation's page and page-size parameters (`page`, `per_page`, or in the body).
fn page_names(e: &Entry) -> (Option<&str>, Option<&str>) {
    let find = |names: &[&str]| {
        e.paging
            .params
            .iter()
            .map(String::as_str)
            .find(|p| names.contains(&p.trim_start_matches("body.")))
    };
    (
        find(&["page"]),
        find(&["per_page", "perPage", "logs_per_page"]),
    )
}

fn wrong_cursor(e: &Entry) -> ToolError {
    ToolError::new(
        ErrorKind::BadCursor,
        format!(
            "The cursor is not one of {}'s pages. Repeat the call without `cursor` to start from the first page.",
            e.id
        ),
    )
}

/// A list Mattermost pages by `page`/`per_page` (or an offset `page`), walked by offset in items: the
/// page of `limit` items at the cursor's offset, from one Mattermost page or two when the offset falls
/// inside one.
async fn by_offset(
    cx: &Ctx,
    input: &Input<Args>,
    e: &Entry,
    params: &Params,
    position: Option<Position>,
) -> Result<Page<Value, Called>, ToolError> {
    let limit = i64::from(input.limit);
    let at = match position {
        None => 0,
        Some(Position::Offset { at }) => at,
        Some(_) => return Err(wrong_cursor(e)),
    };
    let (page_name, size_name) = page_names(e);
    let counts_items = e.paging.kind == PagingKind::Offset;
    let (first, skip) = if counts_items {
        (at, 0)
    } else {
        (at / limit, at % limit)
    };
    let fetches = if skip == 0 { 1 } else { 2 };
    let mut items = Vec::new();
    let mut meta = Map::new();
    let mut more = false;
    let mut extra = Called {
        paging_note: Some(format!(
            "Mattermost pages this list by offset ({}): while it changes, an item can be skipped or repeated \
             between pages.{}",
            e.paging.params.join(", "),
            e.paging
                .note
                .as_deref()
                .map(|n| format!(" {n}."))
                .unwrap_or_default()
        )),
        ..Called::default()
    };
    for k in 0..fetches {
        let mut p = params.clone();
        if let Some(name) = page_name {
            set(e, &mut p, name, first + k);
        }
        if let Some(name) = size_name {
            set(e, &mut p, name, limit);
        }
        let (reply, request) = send(cx, e, &p, answers::MAX_BYTES).await?;
        let (shaped, status, _) = shape(e, reply);
        if k == 0 {
            extra.request = request;
            extra.status = status;
        }
        let Shaped::List {
            items: got,
            meta: m,
        } = shaped
        else {
            // Not a list after all: the answer as it is, on pages of its own.
            return Ok(page_of(&shaped, None, input.limit as usize, extra));
        };
        more = if counts_items {
            !got.is_empty()
        } else {
            got.len() as i64 >= limit
        };
        items.extend(got);
        if k == 0 {
            meta = m;
        }
        if !more {
            break;
        }
    }
    let available: Vec<Value> = items.into_iter().skip(skip as usize).collect();
    let shown = answers::take_items(&available, 0, input.limit as usize);
    let next = (more || shown.len() < available.len()) && !shown.is_empty();
    extra.answer = "list".into();
    if !meta.is_empty() {
        extra.meta = Some(meta);
    }
    let count = shown.len() as i64;
    Ok(Page::new(shown)
        .continue_at(next.then_some(Position::Offset { at: at + count }))
        .with_extra(extra))
}

/// A list Mattermost pages by `before`/`after` an item's id: back from the newest (or from a `before`
/// given), or forward from an `after` given, `limit` items a page, continued from the last item shown.
async fn by_key(
    cx: &Ctx,
    input: &Input<Args>,
    e: &Entry,
    params: &Params,
    position: Option<Position>,
) -> Result<Page<Value, Called>, ToolError> {
    let given = |n: &str| params.get(n).is_some_and(|v| !v.is_null());
    let (back, from) = match position {
        None => (!given("after") || given("before"), None),
        Some(Position::Key { back, id }) => (back, Some(id)),
        Some(_) => return Err(wrong_cursor(e)),
    };
    let mut p = params.clone();
    if let Some(id) = &from {
        p.remove("before");
        p.remove("after");
        p.insert(if back { "before" } else { "after" }.into(), json!(id));
    }
    let (page_name, size_name) = page_names(e);
    if let Some(name) = page_name {
        set(e, &mut p, name, 0);
    }
    if let Some(name) = size_name {
        set(e, &mut p, name, i64::from(input.limit));
    }
    let (reply, request) = send(cx, e, &p, answers::MAX_BYTES).await?;
    let (shaped, status, _) = shape(e, reply);
    let mut extra = Called {
        request,
        status,
        paging_note: Some(format!(
            "Paged by `{}`: each next page continues from the id of the last item shown.{}",
            if back { "before" } else { "after" },
            e.paging
                .note
                .as_deref()
                .map(|n| format!(" {n}."))
                .unwrap_or_default()
        )),
        ..Called::default()
    };
    let Shaped::List { items, meta } = shaped else {
        return Ok(page_of(&shaped, None, input.limit as usize, extra));
    };
    // Items come newest first; going forward, the oldest of them are the ones right after the key.
    let shown = if back {
        answers::take_items(&items, 0, input.limit as usize)
    } else {
        let mut reversed: Vec<Value> = items.iter().rev().cloned().collect();
        reversed = answers::take_items(&reversed, 0, input.limit as usize);
        reversed.reverse();
        reversed
    };
    let full = items.len() >= input.limit as usize || shown.len() < items.len();
    let edge = if back { shown.last() } else { shown.first() };
    let next = edge
        .and_then(|i| i.get("id").and_then(Value::as_str))
        .filter(|_| full)
        .map(|id| Position::Key {
            back,
            id: id.to_string(),
        });
    extra.answer = "list".into();
    if !meta.is_empty() {
        extra.meta = Some(meta);
    }
    Ok(Page::new(shown).continue_at(next).with_extra(extra))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(v: Value) -> Params {
        v.as_object().cloned().unwrap_or_default()
    }

    fn of(id: &str) -> &'static Entry {
        operations::catalog().get(id).expect("in the catalog")
    }

    #[test]
    fn the_plan_declares_exactly_the_named_operation_and_says_whether_it_writes() {
        let p = plan(&params(json!({"operation": "get_bots"}))).expect("a plan");
        assert_eq!(
            p,
            Plan {
                operations: vec!["GetBots"],
                writes: false
            }
        );
        let p = plan(&params(json!({"operation": "CreateIncomingWebhook"}))).expect("a plan");
        assert!(p.writes);
        let e = plan(&params(json!({"operation": "GetBotz"}))).expect_err("unknown");
        assert!(e.message.contains("GetBot"), "{}", e.message);
        let e = plan(&params(json!({"operation": "UploadFile"}))).expect_err("multipart");
        assert!(
            e.message.contains("multipart") && e.message.contains("Nothing was sent"),
            "{}",
            e.message
        );
    }

    #[test]
    fn parameters_are_checked_before_anything_is_sent() {
        let id = "abcdefghijklmnopqrstuvwxyz";
        let cases = [
            (
                "GetChannel",
                json!({"channel_id": id, "chanel": 1}),
                "takes no parameter",
            ),
            ("GetChannel", json!({}), "needs the parameter `channel_id`"),
            (
                "GetChannel",
                json!({"channel_id": "../users/me"}),
                "a path value holds only",
            ),
            (
                "GetChannel",
                json!({"channel_id": "a b"}),
                "a path value holds only",
            ),
            ("GetChannel", json!({"channel_id": 5}), "must be a string"),
            ("GetBots", json!({"page": 2}), "pages GetBots itself"),
            (
                "GetBots",
                json!({"include_deleted": "maybe"}),
                "must be a boolean",
            ),
            (
                "GetPostsForChannel",
                json!({"channel_id": id, "per_page": 5}),
                "pages GetPostsForChannel itself",
            ),
            (
                "SearchPosts",
                json!({"team_id": id, "body": {"terms": "x", "page": 1}}),
                "body.page",
            ),
            ("SearchPosts", json!({"team_id": id}), "needs a body"),
            (
                "GetPostsForReporting",
                json!({"body": {"sort_direction": "sideways"}}),
                "one of",
            ),
        ];
        for (op, p, want) in cases {
            let e = check(of(op), &params(p.clone())).expect_err("refused");
            assert!(e.message.contains(want), "{op} {p}: {}", e.message);
            assert!(
                e.message.contains("Nothing was sent"),
                "{op} {p}: {}",
                e.message
            );
        }
        assert!(check(of("GetChannel"), &params(json!({"channel_id": id}))).is_ok());
        assert!(
            check(
                of("GetUserByEmail"),
                &params(json!({"email": "a.b+c@example.com"}))
            )
            .is_ok()
        );
        assert!(check(of("GetBots"), &params(json!({"include_deleted": "true"}))).is_ok());
    }

    #[test]
    fn a_question_shows_the_method_the_path_with_its_values_and_the_body() {
        let e = of("CreateIncomingWebhook");
        let p = params(
            json!({"body": {"channel_id": "abcdefghijklmnopqrstuvwxyz", "display_name": "Deploys"}}),
        );
        let q = question(e, &p);
        assert!(q.text.contains("POST /api/v4/hooks/incoming"), "{}", q.text);
        assert!(
            q.text.contains("\"display_name\": \"Deploys\""),
            "{}",
            q.text
        );
        let reordered = params(
            json!({"body": {"display_name": "Deploys", "channel_id": "abcdefghijklmnopqrstuvwxyz"}}),
        );
        assert_eq!(
            q.binding,
            question(e, &reordered).binding,
            "bound to the parameters, not their order"
        );
        let r = request_of(of("GetChannel"), &params(json!({"channel_id": "abc"})));
        assert_eq!(r, "GET /api/v4/channels/abc");
    }
}
