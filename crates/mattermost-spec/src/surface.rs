//! The surface of a spec: every operation with its method, path, parameters (path, query and the
//! top-level fields of a JSON body), success statuses and response shape. This is what the tools'
//! declarations are checked against and what `spec-check` compares between releases.

use crate::document::{METHODS, resolve};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// Where a request carries a parameter. Header and cookie parameters are not part of the surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Location {
    /// A `{name}` segment of the path template.
    Path,
    /// The query string.
    Query,
    /// A top-level field of the request body, or the whole body ([`WHOLE_BODY`]).
    Body,
}

impl Location {
    /// The spec's spelling (`path`, `query`) and `body`, as the tools' declarations and reports write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Body => "body",
        }
    }

    /// The location named by [`Location::as_str`]'s spelling; `None` for `header`, `cookie` or
    /// anything else.
    pub fn parse(s: &str) -> Option<Location> {
        match s {
            "path" => Some(Location::Path),
            "query" => Some(Location::Query),
            "body" => Some(Location::Body),
            _ => None,
        }
    }
}

/// The name a body parameter has when the body is not an object (a JSON array of ids, say).
pub const WHOLE_BODY: &str = "[]";

/// One parameter of an operation's surface: a path or query parameter, or a top-level body field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    /// As the spec names it (`per_page`), or [`WHOLE_BODY`] for a body that is not an object.
    pub name: String,
    /// Where it is sent.
    pub location: Location,
    /// Always true for a path parameter; a body field is required when the body schema lists it (a
    /// [`WHOLE_BODY`] parameter when the request body is required); otherwise the spec's
    /// `required`.
    pub required: bool,
    /// A short type: `string`, `integer/int64`, `boolean`, `array<string>`, `Post`, ...
    pub ty: String,
}

/// One operation as the surface sees it: what a caller sends and what it gets back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operation {
    /// The operationId, with the numeric suffix a duplicate gets (`SearchFiles2`).
    pub id: String,
    /// Upper case: `GET`, `POST`, ...
    pub method: String,
    /// The full path template from the server root (`/api/v4/users/{user_id}`), even in a spec
    /// whose server URL carries `/api/v4`.
    pub path: String,
    /// Path and query parameters (the path item's shared ones and the operation's own, which
    /// replace a shared one of the same name), then the body's top-level fields.
    pub params: Vec<Param>,
    /// The media type of the request body, when there is one.
    pub body_media: Option<String>,
    /// The documented 2xx statuses.
    pub success: Vec<String>,
    /// A short description of the first 2xx response's schema.
    pub response: String,
    /// The spec's tags (`posts`, `channels`, ...).
    pub tags: Vec<String>,
}

impl Operation {
    /// Its parameter of this name at this location, if it has one.
    pub fn param(&self, location: Location, name: &str) -> Option<&Param> {
        self.params
            .iter()
            .find(|p| p.location == location && p.name == name)
    }

    /// A read: GET or HEAD, or a POST whose path ends in a search or lookup (`/search`, `/ids`,
    /// `/usernames`, `/autocomplete`, `/status/ids`).
    pub fn reads(&self) -> bool {
        match self.method.as_str() {
            "GET" | "HEAD" => true,
            "POST" => {
                let last = self.path.rsplit('/').next().unwrap_or("");
                matches!(last, "search" | "ids" | "usernames" | "autocomplete")
            }
            _ => false,
        }
    }
}

/// Every operation of a spec, by operationId. A duplicated operationId gets the same numeric suffix the
/// `dedupe_opids` repair gives it (`SearchFiles`, `SearchFiles2`), so names agree before and after
/// repair.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Surface {
    /// Keyed by [`Operation::id`].
    pub operations: BTreeMap<String, Operation>,
}

impl Surface {
    /// The surface of a whole spec document (raw or repaired): every operation under `paths` that
    /// has an operationId.
    pub fn of(doc: &Value) -> Surface {
        let mut operations = BTreeMap::new();
        let Some(paths) = doc.get("paths").and_then(Value::as_object) else {
            return Surface { operations };
        };
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let base = crate::document::base_path(doc);
        for (path, item) in paths {
            let path = &crate::document::full_path(&base, path);
            let shared = item.get("parameters").and_then(Value::as_array);
            for method in METHODS {
                let Some(op) = item.get(method) else { continue };
                let Some(raw_id) = op.get("operationId").and_then(Value::as_str) else {
                    continue;
                };
                let id = unique_id(&mut seen, raw_id);
                operations.insert(id.clone(), operation(doc, &id, method, path, shared, op));
            }
        }
        Surface { operations }
    }

    /// The operation of exactly this (deduplicated) operationId.
    pub fn get(&self, id: &str) -> Option<&Operation> {
        self.operations.get(id)
    }

    /// Operations that answer with a list: GET with a top-level array or a known list wrapper, or a
    /// POST search.
    pub fn list_operations(&self) -> impl Iterator<Item = &Operation> {
        self.operations.values().filter(|op| {
            (op.method == "GET"
                && (op.response.starts_with("array<")
                    || matches!(
                        op.response.as_str(),
                        "PostList" | "UserThreads" | "ChannelListWithTeamData" | "FileInfoList"
                    )))
                || (op.method == "POST" && op.path.ends_with("/search"))
        })
    }
}

/// The name the n-th use of an operationId gets: itself, then `<id>2`, `<id>3`, ...
pub fn unique_id(seen: &mut BTreeMap<String, usize>, raw: &str) -> String {
    let n = seen.entry(raw.to_string()).or_insert(0);
    *n += 1;
    if *n == 1 {
        raw.to_string()
    } else {
        format!("{raw}{n}")
    }
}

fn operation(
    doc: &Value,
    id: &str,
    method: &str,
    path: &str,
    shared: Option<&Vec<Value>>,
    op: &Value,
) -> Operation {
    let mut params: Vec<Param> = Vec::new();
    let own = op.get("parameters").and_then(Value::as_array);
    for p in shared
        .into_iter()
        .flatten()
        .chain(own.into_iter().flatten())
    {
        let p = resolve(doc, p);
        let (Some(name), Some(location)) = (
            p.get("name").and_then(Value::as_str),
            p.get("in")
                .and_then(Value::as_str)
                .and_then(Location::parse),
        ) else {
            continue;
        };
        let param = Param {
            name: name.to_string(),
            location,
            required: p.get("required").and_then(Value::as_bool).unwrap_or(false)
                || location == Location::Path,
            ty: p
                .get("schema")
                .map(|s| type_name(doc, s))
                .unwrap_or_else(|| "?".into()),
        };
        params.retain(|q| !(q.location == location && q.name == param.name));
        params.push(param);
    }
    let mut body_media = None;
    if let Some(body) = op.get("requestBody").map(|b| resolve(doc, b)) {
        let body_required = body
            .get("required")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if let Some((media, content)) = body
            .get("content")
            .and_then(Value::as_object)
            .and_then(|c| c.iter().next())
        {
            body_media = Some(media.clone());
            if let Some(schema) = content.get("schema") {
                params.extend(body_fields(doc, schema, body_required));
            }
        }
    }
    let mut success = Vec::new();
    let mut response = String::new();
    if let Some(responses) = op.get("responses").and_then(Value::as_object) {
        for (status, r) in responses {
            if !status.starts_with('2') {
                continue;
            }
            success.push(status.clone());
            if response.is_empty() {
                let r = resolve(doc, r);
                response = r
                    .get("content")
                    .and_then(Value::as_object)
                    .and_then(|c| c.get("application/json").or_else(|| c.values().next()))
                    .and_then(|m| m.get("schema"))
                    .map(|s| type_name(doc, s))
                    .unwrap_or_else(|| "(no content)".into());
            }
        }
    }
    let tags = op
        .get("tags")
        .and_then(Value::as_array)
        .map(|t| {
            t.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Operation {
        id: id.to_string(),
        method: method.to_ascii_uppercase(),
        path: path.to_string(),
        params,
        body_media,
        success,
        response,
        tags,
    }
}

/// The top-level fields of a body schema (following `$ref` and `allOf`), or one [`WHOLE_BODY`]
/// parameter when the body is not an object.
fn body_fields(doc: &Value, schema: &Value, body_required: bool) -> Vec<Param> {
    let mut fields = Vec::new();
    let mut required: Vec<String> = Vec::new();
    let mut is_object = false;
    collect_properties(doc, schema, 0, &mut fields, &mut required, &mut is_object);
    if !is_object {
        return vec![Param {
            name: WHOLE_BODY.to_string(),
            location: Location::Body,
            required: body_required,
            ty: type_name(doc, schema),
        }];
    }
    fields
        .into_iter()
        .map(|(name, ty)| Param {
            required: required.contains(&name),
            name,
            location: Location::Body,
            ty,
        })
        .collect()
}

fn collect_properties(
    doc: &Value,
    schema: &Value,
    depth: usize,
    fields: &mut Vec<(String, String)>,
    required: &mut Vec<String>,
    is_object: &mut bool,
) {
    if depth > 5 {
        return;
    }
    let schema = resolve(doc, schema);
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        for part in parts {
            collect_properties(doc, part, depth + 1, fields, required, is_object);
        }
    }
    let typed_object = schema.get("type").and_then(Value::as_str) == Some("object");
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        *is_object = true;
        for (name, prop) in props {
            if !fields.iter().any(|(n, _)| n == name) {
                fields.push((name.clone(), type_name(doc, prop)));
            }
        }
    } else if typed_object {
        *is_object = true;
    }
    if let Some(req) = schema.get("required").and_then(Value::as_array) {
        required.extend(req.iter().filter_map(Value::as_str).map(str::to_string));
    }
}

/// A short name for a schema: the component it refers to, or its type (with format and items).
pub fn type_name(doc: &Value, schema: &Value) -> String {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or(r).to_string();
    }
    let _ = doc;
    match schema.get("type").and_then(Value::as_str) {
        Some("array") => {
            let item = schema
                .get("items")
                .map(|i| type_name(doc, i))
                .unwrap_or_else(|| "?".into());
            format!("array<{item}>")
        }
        Some(t) => match schema.get("format").and_then(Value::as_str) {
            Some(f) => format!("{t}/{f}"),
            None => t.to_string(),
        },
        None => match ["allOf", "oneOf", "anyOf"]
            .iter()
            .find_map(|k| schema.get(*k).and_then(Value::as_array).map(|l| (k, l)))
        {
            Some((k, parts)) => {
                let names: Vec<String> = parts.iter().map(|p| type_name(doc, p)).collect();
                format!("{k}<{}>", names.join(", "))
            }
            None => "any".into(),
        },
    }
}
