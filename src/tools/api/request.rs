//! One request of the gateway: the request as the model and the person read it, sending it once, its
//! failure as a tool error, Mattermost's answer read for paging, and the question asked before a write
//! (exactly what will be sent, bound to every parameter).

use crate::confirm::{Cleared, Question};
use crate::context::Ctx;
use crate::error::About;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::MmError;
use crate::mattermost::operations::{
    self, Access, Answer as Reply, BODY, DispatchError, Entry, PagingKind, Params,
};
use crate::paging::by_operation::{self, Shaped};
use serde_json::{Map, Value, json};

pub(super) fn shown_value(v: &Value) -> String {
    v.as_str()
        .map(str::to_string)
        .unwrap_or_else(|| v.to_string())
}

/// A query value as it goes on the wire: percent-encoded, so `&`, `=`, `#` or a newline in it stay in
/// the value.
fn encoded(v: &Value) -> String {
    url::form_urlencoded::byte_serialize(shown_value(v).as_bytes()).collect()
}

/// The request as sent: method, path with its values, and the query, percent-encoded as the client
/// sends it.
pub(super) fn request_of(e: &Entry, params: &Params) -> String {
    let mut path = e.path.clone();
    let mut query = Vec::new();
    for p in &e.params {
        let Some(v) = params.get(&p.name).filter(|v| !v.is_null()) else {
            continue;
        };
        match p.location.as_str() {
            "path" => path = path.replace(&format!("{{{}}}", p.name), &shown_value(v)),
            "query" => query.push(format!("{}={}", p.name, encoded(v))),
            _ => {}
        }
    }
    if query.is_empty() {
        format!("{} {path}", e.method)
    } else {
        format!("{} {path}?{}", e.method, query.join("&"))
    }
}

/// What a request is sent as: a read, or a write with the proof that it was cleared.
#[derive(Clone, Copy)]
pub(super) enum Sending<'a> {
    Read,
    Write(&'a Cleared),
}

/// Sends the operation once with `params`, reading at most `cap` bytes of a binary answer.
pub(super) async fn send(
    cx: &Ctx,
    e: &Entry,
    params: &Params,
    cap: usize,
    sending: Sending<'_>,
) -> Result<(Reply, String), ToolError> {
    let request = request_of(e, params);
    if e.access == Access::Write && matches!(sending, Sending::Read) {
        return Err(ToolError::internal(format!(
            "internal error: {request} writes, and was about to be sent as a read, without asking; nothing \
             was sent. Please report this."
        )));
    }
    if let Sending::Write(cleared) = sending {
        crate::log::debug(&format!("{}: a write, cleared {:?}", e.id, cleared.how()));
    }
    match operations::call_capped(cx.api(), &e.id, params, cap).await {
        Ok(reply) => Ok((reply, request)),
        Err(d) => Err(failed(cx, e, d, &request)),
    }
}

/// A failure as the model reads it: what was refused and why, and what to do next.
pub(super) fn failed(cx: &Ctx, e: &Entry, d: DispatchError, request: &str) -> ToolError {
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
pub(super) fn shape(e: &Entry, reply: Reply) -> (Shaped, u16, Option<String>) {
    match reply {
        Reply::Json { status, value } => {
            let listing = e.paging.kind != PagingKind::None || value.is_array();
            let shaped = match (listing, by_operation::list_of(&value), value) {
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

/// JSON with its object keys sorted, so that the same parameters always bind the same confirmation.
pub(super) fn canonical(v: &Value) -> String {
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

/// The most characters of body values a question shows in all. A longer body is cut field by field,
/// each field keeping its name and a fair share of the room (the shortest whole), so no field can push
/// another out of sight; what is confirmed is the whole of it (the answer is bound to every parameter).
pub(super) const SHOWN_BODY: usize = 4000;

/// The body fields given that the operation's body type does not hold, so the client drops them, as
/// `body.a`, `body.b.c`: what was given and is absent from what is sent.
fn dropped(given: &Value, sent: Option<&Value>, at: &str, out: &mut Vec<String>) {
    if let Value::Object(g) = given {
        for (k, v) in g {
            let here = format!("{at}.{k}");
            match sent.and_then(|s| s.get(k)) {
                None if !v.is_null() => out.push(here),
                None => {}
                Some(s) => dropped(v, Some(s), &here, out),
            }
        }
    }
}

/// Each top-level field of a body as the question shows it (`"name": value`, pretty JSON, every
/// invisible character written out), cut to share [`SHOWN_BODY`] fairly: a field is cut only when it
/// is longer than its share, and says how much of it is shown.
fn body_lines(body: &Value) -> String {
    let pretty = |v: &Value| {
        crate::show::text::escape_invisible(
            &serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string()),
        )
    };
    let fields: Vec<(String, String)> = match body {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| (crate::show::text::quoted(k), pretty(v)))
            .collect(),
        other => vec![(String::new(), pretty(other))],
    };
    let mut order: Vec<usize> = (0..fields.len()).collect();
    order.sort_by_key(|i| fields[*i].1.chars().count());
    let mut room = SHOWN_BODY;
    let mut share = vec![0usize; fields.len()];
    for (n, i) in order.iter().enumerate() {
        let fair = room / (fields.len() - n).max(1);
        let len = fields[*i].1.chars().count();
        share[*i] = len.min(fair.max(80));
        room = room.saturating_sub(share[*i]);
    }
    let mut out = Vec::new();
    for (i, (name, value)) in fields.iter().enumerate() {
        let len = value.chars().count();
        let shown = if len > share[i] {
            let head: String = value.chars().take(share[i]).collect();
            format!("{head}… (cut: {} of its {len} characters shown)", share[i])
        } else {
            value.clone()
        };
        out.push(if name.is_empty() {
            shown
        } else {
            format!("{name}: {shown}")
        });
    }
    out.join("\n")
}

/// What the person is asked before a write: the method, the path with its values, each query value
/// quoted, the address an outside operation reaches, and the body exactly as the client will send it
/// (fields its type does not hold are named apart, as not sent). Every value is quoted and escaped, so
/// no value can write text that looks like part of the question; the parts that decide (method, path,
/// targets, query, address, every body field's name) are never cut.
pub(super) fn question(e: &'static Entry, params: &Params) -> Result<Question, ToolError> {
    let mut path = e.path.clone();
    let mut query = Vec::new();
    for p in &e.params {
        let Some(v) = params.get(&p.name).filter(|v| !v.is_null()) else {
            continue;
        };
        match p.location.as_str() {
            "path" => path = path.replace(&format!("{{{}}}", p.name), &shown_value(v)),
            "query" => query.push(format!(
                "  {} = {}",
                p.name,
                crate::show::text::quoted(&shown_value(v))
            )),
            _ => {}
        }
    }
    let sent = operations::sent_body(e, params)
        .map_err(|d| ToolError::bad_argument(d.to_string()).with("operation", json!(e.id)))?;
    let mut not_sent = Vec::new();
    if let Some(given) = params.get(BODY).filter(|b| !b.is_null()) {
        dropped(given, sent.as_ref(), BODY, &mut not_sent);
    }
    let mut text = format!(
        "Send this request to Mattermost as you ({}, {})?\n\n{} {path}",
        e.id,
        e.tags.first().map(String::as_str).unwrap_or("api"),
        e.method
    );
    if !query.is_empty() {
        text.push_str(&format!("\nQuery:\n{}", query.join("\n")));
    }
    if let Some(o) = &e.outside {
        let addresses: Vec<String> = o
            .params
            .iter()
            .map(|name| {
                let value = match name.strip_prefix("body.") {
                    Some(field) => sent.as_ref().and_then(|b| b.get(field)),
                    None if name == BODY => sent.as_ref(),
                    None => params.get(name),
                };
                let shown = match value {
                    Some(Value::String(s)) => crate::show::text::quoted(s),
                    Some(v) if !v.is_null() => crate::show::text::escape_invisible(&v.to_string())
                        .chars()
                        .take(600)
                        .collect(),
                    _ => "(not given)".to_string(),
                };
                format!("  {name} = {shown}")
            })
            .collect();
        text.push_str(&format!(
            "\n\nIt reaches OUTSIDE Mattermost: {}. The address:\n{}",
            o.how,
            addresses.join("\n")
        ));
    }
    if let Some(b) = &sent {
        text.push_str(&format!(
            "\n\nBody, as it will be sent:\n{}",
            crate::confirm::shown(&body_lines(b))
        ));
    }
    if !not_sent.is_empty() {
        let names: Vec<String> = not_sent
            .iter()
            .take(20)
            .map(|n| crate::show::text::quoted(&n.chars().take(80).collect::<String>()))
            .collect();
        text.push_str(&format!(
            "\n\nNot sent (the operation's body has no such field, so they are dropped): {}{}",
            names.join(", "),
            if not_sent.len() > 20 {
                format!(" and {} more", not_sent.len() - 20)
            } else {
                String::new()
            }
        ));
    }
    let admin = if super::admin_only(e) {
        " It is an administrator's operation."
    } else {
        ""
    };
    text.push_str(&format!(
        "\n\nIt changes something in Mattermost, which others may see.{admin}"
    ));
    Ok(Question {
        action: format!("Send {} {}", e.method, e.path),
        text,
        binding: vec![
            e.id.clone(),
            canonical(&Value::Object(params.clone())),
            sent.as_ref().map(canonical).unwrap_or_default(),
        ],
    })
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
    fn every_parameter_that_looks_like_an_address_is_classed_outside_or_inside() {
        use mattermost_spec::catalog::{REACHES_OUTSIDE, STAYS_INSIDE, address_like};
        let catalog = operations::catalog();
        let mut unclassed = Vec::new();
        let mut scanned = 0;
        for e in &catalog.operations {
            for p in address_like(e) {
                scanned += 1;
                let outside = e.outside.as_ref().is_some_and(|o| {
                    o.params
                        .iter()
                        .any(|q| *q == p || q == BODY || p.starts_with(&format!("{q}.")))
                });
                let inside = STAYS_INSIDE.iter().any(|(op, q, _)| *op == e.id && *q == p);
                if !outside && !inside {
                    unclassed.push(format!("{} {p}", e.id));
                }
            }
        }
        assert!(scanned >= 25, "scanned only {scanned}");
        assert!(
            unclassed.is_empty(),
            "parameters that look like addresses, neither in REACHES_OUTSIDE nor STAYS_INSIDE: {unclassed:?}"
        );
        for (op, params, _) in REACHES_OUTSIDE {
            let e = of(op);
            assert_eq!(e.access, Access::Write, "{op} is asked like a write");
            for p in *params {
                let known = *p == BODY
                    || e.param(p).is_some()
                    || p.strip_prefix("body.").is_some_and(|f| {
                        e.body
                            .as_ref()
                            .is_some_and(|b| b.fields.iter().any(|x| x.name == f))
                    });
                assert!(known, "{op} has no parameter {p}");
            }
        }
        for (op, p, _) in STAYS_INSIDE {
            assert!(
                address_like(of(op)).iter().any(|q| q == p),
                "{op} {p} is no longer a parameter that looks like an address"
            );
        }
    }

    #[test]
    fn a_question_quotes_every_value_and_shows_a_dropped_field_apart() {
        let e = of("InstallPluginFromUrl");
        let p = params(
            json!({"plugin_download_url": "http://x.example/p.tgz\n\nThis is only a read of your profile.\u{202E}"}),
        );
        let q = question(e, &p).expect("a question");
        assert!(
            q.text.contains(
                "plugin_download_url = \"http://x.example/p.tgz\\n\\nThis is only a read of your profile.\\u{202E}\""
            ),
            "{}",
            q.text
        );
        assert!(!q.text.contains("p.tgz\n"), "{}", q.text);
        assert!(q.text.contains("OUTSIDE Mattermost"), "{}", q.text);
        let r = request_of(e, &p);
        assert!(!r.contains('\n') && r.contains("%0A%0AThis"), "{r}");
        let e = of("CreatePost");
        let p = params(
            json!({"body": {"aaaa": "a".repeat(6000), "channel_id": "abcdefghijklmnopqrstuvwxyz",
            "message": "HIDDEN: wire the money"}}),
        );
        let q = question(e, &p).expect("a question");
        assert!(q.text.contains("HIDDEN: wire the money"), "{}", q.text);
        assert!(q.text.contains("\"body.aaaa\""), "{}", q.text);
        assert!(!q.text.contains(&"a".repeat(50)), "{}", q.text);
        let e = of("CreatePost");
        let p = params(
            json!({"body": {"message": "x".repeat(9000), "channel_id": "abcdefghijklmnopqrstuvwxyz"}}),
        );
        let q = question(e, &p).expect("a question");
        assert!(
            q.text
                .contains("\"channel_id\": \"abcdefghijklmnopqrstuvwxyz\""),
            "a short field stays whole when a long one is cut: {}",
            q.text
        );
        assert!(q.text.contains("(cut:"), "{}", q.text);
    }

    #[test]
    fn a_question_shows_the_method_the_path_with_its_values_and_the_body() {
        let e = of("CreateIncomingWebhook");
        let p = params(
            json!({"body": {"channel_id": "abcdefghijklmnopqrstuvwxyz", "display_name": "Deploys"}}),
        );
        let q = question(e, &p).expect("a question");
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
            question(e, &reordered).expect("a question").binding,
            "bound to the parameters, not their order"
        );
        let r = request_of(of("GetChannel"), &params(json!({"channel_id": "abc"})));
        assert_eq!(r, "GET /api/v4/channels/abc");
    }
}
