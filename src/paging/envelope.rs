//! The answer every list tool gives, one generic shape over its item:
//!
//! `items`, `returned`, `has_more` (always), `next_cursor` (exactly when `has_more`), `total` where it
//! is cheap to know or else `total_known: false`, `capped: true` where Mattermost's own cap cut the
//! list, and `requests` (how many Mattermost requests the call made). A tool may add fields of its own
//! (`first_unread`, say) through its `X` type, flattened beside these; they never replace them.

use super::cursor::{self, Binding, Fields, Position};
use schemars::JsonSchema;
use serde::Serialize;

/// No fields beyond the envelope's own.
#[derive(Debug, Default, Clone, Serialize, JsonSchema)]
pub(crate) struct NoExtra {}

/// One page as a tool computed it: its items, where the next page starts, and what it knows of the
/// whole list.
#[derive(Debug)]
pub(crate) struct Page<I, X = NoExtra> {
    pub(crate) items: Vec<I>,
    /// Where the next page starts; `None` on the last page.
    pub(crate) next: Option<Fields>,
    pub(crate) total: Option<u64>,
    /// Mattermost's cap cut the list (search answers at most 100 matches, say).
    pub(crate) capped: bool,
    pub(crate) extra: X,
}

impl<I> Page<I, NoExtra> {
    pub(crate) fn new(items: Vec<I>) -> Page<I, NoExtra> {
        Page {
            items,
            next: None,
            total: None,
            capped: false,
            extra: NoExtra {},
        }
    }
}

impl<I, X> Page<I, X> {
    /// The same page with the tool's own fields.
    pub(crate) fn with_extra<Y>(self, extra: Y) -> Page<I, Y> {
        Page {
            items: self.items,
            next: self.next,
            total: self.total,
            capped: self.capped,
            extra,
        }
    }

    pub(crate) fn continue_at<P: Position>(mut self, position: Option<P>) -> Page<I, X> {
        self.next = position.map(|p| cursor::fields_of(&p));
        self
    }

    pub(crate) fn with_total(mut self, total: u64) -> Page<I, X> {
        self.total = Some(total);
        self
    }

    pub(crate) fn capped(mut self, capped: bool) -> Page<I, X> {
        self.capped = capped;
        self
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A list tool's answer, as the client receives it (and as its output schema describes it).
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Envelope<I, X> {
    pub(crate) items: Vec<I>,
    // `returned`, `total_known`, `capped` and `requests` are in every answer as the server's
    // instructions describe them; the published schema leaves them out to keep `tools/list` small.
    #[schemars(skip)]
    pub(crate) returned: usize,
    pub(crate) has_more: bool,
    /// Pass it back as `cursor`, with the same other arguments, for the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) next_cursor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) total: Option<u64>,
    /// false when counting the list would cost as much as reading it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub(crate) total_known: Option<bool>,
    /// Mattermost's own cap cut the list.
    #[serde(default, skip_serializing_if = "is_false")]
    #[schemars(skip)]
    pub(crate) capped: bool,
    /// Mattermost requests the call made.
    #[schemars(skip)]
    pub(crate) requests: u32,
    #[serde(flatten)]
    pub(crate) extra: X,
}

impl<I, X> Envelope<I, X> {
    /// The envelope of `page`, its cursor bound to `binding`.
    pub(crate) fn of(page: Page<I, X>, binding: &Binding, requests: u32) -> Envelope<I, X> {
        let returned = page.items.len();
        let next_cursor = page.next.map(|f| cursor::encode(binding, &f));
        Envelope {
            items: page.items,
            returned,
            has_more: next_cursor.is_some(),
            next_cursor,
            total_known: page.total.is_none().then_some(false),
            total: page.total,
            capped: page.capped,
            requests,
            extra: page.extra,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct At(i64);
    impl Position for At {
        fn write(&self, f: &mut Fields) {
            f.num(self.0);
        }
        fn read(r: &mut cursor::Reader<'_>) -> Option<At> {
            Some(At(r.num()?))
        }
    }

    fn binding() -> Binding {
        Binding::new("t", &serde_json::Map::new(), "p")
    }

    #[test]
    fn last_page_has_no_cursor_and_says_so() {
        let v = json!(Envelope::of(
            Page::new(vec![1]).with_total(1),
            &binding(),
            2
        ));
        assert_eq!(v["has_more"], json!(false));
        assert!(v.get("next_cursor").is_none());
        assert_eq!(v["total"], json!(1));
        assert_eq!(v["requests"], json!(2));
        assert!(v.get("capped").is_none() && v.get("total_known").is_none());
    }

    #[test]
    fn a_page_that_more_follow_carries_a_cursor_for_its_tool() {
        let page = Page::new(vec![1, 2]).continue_at(Some(At(2)));
        let v = json!(Envelope::of(page, &binding(), 1));
        assert_eq!(v["has_more"], json!(true));
        assert_eq!(v["returned"], json!(2));
        assert_eq!(v["total_known"], json!(false));
        let c = v["next_cursor"].as_str().expect("cursor");
        let fields = cursor::decode(c, &binding(), &[]).expect("decodes");
        assert_eq!(cursor::position::<At>(&fields).map(|a| a.0), Ok(2));
    }
}
