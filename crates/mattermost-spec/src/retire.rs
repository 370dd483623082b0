//! What retiring a repair does to the generated client's type names.
//!
//! progenitor names a schema written inline after where it stands: an operation's request body is
//! `<OperationId>Body`, its (first 2xx) answer `<OperationId>Response`, the items of an answer that is
//! an array `<OperationId>ResponseItem`, an inline object property `<Parent><Property>` (in
//! PascalCase), the items of an inline array property `<Parent><Property>Item`. A repair that writes a
//! schema inline therefore creates those names, and the tool code uses them. When upstream documents
//! the same thing with a `$ref` (`Draft`), retiring the repair makes the names go away and the `$ref`'s
//! name replaces them. This module derives both from the repair and the new spec, with the fields the
//! two types do not share (a struct literal needs the new ones; code that reads a field that is gone
//! breaks).

use crate::changes::{Field, fields};
use crate::document::resolve;
use crate::overrides::Repair;
use serde_json::Value;
use std::collections::BTreeMap;

/// A generated type name that goes away with a repair, and what replaces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeRename {
    /// The name the repair's inline schema gives (`GetDraftsResponseItem`).
    pub from: String,
    /// The name the new spec's schema gives at the same place (`Draft`), or `None` when nothing
    /// replaces it (the place is gone or is no longer an object).
    pub to: Option<String>,
    /// Where: `GetDrafts 200 answer items`, `UpsertDraft body`.
    pub at: String,
    /// Fields the replacement has that the retired type has not (JSON names).
    pub fields_added: Vec<(String, Field)>,
    /// Fields the retired type has that the replacement has not.
    pub fields_gone: Vec<String>,
}

/// progenitor's PascalCase of a name (`file_ids` -> `FileIds`).
pub fn pascal(s: &str) -> String {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// The field's name in the generated Rust struct: a Rust keyword gets a trailing `_` (`type_`).
pub fn rust_field(name: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else",
        "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod",
        "move", "mut", "priv", "pub", "ref", "return", "self", "static", "struct", "super",
        "trait", "true", "type", "unsafe", "use", "where", "while", "yield",
    ];
    if KEYWORDS.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

fn is_inline_object(schema: &Value) -> bool {
    schema.get("$ref").is_none()
        && schema.get("allOf").is_none()
        && (schema.get("properties").is_some()
            || schema.get("type").and_then(Value::as_str) == Some("object")
                && schema.get("additionalProperties").is_none())
}

/// The names the generated client gives the inline schemas of `schema`, which stands at `name`
/// (`GetDraftsResponse`), each with the schema it names.
fn inline_names<'a>(name: &str, schema: &'a Value, out: &mut Vec<(String, &'a Value)>) {
    if out.len() > 64 {
        return;
    }
    if schema.get("type").and_then(Value::as_str) == Some("array")
        && let Some(items) = schema.get("items")
    {
        inline_names(&format!("{name}Item"), items, out);
        return;
    }
    if !is_inline_object(schema) || schema.get("properties").is_none() {
        return;
    }
    out.push((name.to_string(), schema));
    for (prop, value) in schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        inline_names(&format!("{name}{}", pascal(prop)), value, out);
    }
}

/// The name the generated client gives the schema at a place, following what progenitor does with a
/// `$ref` (its component's name), an array (its items' name), a lone `allOf` member (that member's
/// name) and an inline object (the place's name).
fn name_at(place: &str, schema: &Value) -> Option<String> {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return r.strip_prefix("#/components/schemas/").map(str::to_string);
    }
    if schema.get("type").and_then(Value::as_str) == Some("array") {
        return schema
            .get("items")
            .and_then(|i| name_at(&format!("{place}Item"), i));
    }
    if let Some([one]) = schema
        .get("allOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        return name_at(place, one);
    }
    is_inline_object(schema).then(|| place.to_string())
}

/// The places of an operation object that hold schemas progenitor names: the JSON body and the first
/// 2xx JSON answer, as (place name, where, schema).
fn places<'a>(id: &str, op: &'a Value, doc: &'a Value) -> Vec<(String, String, &'a Value)> {
    let mut out = Vec::new();
    if let Some(body) = op
        .get("requestBody")
        .map(|b| resolve(doc, b))
        .and_then(|b| b.pointer("/content/application~1json/schema"))
    {
        out.push((format!("{id}Body"), format!("{id} body"), body));
    }
    if let Some((status, schema)) = op
        .get("responses")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(s, _)| s.starts_with('2'))
        .find_map(|(s, r)| {
            resolve(doc, r)
                .pointer("/content/application~1json/schema")
                .map(|schema| (s, schema))
        })
    {
        out.push((
            format!("{id}Response"),
            format!("{id} {status} answer"),
            schema,
        ));
    }
    out
}

/// The schema at the same place in another operation object: the body, or the first 2xx answer.
fn same_place<'a>(place: &str, id: &str, op: &'a Value, doc: &'a Value) -> Option<&'a Value> {
    places(id, op, doc)
        .into_iter()
        .find(|(name, _, _)| name == place)
        .map(|(_, _, s)| s)
}

/// The type renames retiring `repair` asks for, given the operation as the new spec has it (`new_op`,
/// in `new_doc`), for `add_operation`, `response_schema` and `response_content` repairs. Names that
/// stay the same (an inline schema replaced by an inline schema at the same place) are listed only
/// when their fields differ.
pub fn renames(repair: &Repair, new_doc: &Value, new_op: Option<&Value>) -> Vec<TypeRename> {
    let Some(id) = repair.operation.as_deref() else {
        return Vec::new();
    };
    let empty = Value::Null;
    let mut out = Vec::new();
    // The repair's own schemas, each at its place.
    let mut retired: Vec<(String, String, &Value)> = Vec::new();
    match repair.repair.as_str() {
        "add_operation" => {
            if let Some(op) = &repair.replace {
                retired = places(id, op, &empty);
            }
        }
        "response_schema" | "response_content" => {
            if let Some(schema) = &repair.replace {
                let status = repair.status.as_deref().unwrap_or("200");
                retired.push((
                    format!("{id}Response"),
                    format!("{id} {status} answer"),
                    schema,
                ));
            }
        }
        _ => return out,
    }
    for (place, at, schema) in retired {
        let mut named = Vec::new();
        inline_names(&place, schema, &mut named);
        let upstream = new_op.and_then(|op| same_place(&place, id, op, new_doc));
        for (from, old_schema) in named {
            // The schema upstream has where this inline schema stood: follow the same steps (items,
            // properties) from the place down.
            let rest = &from[place.len()..];
            let now = upstream.and_then(|u| follow(new_doc, u, rest, old_schema, schema));
            let to = now.and_then(|n| name_at(&from, n));
            let before = fields(&empty, old_schema);
            let after = now
                .map(|n| fields(new_doc, deref(new_doc, n)))
                .unwrap_or_default();
            let fields_added: Vec<(String, Field)> = after
                .iter()
                .filter(|(k, _)| !before.contains_key(*k))
                .map(|(k, f)| (k.clone(), f.clone()))
                .collect();
            let fields_gone: Vec<String> = before
                .keys()
                .filter(|k| !after.contains_key(*k))
                .cloned()
                .collect();
            if to.as_deref() == Some(from.as_str())
                && fields_added.is_empty()
                && fields_gone.is_empty()
            {
                continue;
            }
            let where_ = match rest {
                "" => at.clone(),
                "Item" => format!("the items of the {at}"),
                _ => format!("{at}, at {rest}"),
            };
            out.push(TypeRename {
                from,
                to,
                at: where_,
                fields_added,
                fields_gone,
            });
        }
    }
    out
}

/// Walks from the place's schema in the new spec down the same way the name `rest` went down from the
/// place in the repair's schema (`Item` for array items, a property's PascalCase name for a property).
/// Returns the new spec's schema at that spot as it is written there (a `$ref` is not followed).
fn follow<'a>(
    doc: &'a Value,
    upstream: &'a Value,
    rest: &str,
    target: &Value,
    repair_root: &Value,
) -> Option<&'a Value> {
    let mut raw = upstream;
    let mut old = repair_root;
    let mut rest = rest.to_string();
    loop {
        if std::ptr::eq(old, target) && rest.is_empty() {
            return Some(raw);
        }
        let now = deref(doc, raw);
        if old.get("type").and_then(Value::as_str) == Some("array") {
            rest = rest.strip_prefix("Item")?.to_string();
            old = old.get("items")?;
            raw = now.get("items")?;
            continue;
        }
        let props = old.get("properties").and_then(Value::as_object)?;
        let (key, child) = props
            .iter()
            .find(|(k, _)| !pascal(k).is_empty() && rest.starts_with(&pascal(k)))?;
        rest = rest[pascal(key).len()..].to_string();
        old = child;
        raw = collected_properties(doc, now).get(key.as_str()).copied()?;
    }
}

/// Follows `$ref` and a lone `allOf` member to the schema that holds the properties.
fn deref<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    let s = resolve(doc, schema);
    match s.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
        Some([one]) => resolve(doc, one),
        _ => s,
    }
}

fn collected_properties<'a>(doc: &'a Value, schema: &'a Value) -> BTreeMap<String, &'a Value> {
    let mut out = BTreeMap::new();
    let s = resolve(doc, schema);
    for part in s
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.extend(collected_properties(doc, part));
    }
    for (k, v) in s
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        out.insert(k.clone(), v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn repair(kind: &str, id: &str, replace: Value) -> Repair {
        Repair {
            repair: kind.into(),
            upstream: String::new(),
            change: String::new(),
            evidence: None,
            operation: Some(id.into()),
            method: None,
            path: None,
            status: None,
            to: None,
            schema: None,
            property: None,
            expect: None,
            replace: Some(replace),
            file: format!("overrides/repairs/{id}.add.yaml"),
        }
    }

    #[test]
    fn a_retired_inline_answer_and_body_name_their_types_and_the_refs_that_replace_them() {
        let get = repair(
            "add_operation",
            "GetDrafts",
            json!({"responses": {"200": {"content": {"application/json": {"schema":
                {"type": "array", "items": {"type": "object", "properties": {
                    "message": {"type": "string"}, "user_id": {"type": "string"}}}}}}}}}),
        );
        let upsert = repair(
            "add_operation",
            "UpsertDraft",
            json!({"requestBody": {"content": {"application/json": {"schema":
                {"type": "object", "properties": {"message": {"type": "string"}, "user_id": {"type": "string"}}}}}},
                "responses": {"201": {"content": {"application/json": {"schema":
                {"type": "object", "nullable": true, "properties": {"message": {"type": "string"}}}}}}}}),
        );
        let doc = json!({"components": {"schemas": {
            "Draft": {"type": "object", "properties": {"message": {"type": "string"}, "user_id": {"type": "string"}, "props": {"type": "object"}}},
            "DraftUpsertRequest": {"type": "object", "properties": {"message": {"type": "string"}, "type": {"type": "string"}}}
        }}});
        let new_get = json!({"responses": {"200": {"content": {"application/json": {"schema":
            {"type": "array", "items": {"$ref": "#/components/schemas/Draft"}}}}}}});
        let new_upsert = json!({"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/DraftUpsertRequest"}}}},
            "responses": {"201": {"content": {"application/json": {"schema":
            {"allOf": [{"$ref": "#/components/schemas/Draft"}], "nullable": true}}}}}});

        let r = renames(&get, &doc, Some(&new_get));
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].from, "GetDraftsResponseItem");
        assert_eq!(r[0].to.as_deref(), Some("Draft"));
        assert_eq!(
            r[0].fields_added
                .iter()
                .map(|(k, _)| k.as_str())
                .collect::<Vec<_>>(),
            ["props"]
        );
        assert!(r[0].fields_gone.is_empty());

        let r = renames(&upsert, &doc, Some(&new_upsert));
        let pairs: Vec<(&str, Option<&str>)> = r
            .iter()
            .map(|t| (t.from.as_str(), t.to.as_deref()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("UpsertDraftBody", Some("DraftUpsertRequest")),
                ("UpsertDraftResponse", Some("Draft"))
            ]
        );
        assert_eq!(r[0].fields_gone, ["user_id"]);
        assert_eq!(r[0].fields_added[0].0, "type");
        assert_eq!(rust_field("type"), "type_");

        let r = renames(&get, &doc, None);
        assert_eq!(
            r[0].to, None,
            "the operation is gone: nothing replaces the type"
        );
    }

    #[test]
    fn nested_inline_objects_are_named_after_their_parent_and_a_same_named_replacement_is_silent() {
        let s = json!({"type": "object", "properties": {"file_infos": {"type": "array", "items":
            {"type": "object", "properties": {"id": {"type": "string"}}}}}});
        let mut named = Vec::new();
        inline_names("SearchThingsResponse", &s, &mut named);
        let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["SearchThingsResponse", "SearchThingsResponseFileInfosItem"]
        );

        let r = repair("response_schema", "SearchThings", s.clone());
        let same = json!({"responses": {"200": {"content": {"application/json": {"schema": s}}}}});
        assert!(
            renames(&r, &Value::Null, Some(&same)).is_empty(),
            "nothing changes"
        );
    }
}
