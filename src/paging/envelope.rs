//! The answer every list tool gives, one shape for all of them:
//!
//! `items`, `returned`, `has_more` (always), `next_cursor` (exactly when `has_more`), `total` where it
//! is cheap to know or else `total_known: false`, `capped: true` where Mattermost's own cap cut the
//! list, and `requests` (how many Mattermost requests the call made). A strategy may add fields of its
//! own (`first_unread`, say); they never replace these.

use super::cursor;
use serde::Serialize;
use serde_json::{Map, Value};

/// One page as a strategy computed it.
#[derive(Debug, Default)]
pub struct Page {
    pub items: Vec<Value>,
    /// Where the next page starts; `None` on the last page.
    pub next: Option<Value>,
    pub total: Option<u64>,
    /// Mattermost's cap cut the list (search answers at most 100 matches, say).
    pub capped: bool,
    /// Fields a strategy adds beside the envelope's own.
    pub extra: Map<String, Value>,
}

impl Page {
    pub fn new(items: Vec<Value>) -> Page {
        Page {
            items,
            ..Page::default()
        }
    }

    pub fn continue_at<P: Serialize>(mut self, position: Option<P>) -> Page {
        self.next = position.and_then(|p| serde_json::to_value(p).ok());
        self
    }

    pub fn with_total(mut self, total: u64) -> Page {
        self.total = Some(total);
        self
    }

    pub fn with(mut self, key: &str, value: Value) -> Page {
        self.extra.insert(key.to_string(), value);
        self
    }
}

/// The limit a list call runs with, and its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub default: u32,
    pub max: u32,
}

/// Builds the envelope for a page of `tool`, called with arguments whose fingerprint is `fingerprint`.
pub fn envelope(tool: &str, fingerprint: &str, page: Page, requests: u32) -> Value {
    let mut out = Map::new();
    let returned = page.items.len();
    let has_more = page.next.is_some();
    out.insert("items".into(), Value::Array(page.items));
    out.insert("returned".into(), Value::from(returned));
    out.insert("has_more".into(), Value::Bool(has_more));
    if let Some(next) = page.next {
        out.insert(
            "next_cursor".into(),
            Value::String(cursor::encode(tool, fingerprint, &next)),
        );
    }
    match page.total {
        Some(total) => out.insert("total".into(), Value::from(total)),
        None => out.insert("total_known".into(), Value::Bool(false)),
    };
    if page.capped {
        out.insert("capped".into(), Value::Bool(true));
    }
    out.insert("requests".into(), Value::from(requests));
    for (k, v) in page.extra {
        out.entry(k).or_insert(v);
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn last_page_has_no_cursor_and_says_so() {
        let v = envelope("t", "f", Page::new(vec![json!(1)]).with_total(1), 2);
        assert_eq!(v["has_more"], json!(false));
        assert!(v.get("next_cursor").is_none());
        assert_eq!(v["total"], json!(1));
        assert_eq!(v["requests"], json!(2));
        assert!(v.get("capped").is_none());
    }

    #[test]
    fn a_page_that_more_follow_carries_a_cursor_for_its_tool() {
        let page = Page::new(vec![json!(1), json!(2)]).continue_at(Some(json!({"o": 2})));
        let v = envelope("t", "f", page, 1);
        assert_eq!(v["has_more"], json!(true));
        assert_eq!(v["returned"], json!(2));
        assert_eq!(v["total_known"], json!(false));
        let c = v["next_cursor"].as_str().expect("cursor");
        assert_eq!(cursor::decode(c, "t", "f"), Ok(json!({"o": 2})));
    }
}
