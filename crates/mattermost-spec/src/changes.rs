//! The changes between two releases' specs, as plain facts: operations added, removed and renamed
//! (same method and path, a new operationId), the parameters and body fields of one operation added,
//! removed, retyped or made (not) required, and the fields of a component schema added, removed or
//! retyped. `check` turns them into the report's lines; nothing here knows the tools.

use crate::document::resolve;
use crate::surface::{Location, Operation, Param, Surface, WHOLE_BODY, type_name};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// How the operation sets of two surfaces differ.
#[derive(Debug, Clone, Default)]
pub struct OperationChanges {
    /// In the new surface only (renames excluded).
    pub added: Vec<Operation>,
    /// In the old surface only (renames excluded).
    pub removed: Vec<Operation>,
    /// Same method and path, another operationId: (old, new).
    pub renamed: Vec<(Operation, Operation)>,
}

/// A path with its parameter names blanked (`/users/{}/teams/{}`), so that a renamed path variable
/// does not hide a renamed operation.
pub fn path_shape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_var = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_var = true;
                out.push('{');
            }
            '}' => {
                in_var = false;
                out.push('}');
            }
            _ if in_var => {}
            _ => out.push(c),
        }
    }
    out
}

/// The operations added, removed and renamed from `old` to `new`.
pub fn operations(old: &Surface, new: &Surface) -> OperationChanges {
    let mut added: Vec<&Operation> = new
        .operations
        .values()
        .filter(|op| old.get(&op.id).is_none())
        .collect();
    let mut out = OperationChanges::default();
    for op in old.operations.values() {
        if new.get(&op.id).is_some() {
            continue;
        }
        let shape = path_shape(&op.path);
        match added
            .iter()
            .position(|n| n.method == op.method && path_shape(&n.path) == shape)
        {
            Some(i) => {
                let renamed = added.remove(i);
                out.renamed.push((op.clone(), renamed.clone()));
            }
            None => out.removed.push(op.clone()),
        }
    }
    out.added = added.into_iter().cloned().collect();
    out
}

/// The name a tool's declaration gives a parameter: path and query parameters by name, body fields as
/// `body.<field>`, a body that is not an object as `body`.
pub fn declared_name(p: &Param) -> String {
    match p.location {
        Location::Body if p.name == WHOLE_BODY => "body".to_string(),
        Location::Body => format!("body.{}", p.name),
        _ => p.name.clone(),
    }
}

/// A change to one parameter of an operation, by its table name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamChange {
    /// Only the new operation has it.
    Added(Param),
    /// Only the old operation has it.
    Removed(Param),
    /// Both have it, with another short type ([`Param::ty`]: `string` became `integer/int64`, say).
    Retyped {
        /// As the old operation has it.
        before: Param,
        /// As the new operation has it.
        after: Param,
    },
    /// Both have it with the same type, but one requires it and the other does not;
    /// `after.required` says which way.
    Requirement {
        /// As the old operation has it.
        before: Param,
        /// As the new operation has it.
        after: Param,
    },
}

impl ParamChange {
    /// The parameter's table name.
    pub fn name(&self) -> String {
        match self {
            ParamChange::Added(p) | ParamChange::Removed(p) => declared_name(p),
            ParamChange::Retyped { after, .. } | ParamChange::Requirement { after, .. } => {
                declared_name(after)
            }
        }
    }
}

/// How the parameters of one operation differ between two releases, in the old operation's order,
/// then the new one's.
pub fn params(old: &Operation, new: &Operation) -> Vec<ParamChange> {
    let index = |op: &Operation| -> BTreeMap<String, Param> {
        op.params
            .iter()
            .map(|p| (declared_name(p), p.clone()))
            .collect()
    };
    let (before, after) = (index(old), index(new));
    let mut out = Vec::new();
    for p in &old.params {
        let name = declared_name(p);
        match after.get(&name) {
            None => out.push(ParamChange::Removed(p.clone())),
            Some(a) if a.ty != p.ty => out.push(ParamChange::Retyped {
                before: p.clone(),
                after: a.clone(),
            }),
            Some(a) if a.required != p.required => out.push(ParamChange::Requirement {
                before: p.clone(),
                after: a.clone(),
            }),
            Some(_) => {}
        }
    }
    for p in &new.params {
        if !before.contains_key(&declared_name(p)) {
            out.push(ParamChange::Added(p.clone()));
        }
    }
    out
}

/// One field of an object schema: its short type and whether it is required.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The short type [`type_name`] gives it (`string`, `integer/int64`, `array<Post>`, `Post`).
    pub ty: String,
    /// Listed in the schema's `required` (in any of its `allOf` parts).
    pub required: bool,
}

/// The top-level fields of an object schema (following `$ref` and `allOf`), by name.
pub fn fields(doc: &Value, schema: &Value) -> BTreeMap<String, Field> {
    let mut out = BTreeMap::new();
    let mut required = BTreeSet::new();
    collect(doc, schema, 0, &mut out, &mut required);
    for (name, f) in out.iter_mut() {
        f.required = required.contains(name);
    }
    out
}

fn collect(
    doc: &Value,
    schema: &Value,
    depth: usize,
    out: &mut BTreeMap<String, Field>,
    required: &mut BTreeSet<String>,
) {
    if depth > 6 {
        return;
    }
    let schema = resolve(doc, schema);
    for part in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        collect(doc, part, depth + 1, out, required);
    }
    for (name, prop) in schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        out.entry(name.clone()).or_insert_with(|| Field {
            ty: type_name(doc, prop),
            required: false,
        });
    }
    required.extend(
        schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string),
    );
}

/// A change to one field of a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldChange {
    /// Only the new schema has the field of this JSON name.
    Added(String, Field),
    /// Only the old schema has the field of this JSON name.
    Removed(String, Field),
    /// Both have it, with another short type (a change of `required` alone is not reported).
    Retyped {
        /// The field's JSON name.
        name: String,
        /// As the old schema has it.
        before: Field,
        /// As the new schema has it.
        after: Field,
    },
}

/// How the fields of two object schemas differ.
pub fn field_changes(
    before: &BTreeMap<String, Field>,
    after: &BTreeMap<String, Field>,
) -> Vec<FieldChange> {
    let mut out = Vec::new();
    for (name, f) in before {
        match after.get(name) {
            None => out.push(FieldChange::Removed(name.clone(), f.clone())),
            Some(a) if a.ty != f.ty => out.push(FieldChange::Retyped {
                name: name.clone(),
                before: f.clone(),
                after: a.clone(),
            }),
            Some(_) => {}
        }
    }
    for (name, f) in after {
        if !before.contains_key(name) {
            out.push(FieldChange::Added(name.clone(), f.clone()));
        }
    }
    out
}

/// The component schemas reachable from a schema through `$ref`, `items`, `properties`,
/// `additionalProperties` and `allOf`/`oneOf`/`anyOf`, by name.
pub fn reachable_schemas(doc: &Value, from: &Value, into: &mut BTreeSet<String>) {
    let mut stack = vec![from];
    let mut steps = 0usize;
    while let Some(v) = stack.pop() {
        steps += 1;
        if steps > 20_000 {
            return;
        }
        match v {
            Value::Object(map) => {
                if let Some(r) = map.get("$ref").and_then(Value::as_str)
                    && let Some(name) = r.strip_prefix("#/components/schemas/")
                    && into.insert(name.to_string())
                    && let Some(target) = doc.pointer(&format!("/components/schemas/{name}"))
                {
                    stack.push(target);
                }
                stack.extend(
                    map.iter()
                        .filter(|(k, _)| !matches!(k.as_str(), "required" | "enum" | "default"))
                        .map(|(_, child)| child),
                );
            }
            Value::Array(list) => stack.extend(list.iter()),
            _ => {}
        }
    }
}

/// The first 2xx JSON answer schema of the operation at `method` `path` in a document, if any.
pub fn answer_schema<'a>(doc: &'a Value, method: &str, path: &str) -> Option<&'a Value> {
    let item = crate::document::path_item(doc, path)?;
    let responses = item.get(method.to_ascii_lowercase())?.get("responses")?;
    responses
        .as_object()?
        .iter()
        .filter(|(status, _)| status.starts_with('2'))
        .find_map(|(_, r)| {
            let r = resolve(doc, r);
            r.pointer("/content/application~1json/schema")
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn op(
        id: &str,
        method: &str,
        path: &str,
        params: &[(&str, Location, bool, &str)],
    ) -> Operation {
        Operation {
            id: id.into(),
            method: method.into(),
            path: path.into(),
            params: params
                .iter()
                .map(|(n, l, r, t)| Param {
                    name: n.to_string(),
                    location: *l,
                    required: *r,
                    ty: t.to_string(),
                })
                .collect(),
            body_media: None,
            success: vec!["200".into()],
            response: "X".into(),
            tags: vec![],
        }
    }

    fn surface(ops: Vec<Operation>) -> Surface {
        Surface {
            operations: ops.into_iter().map(|o| (o.id.clone(), o)).collect(),
        }
    }

    #[test]
    fn a_new_id_on_the_same_method_and_path_is_a_rename_not_a_removal_and_an_addition() {
        let old = surface(vec![
            op(
                "GetChannelStats",
                "GET",
                "/api/v4/channels/{channel_id}/stats",
                &[],
            ),
            op(
                "ViewChannel",
                "POST",
                "/api/v4/channels/members/{user_id}/view",
                &[],
            ),
        ]);
        let new = surface(vec![
            op(
                "GetChannelStatistics",
                "GET",
                "/api/v4/channels/{id}/stats",
                &[],
            ),
            op(
                "MarkAllTeamChannelsRead",
                "PUT",
                "/api/v4/users/{user_id}/teams/{team_id}/read",
                &[],
            ),
        ]);
        let c = operations(&old, &new);
        assert_eq!(c.renamed.len(), 1);
        assert_eq!(c.renamed[0].0.id, "GetChannelStats");
        assert_eq!(c.renamed[0].1.id, "GetChannelStatistics");
        assert_eq!(
            c.removed.iter().map(|o| o.id.as_str()).collect::<Vec<_>>(),
            ["ViewChannel"]
        );
        assert_eq!(
            c.added.iter().map(|o| o.id.as_str()).collect::<Vec<_>>(),
            ["MarkAllTeamChannelsRead"]
        );
    }

    #[test]
    fn parameters_added_removed_retyped_and_made_required_are_each_named() {
        use Location::*;
        let old = op(
            "P",
            "GET",
            "/p",
            &[
                ("a", Query, false, "string"),
                ("b", Query, false, "integer"),
                ("c", Body, false, "string"),
            ],
        );
        let new = op(
            "P",
            "GET",
            "/p",
            &[
                ("b", Query, false, "string"),
                ("c", Body, true, "string"),
                ("type", Query, false, "string"),
            ],
        );
        let names: Vec<(String, &str)> = params(&old, &new)
            .iter()
            .map(|c| {
                let kind = match c {
                    ParamChange::Added(_) => "added",
                    ParamChange::Removed(_) => "removed",
                    ParamChange::Retyped { .. } => "retyped",
                    ParamChange::Requirement { .. } => "requirement",
                };
                (c.name(), kind)
            })
            .collect();
        assert_eq!(
            names,
            [
                ("a".to_string(), "removed"),
                ("b".to_string(), "retyped"),
                ("body.c".to_string(), "requirement"),
                ("type".to_string(), "added")
            ]
        );
    }

    #[test]
    fn fields_follow_refs_and_all_of_and_changes_are_named() {
        let doc = json!({"components": {"schemas": {
            "Base": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}},
            "Draft": {"allOf": [{"$ref": "#/components/schemas/Base"}, {"properties": {"n": {"type": "integer"}}}]}
        }}});
        let f = fields(&doc, &json!({"$ref": "#/components/schemas/Draft"}));
        assert_eq!(f.len(), 2);
        assert!(f["id"].required && !f["n"].required);
        let mut g = f.clone();
        g.remove("n");
        g.insert(
            "m".into(),
            Field {
                ty: "string".into(),
                required: false,
            },
        );
        g.insert(
            "id".into(),
            Field {
                ty: "integer".into(),
                required: true,
            },
        );
        let changes = field_changes(&f, &g);
        assert_eq!(changes.len(), 3, "{changes:?}");
        let mut seen = BTreeSet::new();
        reachable_schemas(
            &doc,
            &json!({"items": {"$ref": "#/components/schemas/Draft"}}),
            &mut seen,
        );
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["Base", "Draft"]);
    }
}
