//! Request bodies read the way Go's `encoding/json` decodes them into the server's structs:
//! `json.NewDecoder(r.Body).Decode(&v)` reads the first JSON value only (trailing bytes are
//! ignored); `null` leaves a struct at its zero value; keys match struct tags exactly or, failing
//! that, case-insensitively; a value of the wrong type is an error (the handler answers 400).

use serde_json::{Map, Value};

/// The first JSON value of a body, or None when there is none or it is malformed (`Decode` error).
pub(crate) fn first_value(body: &[u8]) -> Option<Value> {
    serde_json::Deserializer::from_slice(body)
        .into_iter::<Value>()
        .next()
        .and_then(Result::ok)
}

/// Decoding into a struct: an object, or `null` (the zero struct); anything else is an error.
pub(crate) fn struct_body(body: &[u8]) -> Option<Map<String, Value>> {
    match first_value(body)? {
        Value::Object(m) => Some(m),
        Value::Null => Some(Map::new()),
        _ => None,
    }
}

/// A decode error: the value at `key` has the wrong type.
#[derive(Debug)]
pub(crate) struct WrongType;

/// A struct's fields, looked up like Go does (exact tag first, then case-insensitive).
pub(crate) struct Fields<'a>(pub &'a Map<String, Value>);

impl<'a> Fields<'a> {
    pub(super) fn get(&self, key: &str) -> Option<&'a Value> {
        self.0.get(key).or_else(|| {
            self.0
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v)
        })
    }

    /// A `string` field: missing or null → "".
    pub(super) fn string(&self, key: &str) -> Result<String, WrongType> {
        Ok(self.opt_string(key)?.unwrap_or_default())
    }

    /// A `*string` field: missing or null → None.
    pub(super) fn opt_string(&self, key: &str) -> Result<Option<String>, WrongType> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(WrongType),
        }
    }

    /// An `int64` field: missing or null → 0; floats and out-of-range numbers are errors.
    pub(super) fn int(&self, key: &str) -> Result<i64, WrongType> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(0),
            Some(Value::Number(n)) => n.as_i64().ok_or(WrongType),
            Some(_) => Err(WrongType),
        }
    }

    /// A `bool` field: missing or null → false.
    pub(super) fn boolean(&self, key: &str) -> Result<bool, WrongType> {
        Ok(self.opt_bool(key)?.unwrap_or(false))
    }

    /// A `*bool` field.
    pub(super) fn opt_bool(&self, key: &str) -> Result<Option<bool>, WrongType> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(WrongType),
        }
    }

    /// A `[]string` field: missing or null → None; a null element decodes to "".
    pub(super) fn opt_strings(&self, key: &str) -> Result<Option<Vec<String>>, WrongType> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    Value::Null => Ok(String::new()),
                    _ => Err(WrongType),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(_) => Err(WrongType),
        }
    }

    /// A `map[string]any` field (`StringInterface`): missing or null → None.
    pub(super) fn opt_object(&self, key: &str) -> Result<Option<Map<String, Value>>, WrongType> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m.clone())),
            Some(_) => Err(WrongType),
        }
    }
}

/// A JSON array of strings (`model.SortedArrayFromJSON` / `NonSortedArrayFromJSON`): `null` is an
/// empty list; anything else that is not an array of strings is an error.
pub(crate) fn string_array(body: &[u8]) -> Option<Vec<String>> {
    match first_value(body)? {
        Value::Null => Some(Vec::new()),
        Value::Array(items) => items
            .into_iter()
            .map(|v| match v {
                Value::String(s) => Some(s),
                Value::Null => Some(String::new()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// The length in runes of a Go string (`utf8.RuneCountInString`).
pub(crate) fn runes(s: &str) -> usize {
    s.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_like_go() {
        assert!(first_value(b"").is_none());
        assert!(first_value(b"{\"a\":").is_none());
        assert_eq!(first_value(b"{} trailing"), Some(Value::Object(Map::new())));
        assert_eq!(struct_body(b"null").map(|m| m.len()), Some(0));
        assert!(struct_body(b"[1]").is_none());
        let m = struct_body(br#"{"Message":"hi","n":1.5,"b":true,"l":["x",null]}"#).unwrap();
        let f = Fields(&m);
        assert_eq!(f.string("message").unwrap(), "hi");
        assert!(f.int("n").is_err());
        assert!(f.boolean("b").unwrap());
        assert_eq!(
            f.opt_strings("l").unwrap(),
            Some(vec!["x".to_string(), String::new()])
        );
        assert!(f.string("b").is_err());
        assert_eq!(string_array(b"null"), Some(vec![]));
        assert_eq!(string_array(b"[1]"), None);
    }
}
