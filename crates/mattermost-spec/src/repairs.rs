//! The repairs the spec needs before progenitor can generate a client from it, and the normalization
//! that runs them.
//!
//! Each repair is declared by a file in `overrides/repairs/` that names its pass. Generic passes detect
//! a pattern anywhere in the spec (a response media type that is not a media type, a duplicated
//! operationId, ...); targeted passes change one operation or schema and say what they expect to find
//! there. A declared repair that finds nothing to change fails the build, so a spec fixed upstream
//! retires its repair. Only declared repairs run. After them come the undocumented parameters and the
//! one exclusion: operations with a `multipart/form-data` body, which progenitor cannot generate.

use crate::document::{METHODS, resolve};
use crate::overrides::{Overrides, Repair, locate_operation};
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// One change made to the spec.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Edit {
    /// The pass, or `undocumented parameter`.
    pub repair: String,
    /// The override file that asked for it.
    pub file: String,
    /// Where: `GET /api/v4/...`, a schema name, ...
    pub at: String,
    /// What changed there, in a few words (`success status 201 -> 200`, `add operation GetDrafts`).
    pub what: String,
}

/// An operation left out of generation.
#[derive(Debug, Clone, Serialize)]
pub struct Excluded {
    /// Its operationId (`?` when the spec gives none).
    pub operation: String,
    /// Upper case: `POST`, `PUT`, ...
    pub method: String,
    /// Its path template (`/api/v4/files`).
    pub path: String,
    /// Why it was left out (today always a `multipart/form-data` body, which progenitor cannot
    /// generate).
    pub reason: String,
    /// The path item the operation was removed from, as it was (for classifying the operation anyway).
    #[serde(skip)]
    pub item: Value,
}

/// What [`normalize`] did to a spec: the build writes it beside the client and
/// `mattermost-mcp overrides` prints it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Normalized {
    /// Every change the repairs and the undocumented parameters made, in the order made.
    pub edits: Vec<Edit>,
    /// The operations left out of the generated client (empty after [`repair_lenient`], which keeps
    /// them).
    pub excluded: Vec<Excluded>,
}

/// The passes, in the order they run. Generic passes first where later ones depend on them
/// (`dedupe_opids` makes names unique before anything looks an operation up by name).
pub const PASSES: &[(&str, &str)] = &[
    (
        "dedupe_opids",
        "generic: a second use of an operationId gets a numeric suffix",
    ),
    (
        "fix_content",
        "generic: a response content key that is not a media type moves under application/json",
    ),
    (
        "path_params",
        "generic: a {var} in a path with no declared parameter gets a required string parameter",
    ),
    (
        "add_operation",
        "targeted: an operation the router serves that the spec leaves out is added",
    ),
    (
        "response_status",
        "targeted: a success status the server does not send is replaced by the one it sends",
    ),
    (
        "response_schema",
        "targeted: a response schema is replaced by the shape the server sends",
    ),
    (
        "response_content",
        "targeted: a success response documented without content gets the JSON the server sends",
    ),
    (
        "body_media",
        "targeted: a request body media type is replaced by the one the server reads",
    ),
    (
        "add_property",
        "targeted: a property the server sends is added to a component schema",
    ),
    (
        "nullable_collections",
        "generic: array and map properties may be null, as Go encodes nil slices and maps",
    ),
    (
        "null_array_responses",
        "generic: an operation that answers an array may answer null for none (Go's nil slice): marked `x-null-is-empty`, read as []",
    ),
    (
        "fix_enum_type",
        "generic: an enum whose values do not match the declared type is dropped",
    ),
    (
        "unify_errors",
        "generic: an error response without content gets the AppError JSON schema",
    ),
    (
        "unify_success",
        "generic: an untyped 2xx beside a typed one is dropped",
    ),
    (
        "fix_name_collisions",
        "generic: an inline object property whose generated name is taken is hoisted",
    ),
];

type Changes = Vec<(String, String)>;

/// Runs the declared repairs, adds the undocumented parameters and excludes the multipart operations.
/// `doc` is changed in place. Errors name the override file at fault.
pub fn normalize(doc: &mut Value, overrides: &Overrides) -> Result<Normalized, Vec<String>> {
    let (normalized, errors) = normalize_lenient(doc, overrides);
    if errors.is_empty() {
        Ok(normalized)
    } else {
        Err(errors)
    }
}

/// As [`normalize`], but goes on past a repair that fails, so that every problem is reported at once
/// (what `spec-check` needs). Returns what was done and every error.
pub fn normalize_lenient(doc: &mut Value, overrides: &Overrides) -> (Normalized, Vec<String>) {
    let (mut out, errors) = repair_lenient(doc, overrides);
    out.excluded = drop_multipart(doc);
    (out, errors)
}

/// As [`normalize_lenient`], but keeps the multipart operations: the spec as repaired, every operation
/// in it, for comparing what the tools call (the hand-written multipart ones included).
pub fn repair_lenient(doc: &mut Value, overrides: &Overrides) -> (Normalized, Vec<String>) {
    let mut errors = Vec::new();
    let mut out = Normalized::default();
    for r in &overrides.repairs {
        if !PASSES.iter().any(|(name, _)| *name == r.repair) {
            let known: Vec<&str> = PASSES.iter().map(|(n, _)| *n).collect();
            errors.push(format!(
                "{}: unknown repair `{}`; known repairs: {}",
                r.file,
                r.repair,
                known.join(", ")
            ));
        }
    }
    for (pass, _) in PASSES {
        for r in overrides.repairs.iter().filter(|r| r.repair == *pass) {
            match run(pass, doc, r) {
                Ok(changes) if changes.is_empty() => errors.push(format!(
                    "{}: the repair `{}` no longer finds what it repairs ({}); if the spec was fixed \
                     upstream, delete this file.",
                    r.file,
                    r.repair,
                    first_sentence(&r.upstream)
                )),
                Ok(changes) => out.edits.extend(changes.into_iter().map(|(at, what)| Edit {
                    repair: r.repair.clone(),
                    file: r.file.clone(),
                    at,
                    what,
                })),
                Err(e) => errors.push(format!("{}: {e}", r.file)),
            }
        }
    }
    match overrides.apply_parameters(doc) {
        Ok(edits) => out.edits.extend(edits),
        Err(e) => errors.extend(e),
    }
    out.edits.extend(absolute_paths(doc));
    (out, errors)
}

fn first_sentence(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let end = one.find(". ").map(|i| i + 1).unwrap_or(one.len());
    let mut s: String = one[..end].chars().take(140).collect();
    if s.len() < one[..end].len() {
        s.push('…');
    }
    s
}

fn run(pass: &str, doc: &mut Value, r: &Repair) -> Result<Changes, String> {
    match pass {
        "dedupe_opids" => Ok(dedupe_opids(doc)),
        "fix_content" => Ok(fix_content(doc)),
        "path_params" => Ok(path_params(doc)),
        "add_operation" => add_operation(doc, r),
        "response_status" => response_status(doc, r),
        "response_schema" => response_schema(doc, r),
        "response_content" => response_content(doc, r),
        "body_media" => body_media(doc, r),
        "add_property" => add_property(doc, r),
        "nullable_collections" => Ok(nullable_collections(doc)),
        "null_array_responses" => Ok(null_array_responses(doc)),
        "fix_enum_type" => Ok(fix_enum_type(doc)),
        "unify_errors" => Ok(unify_errors(doc)),
        "unify_success" => Ok(unify_success(doc)),
        "fix_name_collisions" => Ok(fix_name_collisions(doc)),
        other => Err(format!("unknown repair `{other}`")),
    }
}

/// Every operation object with its path and method, mutable.
fn for_each_operation(doc: &mut Value, mut f: impl FnMut(&str, &str, &mut Map<String, Value>)) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        for method in METHODS {
            if let Some(op) = item.get_mut(method).and_then(Value::as_object_mut) {
                f(path, method, op);
            }
        }
    }
}

fn at(method: &str, path: &str) -> String {
    format!("{} {path}", method.to_ascii_uppercase())
}

fn dedupe_opids(doc: &mut Value) -> Changes {
    let mut seen = BTreeMap::new();
    let mut changes = Vec::new();
    for_each_operation(doc, |path, method, op| {
        let Some(raw) = op
            .get("operationId")
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            return;
        };
        let id = crate::surface::unique_id(&mut seen, &raw);
        if id != raw {
            op.insert("operationId".into(), Value::String(id.clone()));
            changes.push((at(method, path), format!("operationId {raw} -> {id}")));
        }
    });
    changes
}

fn fix_content(doc: &mut Value) -> Changes {
    let mut changes = Vec::new();
    for_each_operation(doc, |path, method, op| {
        let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
            return;
        };
        for (status, response) in responses.iter_mut() {
            let Some(content) = response.get_mut("content").and_then(Value::as_object_mut) else {
                continue;
            };
            let stray: Vec<String> = content
                .keys()
                .filter(|k| !k.contains('/'))
                .cloned()
                .collect();
            for key in stray {
                let Some(value) = content.remove(&key) else {
                    continue;
                };
                let json_media = content.entry("application/json").or_insert(Value::Null);
                if json_media.is_null() {
                    *json_media = json!({ key.clone(): value });
                }
                changes.push((
                    at(method, path),
                    format!("{status}: content key `{key}` moved under application/json"),
                ));
            }
            for (media, value) in content.iter_mut() {
                if value.is_null() {
                    *value = json!({});
                    changes.push((
                        at(method, path),
                        format!("{status}: null media type {media} made empty"),
                    ));
                }
            }
        }
    });
    changes
}

fn path_params(doc: &mut Value) -> Changes {
    let mut changes = Vec::new();
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return changes;
    };
    for (path, item) in paths.iter_mut() {
        let vars: Vec<String> = path
            .split('{')
            .skip(1)
            .filter_map(|s| s.split_once('}').map(|(v, _)| v.to_string()))
            .collect();
        let shared: BTreeSet<String> = declared_path_params(item.get("parameters"));
        for method in METHODS {
            let Some(op) = item.get_mut(method).and_then(Value::as_object_mut) else {
                continue;
            };
            let own = declared_path_params(op.get("parameters"));
            for var in &vars {
                if shared.contains(var) || own.contains(var) {
                    continue;
                }
                let list = op.entry("parameters").or_insert_with(|| json!([]));
                if let Some(list) = list.as_array_mut() {
                    list.push(json!({"name": var, "in": "path", "required": true, "schema": {"type": "string"}}));
                    changes.push((at(method, path), format!("declare path parameter `{var}`")));
                }
            }
        }
    }
    changes
}

fn declared_path_params(params: Option<&Value>) -> BTreeSet<String> {
    params
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|p| p.get("in").and_then(Value::as_str) == Some("path"))
        .filter_map(|p| p.get("name").and_then(Value::as_str).map(str::to_string))
        .collect()
}

fn fix_enum_type(doc: &mut Value) -> Changes {
    let mut changes = Vec::new();
    walk(doc, "", &mut |pointer, node| {
        let Some(obj) = node.as_object_mut() else {
            return;
        };
        let (Some(ty), Some(values)) = (
            obj.get("type").and_then(Value::as_str),
            obj.get("enum").and_then(Value::as_array),
        ) else {
            return;
        };
        let fits = |v: &Value| match ty {
            "string" => v.is_string(),
            "integer" => v.is_i64() || v.is_u64(),
            "number" => v.is_number(),
            "boolean" => v.is_boolean(),
            _ => true,
        };
        if !values.iter().all(fits) {
            let ty = ty.to_string();
            obj.remove("enum");
            changes.push((
                pointer.to_string(),
                format!("enum values are not {ty}; enum dropped"),
            ));
        }
    });
    changes
}

/// Marks every array-typed or map-typed property `nullable`: Mattermost is written in Go, which
/// encodes a nil slice or map as `null` wherever its field has no `omitempty` (a root post's
/// `participants`, a user's `props`), and the spec never says so.
fn nullable_collections(doc: &mut Value) -> Changes {
    let mut changes = Vec::new();
    walk(doc, "", &mut |pointer, node| {
        let Some(props) = node.get_mut("properties").and_then(Value::as_object_mut) else {
            return;
        };
        for (name, prop) in props.iter_mut() {
            let Some(obj) = prop.as_object_mut() else {
                continue;
            };
            if obj.contains_key("$ref")
                || obj.get("nullable").and_then(Value::as_bool) == Some(true)
            {
                continue;
            }
            let collection = match obj.get("type").and_then(Value::as_str) {
                Some("array") => true,
                Some("object") => !obj.contains_key("properties"),
                _ => false,
            };
            if collection {
                obj.insert("nullable".into(), Value::Bool(true));
                changes.push((format!("{pointer}/properties/{name}"), "may be null".into()));
            }
        }
    });
    changes
}

/// The extension that marks an operation whose answer is an array that Mattermost may send as `null`.
pub const NULL_IS_EMPTY: &str = "x-null-is-empty";

/// Marks every operation whose success answer is a JSON array (inline or through a `$ref`), so that the
/// transport reads a `null` body from it as the empty array it means.
fn null_array_responses(doc: &mut Value) -> Changes {
    let snapshot = doc.clone();
    let mut changes = Vec::new();
    for_each_operation(doc, |path, method, op| {
        let answers_array = op
            .get("responses")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(status, _)| status.starts_with('2'))
            .filter_map(|(_, r)| r.pointer("/content/application~1json/schema"))
            .any(|schema| {
                resolve(&snapshot, schema)
                    .get("type")
                    .and_then(Value::as_str)
                    == Some("array")
            });
        if answers_array {
            op.insert(NULL_IS_EMPTY.into(), Value::Bool(true));
            changes.push((at(method, path), "an answer of null is read as []".into()));
        }
    });
    changes
}

fn walk(node: &mut Value, pointer: &str, f: &mut dyn FnMut(&str, &mut Value)) {
    f(pointer, node);
    match node {
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                let child = format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1"));
                walk(v, &child, f);
            }
        }
        Value::Array(list) => {
            for (i, v) in list.iter_mut().enumerate() {
                walk(v, &format!("{pointer}/{i}"), f);
            }
        }
        _ => {}
    }
}

fn untyped(response: &Value) -> bool {
    response.get("$ref").is_none() && response.get("content").is_none()
}

fn unify_errors(doc: &mut Value) -> Changes {
    let mut changes = Vec::new();
    for_each_operation(doc, |path, method, op| {
        let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
            return;
        };
        for (status, response) in responses.iter_mut() {
            if status.starts_with('2') || !untyped(response) {
                continue;
            }
            if let Some(obj) = response.as_object_mut() {
                obj.insert(
                    "content".into(),
                    json!({"application/json": {"schema": {"$ref": "#/components/schemas/AppError"}}}),
                );
                changes.push((
                    at(method, path),
                    format!("{status}: untyped error response now AppError"),
                ));
            }
        }
    });
    changes
}

fn unify_success(doc: &mut Value) -> Changes {
    let mut changes = Vec::new();
    for_each_operation(doc, |path, method, op| {
        let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
            return;
        };
        let success: Vec<String> = responses
            .keys()
            .filter(|s| s.starts_with('2'))
            .cloned()
            .collect();
        let typed = success.iter().any(|s| !untyped(&responses[s]));
        if !typed {
            return;
        }
        for status in success {
            if untyped(&responses[&status]) {
                responses.remove(&status);
                changes.push((
                    at(method, path),
                    format!("dropped untyped {status} beside a typed 2xx"),
                ));
            }
        }
    });
    changes
}

fn pascal(s: &str) -> String {
    s.split(['_', '-', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(first) => first.to_uppercase().collect::<String>() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

fn fix_name_collisions(doc: &mut Value) -> Changes {
    let mut changes = Vec::new();
    let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return changes;
    };
    let names: BTreeSet<String> = schemas.keys().cloned().collect();
    let mut hoisted: Vec<(String, Value)> = Vec::new();
    for (name, schema) in schemas.iter_mut() {
        let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
            continue;
        };
        for (prop, value) in props.iter_mut() {
            let inline_object = value.get("$ref").is_none()
                && value.get("type").and_then(Value::as_str) == Some("object")
                && value.get("properties").is_some();
            let generated = format!("{name}{}", pascal(prop));
            if !inline_object || !names.contains(&generated) {
                continue;
            }
            let mut target = format!("{generated}Object");
            while names.contains(&target) || hoisted.iter().any(|(n, _)| *n == target) {
                target.push('_');
            }
            let body = std::mem::replace(
                value,
                json!({"$ref": format!("#/components/schemas/{target}")}),
            );
            changes.push((
                format!("schema {name}"),
                format!("{name}.{prop} hoisted to {target}"),
            ));
            hoisted.push((target, body));
        }
    }
    for (name, body) in hoisted {
        schemas.insert(name, body);
    }
    changes
}

fn required<'a>(r: &'a Repair, field: &str, value: &'a Option<String>) -> Result<&'a str, String> {
    value
        .as_deref()
        .ok_or_else(|| format!("the repair `{}` needs `{field}`", r.repair))
}

fn operation_pointer(doc: &Value, r: &Repair) -> Result<(String, String), String> {
    let id = required(r, "operation", &r.operation)?;
    let (path, method) = locate_operation(doc, id)
        .ok_or_else(|| format!("operation `{id}` does not exist in the spec"))?;
    let pointer = format!(
        "/paths/{}/{method}",
        path.replace('~', "~0").replace('/', "~1")
    );
    Ok((pointer, at(&method, &path)))
}

fn add_operation(doc: &mut Value, r: &Repair) -> Result<Changes, String> {
    let id = required(r, "operation", &r.operation)?;
    let method = required(r, "method", &r.method)?.to_ascii_lowercase();
    let path = required(r, "path", &r.path)?;
    let mut body = r
        .replace
        .clone()
        .ok_or("the repair `add_operation` needs `replace`: the operation")?;
    if !METHODS.contains(&method.as_str()) {
        return Err(format!("`method: {method}` is not an HTTP method"));
    }
    if locate_operation(doc, id).is_some() {
        return Ok(Vec::new());
    }
    let item = doc
        .get_mut("paths")
        .and_then(Value::as_object_mut)
        .ok_or("the spec has no paths")?
        .entry(path.to_string())
        .or_insert_with(|| json!({}));
    let item = item.as_object_mut().ok_or("path item is not an object")?;
    if item.contains_key(&method) {
        return Ok(Vec::new());
    }
    let obj = body
        .as_object_mut()
        .ok_or("`replace` must be an operation object")?;
    obj.insert("operationId".into(), Value::String(id.to_string()));
    item.insert(method.clone(), body);
    Ok(vec![(at(&method, path), format!("add operation {id}"))])
}

fn response_status(doc: &mut Value, r: &Repair) -> Result<Changes, String> {
    let (pointer, at) = operation_pointer(doc, r)?;
    let from = required(r, "status", &r.status)?;
    let to = required(r, "to", &r.to)?;
    let responses = doc
        .pointer_mut(&format!("{pointer}/responses"))
        .and_then(Value::as_object_mut)
        .ok_or("the operation has no responses")?;
    if responses.contains_key(to) || !responses.contains_key(from) {
        return Ok(Vec::new());
    }
    let mut rebuilt = Map::new();
    for (k, v) in std::mem::take(responses) {
        if k == from {
            rebuilt.insert(to.to_string(), v)
        } else {
            rebuilt.insert(k, v)
        };
    }
    *responses = rebuilt;
    Ok(vec![(at, format!("success status {from} -> {to}"))])
}

fn response_schema(doc: &mut Value, r: &Repair) -> Result<Changes, String> {
    let (pointer, at) = operation_pointer(doc, r)?;
    let status = required(r, "status", &r.status)?;
    let expect = r
        .expect
        .as_ref()
        .ok_or("the repair `response_schema` needs `expect`")?;
    let replace = r
        .replace
        .as_ref()
        .ok_or("the repair `response_schema` needs `replace`")?;
    let schema_pointer = format!("{pointer}/responses/{status}/content/application~1json/schema");
    let Some(schema) = doc.pointer_mut(&schema_pointer) else {
        return Err(format!("{at} has no JSON schema for {status}"));
    };
    if schema != expect {
        return Ok(Vec::new());
    }
    *schema = replace.clone();
    Ok(vec![(at, format!("{status} schema {expect} -> {replace}"))])
}

fn response_content(doc: &mut Value, r: &Repair) -> Result<Changes, String> {
    let (pointer, at) = operation_pointer(doc, r)?;
    let status = required(r, "status", &r.status)?;
    let replace = r
        .replace
        .as_ref()
        .ok_or("the repair `response_content` needs `replace` (the schema)")?;
    let response = doc
        .pointer_mut(&format!("{pointer}/responses/{status}"))
        .and_then(Value::as_object_mut)
        .ok_or_else(|| format!("{at} has no {status} response"))?;
    if response.contains_key("content") || response.contains_key("$ref") {
        return Ok(Vec::new());
    }
    response.insert(
        "content".into(),
        json!({ "application/json": { "schema": replace } }),
    );
    Ok(vec![(at, format!("{status} gets the content {replace}"))])
}

fn body_media(doc: &mut Value, r: &Repair) -> Result<Changes, String> {
    let (pointer, at) = operation_pointer(doc, r)?;
    let Some(Value::String(from)) = &r.expect else {
        return Err("the repair `body_media` needs `expect`: the media type found upstream".into());
    };
    let to = required(r, "to", &r.to)?;
    let content = doc
        .pointer_mut(&format!("{pointer}/requestBody/content"))
        .and_then(Value::as_object_mut)
        .ok_or("the operation has no request body")?;
    let Some(media) = content.remove(from) else {
        return Ok(Vec::new());
    };
    content.insert(to.to_string(), media);
    Ok(vec![(at, format!("request body {from} -> {to}"))])
}

fn add_property(doc: &mut Value, r: &Repair) -> Result<Changes, String> {
    let schema = required(r, "schema", &r.schema)?;
    let property = required(r, "property", &r.property)?;
    let replace = r
        .replace
        .as_ref()
        .ok_or("the repair `add_property` needs `replace` (the property's schema)")?;
    let target = doc
        .pointer_mut(&format!("/components/schemas/{schema}"))
        .ok_or_else(|| format!("schema `{schema}` does not exist in the spec"))?;
    let props = target
        .as_object_mut()
        .ok_or("schema is not an object")?
        .entry("properties")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or("`properties` is not an object")?;
    if props.contains_key(property) {
        return Ok(Vec::new());
    }
    props.insert(property.to_string(), replace.clone());
    Ok(vec![(
        format!("schema {schema}"),
        format!("add property `{property}`"),
    )])
}

/// Makes every path absolute: a spec whose server URL ends in `/api/v4` (older releases) gets that
/// prefix on its paths, and its server URL loses it, so the client's base URL is the server root in
/// every release. Not a declared repair: it is how the generated client is addressed, and a no-op on
/// specs that carry full paths.
pub fn absolute_paths(doc: &mut Value) -> Vec<Edit> {
    let base = crate::document::base_path(doc);
    if base.is_empty() {
        return Vec::new();
    }
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return Vec::new();
    };
    let moved: Vec<(String, Value)> = std::mem::take(paths)
        .into_iter()
        .map(|(p, item)| (crate::document::full_path(&base, &p), item))
        .collect();
    let count = moved.len();
    paths.extend(moved);
    if let Some(servers) = doc.get_mut("servers").and_then(Value::as_array_mut) {
        for server in servers {
            if let Some(url) = server
                .get("url")
                .and_then(Value::as_str)
                .map(str::to_string)
            {
                server["url"] = Value::String(
                    url.trim_end_matches('/')
                        .trim_end_matches(&base)
                        .to_string(),
                );
            }
        }
    }
    vec![Edit {
        repair: "absolute paths".into(),
        file: String::new(),
        at: format!("{count} paths"),
        what: format!("prefixed with {base}, the server URL's path"),
    }]
}

/// Removes the operations whose request body is `multipart/form-data`; progenitor cannot generate them.
pub fn drop_multipart(doc: &mut Value) -> Vec<Excluded> {
    let snapshot = doc.clone();
    let mut excluded = Vec::new();
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return excluded;
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for method in METHODS {
            let multipart = item
                .get(method)
                .and_then(|op| op.get("requestBody"))
                .map(|b| resolve(&snapshot, b))
                .and_then(|b| b.get("content"))
                .and_then(Value::as_object)
                .is_some_and(|c| c.contains_key("multipart/form-data"));
            if !multipart {
                continue;
            }
            let before = Value::Object(item.clone());
            if let Some(op) = item.remove(method) {
                excluded.push(Excluded {
                    item: before,
                    operation: op.get("operationId").and_then(Value::as_str).unwrap_or("?").to_string(),
                    method: method.to_ascii_uppercase(),
                    path: path.clone(),
                    reason: "multipart/form-data body: progenitor cannot generate it; hand-written where a tool needs it".into(),
                });
            }
        }
    }
    paths.retain(|_, item| {
        item.as_object()
            .is_some_and(|o| METHODS.iter().any(|m| o.contains_key(*m)))
    });
    excluded
}
