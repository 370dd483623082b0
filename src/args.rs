//! A tool's arguments: their kinds, the JSON Schema `tools/list` publishes for them, and the check every
//! call's arguments pass before any request is made. Unknown arguments are refused naming the accepted
//! ones, wrong types name the expected type, and numbers out of range give the range.

use crate::error::{ErrorKind, ToolError, quote};
use serde_json::{Map, Value, json};

/// What an argument holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A channel: an id, a name (`town-square`, `~town-square`), a display name or a post's permalink.
    Channel,
    /// A team: an id, a name or a display name.
    Team,
    /// A post: an id or a permalink.
    Post,
    /// A person: an id, a username (`alice`, `@alice`) or an email.
    User,
    /// Up to `max` people, as for [`Kind::User`].
    Users { max: usize },
    /// Free text of at most `max` characters (a search term, say).
    Text { max: usize },
    /// A time: RFC 3339, a day (`2026-11-30`) or milliseconds since the epoch.
    Time,
    /// true or false.
    Flag,
    /// Up to `max` files to attach, each `{name, content}` (UTF-8 text) or `{name, content_base64}`.
    Files { max: usize },
    /// A JSON object of at most `max` bytes (the operation gateway's parameters), checked in full by
    /// the tool that takes it.
    Object { max: usize },
    /// Some of these words: an array of them (one word, or several comma-separated in one string, are
    /// taken too), each once, kept in this order.
    Choices { of: &'static [&'static str] },
    /// A whole number of seconds from 1 to `max` (a number, or digits as a string).
    Seconds { max: u32 },
    /// A list's page size (added to every list tool's arguments by `Tool::all_args`).
    Limit,
    /// A list's cursor (added to every list tool's arguments by `Tool::all_args`).
    Cursor,
}

/// The page size a list tool takes, and its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub(crate) default: u32,
    pub max: u32,
}

impl Limit {
    pub(crate) const fn new(default: u32, max: u32) -> Limit {
        Limit { default, max }
    }
}

/// One argument of a tool.
#[derive(Debug, Clone, Copy)]
pub struct Arg {
    pub name: &'static str,
    pub kind: Kind,
    pub required: bool,
    pub(crate) about: &'static str,
    /// How the argument shapes the answer, when it sets no Mattermost parameter by itself (a filter the
    /// tool applies, say). `None` for arguments that set a parameter of a call the tool declares.
    /// Read only by the governance test (`src/governance.rs`), hence `pub`: a `pub(crate)` field no
    /// non-test code reads is dead code to the compiler.
    pub shapes: Option<&'static str>,
}

/// The longest reference (name, id, permalink) a tool takes.
pub(crate) const MAX_REFERENCE: usize = 512;

/// The longest file name a file argument takes.
pub(crate) const MAX_FILE_NAME: usize = 255;

/// Checks one file of a files argument: an object with a plain `name` and exactly one of `content` and
/// `content_base64`.
fn check_file(tool: &str, arg: &str, i: usize, v: &Value) -> Result<(), ToolError> {
    let bad = |why: String| {
        ToolError::bad_argument(format!(
            "file {} of `{arg}` of {tool} {why}. Give each file as {{\"name\": \"notes.txt\", \"content\": \"...\"}} \
             (UTF-8 text) or {{\"name\": \"photo.png\", \"content_base64\": \"...\"}}.",
            i + 1
        ))
    };
    let Some(obj) = v.as_object() else {
        return Err(bad(format!("is {}, not an object", type_name(v))));
    };
    for key in obj.keys() {
        if !["name", "content", "content_base64"].contains(&key.as_str()) {
            return Err(bad(format!(
                "has the key {}, which is not name, content or content_base64",
                quote(key)
            )));
        }
    }
    let name = obj.get("name").and_then(Value::as_str).unwrap_or("");
    if name.trim().is_empty() || name.chars().count() > MAX_FILE_NAME {
        return Err(bad(format!(
            "needs a `name` of 1 to {MAX_FILE_NAME} characters"
        )));
    }
    if name
        .chars()
        .any(|c| c.is_control() || c == '/' || c == '\\')
        || name == "."
        || name == ".."
    {
        return Err(bad(format!(
            "is named {}: a file name has no folders and no control characters",
            quote(name)
        )));
    }
    match (obj.get("content"), obj.get("content_base64")) {
        (Some(Value::String(_)), None) | (None, Some(Value::String(_))) => Ok(()),
        (Some(_), Some(_)) => Err(bad(
            "has both `content` and `content_base64`; give one".into()
        )),
        (None, None) => Err(bad("has no `content` or `content_base64`".into())),
        _ => Err(bad("has a content that is not a string".into())),
    }
}

impl Kind {
    fn schema(self, limit: Option<Limit>) -> Value {
        match self {
            // Lengths are checked (with an error that says what is accepted) rather than published: every
            // client lists every schema, so the schema says only what a caller must know.
            Kind::Channel | Kind::Team | Kind::Post | Kind::User | Kind::Time => {
                json!({ "type": "string" })
            }
            Kind::Users { max } => json!({
                "type": "array", "minItems": 1, "maxItems": max,
                "items": { "type": "string" }
            }),
            Kind::Text { max } => json!({ "type": "string", "maxLength": max }),
            Kind::Flag => json!({ "type": "boolean" }),
            Kind::Files { max } => json!({
                "type": "array", "minItems": 1, "maxItems": max,
                "items": {
                    "type": "object",
                    "properties": {
                        "name": { "type": "string", "minLength": 1, "maxLength": MAX_FILE_NAME },
                        "content": { "type": "string" },
                        "content_base64": { "type": "string" }
                    },
                    "required": ["name"],
                    "additionalProperties": false
                }
            }),
            Kind::Object { .. } => json!({ "type": "object" }),
            Kind::Choices { of } => json!({
                "type": "array", "minItems": 1,
                "items": { "type": "string", "enum": of }
            }),
            Kind::Seconds { max } => json!({ "type": "integer", "minimum": 1, "maximum": max }),
            Kind::Limit => {
                let l = limit.unwrap_or(Limit {
                    default: 30,
                    max: 200,
                });
                json!({ "type": "integer", "maximum": l.max, "default": l.default })
            }
            Kind::Cursor => json!({ "type": "string" }),
        }
    }

    fn expects(self) -> &'static str {
        match self {
            Kind::Users { .. } => "an array of strings",
            Kind::Files { .. } => "an array of {name, content} or {name, content_base64} objects",
            Kind::Flag => "true or false",
            Kind::Object { .. } => "a JSON object",
            Kind::Choices { .. } => "an array of its words",
            Kind::Limit => "a whole number",
            Kind::Seconds { .. } => "a whole number of seconds",
            _ => "a string",
        }
    }
}

/// The JSON Schema of a tool's input.
pub(crate) fn input_schema(args: &[Arg], limit: Option<Limit>) -> Map<String, Value> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for a in args {
        let mut schema = a.kind.schema(limit);
        if let Some(obj) = schema.as_object_mut()
            && !a.about.is_empty()
        {
            obj.insert("description".into(), json!(a.about));
        }
        properties.insert(a.name.to_string(), schema);
        if a.required {
            required.push(json!(a.name));
        }
    }
    let mut out = Map::new();
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        out.insert("required".into(), Value::Array(required));
    }
    // Unknown arguments are refused by the check, naming the accepted ones; the schema leaves
    // `additionalProperties` out to keep `tools/list` small.
    out
}

/// A tool's arguments after the check.
#[derive(Debug, Clone, Default)]
pub(crate) struct Args {
    map: Map<String, Value>,
}

impl Args {
    pub(crate) fn str(&self, name: &str) -> Option<&str> {
        self.map.get(name).and_then(Value::as_str)
    }

    pub(crate) fn map(&self) -> &Map<String, Value> {
        &self.map
    }

    pub(crate) fn into_map(self) -> Map<String, Value> {
        self.map
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The end of a sentence about an argument: `: ` and its description, ending in a full stop, or just
/// the full stop when it has no description.
fn then_about(a: &Arg) -> String {
    let text = a.about.trim();
    if text.is_empty() {
        return ".".to_string();
    }
    let end = if text.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    format!(": {text}{end}")
}

fn check_text(tool: &str, a: &Arg, s: &str, max: usize) -> Result<(), ToolError> {
    let name = a.name;
    if s.trim().is_empty() {
        return Err(ToolError::bad_argument(if a.required {
            format!(
                "`{name}` of {tool} is required and was given empty. Call again with a value{}",
                then_about(a)
            )
        } else {
            format!("`{name}` of {tool} is empty; give a value or leave it out.")
        }));
    }
    if s.chars().count() > max {
        return Err(ToolError::bad_argument(format!(
            "`{name}` of {tool} is {} characters long; at most {max} are accepted. Shorten it.",
            s.chars().count()
        )));
    }
    if s.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Err(ToolError::bad_argument(format!(
            "`{name}` of {tool} contains control characters ({}); remove them.",
            quote(s)
        )));
    }
    Ok(())
}

/// Checks `given` against the tool's arguments. Returns the arguments and the limit to use.
pub(crate) fn check(
    tool: &str,
    args: &[Arg],
    given: Option<&Map<String, Value>>,
    limit: Option<Limit>,
) -> Result<(Args, u32), ToolError> {
    let empty = Map::new();
    let given = given.unwrap_or(&empty);
    let accepted: Vec<&str> = args.iter().map(|a| a.name).collect();
    for key in given.keys() {
        if !accepted.contains(&key.as_str()) {
            let list = if accepted.is_empty() {
                "none".to_string()
            } else {
                accepted.join(", ")
            };
            return Err(ToolError::bad_argument(format!(
                "{tool} has no argument {}; it accepts: {list}. Call it again without that argument.",
                quote(key)
            )));
        }
    }
    let mut map = Map::new();
    let mut chosen_limit = limit.map(|l| l.default).unwrap_or(0);
    for a in args {
        let value = match given.get(a.name) {
            None | Some(Value::Null) => {
                if a.required {
                    return Err(ToolError::bad_argument(format!(
                        "{tool} needs `{}`{}",
                        a.name,
                        then_about(a)
                    )));
                }
                continue;
            }
            Some(v) => v,
        };
        let wrong = || {
            let range = match (a.kind, limit) {
                (Kind::Limit, Some(l)) => format!(" from 1 to {} (default {})", l.max, l.default),
                _ => String::new(),
            };
            ToolError::bad_argument(format!(
                "`{}` of {tool} must be {}{range}, not {} {}{}",
                a.name,
                a.kind.expects(),
                type_name(value),
                quote(&value.to_string()),
                then_about(a)
            ))
        };
        match a.kind {
            Kind::Channel | Kind::Team | Kind::Post | Kind::User => {
                let s = value.as_str().ok_or_else(wrong)?;
                check_text(tool, a, s, MAX_REFERENCE)?;
            }
            Kind::Text { max } => {
                let s = value.as_str().ok_or_else(wrong)?;
                check_text(tool, a, s, max)?;
            }
            Kind::Cursor => {
                let s = value.as_str().ok_or_else(wrong)?;
                if s.trim().is_empty() {
                    return Err(ToolError::new(
                        ErrorKind::BadCursor,
                        format!(
                            "`cursor` of {tool} is empty. Leave `cursor` out for a list's first page; for the next \
                             page pass the previous answer's next_cursor exactly (there is none after the last page)."
                        ),
                    ));
                }
                if s.len() > 4096 {
                    return Err(ToolError::new(
                        ErrorKind::BadCursor,
                        "The cursor is too long to be one this server made. Repeat the call without `cursor`.",
                    ));
                }
            }
            Kind::Time => {
                let s = value
                    .as_str()
                    .map(str::to_string)
                    .or_else(|| value.as_i64().map(|n| n.to_string()));
                let s = s.ok_or_else(wrong)?;
                if crate::time::parse(&s).is_none() {
                    return Err(ToolError::bad_argument(format!(
                        "`{}` of {tool} is {}, which is not a time. Give RFC 3339 (2026-11-30T09:00:00Z), a day \
                         (2026-11-30, its start in UTC) or milliseconds since the epoch.",
                        a.name,
                        quote(&s)
                    )));
                }
                map.insert(a.name.to_string(), Value::String(s));
                continue;
            }
            Kind::Flag => {
                value.as_bool().ok_or_else(wrong)?;
            }
            Kind::Users { max } => {
                let list = value.as_array().ok_or_else(wrong)?;
                if list.is_empty() || list.len() > max {
                    return Err(ToolError::bad_argument(format!(
                        "`{}` of {tool} holds {} entries; give 1 to {max}. Split a longer list over several calls.",
                        a.name,
                        list.len()
                    )));
                }
                for item in list {
                    let s = item.as_str().ok_or_else(wrong)?;
                    check_text(tool, a, s, MAX_REFERENCE)?;
                }
            }
            Kind::Choices { of } => {
                let words: Vec<&str> = match value {
                    Value::String(s) => s.split(',').map(str::trim).collect(),
                    Value::Array(list) => list
                        .iter()
                        .map(|v| v.as_str().map(str::trim))
                        .collect::<Option<Vec<&str>>>()
                        .ok_or_else(wrong)?,
                    _ => return Err(wrong()),
                };
                if words.is_empty() {
                    return Err(ToolError::bad_argument(format!(
                        "`{}` of {tool} is empty; give some of its words ({}), or leave it out for all.",
                        a.name,
                        of.join(", ")
                    )));
                }
                if let Some(bad) = words.iter().find(|w| !of.contains(w)) {
                    return Err(ToolError::bad_argument(format!(
                        "`{}` of {tool} names {}, which is not one of its words: {}. Call again with some of \
                         those, or leave `{}` out for all.",
                        a.name,
                        quote(bad),
                        of.join(", "),
                        a.name
                    ))
                    .with("accepted", json!(of)));
                }
                let chosen: Vec<&str> = of.iter().copied().filter(|w| words.contains(w)).collect();
                map.insert(a.name.to_string(), json!(chosen));
                continue;
            }
            Kind::Object { max } => {
                value.as_object().ok_or_else(wrong)?;
                let size = value.to_string().len();
                if size > max {
                    return Err(ToolError::bad_argument(format!(
                        "`{}` of {tool} is {size} bytes of JSON; at most {max} are accepted. Send less.",
                        a.name
                    )));
                }
            }
            Kind::Files { max } => {
                let list = value.as_array().ok_or_else(wrong)?;
                if list.is_empty() || list.len() > max {
                    return Err(ToolError::bad_argument(format!(
                        "`{}` of {tool} holds {} files; give 1 to {max} (a post takes at most {max}). Send more in \
                         another post.",
                        a.name,
                        list.len()
                    )));
                }
                for (i, item) in list.iter().enumerate() {
                    check_file(tool, a.name, i, item)?;
                }
            }
            Kind::Seconds { max } => {
                let n = whole_number(value).ok_or_else(wrong)?;
                if n < 1.0 || n > f64::from(max) {
                    return Err(ToolError::bad_argument(format!(
                        "`{}` of {tool} is {n}, out of range: give 1 to {max} seconds. Call again with a value in \
                         that range.",
                        a.name
                    )));
                }
                map.insert(a.name.to_string(), json!(n as u64));
                continue;
            }
            Kind::Limit => {
                let l = limit.unwrap_or(Limit {
                    default: 30,
                    max: 200,
                });
                let n = whole_number(value).ok_or_else(wrong)?;
                if n < 1.0 || n > f64::from(l.max) {
                    return Err(ToolError::bad_argument(format!(
                        "limit {n} is out of range: {tool} takes a limit from 1 to {} (default {}). Call again \
                         with a limit in that range.",
                        l.max, l.default
                    ))
                    .with("accepted", json!({"min": 1, "max": l.max, "default": l.default})));
                }
                chosen_limit = n as u32;
                continue;
            }
        }
        map.insert(a.name.to_string(), value.clone());
    }
    Ok((Args { map }, chosen_limit))
}

/// A whole number, or one written as a string of digits (`"50"`), as some clients send them.
fn whole_number(value: &Value) -> Option<f64> {
    value
        .as_f64()
        .or_else(|| {
            value
                .as_str()
                .filter(|s| !s.is_empty() && s.len() <= 9)
                .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|s| s.parse::<f64>().ok())
        })
        .filter(|f| f.fract() == 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARGS: &[Arg] = &[
        Arg {
            name: "channel",
            kind: Kind::Channel,
            required: true,
            about: "the channel",
            shapes: None,
        },
        Arg {
            name: "since",
            kind: Kind::Time,
            required: false,
            about: "a time",
            shapes: None,
        },
        Arg {
            name: "limit",
            kind: Kind::Limit,
            required: false,
            about: "page size",
            shapes: None,
        },
    ];
    const LIMIT: Option<Limit> = Some(Limit {
        default: 30,
        max: 200,
    });

    fn given(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn accepts_good_arguments_and_defaults_the_limit() {
        let (args, limit) =
            check("t", ARGS, Some(&given(json!({"channel": "x"}))), LIMIT).expect("ok");
        assert_eq!(args.str("channel"), Some("x"));
        assert_eq!(limit, 30);
    }

    #[test]
    fn refuses_unknown_missing_mistyped_and_out_of_range() {
        let e = check(
            "t",
            ARGS,
            Some(&given(json!({"channel": "x", "chanel": 1}))),
            LIMIT,
        )
        .unwrap_err();
        assert!(
            e.message.contains("`chanel`") && e.message.contains("channel, since, limit"),
            "{}",
            e.message
        );
        let e = check("t", ARGS, Some(&given(json!({}))), LIMIT).unwrap_err();
        assert!(e.message.contains("needs `channel`"));
        let e = check("t", ARGS, Some(&given(json!({"channel": 5}))), LIMIT).unwrap_err();
        assert!(
            e.message.contains("must be a string, not a number"),
            "{}",
            e.message
        );
        let e = check(
            "t",
            ARGS,
            Some(&given(json!({"channel": "x", "limit": 201}))),
            LIMIT,
        )
        .unwrap_err();
        assert!(
            e.message.contains("limit 201 is out of range") && e.message.contains("1 to 200"),
            "{}",
            e.message
        );
        let e = check(
            "t",
            ARGS,
            Some(&given(json!({"channel": "x", "limit": 2.5}))),
            LIMIT,
        )
        .unwrap_err();
        assert!(e.message.contains("whole number"), "{}", e.message);
        let e = check(
            "t",
            ARGS,
            Some(&given(json!({"channel": "x", "since": "soon"}))),
            LIMIT,
        )
        .unwrap_err();
        assert!(
            e.message.contains("`soon`") && e.message.contains("RFC 3339"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_limit_written_as_a_string_of_digits_is_taken_as_its_number() {
        let (_, limit) = check(
            "t",
            ARGS,
            Some(&given(json!({"channel": "x", "limit": "50"}))),
            LIMIT,
        )
        .expect("accepted");
        assert_eq!(limit, 50);
        let e = check(
            "t",
            ARGS,
            Some(&given(json!({"channel": "x", "limit": "500"}))),
            LIMIT,
        )
        .unwrap_err();
        assert!(
            e.message.contains("limit 500 is out of range"),
            "{}",
            e.message
        );
    }

    #[test]
    fn every_argument_error_ends_as_a_sentence_even_without_a_description() {
        // Every list tool gets `limit` with no description; a bad value must not end in a dangling colon.
        let bare: &[Arg] = &[
            Arg {
                name: "channel",
                kind: Kind::Channel,
                required: true,
                about: "",
                shapes: None,
            },
            Arg {
                name: "limit",
                kind: Kind::Limit,
                required: false,
                about: "",
                shapes: None,
            },
        ];
        for args in [
            json!({"channel": "x", "limit": "ten"}),
            json!({"channel": "x", "limit": true}),
            json!({}),
            json!({"channel": " "}),
            json!({"channel": 5}),
        ] {
            for declared in [bare, ARGS] {
                let e = check("t", declared, Some(&given(args.clone())), LIMIT).unwrap_err();
                assert!(
                    e.message.ends_with('.')
                        && !e.message.contains(": .")
                        && !e.message.ends_with(":"),
                    "{args}: {}",
                    e.message
                );
            }
        }
    }

    #[test]
    fn a_limit_of_the_wrong_type_quotes_the_value_and_gives_the_range() {
        for (bad, shown) in [
            (json!("five"), "`\"five\"`"),
            (json!(5.5), "`5.5`"),
            (json!("5.0"), "`\"5.0\"`"),
            (json!("-3"), "`\"-3\"`"),
        ] {
            let e = check(
                "t",
                ARGS,
                Some(&given(json!({"channel": "x", "limit": bad}))),
                LIMIT,
            )
            .unwrap_err();
            assert!(
                e.message.contains(shown) && e.message.contains("from 1 to 200 (default 30)"),
                "{}",
                e.message
            );
        }
    }

    #[test]
    fn an_empty_required_text_says_it_is_required_and_an_empty_cursor_says_what_to_do() {
        const TERMS: &[Arg] = &[
            Arg {
                name: "terms",
                kind: Kind::Text { max: 10 },
                required: true,
                about: "what to search for",
                shapes: None,
            },
            Arg {
                name: "cursor",
                kind: Kind::Cursor,
                required: false,
                about: "c",
                shapes: None,
            },
        ];
        let e = check("t", TERMS, Some(&given(json!({"terms": "  "}))), LIMIT).unwrap_err();
        assert!(
            e.message.contains("`terms` of t is required"),
            "{}",
            e.message
        );
        let e = check(
            "t",
            TERMS,
            Some(&given(json!({"terms": "x", "cursor": ""}))),
            LIMIT,
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadCursor);
        assert!(e.message.contains("Leave `cursor` out"), "{}", e.message);
    }
}
