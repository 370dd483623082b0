//! The published output schema of a tool's answer, kept small because every client lists it on every
//! start.

use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde_json::Value;

/// The published output schema of `T`, kept small because every client lists it on every start:
/// schemars' schema, inlined, without `$schema`, titles, formats, descriptions or defaults; the answer's
/// own fields typed in full; the objects inside it (a list's items, say) by the fields they always have;
/// anything deeper by its type alone.
pub(crate) fn output_schema<T: JsonSchema>() -> JsonObject {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
    });
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut value = schema.to_value();
    compact(&mut value);
    shallow(&mut value, 0);
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// Cuts a schema to what [`output_schema`] publishes at `depth` (0: the answer itself).
fn shallow(v: &mut Value, depth: usize) {
    let Value::Object(map) = v else { return };
    if depth >= 2 {
        map.retain(|k, _| k == "type");
        return;
    }
    if let Some(items) = map.get_mut("items") {
        shallow(items, depth);
    }
    let required: Vec<String> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        if depth >= 1 {
            props.retain(|name, _| required.contains(name));
        }
        for (_, schema) in props.iter_mut() {
            shallow(schema, depth + 1);
        }
    }
}

fn compact(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for key in ["$schema", "title", "format", "description", "default"] {
                map.remove(key);
            }
            if map.get("minimum") == Some(&Value::from(0)) {
                map.remove("minimum");
            }
            // `Option<T>` fields are skipped when empty, never sent as null.
            if let Some(Value::Array(types)) = map.get("type") {
                let kept: Vec<Value> = types
                    .iter()
                    .filter(|t| t.as_str() != Some("null"))
                    .cloned()
                    .collect();
                if kept.len() == 1 {
                    map.insert("type".into(), kept[0].clone());
                }
            }
            if let Some(Value::Array(any)) = map.get("anyOf") {
                let kept: Vec<Value> = any
                    .iter()
                    .filter(|s| s.get("type").and_then(Value::as_str) != Some("null"))
                    .cloned()
                    .collect();
                if kept.len() == 1
                    && let Some(Value::Object(inner)) = kept.first()
                {
                    let inner = inner.clone();
                    map.remove("anyOf");
                    for (k, val) in inner {
                        map.entry(k).or_insert(val);
                    }
                }
            }
            for (key, child) in map.iter_mut() {
                match child {
                    // Any value (schemars' `true`, for a `serde_json::Value`): `{}` says the same, and
                    // clients that read only object schemas (the Inspector's strict check) accept it.
                    Value::Bool(true) if key == "items" => {
                        *child = Value::Object(JsonObject::new())
                    }
                    // The answer's fields by name: a field called `format` or `title` stays.
                    Value::Object(fields) if key == "properties" => {
                        for field in fields.values_mut() {
                            if *field == Value::Bool(true) {
                                *field = Value::Object(JsonObject::new());
                            }
                            compact(field);
                        }
                    }
                    _ => compact(child),
                }
            }
        }
        Value::Array(list) => list.iter_mut().for_each(compact),
        _ => {}
    }
}
