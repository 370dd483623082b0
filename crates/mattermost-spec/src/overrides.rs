//! The project's overrides of the spec, one small YAML file each under `overrides/`:
//! `parameters/` declares the parameters Mattermost's router reads that the spec leaves out (with the
//! server code that reads them and the test that shows it), `repairs/` the repairs the spec needs before
//! a client can be generated from it (what is wrong upstream, what the repair changes).

use crate::surface::{Location, Surface};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Where in Mattermost's source a parameter is read.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    /// The server source file, e.g. `server/channels/api4/post.go`.
    pub source: String,
    /// The function that reads it, e.g. `getPostsForChannel`.
    pub function: String,
    /// How it is read and what it does.
    pub reads: String,
}

/// An undocumented parameter: the router reads it, the spec does not list it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parameter {
    /// The operationId it belongs to (as deduplicated by the build: `SearchFiles2`); the build
    /// fails when the spec has no such operation.
    pub operation: String,
    /// Where the server reads it: `query` or `body` (a top-level field of a JSON body), as
    /// [`Location::parse`] reads it.
    #[serde(rename = "in")]
    pub location: String,
    /// As the server reads it (`pending_post_id`); the build fails when the spec documents it after
    /// all.
    pub name: String,
    /// `boolean`, `integer` or `string`.
    #[serde(rename = "type")]
    pub ty: String,
    /// What it does; the build puts it in the parameter's description in the spec (after a note
    /// naming this file), and `mattermost-mcp overrides` shows it.
    pub description: String,
    /// Where Mattermost's server reads it.
    pub evidence: Evidence,
    /// The test that shows the server reading it: `tests/<file>.rs::<test name>`.
    pub test: String,
    /// The file it was read from (set when loading; kept when the overrides travel as JSON).
    #[serde(default)]
    pub file: String,
}

impl Parameter {
    /// The file's `in` parsed; `None` when it names a location other than path, query or body.
    pub fn location(&self) -> Option<Location> {
        Location::parse(&self.location)
    }
}

/// A repair of the spec. `repair` names the pass (see `repairs.rs`); targeted passes take the
/// operation or schema they change and what they expect to find there.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Repair {
    /// The pass it runs: a targeted one (`add_operation`, `response_status`, `response_schema`,
    /// `response_content`, `body_media`, `add_property`) or a whole-spec one (`dedupe_opids`,
    /// `fix_content`, `unify_errors`, ...); the build fails on any other name.
    pub repair: String,
    /// What is wrong upstream.
    pub upstream: String,
    /// What the repair changes.
    pub change: String,
    /// Where the real server's behaviour is shown, for repairs that follow the server, not the spec.
    #[serde(default)]
    pub evidence: Option<String>,
    /// The operationId a targeted pass changes (or, for `add_operation`, adds); `None` for the
    /// passes over the whole spec and for `add_property`.
    #[serde(default)]
    pub operation: Option<String>,
    /// `add_operation` only: the HTTP method of the operation it adds (`get`, `post`, ...).
    #[serde(default)]
    pub method: Option<String>,
    /// `add_operation` only: the path template of the operation it adds
    /// (`/api/v4/users/{user_id}/teams/{team_id}/drafts`).
    #[serde(default)]
    pub path: Option<String>,
    /// The response status the pass looks at (`"201"`), for `response_status`, `response_schema`
    /// and `response_content`.
    #[serde(default)]
    pub status: Option<String>,
    /// What the pass changes to: the new status (`response_status`) or the new media type
    /// (`body_media`).
    #[serde(default)]
    pub to: Option<String>,
    /// `add_property` only: the component schema that gets the property (`Post`).
    #[serde(default)]
    pub schema: Option<String>,
    /// `add_property` only: the property's JSON name (`is_pinned`).
    #[serde(default)]
    pub property: Option<String>,
    /// What the pass must find upstream before it changes anything: the response schema
    /// (`response_schema`) or the media type (`body_media`). When the spec no longer has it, the
    /// repair finds nothing to do, which fails the build (`spec-check` reports it retired).
    #[serde(default)]
    pub expect: Option<Value>,
    /// What the pass puts in: the operation object (`add_operation`), the response schema
    /// (`response_schema`, `response_content`) or the property's schema (`add_property`).
    #[serde(default)]
    pub replace: Option<Value>,
    /// The file it was read from (set when loading; kept when the overrides travel as JSON).
    #[serde(default)]
    pub file: String,
}

/// Every declared override, as [`Overrides::load`] reads them from `overrides/` (sorted by file
/// name).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Overrides {
    /// The undocumented parameters, from `overrides/parameters/*.yaml`.
    pub parameters: Vec<Parameter>,
    /// The repairs, from `overrides/repairs/*.yaml`.
    pub repairs: Vec<Repair>,
}

fn yaml_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.extension().is_some_and(|e| e == "yaml") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

fn relative(path: &Path, root: &Path) -> String {
    let base = root.parent().unwrap_or(root);
    path.strip_prefix(base)
        .unwrap_or(path)
        .display()
        .to_string()
}

impl Overrides {
    /// Reads `overrides/parameters/*.yaml` and `overrides/repairs/*.yaml`. Every file that does not parse
    /// is reported by name.
    pub fn load(dir: &Path) -> Result<Overrides, Vec<String>> {
        let mut out = Overrides::default();
        let mut errors = Vec::new();
        for (sub, is_param) in [("parameters", true), ("repairs", false)] {
            let files = match yaml_files(&dir.join(sub)) {
                Ok(f) => f,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            for path in files {
                let name = relative(&path, dir);
                let text = match std::fs::read_to_string(&path) {
                    Ok(t) => t,
                    Err(e) => {
                        errors.push(format!("{name}: cannot read: {e}"));
                        continue;
                    }
                };
                if is_param {
                    match serde_yaml::from_str::<Parameter>(&text) {
                        Ok(mut p) => {
                            p.file = name;
                            out.parameters.push(p);
                        }
                        Err(e) => errors.push(format!("{name}: {e}")),
                    }
                } else {
                    match serde_yaml::from_str::<Repair>(&text) {
                        Ok(mut r) => {
                            r.file = name;
                            out.repairs.push(r);
                        }
                        Err(e) => errors.push(format!("{name}: {e}")),
                    }
                }
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    /// Checks the undocumented parameters against the spec as Mattermost publishes it (before any
    /// repair): the operation exists, the location is query or body, the type is one the generator
    /// knows, and the parameter is truly absent from the spec.
    pub fn check_parameters(&self, upstream: &Surface) -> Vec<String> {
        let mut errors = Vec::new();
        for p in &self.parameters {
            let Some(op) = upstream.get(&p.operation) else {
                errors.push(format!(
                    "{}: operation `{}` does not exist in the spec; fix the name or delete the file",
                    p.file, p.operation
                ));
                continue;
            };
            let Some(location) = p.location().filter(|l| *l != Location::Path) else {
                errors.push(format!(
                    "{}: `in: {}` must be `query` or `body`",
                    p.file, p.location
                ));
                continue;
            };
            if !matches!(p.ty.as_str(), "boolean" | "integer" | "string") {
                errors.push(format!(
                    "{}: `type: {}` must be boolean, integer or string",
                    p.file, p.ty
                ));
            }
            if op.param(location, &p.name).is_some() {
                errors.push(format!(
                    "{}: `{}` is documented by the spec for {} ({}), so it is not undocumented; delete the file",
                    p.file, p.name, p.operation, p.location
                ));
            }
            if location == Location::Body && op.body_media.as_deref() != Some("application/json") {
                errors.push(format!(
                    "{}: {} has no JSON body to add `{}` to",
                    p.file, p.operation, p.name
                ));
            }
            if !p.test.contains("::") || !p.test.starts_with("tests/") {
                errors.push(format!(
                    "{}: `test: {}` must name the test that shows it, as tests/<file>.rs::<test>",
                    p.file, p.test
                ));
            }
        }
        errors
    }

    /// Adds the undocumented parameters to the spec, so the generated client has them as ordinary typed
    /// parameters.
    pub fn apply_parameters(&self, doc: &mut Value) -> Result<Vec<crate::Edit>, Vec<String>> {
        let mut edits = Vec::new();
        let mut errors = Vec::new();
        for p in &self.parameters {
            let schema = json!({ "type": p.ty });
            match add_parameter(doc, p, schema) {
                Ok(at) => edits.push(crate::Edit {
                    repair: "undocumented parameter".into(),
                    file: p.file.clone(),
                    at,
                    what: format!("add {} `{}` ({})", p.location, p.name, p.ty),
                }),
                Err(e) => errors.push(format!("{}: {e}", p.file)),
            }
        }
        if errors.is_empty() {
            Ok(edits)
        } else {
            Err(errors)
        }
    }
}

/// Finds an operation by (deduplicated) operationId: its path, method and the operation object.
pub fn find_operation_mut<'a>(
    doc: &'a mut Value,
    id: &str,
) -> Option<(String, String, &'a mut Value)> {
    let (path, method) = locate_operation(doc, id)?;
    let op = doc.get_mut("paths")?.get_mut(&path)?.get_mut(&method)?;
    Some((path, method, op))
}

/// The path and lower-case method of the operation whose (deduplicated) operationId is `id`.
pub(crate) fn locate_operation(doc: &Value, id: &str) -> Option<(String, String)> {
    let paths = doc.get("paths")?.as_object()?;
    let mut seen = std::collections::BTreeMap::new();
    for (path, item) in paths {
        for method in crate::document::METHODS {
            let Some(raw) = item
                .get(method)
                .and_then(|o| o.get("operationId"))
                .and_then(Value::as_str)
            else {
                continue;
            };
            if crate::surface::unique_id(&mut seen, raw) == id {
                return Some((path.clone(), method.to_string()));
            }
        }
    }
    None
}

fn add_parameter(doc: &mut Value, p: &Parameter, schema: Value) -> Result<String, String> {
    let (path, method) = locate_operation(doc, &p.operation)
        .ok_or_else(|| format!("no operation `{}`", p.operation))?;
    let at = format!("{} {path}", method.to_ascii_uppercase());
    let op_pointer = format!(
        "/paths/{}/{method}",
        path.replace('~', "~0").replace('/', "~1")
    );
    match p.location() {
        Some(Location::Query) => {
            let op = doc.pointer_mut(&op_pointer).ok_or("operation not found")?;
            let params = op
                .as_object_mut()
                .ok_or("operation is not an object")?
                .entry("parameters")
                .or_insert_with(|| json!([]));
            let list = params.as_array_mut().ok_or("`parameters` is not a list")?;
            list.push(json!({
                "name": p.name, "in": "query", "required": false,
                "description": format!("Undocumented upstream; declared in {}. {}", p.file, p.description),
                "schema": schema,
            }));
            Ok(at)
        }
        Some(Location::Body) => {
            let body_pointer = format!("{op_pointer}/requestBody/content/application~1json/schema");
            let reference = doc
                .pointer(&body_pointer)
                .ok_or("the operation has no JSON request body")?
                .get("$ref")
                .and_then(Value::as_str)
                .map(|r| r.rsplit('/').next().unwrap_or(r).to_string());
            let (target_pointer, at) = match reference {
                Some(name) => (
                    format!("/components/schemas/{name}"),
                    format!("{at} (schema {name})"),
                ),
                None => (body_pointer, at),
            };
            let target = doc
                .pointer_mut(&target_pointer)
                .ok_or("body schema not found")?;
            insert_property(target, p, schema)?;
            Ok(at)
        }
        _ => Err(format!("`in: {}` must be query or body", p.location)),
    }
}

fn insert_property(target: &mut Value, p: &Parameter, mut schema: Value) -> Result<(), String> {
    if let Some(o) = schema.as_object_mut() {
        o.insert(
            "description".into(),
            Value::String(format!(
                "Undocumented upstream; declared in {}. {}",
                p.file, p.description
            )),
        );
    }
    let props = target
        .as_object_mut()
        .ok_or("body schema is not an object")?
        .entry("properties")
        .or_insert_with(|| json!({}));
    props
        .as_object_mut()
        .ok_or("body `properties` is not an object")?
        .insert(p.name.clone(), schema);
    Ok(())
}
