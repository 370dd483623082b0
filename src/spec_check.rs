//! The pinned spec as the binary carries it (the repaired surface and the overrides the client was
//! generated with), what the tools use of it, and `mattermost-mcp spec-check PATH`, which compares
//! another release's spec with the pin of the working tree (`mattermost_spec::tree`).

use crate::calls::Source;
use crate::inventory;
use mattermost_spec::Surface;
use mattermost_spec::check::{TableUses, Use};
use mattermost_spec::tree::Tree;
use std::path::Path;

const SURFACE: &str = mattermost_client::build_info::SURFACE_JSON;
#[cfg(test)]
const OVERRIDES: &str = mattermost_client::build_info::OVERRIDES_JSON;

/// The repaired pinned spec's operations, as the generated client has them.
pub fn pinned_surface() -> Surface {
    serde_json::from_str(SURFACE).unwrap_or_default()
}

/// The overrides the client was generated with.
#[cfg(test)]
pub(crate) fn overrides() -> mattermost_spec::Overrides {
    serde_json::from_str(OVERRIDES).unwrap_or_default()
}

/// What each tool sends to each operation it calls (resolution's calls included).
pub(crate) fn uses() -> Vec<Use> {
    let mut out = Vec::new();
    for tool in inventory::tools() {
        for call in tool.all_calls() {
            let sends = call
                .params
                .iter()
                .filter(|(_, source)| !matches!(source, Source::Omitted(_)))
                .map(|(name, _)| name.to_string())
                .collect();
            out.push(Use {
                tool: tool.name.to_string(),
                operation: call.operation.to_string(),
                sends,
            });
        }
    }
    out
}

/// The contents `spec/table-uses.json` must have.
pub fn table_uses() -> TableUses {
    let uses = uses();
    let surface = pinned_surface();
    let mut operations = Surface::default();
    for u in &uses {
        if let Some(op) = surface.get(&u.operation) {
            operations.operations.insert(op.id.clone(), op.clone());
        }
    }
    TableUses {
        pinned: mattermost_client::build_info::SPEC_FILE.to_string(),
        uses,
        operations,
    }
}

/// Compares the spec at `path` with the pinned one, as the working tree has it (the checkout around
/// the current directory, else the one this binary was built from): its pin and its overrides on disk,
/// not those compiled in, so a retired repair deleted is seen at once. Returns the report and whether
/// the tools can be built against it.
pub fn run(path: &Path) -> Result<(String, bool), String> {
    let here = std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?;
    let tree = Tree::find(&here)
        .or_else(|e| Tree::find(Path::new(env!("CARGO_MANIFEST_DIR"))).map_err(|_| e))?;
    let (report, text) = mattermost_spec::tree::spec_check(&tree, path, Some(uses()))?;
    Ok((text, report.buildable()))
}

/// The README's tool list, from the inventory: toolset by toolset, each tool with its arguments, the
/// first sentence of its description, how it pages and whether it writes and asks first.
pub fn tools_markdown() -> String {
    use crate::tool::{Answer, Asks, Toolset};
    let mut out = String::new();
    for set in Toolset::ALL {
        let tools: Vec<_> = inventory::tools()
            .iter()
            .filter(|t| t.toolset == set)
            .collect();
        if tools.is_empty() {
            continue;
        }
        let listed = if crate::tool::Toolset::DEFAULT.contains(&set) {
            if set == Toolset::Writes {
                "listed by default when writes are allowed"
            } else {
                "listed by default"
            }
        } else {
            "listed when chosen in MATTERMOST_TOOLSETS"
        };
        out.push_str(&format!("\n**`{}`** ({listed}):\n\n", set.name()));
        for t in tools {
            let first = t
                .description
                .split(". ")
                .next()
                .unwrap_or(t.description)
                .trim_end_matches('.');
            let shape = match t.answer {
                Answer::One => String::new(),
                Answer::List { strategy, limit } => format!(
                    " *List: limit default {}, max {}; paged by `{}`.*",
                    limit.default,
                    limit.max,
                    strategy.module()
                ),
                Answer::Bounded { max, .. } => {
                    format!(" *Bounded by its input (at most {max}); no cursor.*")
                }
            };
            let writes = match (t.hints.read_only, t.asks) {
                _ if t.planned_per_call() => {
                    " *Reads; writes only with MATTERMOST_ALLOW_WRITES=true, each asked first.*"
                }
                (true, _) => "",
                (false, Asks::First(_)) => " *Writes; asks you first.*",
                (false, Asks::Never) => " *Writes (only what you alone see); never asks.*",
            };
            let args: Vec<String> = t
                .args
                .iter()
                .map(|a| {
                    if a.required {
                        a.name.to_string()
                    } else {
                        format!("{}?", a.name)
                    }
                })
                .collect();
            out.push_str(&format!(
                "- `{}`({}): {first}.{shape}{writes}\n",
                t.name,
                args.join(", ")
            ));
        }
    }
    out
}
