//! The operation gateway: toolset `api`, every operation of the generated client through three tools.
//! [`find_operations`] searches the catalog (`crate::mattermost::operations::catalog`, classified at
//! build time from the spec), [`describe_operation`] gives one operation whole, and [`call_operation`]
//! sends one, checked before any request, paged like every list ([`answers`]), its writes gated and
//! asked as the writing tools ask. What they share is here: the operation argument, naming an
//! operation in any spelling, and which offered tools already cover an operation.

pub(crate) mod call_operation;
pub(crate) mod describe_operation;
pub(crate) mod find_operations;
mod params;
mod request;
mod walks;

use crate::args::{Arg, Kind};
use crate::calls::Call;
use crate::error::ToolError;
use crate::mattermost::operations::{self, Access, Entry, PagingKind};
use crate::tool::Tool;

/// The operation a describing or calling tool takes.
pub(crate) const OPERATION: Arg = Arg {
    name: "operation",
    kind: Kind::Text { max: 100 },
    required: true,
    about: "An operation id from find_operations (GetBots), in any case or snake_case.",
    shapes: Some("chooses the operation from the catalog"),
};

/// The catalog's entry for `name` (its id or any spelling of it), callable or not; an unknown name
/// is refused with the closest ids.
pub(crate) fn entry(name: &str) -> Result<&'static Entry, ToolError> {
    operations::catalog().resolve(name).ok_or_else(|| {
        let suggestions = operations::catalog().suggest(name);
        let hint = if suggestions.is_empty() {
            "Search with find_operations by what it does (\"webhooks\", \"bots\"), then use an id it gives."
                .to_string()
        } else {
            format!(
                "Did you mean {}? Or search with find_operations.",
                suggestions.join(", ")
            )
        };
        ToolError::bad_argument(format!(
            "There is no Mattermost operation {}. {hint}",
            crate::error::quote(name)
        ))
        .with("operation", serde_json::json!(name))
    })
}

/// How the gateway classes an operation, as its tools show it: `read`, `write`, or `outside` (a write
/// that makes Mattermost connect, send or send a browser to an address given in the call: asked like
/// every write, and its question shows the address).
pub(crate) fn access_word(e: &Entry) -> &'static str {
    match (e.access, &e.outside) {
        (_, Some(_)) => "outside",
        (Access::Read, None) => "read",
        (Access::Write, None) => "write",
    }
}

/// Whether the spec or the server's source says the operation needs a system administrator.
pub(crate) fn admin_only(e: &Entry) -> bool {
    e.permissions.system_admin
}

/// The offered tools that already cover `operation`: those that send it for what they are asked,
/// which a model should prefer (their answers are shaped, named and paged for the task). A tool covers
/// an operation it declares in its own calls when that call is the tool's only call, or when it is not
/// one of the calls many tools share (declared the same in three or more: the person's own user, the
/// usernames a page shows, the post or channel a write acts on) and it takes a parameter from the
/// tool's arguments or is the tool's first call. A tool that declares no call of its own covers the
/// lookups its arguments resolve through (`get_users`).
pub fn covered_by(offered: &[&'static Tool], operation: &str) -> Vec<&'static str> {
    let shared = |call: &Call| {
        offered
            .iter()
            .filter(|t| t.calls.iter().any(|c| c == call))
            .count()
            >= 3
    };
    let mut out: Vec<&'static str> = Vec::new();
    for tool in offered.iter().filter(|t| !t.planned_per_call()) {
        let covers = if tool.calls.is_empty() {
            tool.all_calls().iter().any(|c| c.operation == operation)
        } else {
            tool.calls.iter().enumerate().any(|(i, c)| {
                let from_args = c
                    .params
                    .iter()
                    .any(|(_, s)| matches!(s, crate::calls::Source::Arg(_)));
                c.operation == operation
                    && (tool.calls.len() == 1 || (!shared(c) && (from_args || i == 0)))
            })
        };
        if covers && !out.contains(&tool.name) {
            out.push(tool.name);
        }
    }
    out
}

/// How `call_operation` pages an operation of this kind.
pub(crate) fn how_paged(e: &Entry) -> String {
    let continued = match e.paging.params.as_slice() {
        [] => String::new(),
        p => p.join(", "),
    };
    match e.paging.kind {
        PagingKind::None if e.access == Access::Write => {
            "Sent once; its answer is what it did (an answer larger than a page is kept and paged by next_cursor)."
                .into()
        }
        PagingKind::None => {
            "One answer; an object larger than a page is cut between its fields, next_cursor continues.".into()
        }
        PagingKind::PagePerPage | PagingKind::Offset => format!(
            "call_operation walks {continued} for you (leave them out): limit is the page size, next_cursor the \
             next page. Offset paging can skip or repeat items while the list changes."
        ),
        PagingKind::BeforeAfter => format!(
            "call_operation pages back from the newest with `before` = the last item's id (or forward from an \
             `after` you give); leave {continued} but before/after out."
        ),
        PagingKind::WholeList | PagingKind::Since => {
            "Mattermost answers the whole list; call_operation pages it in Mattermost's order, kept for the cursor \
             chain (later pages cost no request)."
                .into()
        }
        PagingKind::CursorField | PagingKind::Keyset | PagingKind::LimitOnly => format!(
            "call_operation sends your parameters once and pages what Mattermost answered; to read past it, call \
             again with {continued} set as that answer says."
        ),
    }
}
