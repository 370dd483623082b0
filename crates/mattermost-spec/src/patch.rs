//! A structural patch of a spec: the RFC 6902 operations `add`, `replace` and `remove` on JSON
//! pointers (`-` appends to an array). The CI rehearsal of release day makes its release-like spec with
//! it, from the pinned copy and a committed patch of facts (`tests/release_day/`).

use serde::Deserialize;
use serde_json::Value;

/// A patch file: the release it makes, and its operations.
#[derive(Debug, Clone, Deserialize)]
pub struct PatchFile {
    /// The release name the patched spec stands for (`11.11.1-rehearsal`), which `spec-patch`
    /// reports.
    pub release: String,
    /// Prose for the reader of the file: what the patch changes and where its facts come from.
    #[serde(default)]
    pub about: String,
    /// The operations, applied in order by [`apply`].
    pub patch: Vec<Op>,
}

/// One operation.
#[derive(Debug, Clone, Deserialize)]
pub struct Op {
    /// `add`, `replace` or `remove`; [`apply`] refuses any other.
    pub op: String,
    /// The RFC 6901 JSON pointer it acts on (`/paths/~1api~1v4~1drafts`); a last token `-` appends
    /// to an array.
    pub path: String,
    /// What `add` or `replace` puts there; `None` (and ignored) for `remove`.
    #[serde(default)]
    pub value: Option<Value>,
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Applies the operations in order; an error names the operation (by its index and pointer) and why.
pub fn apply(doc: &mut Value, ops: &[Op]) -> Result<(), String> {
    for (i, op) in ops.iter().enumerate() {
        apply_one(doc, op).map_err(|e| format!("operation {i} ({} {}): {e}", op.op, op.path))?;
    }
    Ok(())
}

fn apply_one(doc: &mut Value, op: &Op) -> Result<(), String> {
    let (parent, last) = op
        .path
        .rsplit_once('/')
        .ok_or("the path is not a JSON pointer (it must start with /)")?;
    let last = unescape(last);
    let target = doc
        .pointer_mut(parent)
        .ok_or_else(|| format!("{parent} is not in the document"))?;
    let value = || {
        op.value
            .clone()
            .ok_or_else(|| format!("`{}` needs a `value`", op.op))
    };
    match (op.op.as_str(), target) {
        ("add", Value::Object(map)) => {
            if map.contains_key(&last) {
                return Err(format!("`{last}` is there already: use replace"));
            }
            map.insert(last, value()?);
        }
        ("add", Value::Array(list)) => {
            let v = value()?;
            if last == "-" {
                list.push(v);
            } else {
                let at: usize = last
                    .parse()
                    .map_err(|_| format!("`{last}` is not an array index"))?;
                if at > list.len() {
                    return Err(format!("index {at} is past the end ({})", list.len()));
                }
                list.insert(at, v);
            }
        }
        ("replace", Value::Object(map)) => {
            let slot = map
                .get_mut(&last)
                .ok_or_else(|| format!("`{last}` is not there to replace"))?;
            *slot = value()?;
        }
        ("remove", Value::Object(map)) => {
            map.remove(&last)
                .ok_or_else(|| format!("`{last}` is not there to remove"))?;
        }
        ("remove", Value::Array(list)) => {
            let at: usize = last
                .parse()
                .map_err(|_| format!("`{last}` is not an array index"))?;
            if at >= list.len() {
                return Err(format!("index {at} is past the end ({})", list.len()));
            }
            list.remove(at);
        }
        (other, _) if !matches!(other, "add" | "replace" | "remove") => {
            return Err(format!(
                "`{other}` is not an operation here: add, replace or remove"
            ));
        }
        _ => {
            return Err(format!(
                "{parent} is not an object or array this operation applies to"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn op(op: &str, path: &str, value: Option<Value>) -> Op {
        Op {
            op: op.into(),
            path: path.into(),
            value,
        }
    }

    #[test]
    fn operations_apply_in_order_and_a_wrong_one_is_named() {
        let mut doc = json!({"paths": {"/a": {"get": {"parameters": [1]}}}});
        apply(
            &mut doc,
            &[
                op("add", "/paths/~1b", Some(json!({"put": {}}))),
                op("add", "/paths/~1a/get/parameters/-", Some(json!(2))),
                op("add", "/paths/~1a/get/parameters/0", Some(json!(0))),
                op("replace", "/paths/~1b", Some(json!({"post": {}}))),
            ],
        )
        .expect("applies");
        assert_eq!(
            doc,
            json!({"paths": {"/a": {"get": {"parameters": [0, 1, 2]}}, "/b": {"post": {}}}})
        );
        let e = apply(&mut doc, &[op("add", "/paths/~1b", Some(json!(1)))]).expect_err("twice");
        assert!(
            e.contains("operation 0") && e.contains("there already"),
            "{e}"
        );
        let e = apply(&mut doc, &[op("add", "/nowhere/x", Some(json!(1)))]).expect_err("no parent");
        assert!(e.contains("/nowhere is not in the document"), "{e}");
        let e = apply(&mut doc, &[op("move", "/paths/x", None)]).expect_err("unknown op");
        assert!(e.contains("add, replace or remove"), "{e}");
        apply(&mut doc, &[op("remove", "/paths/~1b", None)]).expect("removes");
        assert!(doc.pointer("/paths/~1b").is_none());
    }
}
