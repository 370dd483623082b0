//! The prose-free copy of a spec: its structure (paths, operations, parameters, bodies, responses,
//! component schemas, with every type, format, enum, required list, default and bound) and none of
//! Mattermost's writing (descriptions, summaries, examples, titles, code samples, external docs, the
//! introduction).
//!
//! The copy is built by an allowlist: each OpenAPI object is walked as what it is (a schema, a
//! parameter, a response...), and only the keywords that carry structure are kept; everything else is
//! dropped and counted. Names are never touched (a schema property called `description` is a name,
//! not prose). The few facts the build needs from the prose are read before it is dropped and kept as
//! data ([`facts`]): the permissions an operation's description names, whether it needs a system
//! administrator, and the server version it appeared in.
//!
//! Both the committed copy (`spec-strip`) and every build from another release's file go through
//! [`strip`], so the client is always generated from the same kind of input. Stripping a stripped
//! copy gives it back unchanged.

use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The extension that holds the permissions an operation's description names.
pub const PERMISSIONS: &str = "x-mattermost-permissions";
/// The extension that holds the server version an operation's description says it appeared in.
pub const SINCE: &str = "x-mattermost-since";

/// A stripped spec and what was dropped from it.
#[derive(Debug, Clone)]
pub struct Stripped {
    /// The document without its prose, with the permission and version facts read from the
    /// descriptions kept as the [`PERMISSIONS`] and [`SINCE`] extensions.
    pub doc: Value,
    /// How many of each key were dropped, as `<object>.<key>` (`schema.description`: 999).
    pub dropped: BTreeMap<String, usize>,
    /// How many operations carry permission facts read from their description.
    pub with_permissions: usize,
}

/// The stripped copy's bytes: JSON in the document's own order, an object or array on one line when
/// it fits in [`LINE`] columns, otherwise one member a line, indented by two; a final newline. The same
/// spec always gives the same bytes.
pub fn to_bytes(doc: &Value) -> Vec<u8> {
    let mut text = String::new();
    write_value(&mut text, doc, 0);
    text.push('\n');
    text.into_bytes()
}

/// The widest line [`to_bytes`] writes a whole object or array on.
pub const LINE: usize = 100;

fn write_value(out: &mut String, value: &Value, indent: usize) {
    let compact = value.to_string();
    let multi = match value {
        Value::Object(m) => !m.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => false,
    };
    let line_start = out.rfind('\n').map(|i| i + 1).unwrap_or(0);
    if !multi || out.len() - line_start + compact.len() <= LINE {
        out.push_str(&compact);
        return;
    }
    let pad = " ".repeat(indent + 2);
    match value {
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                out.push_str(&pad);
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                write_value(out, v, indent + 2);
            }
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            out.push('}');
        }
        Value::Array(list) => {
            out.push('[');
            for (i, v) in list.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                out.push_str(&pad);
                write_value(out, v, indent + 2);
            }
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            out.push(']');
        }
        _ => out.push_str(&compact),
    }
}

/// Strips a spec (as [`crate::document::parse`] reads it).
pub fn strip(doc: &Value) -> Stripped {
    let mut s = Stripper::default();
    let out = s.root(doc);
    Stripped {
        doc: out,
        dropped: s.dropped,
        with_permissions: s.with_permissions,
    }
}

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "patch", "head", "options", "trace",
];

/// Schema keywords kept as they are (their values are data: types, bounds, flags, names, values).
const SCHEMA_DATA: &[&str] = &[
    "$ref",
    "type",
    "format",
    "enum",
    "default",
    "nullable",
    "readOnly",
    "writeOnly",
    "deprecated",
    "required",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "discriminator",
];

#[derive(Default)]
struct Stripper {
    dropped: BTreeMap<String, usize>,
    with_permissions: usize,
}

impl Stripper {
    fn drop(&mut self, object: &str, key: &str) {
        let key = if key.starts_with("x-") { "x-*" } else { key };
        *self.dropped.entry(format!("{object}.{key}")).or_insert(0) += 1;
    }

    /// Walks an object, keeping the keys `keep` accepts (with the value it gives) and counting the rest.
    fn object(
        &mut self,
        name: &str,
        value: &Value,
        mut keep: impl FnMut(&mut Self, &str, &Value) -> Option<Value>,
    ) -> Value {
        let Some(map) = value.as_object() else {
            return value.clone();
        };
        let mut out = Map::new();
        for (k, v) in map {
            match keep(self, k, v) {
                Some(kept) => {
                    out.insert(k.clone(), kept);
                }
                None => self.drop(name, k),
            }
        }
        Value::Object(out)
    }

    fn map_of(&mut self, value: &Value, mut each: impl FnMut(&mut Self, &Value) -> Value) -> Value {
        match value.as_object() {
            Some(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), each(self, v)))
                    .collect(),
            ),
            None => value.clone(),
        }
    }

    fn list_of(
        &mut self,
        value: &Value,
        mut each: impl FnMut(&mut Self, &Value) -> Value,
    ) -> Value {
        match value.as_array() {
            Some(list) => Value::Array(list.iter().map(|v| each(self, v)).collect()),
            None => value.clone(),
        }
    }

    fn root(&mut self, doc: &Value) -> Value {
        self.object("root", doc, |s, k, v| match k {
            "openapi" | "security" => Some(v.clone()),
            "info" => Some(s.object("info", v, |_, k, v| {
                matches!(k, "title" | "version").then(|| v.clone())
            })),
            "servers" => Some(s.servers(v)),
            "paths" => Some(s.map_of(v, Self::path_item)),
            "components" => Some(s.components(v)),
            _ => None,
        })
    }

    fn servers(&mut self, v: &Value) -> Value {
        self.list_of(v, |s, server| {
            s.object("server", server, |s, k, v| match k {
                "url" => Some(v.clone()),
                "variables" => Some(s.map_of(v, |s, var| {
                    s.object("server variable", var, |_, k, v| {
                        matches!(k, "default" | "enum").then(|| v.clone())
                    })
                })),
                _ => None,
            })
        })
    }

    fn components(&mut self, v: &Value) -> Value {
        self.object("components", v, |s, k, v| match k {
            "schemas" => Some(s.map_of(v, Self::schema)),
            "responses" => Some(s.map_of(v, Self::response)),
            "parameters" => Some(s.map_of(v, Self::parameter)),
            "requestBodies" => Some(s.map_of(v, Self::request_body)),
            "headers" => Some(s.map_of(v, Self::header)),
            "securitySchemes" => Some(s.map_of(v, |s, scheme| {
                s.object("security scheme", scheme, |_, k, v| {
                    matches!(
                        k,
                        "$ref" | "type" | "scheme" | "bearerFormat" | "in" | "name"
                    )
                    .then(|| v.clone())
                })
            })),
            _ => None,
        })
    }

    fn path_item(&mut self, v: &Value) -> Value {
        self.object("path item", v, |s, k, v| match k {
            "$ref" => Some(v.clone()),
            "parameters" => Some(s.list_of(v, Self::parameter)),
            "servers" => Some(s.servers(v)),
            m if METHODS.contains(&m) => Some(s.operation(v)),
            _ => None,
        })
    }

    fn operation(&mut self, v: &Value) -> Value {
        let mut out = self.object("operation", v, |s, k, v| match k {
            "operationId" | "tags" | "deprecated" | "security" => Some(v.clone()),
            "parameters" => Some(s.list_of(v, Self::parameter)),
            "requestBody" => Some(s.request_body(v)),
            "responses" => Some(s.map_of(v, Self::response)),
            "servers" => Some(s.servers(v)),
            PERMISSIONS | SINCE => Some(v.clone()),
            _ => None,
        });
        let description = v.get("description").and_then(Value::as_str).unwrap_or("");
        let found = facts(description);
        if let Some(obj) = out.as_object_mut() {
            if let Some(p) = found.permissions {
                obj.insert(PERMISSIONS.into(), p);
            }
            if let Some(since) = found.since {
                obj.insert(SINCE.into(), Value::String(since));
            }
            if obj.contains_key(PERMISSIONS) {
                self.with_permissions += 1;
            }
        }
        out
    }

    fn parameter(&mut self, v: &Value) -> Value {
        self.object("parameter", v, |s, k, v| match k {
            "$ref" | "name" | "in" | "required" | "deprecated" | "allowEmptyValue" | "style"
            | "explode" | "allowReserved" => Some(v.clone()),
            "schema" => Some(s.schema(v)),
            "content" => Some(s.content(v)),
            _ => None,
        })
    }

    fn request_body(&mut self, v: &Value) -> Value {
        self.object("request body", v, |s, k, v| match k {
            "$ref" | "required" => Some(v.clone()),
            "content" => Some(s.content(v)),
            _ => None,
        })
    }

    /// A response keeps an empty `description`: OpenAPI requires one (and openapiv3 will not read a
    /// response without it); a `$ref` stands for its target and gets none.
    fn response(&mut self, v: &Value) -> Value {
        let mut out = self.object("response", v, |s, k, v| match k {
            "$ref" => Some(v.clone()),
            "description" if v == &json!("") => Some(v.clone()),
            "headers" => Some(s.map_of(v, Self::header)),
            "content" => Some(s.content(v)),
            _ => None,
        });
        if let Some(obj) = out.as_object_mut()
            && !obj.contains_key("$ref")
        {
            obj.insert("description".into(), json!(""));
        }
        out
    }

    fn header(&mut self, v: &Value) -> Value {
        self.object("header", v, |s, k, v| match k {
            "$ref" | "required" | "deprecated" | "style" | "explode" => Some(v.clone()),
            "schema" => Some(s.schema(v)),
            "content" => Some(s.content(v)),
            _ => None,
        })
    }

    /// A content map: media type -> media type object. A key that is not a media type (a field of the
    /// media type object written one level too high, which the `fix_content` repair moves) is walked as
    /// that field; a null media type stays null.
    fn content(&mut self, v: &Value) -> Value {
        self.object("content", v, |s, k, v| {
            if k.contains('/') || k == "*" {
                return Some(if v.is_null() {
                    Value::Null
                } else {
                    s.media_type(v)
                });
            }
            match k {
                "schema" => Some(s.schema(v)),
                "encoding" => Some(s.encoding(v)),
                _ => None,
            }
        })
    }

    fn media_type(&mut self, v: &Value) -> Value {
        self.object("media type", v, |s, k, v| match k {
            "schema" => Some(s.schema(v)),
            "encoding" => Some(s.encoding(v)),
            _ => None,
        })
    }

    fn encoding(&mut self, v: &Value) -> Value {
        self.map_of(v, |s, e| {
            s.object("encoding", e, |s, k, v| match k {
                "contentType" | "style" | "explode" | "allowReserved" => Some(v.clone()),
                "headers" => Some(s.map_of(v, Self::header)),
                _ => None,
            })
        })
    }

    fn schema(&mut self, v: &Value) -> Value {
        if !v.is_object() {
            return v.clone();
        }
        self.object("schema", v, |s, k, v| match k {
            k if SCHEMA_DATA.contains(&k) => Some(v.clone()),
            "properties" => Some(s.map_of(v, Self::schema)),
            "items" | "not" => Some(s.schema(v)),
            "additionalProperties" => Some(s.schema(v)),
            "allOf" | "oneOf" | "anyOf" => Some(s.list_of(v, Self::schema)),
            _ => None,
        })
    }
}

/// What an operation's description says that is a fact, not prose.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts {
    /// `{"required": [...], "conditional": [...], "system_admin": bool}`, when the description names a
    /// permission or restricts the operation to system administrators.
    pub permissions: Option<Value>,
    /// The server version the description says the operation appeared in (`5.26`).
    pub since: Option<String>,
}

/// Reads the facts out of an operation's description.
///
/// Permissions: a permission name is a backquoted or double-quoted snake_case word followed by
/// `permission(s)` (possibly in a list: `` `a`, `b` or `c` permissions``), or following `Requires` or
/// `Must have`, or starting with `sysconsole_`. A name is **required** when its sentence offers no
/// alternative or condition (no `or`, `if`, `otherwise`, `unless`, `other than`, `non-self`, ...),
/// **conditional** otherwise. `system_admin` is true when `manage_system` or a `sysconsole_*`
/// permission is required, or the description says only system admins may call it.
pub fn facts(description: &str) -> Facts {
    let mut required: Vec<String> = Vec::new();
    let mut conditional: Vec<String> = Vec::new();
    let mut only_admins = false;
    for sentence in sentences(description) {
        let lower = sentence.to_ascii_lowercase();
        if lower.contains("only system admin") {
            only_admins = true;
        }
        let names = permission_names(sentence);
        if names.is_empty() {
            continue;
        }
        let target = if is_conditional(&lower) {
            &mut conditional
        } else {
            &mut required
        };
        for n in names {
            if !target.contains(&n) {
                target.push(n);
            }
        }
    }
    conditional.retain(|n| !required.contains(n));
    let system_admin = only_admins
        || required
            .iter()
            .any(|n| n == "manage_system" || n.starts_with("sysconsole_"));
    let permissions = (!required.is_empty() || !conditional.is_empty() || system_admin).then(|| {
        json!({ "required": required, "conditional": conditional, "system_admin": system_admin })
    });
    Facts {
        permissions,
        since: min_server_version(description),
    }
}

fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut start = 0;
        let bytes = line.as_bytes();
        for i in 0..bytes.len() {
            let ends = bytes[i] == b'.'
                && bytes.get(i + 1) == Some(&b' ')
                && bytes.get(i + 2).is_some_and(|c| c.is_ascii_uppercase());
            if ends {
                out.push(line[start..=i].trim());
                start = i + 1;
            }
        }
        out.push(line[start..].trim());
    }
    out.retain(|s| !s.is_empty());
    out
}

fn is_conditional(lower: &str) -> bool {
    let padded = format!(" {} ", lower.replace([',', '.', '(', ')', ';', ':'], " "));
    [
        " or ",
        " if ",
        " otherwise ",
        " unless ",
        " other than ",
        " non-self ",
        " instead ",
        " except ",
        " voids ",
        " and/or ",
    ]
    .iter()
    .any(|w| padded.contains(w))
}

#[derive(Debug, PartialEq)]
enum Token {
    Name(String),
    Word(String),
    Comma,
}

fn tokens(sentence: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = sentence.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' | '"' => {
                let mut name = String::new();
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                    name.push(d);
                }
                out.push(Token::Name(name));
            }
            ',' => out.push(Token::Comma),
            c if c.is_whitespace() => {}
            c => {
                let mut word = String::from(c);
                while let Some(&d) = chars.peek() {
                    if d.is_whitespace() || matches!(d, '`' | '"' | ',') {
                        break;
                    }
                    word.push(d);
                    chars.next();
                }
                out.push(Token::Word(
                    word.trim_end_matches(['.', ';', ':', ')'])
                        .to_ascii_lowercase(),
                ));
            }
        }
    }
    out
}

fn is_permission_name(name: &str) -> bool {
    !name.is_empty()
        && name.contains('_')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '*')
}

fn permission_names(sentence: &str) -> Vec<String> {
    let toks = tokens(sentence);
    let mut names: Vec<String> = Vec::new();
    let add = |n: &str, names: &mut Vec<String>| {
        if is_permission_name(n) && !names.iter().any(|m| m == n) {
            names.push(n.to_string());
        }
    };
    for (i, t) in toks.iter().enumerate() {
        match t {
            Token::Word(w) if w.starts_with("permission") => {
                // `a`, `b` and/or `c` permission(s): walk back over the list.
                let mut group: Vec<&str> = Vec::new();
                let mut j = i;
                while j > 0 {
                    j -= 1;
                    match &toks[j] {
                        Token::Name(n) => group.push(n),
                        Token::Comma => {}
                        Token::Word(w) if matches!(w.as_str(), "or" | "and" | "and/or") => {}
                        _ => break,
                    }
                }
                for n in group.into_iter().rev() {
                    add(n, &mut names);
                }
            }
            Token::Name(n) if n.starts_with("sysconsole_") => add(n, &mut names),
            Token::Name(n) => {
                let after_verb = match i.checked_sub(1).map(|k| &toks[k]) {
                    Some(Token::Word(w)) if w == "requires" => true,
                    Some(Token::Word(w)) if w == "have" || w == "the" => {
                        // `Must have `x``, `Must have the `x``
                        toks[..i]
                            .iter()
                            .rev()
                            .take(3)
                            .any(|t| matches!(t, Token::Word(w) if w == "have"))
                    }
                    _ => false,
                };
                if after_verb && n.contains('_') {
                    add(n, &mut names);
                }
            }
            _ => {}
        }
    }
    names
}

fn min_server_version(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find("minimum server version")?;
    let rest = &text[at + "minimum server version".len()..];
    let start = rest.find(|c: char| c.is_ascii_digit())?;
    if rest[..start].chars().any(|c| c.is_alphanumeric()) {
        return None;
    }
    let version: String = rest[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let version = version.trim_end_matches('.').to_string();
    (!version.is_empty()).then_some(version)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn perms(text: &str) -> Value {
        facts(text).permissions.unwrap_or(Value::Null)
    }

    #[test]
    fn a_plain_requirement_is_required_and_manage_system_means_admin() {
        let p = perms("Get a thing.\nMust have `manage_system` permission.");
        assert_eq!(p["required"], json!(["manage_system"]));
        assert_eq!(p["system_admin"], json!(true));
    }

    #[test]
    fn an_alternative_is_conditional() {
        let p = perms(
            "Must be logged in as the user being updated or have the `edit_other_users` permission.",
        );
        assert_eq!(p["required"], json!([]));
        assert_eq!(p["conditional"], json!(["edit_other_users"]));
        assert_eq!(p["system_admin"], json!(false));
        let p = perms(
            "Must have `manage_system` permission to publish for any user other than oneself.",
        );
        assert_eq!(p["system_admin"], json!(false), "{p}");
    }

    #[test]
    fn lists_sysconsole_and_requires_are_read() {
        let p = perms(
            "Requires an active session and `read_channel` and/or `view_team` permissions for any channels.",
        );
        assert_eq!(p["conditional"], json!(["read_channel", "view_team"]));
        let p = perms("Get users. Requires `sysconsole_read_user_management_users`.");
        assert_eq!(
            p["required"],
            json!(["sysconsole_read_user_management_users"])
        );
        assert_eq!(p["system_admin"], json!(true));
        let p = perms("Must have `read_channel` permission for the channel the post is in.");
        assert_eq!(p["required"], json!(["read_channel"]));
    }

    #[test]
    fn field_names_are_not_permissions_and_no_permission_gives_nothing() {
        let p = perms(
            "Some fields, like `email_verified` and `notify_props`, are only visible for the authorized user or if the authorized user has the `manage_system` permission.",
        );
        assert_eq!(p["conditional"], json!(["manage_system"]), "{p}");
        assert_eq!(facts("No permission required.").permissions, None);
        assert_eq!(
            facts("Only system admins can access this endpoint.")
                .permissions
                .map(|p| p["system_admin"].clone()),
            Some(json!(true))
        );
    }

    #[test]
    fn the_minimum_server_version_is_read() {
        assert_eq!(
            facts("__Minimum server version__: 5.26 Must be")
                .since
                .as_deref(),
            Some("5.26")
        );
        assert_eq!(
            facts("__Minimum server version: 4.1__ Must")
                .since
                .as_deref(),
            Some("4.1")
        );
        assert_eq!(facts("Nothing here").since, None);
    }

    #[test]
    fn names_are_kept_and_prose_keywords_dropped() {
        let doc = json!({
            "openapi": "3.0.0",
            "info": {"title": "T", "version": "4.0.0", "description": "intro"},
            "tags": [{"name": "users", "description": "about users"}],
            "paths": {"/a": {"get": {
                "operationId": "A", "summary": "s", "description": "Must have `manage_system` permission.",
                "x-codeSamples": [{"lang": "go"}],
                "parameters": [{"name": "q", "in": "query", "description": "d", "example": "e", "schema": {"type": "string", "enum": ["x"]}}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {
                    "example": {"a": 1},
                    "schema": {"type": "object", "title": "T", "properties": {"description": {"type": "string", "description": "the description field"}}}
                }}}}
            }}},
            "components": {"schemas": {"S": {"type": "string", "description": "x", "example": "y", "default": "z"}}}
        });
        let s = strip(&doc);
        let expect = json!({
            "openapi": "3.0.0",
            "info": {"title": "T", "version": "4.0.0"},
            "paths": {"/a": {"get": {
                "operationId": "A",
                "parameters": [{"name": "q", "in": "query", "schema": {"type": "string", "enum": ["x"]}}],
                "responses": {"200": {"content": {"application/json": {
                    "schema": {"type": "object", "properties": {"description": {"type": "string"}}}
                }}, "description": ""}},
                "x-mattermost-permissions": {"required": ["manage_system"], "conditional": [], "system_admin": true}
            }}},
            "components": {"schemas": {"S": {"type": "string", "default": "z"}}}
        });
        assert_eq!(s.doc, expect);
        assert_eq!(s.dropped.get("operation.description"), Some(&1));
        assert_eq!(s.dropped.get("operation.x-*"), Some(&1));
        assert_eq!(strip(&s.doc).doc, s.doc, "stripping is idempotent");
        let bytes = to_bytes(&s.doc);
        let back: Value = serde_json::from_slice(&bytes).expect("the copy is JSON");
        assert_eq!(back, s.doc);
        assert!(
            std::str::from_utf8(&bytes)
                .expect("utf-8")
                .lines()
                .all(|l| l.len() <= LINE + 60),
            "lines stay short"
        );
    }

    #[test]
    fn a_misplaced_schema_under_content_stays_a_schema() {
        let doc = json!({"paths": {"/a": {"get": {"operationId": "A", "responses": {"200": {
            "description": "ok",
            "content": {"application/json": null, "schema": {"type": "array", "description": "d", "items": {"type": "string"}}}
        }}}}}});
        let s = strip(&doc);
        assert_eq!(
            s.doc.pointer("/paths/~1a/get/responses/200/content"),
            Some(
                &json!({"application/json": null, "schema": {"type": "array", "items": {"type": "string"}}})
            )
        );
    }
}
