//! `tools/list`: the MCP form of each offered tool (its description with a list's page sizes, its
//! input and output schemas, its annotations) and its pages, by `--page-size`, behind an opaque cursor.

use crate::args;
use crate::paging::cursor::{self, Binding, Fields};
use crate::tool::{Answer, Tool};
use rmcp::ErrorData;
use rmcp::model::{ListToolsResult, ToolAnnotations};
use std::sync::Arc;

/// The annotations of a tool: a reading tool says only that it reads this one Mattermost (the other
/// hints mean nothing for it); a writing tool gives all four.
fn annotations(tool: &Tool) -> ToolAnnotations {
    let h = tool.hints;
    if h.read_only {
        ToolAnnotations::from_raw(None, Some(true), None, None, Some(h.open_world))
    } else {
        ToolAnnotations::from_raw(
            None,
            Some(false),
            Some(h.destructive),
            Some(h.idempotent),
            Some(h.open_world),
        )
    }
}

/// The description a client sees: the tool's own, with a list's page sizes.
pub(crate) fn description(tool: &Tool) -> String {
    match tool.answer {
        Answer::List { limit, .. } => format!(
            "{} limit: default {}, max {}.",
            tool.description, limit.default, limit.max
        ),
        _ => tool.description.to_string(),
    }
}

/// The MCP form of a tool.
pub fn describe(tool: &Tool) -> rmcp::model::Tool {
    let schema = args::input_schema(&tool.all_args(), tool.limit());
    rmcp::model::Tool::new(tool.name, description(tool), Arc::new(schema))
        .with_title(tool.title)
        .with_raw_output_schema(Arc::new((tool.code.output)()))
        .with_annotations(annotations(tool))
        .with_icons(crate::identity::toolset_icons(tool.toolset))
}

const LIST_CURSOR: &str = "tools/list";

struct ListPosition(usize);

impl cursor::Position for ListPosition {
    fn write(&self, f: &mut Fields) {
        f.num(self.0 as i64);
    }
    fn read(r: &mut cursor::Reader<'_>) -> Option<ListPosition> {
        usize::try_from(r.num()?).ok().map(ListPosition)
    }
}

fn list_binding() -> Binding {
    Binding::new(LIST_CURSOR, &serde_json::Map::new(), "")
}

/// One page of `tools/list`.
pub(super) fn page(
    listed: &[rmcp::model::Tool],
    page_size: usize,
    cursor: Option<&str>,
) -> Result<ListToolsResult, ErrorData> {
    let start = match cursor {
        None => 0,
        Some(c) => cursor::decode(c, &list_binding(), &[])
            .ok()
            .and_then(|f| cursor::position::<ListPosition>(&f).ok())
            .map(|p| p.0)
            .filter(|o| *o <= listed.len())
            .ok_or_else(|| {
                ErrorData::invalid_params(
                    "Invalid cursor: it is not a tools/list cursor of this server; list the tools again without a cursor.",
                    None,
                )
            })?,
    };
    if page_size == 0 {
        return Ok(ListToolsResult::with_all_items(listed[start..].to_vec()));
    }
    let end = (start + page_size).min(listed.len());
    let mut result = ListToolsResult::with_all_items(listed[start..end].to_vec());
    if end < listed.len() {
        result.next_cursor = Some(cursor::encode(
            &list_binding(),
            &cursor::fields_of(&ListPosition(end)),
        ));
    }
    Ok(result)
}
