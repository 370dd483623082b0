//! Reading an OpenAPI document (YAML or JSON) into a `serde_json::Value`, keys in document order.

use serde_json::Value;
use std::path::Path;

/// Parses a spec from its bytes: JSON when it starts with `{`, YAML otherwise. A duplicated key keeps
/// its last value, as Mattermost's own build does (the 11.6 spec defines one path twice).
pub fn parse(bytes: &[u8], name: &str) -> Result<Value, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("{name} is not UTF-8: {e}"))?;
    let value: Value = if text.trim_start().starts_with('{') {
        serde_json::from_str(text).map_err(|e| format!("{name} is not valid JSON: {e}"))?
    } else {
        serde_yaml::from_str(text).map_err(|e| format!("{name} is not valid YAML: {e}"))?
    };
    if !value.get("paths").is_some_and(Value::is_object) {
        return Err(format!(
            "{name} has no `paths`: it is not an OpenAPI document"
        ));
    }
    Ok(value)
}

/// Reads and [`parse`]s a spec file; an error names the file.
pub fn read(path: &Path) -> Result<Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&bytes, &path.display().to_string())
}

/// Follows a local `$ref` (`#/components/...`) to its target.
pub fn resolve<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    let mut current = value;
    for _ in 0..8 {
        match current.get("$ref").and_then(Value::as_str) {
            Some(r) => match r.strip_prefix('#') {
                Some(pointer) => match doc.pointer(pointer) {
                    Some(target) => current = target,
                    None => return current,
                },
                None => return current,
            },
            None => return current,
        }
    }
    current
}

/// The HTTP methods an OpenAPI path item may hold, in the order they are reported.
pub const METHODS: [&str; 7] = ["get", "put", "post", "delete", "patch", "head", "options"];

/// The path every operation's path is relative to, from the first server's URL: `/api/v4` for specs
/// that list `http://host/api/v4` as their server, "" for those whose paths carry it already.
pub fn base_path(doc: &Value) -> String {
    let url = doc
        .pointer("/servers/0/url")
        .and_then(Value::as_str)
        .unwrap_or("");
    let after_scheme = url.split_once("://").map(|(_, rest)| rest).unwrap_or("");
    match after_scheme.find('/') {
        Some(i) => after_scheme[i..].trim_end_matches('/').to_string(),
        None => String::new(),
    }
}

/// An operation's full path: the base path, then the path as the spec gives it.
pub fn full_path(base: &str, path: &str) -> String {
    if base.is_empty() || path.starts_with(base) {
        path.to_string()
    } else {
        format!("{base}{path}")
    }
}

/// The path item of a (full) path, as [`crate::surface::Surface`] names paths: the base path of the
/// first server, then the spec's path.
pub fn path_item<'a>(doc: &'a Value, path: &str) -> Option<&'a Value> {
    let base = base_path(doc);
    doc.get("paths")?
        .as_object()?
        .iter()
        .find(|(p, _)| full_path(&base, p) == path)
        .map(|(_, item)| item)
}
