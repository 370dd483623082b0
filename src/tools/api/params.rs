//! The gateway's checks of a call's parameters against its operation, before any request: unknown
//! names refused with the accepted ones, missing required ones named, types and enums checked, the
//! paging parameters the gateway walks itself refused, and a path value holding only the characters of
//! Mattermost's ids, names and emails (the generated client percent-encodes it besides, so no value
//! changes the path); and setting the paging parameters it walks.

use crate::error::{ToolError, quote};
use crate::mattermost::operations::{self, BODY, Entry, PagingKind, Params};
use mattermost_spec::catalog::TypeInfo;
use serde_json::{Value, json};

/// The paging parameters the gateway sets itself for an operation of this kind (`page`, `per_page`,
/// `body.page`, ...), which a call may not give.
pub(super) fn owned(e: &Entry) -> Vec<&str> {
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
pub(super) fn fits(t: &TypeInfo, v: &Value) -> bool {
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
pub(super) fn in_enum(t: &TypeInfo, v: &Value) -> bool {
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
pub(super) fn plain_path_value(s: &str) -> bool {
    !s.is_empty()
        && s != "."
        && s != ".."
        && s.len() <= 256
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.@+:~".contains(&b))
}

pub(super) fn refused(e: &Entry, name: &str, value: &Value, why: String) -> ToolError {
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
pub(super) fn check(e: &Entry, params: &Params) -> Result<(), ToolError> {
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
pub(super) fn check_body(e: &Entry, body: &Value, owned: &[&str]) -> Result<(), ToolError> {
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

pub(super) fn paged_by_gateway(e: &Entry, name: &str) -> ToolError {
    ToolError::bad_argument(format!(
        "call_operation pages {} itself, so `{name}` is its to set: leave it out. `limit` is the page size and \
         the answer's next_cursor gives the next page. Nothing was sent.",
        e.id
    ))
    .with("parameter", json!(name))
}

// ----- requests ---------------------------------------------------------------------------------

/// Sets a paging parameter (`name`, or `body.name` inside the body), as the type the operation takes.
pub(super) fn set(e: &Entry, params: &mut Params, name: &str, n: i64) {
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
}
