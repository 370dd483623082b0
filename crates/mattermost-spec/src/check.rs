//! `spec-check`: how another release's spec differs from the pinned one, for what this project uses.
//!
//! Given the repaired pinned surface, another release's spec (as Mattermost publishes it), the
//! overrides, and what each tool sends ([`Use`]), it reports, each with what it asks of a maintainer:
//! operations a tool calls that are missing or changed (method, path, parameters, body fields, answer),
//! operations the spec lacks that a repair supplies, undocumented parameters the new spec documents
//! (their override can go), repairs that no longer apply, and new list operations no tool covers yet.

use crate::overrides::Overrides;
use crate::repairs;
use crate::surface::{Location, Operation, Surface, WHOLE_BODY};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// What the tool table uses of the pinned spec, committed as `spec/table-uses.json` so that a build
/// against another release can be checked before anything is generated (the pinned file may not be at
/// hand then). A test keeps it equal to the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableUses {
    /// The pinned spec's file name.
    pub pinned: String,
    pub uses: Vec<Use>,
    /// The operations the uses name, as the repaired pinned spec defines them.
    pub operations: Surface,
}

/// What one tool sends to one operation: the table's parameter names (`before`, `body.terms`, `body`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Use {
    pub tool: String,
    pub operation: String,
    pub sends: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A tool calls an operation this spec does not have, and no repair supplies it.
    Missing,
    /// A tool calls an operation that changed in a way its row must follow.
    Changed,
    /// An undocumented parameter's override no longer fits (its operation is gone).
    OverrideBroken,
    /// An undocumented parameter is now documented: its override can go.
    NowDocumented,
    /// A repair no longer finds what it repairs: it can go.
    RepairRetired,
    /// A repair fails for another reason.
    RepairFails,
    /// The operation is not in this spec, a repair supplies it.
    Supplied,
    /// A change a tool may feel but that does not stop the build (a new success status, say).
    Note,
    /// A list operation new in this spec that no tool covers yet.
    NewList,
}

impl Kind {
    fn heading(self) -> &'static str {
        match self {
            Kind::Missing => {
                "MISSING: operations a tool calls that this spec does not have. Change the tool (another operation, or leave the release unsupported) before building against it."
            }
            Kind::Changed => {
                "CHANGED: operations a tool calls whose method, path, parameters or body fields differ. Update the tool's row in src/table/ (and its code) to match."
            }
            Kind::OverrideBroken => {
                "OVERRIDE BROKEN: undocumented parameters whose operation is gone. Fix or delete the file in overrides/parameters/."
            }
            Kind::NowDocumented => {
                "NOW DOCUMENTED: undocumented parameters this spec documents. Delete their file in overrides/parameters/; the tool keeps sending them."
            }
            Kind::RepairRetired => {
                "REPAIR RETIRED: repairs that no longer find what they repair (fixed upstream, or not yet broken in this release). Delete the file in overrides/repairs/ when moving to this spec."
            }
            Kind::RepairFails => {
                "REPAIR FAILS: repairs that cannot be applied to this spec. Fix the file in overrides/repairs/."
            }
            Kind::Supplied => {
                "SUPPLIED BY A REPAIR: operations this spec lacks that a repair adds. Check that this release's router serves them (a live test), or the tools that use them fail there."
            }
            Kind::Note => {
                "NOTES: differences that do not stop the build but a tool may feel. Read the tool's code and tests."
            }
            Kind::NewList => {
                "NEW LISTS: list operations new in this spec that no tool covers yet. Candidates for new tools."
            }
        }
    }

    /// Whether the build against this spec would stop.
    pub fn blocks(self) -> bool {
        matches!(
            self,
            Kind::Missing
                | Kind::Changed
                | Kind::OverrideBroken
                | Kind::NowDocumented
                | Kind::RepairRetired
                | Kind::RepairFails
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: Kind,
    pub line: String,
}

#[derive(Debug, Clone, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
}

impl Report {
    /// True when the table can be built against the spec.
    pub fn buildable(&self) -> bool {
        !self.findings.iter().any(|f| f.kind.blocks())
    }

    pub fn of(&self, kind: Kind) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.kind == kind)
    }

    pub fn render(&self, other: &str, pinned: &str) -> String {
        let mut out = format!(
            "spec-check: {other}\n  compared with the pinned {pinned}, for the operations the tool table calls\n\n"
        );
        let kinds: BTreeSet<Kind> = self.findings.iter().map(|f| f.kind).collect();
        for kind in kinds {
            out.push_str(kind.heading());
            out.push('\n');
            for f in self.of(kind) {
                out.push_str("  - ");
                out.push_str(&f.line);
                out.push('\n');
            }
            out.push('\n');
        }
        out.push_str(if self.buildable() {
            "RESULT: the table can be built against this spec.\n"
        } else {
            "RESULT: the table cannot be built against this spec until the items above marked MISSING, CHANGED, OVERRIDE BROKEN, NOW DOCUMENTED or REPAIR are handled.\n"
        });
        out
    }
}

/// Where a table parameter name points in an operation: `body` (the whole body), `body.<field>`, or a
/// path or query parameter.
fn locate<'a>(op: &'a Operation, name: &str) -> Option<&'a crate::surface::Param> {
    if name == "body" {
        return op
            .param(Location::Body, WHOLE_BODY)
            .or_else(|| op.params.iter().find(|p| p.location == Location::Body));
    }
    if let Some(field) = name.strip_prefix("body.") {
        return op.param(Location::Body, field);
    }
    op.param(Location::Path, name)
        .or_else(|| op.param(Location::Query, name))
}

/// Compares `other` (a spec as Mattermost publishes it, or its stripped copy) with the repaired pinned
/// surface. `other` is stripped first ([`crate::strip`]), as the build strips every spec, so the
/// repairs see the same kind of input the pinned copy gave them.
pub fn compare(pinned: &Surface, other: &Value, overrides: &Overrides, uses: &[Use]) -> Report {
    let stripped = crate::strip::strip(other);
    let other = &stripped.doc;
    let mut findings = Vec::new();
    let upstream = Surface::of(other);
    for p in &overrides.parameters {
        match upstream.get(&p.operation) {
            None => findings.push(Finding {
                kind: Kind::OverrideBroken,
                line: format!(
                    "{}: {} is not in this spec ({} `{}`)",
                    p.file, p.operation, p.location, p.name
                ),
            }),
            Some(op) => {
                let documented = p.location().and_then(|l| op.param(l, &p.name)).is_some();
                if documented {
                    findings.push(Finding {
                        kind: Kind::NowDocumented,
                        line: format!(
                            "{}: {} now documents {} `{}`",
                            p.file, p.operation, p.location, p.name
                        ),
                    });
                }
            }
        }
    }
    let mut repaired_doc = other.clone();
    let (_, errors) = repairs::normalize_lenient(&mut repaired_doc, overrides);
    for e in errors {
        let kind = if e.contains("no longer finds what it repairs") {
            Kind::RepairRetired
        } else {
            Kind::RepairFails
        };
        if kind == Kind::RepairFails
            && e.contains("does not exist in the spec")
            && e.contains("overrides/parameters/")
        {
            continue; // reported above as OverrideBroken
        }
        findings.push(Finding { kind, line: e });
    }
    let repaired = Surface::of(&repaired_doc);
    let mut by_operation: BTreeMap<&str, Vec<&Use>> = BTreeMap::new();
    for u in uses {
        by_operation
            .entry(u.operation.as_str())
            .or_default()
            .push(u);
    }
    for (id, uses) in &by_operation {
        let tools: BTreeSet<&str> = uses.iter().map(|u| u.tool.as_str()).collect();
        let tools = tools.into_iter().collect::<Vec<_>>().join(", ");
        let pinned_op = pinned.get(id);
        let Some(op) = repaired.get(id) else {
            let at = pinned_op
                .map(|o| format!(" ({} {})", o.method, o.path))
                .unwrap_or_default();
            findings.push(Finding {
                kind: Kind::Missing,
                line: format!("{id}{at}, used by {tools}"),
            });
            continue;
        };
        if upstream.get(id).is_none() {
            let by = overrides
                .repairs
                .iter()
                .find(|r| r.repair == "add_operation" && r.operation.as_deref() == Some(id))
                .map(|r| r.file.clone())
                .unwrap_or_else(|| "a repair".into());
            findings.push(Finding {
                kind: Kind::Supplied,
                line: format!(
                    "{id} ({} {}) is not in this spec; {by} adds it; used by {tools}",
                    op.method, op.path
                ),
            });
        }
        let Some(p) = pinned_op else { continue };
        if p.method != op.method || p.path != op.path {
            findings.push(Finding {
                kind: Kind::Changed,
                line: format!(
                    "{id}: was {} {}, is {} {}; used by {tools}",
                    p.method, p.path, op.method, op.path
                ),
            });
        }
        let sent: BTreeSet<&str> = uses
            .iter()
            .flat_map(|u| u.sends.iter().map(String::as_str))
            .collect();
        for name in &sent {
            let (Some(before), now) = (locate(p, name), locate(op, name)) else {
                continue;
            };
            match now {
                None => findings.push(Finding {
                    kind: Kind::Changed,
                    line: format!("{id}: the parameter `{name}` the tools send is not in this spec; used by {tools}"),
                }),
                Some(after) if after.ty != before.ty => findings.push(Finding {
                    kind: Kind::Note,
                    line: format!("{id}: `{name}` was {}, is {}; used by {tools}", before.ty, after.ty),
                }),
                Some(_) => {}
            }
        }
        for q in op.params.iter().filter(|q| q.required) {
            let known = p
                .params
                .iter()
                .any(|k| k.location == q.location && k.name == q.name);
            if !known {
                findings.push(Finding {
                    kind: Kind::Changed,
                    line: format!(
                        "{id}: a new required {} parameter `{}`; used by {tools}",
                        q.location.as_str(),
                        q.name
                    ),
                });
            }
        }
        if p.success != op.success || p.response != op.response {
            findings.push(Finding {
                kind: Kind::Note,
                line: format!(
                    "{id}: answers {} {} (was {} {}); used by {tools}",
                    op.success.join("/"),
                    op.response,
                    p.success.join("/"),
                    p.response
                ),
            });
        }
    }
    for op in repaired.list_operations() {
        if pinned.get(&op.id).is_none() && !by_operation.contains_key(op.id.as_str()) {
            findings.push(Finding {
                kind: Kind::NewList,
                line: format!("{} ({} {})", op.id, op.method, op.path),
            });
        }
    }
    Report { findings }
}
