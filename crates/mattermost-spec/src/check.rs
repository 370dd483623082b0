//! `spec-check`: how another release's spec differs from the pinned one, for what this project uses.
//!
//! Given the pinned spec ([`Baseline`]: what each tool sends ([`Use`]), the repaired pinned definitions
//! of those operations, and the pinned file as Mattermost publishes it when at hand), another release's
//! spec and the overrides (read from the working tree by the caller), it reports, each line with what
//! it asks of a maintainer:
//! - operations added, removed and renamed (same method and path, a new id), counted, and each one the
//!   tools touch named with its tools (the operation gateway reaches every operation: the others are
//!   listed for it);
//! - for each operation a tool calls: a new method or path, parameters and body fields added, removed,
//!   retyped or made (not) required, a new answer, and the fields of the schemas it answers with;
//! - undocumented parameters the spec documents now, overrides that no longer fit, repairs that retire
//!   (with the generated type names that go away and what replaces them) or fail, operations only a
//!   repair supplies.
//!
//! Each upstream fact is one line: an operation that is gone takes its overrides with it in its own
//! line, a retired repair carries the answer it leaves to upstream, and so on.
//!
//! Multipart operations (`UploadFile`) are compared too: the tools send them by hand (they are left out
//! of generation only after this comparison).

use crate::changes::{self, FieldChange, ParamChange};
use crate::overrides::{Overrides, locate_operation};
use crate::repairs;
use crate::retire::{self, TypeRename};
use crate::surface::{Location, Operation, Surface, WHOLE_BODY};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// What the tools use of the pinned spec, committed as `spec/table-uses.json` (a name from when the
/// tools' declarations were one table) so that a build against another release can be checked before
/// anything is generated (the pinned file may not be at hand then). A test keeps it equal to what the
/// tools declare.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableUses {
    /// The pinned spec's file name.
    pub pinned: String,
    /// One per tool and operation it calls, in the inventory's order.
    pub uses: Vec<Use>,
    /// The operations the uses name, as the repaired pinned spec defines them.
    pub operations: Surface,
}

/// What one tool sends to one operation: its declaration's parameter names (`before`, `body.terms`, `body`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Use {
    /// The tool's name, as MCP clients see it (`read_channel`).
    pub tool: String,
    /// The operationId it calls (`GetPostsForChannel`).
    pub operation: String,
    /// The parameters its declaration sends, by their declared names: path and query parameters by name, body fields
    /// as `body.<field>`, a body that is not an object as `body`.
    pub sends: Vec<String>,
}

/// The pinned release, as the comparison needs it.
#[derive(Debug, Clone, Default)]
pub struct Baseline {
    /// The pinned file's name (and sha256), for the report's heading.
    pub name: String,
    /// What each tool sends to each operation.
    pub uses: Vec<Use>,
    /// The repaired pinned definitions of the operations the uses name.
    pub used: Surface,
    /// The pinned spec as Mattermost publishes it (its stripped copy), when at hand: without it the
    /// report has no count of operations added and removed, no renames of operations no tool calls and
    /// no schema fields.
    pub upstream: Option<Value>,
}

/// What a finding asks of a maintainer: the report groups its lines under one heading per kind, in
/// this order, and [`Kind::blocks`] says which stop the build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A tool calls an operation this spec does not have, and no repair supplies it.
    Missing,
    /// A tool calls an operation that changed in a way its declaration and code must follow.
    Changed,
    /// A parameter the tools' declarations must account for (new, gone): the tests hold every
    /// declaration to it.
    Parameters,
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
    /// A change a tool may feel but that does not stop the build (a new success status, a schema field).
    Note,
    /// An operation new in this spec that no tool calls (the gateway reaches it); lists are candidates
    /// for new tools.
    NewList,
    /// An operation no tool calls, under a new id.
    Renamed,
    /// An operation no tool calls, gone.
    Removed,
}

impl Kind {
    fn heading(self) -> &'static str {
        match self {
            Kind::Missing => {
                "MISSING: operations a tool calls that this spec does not have. Change the tool (another operation, or leave the release unsupported) before building against it."
            }
            Kind::Changed => {
                "CHANGED: operations a tool calls whose id, method, path, parameters or body fields differ. Update the tool's file in src/tools/<toolset>/ (its declaration and its code) to match."
            }
            Kind::Parameters => {
                "PARAMETERS: parameters the tools' declarations must account for (the governance tests hold each declaration to every parameter of its operation). Set, fix, page or omit each one in the tool's file in src/tools/<toolset>/."
            }
            Kind::OverrideBroken => {
                "OVERRIDE BROKEN: undocumented parameters whose operation is gone. Fix or delete the file in overrides/parameters/."
            }
            Kind::NowDocumented => {
                "NOW DOCUMENTED: undocumented parameters this spec documents. Delete their file in overrides/parameters/ when moving to this spec; the tool keeps sending them."
            }
            Kind::RepairRetired => {
                "REPAIR RETIRED: repairs that no longer find what they repair (fixed upstream, or not yet broken in this release). Delete the file in overrides/repairs/ when moving to this spec, and rename the generated types named below in the tool code."
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
                "ADDED: operations new in this spec that no tool calls; the operation gateway reaches them once pinned. Lists among them are candidates for new tools."
            }
            Kind::Renamed => {
                "RENAMED: operations no tool calls, under a new id (same method and path); the gateway knows them by the new id once pinned."
            }
            Kind::Removed => {
                "REMOVED: operations no tool calls that this spec does not have; the gateway cannot call them once pinned."
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

    /// Whether a person has to change something before the tests pass against this spec.
    pub fn needs_a_person(self) -> bool {
        self.blocks() || self == Kind::Parameters
    }
}

/// One upstream fact the report states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The heading it goes under, and whether it blocks the build.
    pub kind: Kind,
    /// What changed and what to do about it, as the report prints it (without the leading `- `); it
    /// may run over several lines.
    pub line: String,
    /// The operation the finding is about, when one is (to keep one line per fact).
    pub about: Option<String>,
    /// The override file the finding is about, when one is.
    pub file: Option<String>,
}

impl Finding {
    fn new(kind: Kind, line: String) -> Finding {
        Finding {
            kind,
            line,
            about: None,
            file: None,
        }
    }

    fn about(mut self, operation: &str) -> Finding {
        self.about = Some(operation.to_string());
        self
    }

    fn file(mut self, file: &str) -> Finding {
        self.file = Some(file.to_string());
        self
    }
}

/// A repair that retires, and what it does to the generated client's type names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retirement {
    /// `overrides/repairs/<file>.yaml`.
    pub file: String,
    /// The generated type names that go away when it is deleted, each with what replaces it.
    pub renames: Vec<TypeRename>,
}

/// What `spec-check` found comparing another release's spec with the pinned one.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Every finding, in the order the comparison made them (rendered grouped by [`Kind`]).
    pub findings: Vec<Finding>,
    /// The count of operations added, removed and renamed, when the pinned file was at hand.
    pub summary: Option<String>,
    /// The repairs that retire, with their type renames.
    pub retirements: Vec<Retirement>,
    /// The files in `overrides/parameters/` this spec documents.
    pub documented: Vec<String>,
}

impl Report {
    /// True when the tools can be built against the spec.
    pub fn buildable(&self) -> bool {
        !self.findings.iter().any(|f| f.kind.blocks())
    }

    /// The findings of one kind, in the report's order.
    pub fn of(&self, kind: Kind) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.kind == kind)
    }

    /// The report as `spec-check` prints it: a heading naming `other` (the compared spec) and
    /// `pinned`, the summary, each kind's heading with its lines, and a last `RESULT:` line saying
    /// whether the tools can be built against `other`.
    pub fn render(&self, other: &str, pinned: &str) -> String {
        let mut out = format!(
            "spec-check: {other}\n  compared with the pinned {pinned}, for the operations the tools call and the gateway reaches\n\n"
        );
        if let Some(s) = &self.summary {
            out.push_str(s);
            out.push_str("\n\n");
        }
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
            "RESULT: the tools can be built against this spec.\n"
        } else {
            "RESULT: the tools cannot be built against this spec until the items above marked MISSING, CHANGED, OVERRIDE BROKEN, NOW DOCUMENTED or REPAIR are handled.\n"
        });
        out
    }
}

/// What a rename line says between the two ids (how [`one_line_per_fact`] knows it).
const RENAMED: &str = " in this spec (the same";

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

/// Compares `other` with the pinned `used` surface, for the tools' `uses`, without the pinned file
/// itself (what the build has): see [`compare_with`].
pub fn compare(pinned: &Surface, other: &Value, overrides: &Overrides, uses: &[Use]) -> Report {
    compare_with(
        &Baseline {
            name: String::new(),
            uses: uses.to_vec(),
            used: pinned.clone(),
            upstream: None,
        },
        other,
        overrides,
    )
}

/// The operation an override file is about, by its file name.
fn file_operations(overrides: &Overrides) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for p in &overrides.parameters {
        out.insert(p.file.clone(), p.operation.clone());
    }
    for r in &overrides.repairs {
        if let Some(op) = &r.operation {
            out.insert(r.file.clone(), op.clone());
        }
    }
    out
}

fn list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Compares `other` (a spec as Mattermost publishes it, or its stripped copy) with the pinned release.
/// `other` is stripped first ([`crate::strip`]), as the build strips every spec, so the repairs see
/// the same kind of input the pinned copy gave them.
pub fn compare_with(base: &Baseline, other: &Value, overrides: &Overrides) -> Report {
    let stripped = crate::strip::strip(other);
    let other = &stripped.doc;
    let mut report = Report::default();
    let upstream = Surface::of(other);
    let of_file = file_operations(overrides);

    for p in &overrides.parameters {
        match upstream.get(&p.operation) {
            None => report.findings.push(
                Finding::new(
                    Kind::OverrideBroken,
                    format!(
                        "{}: {} is not in this spec ({} `{}`)",
                        p.file, p.operation, p.location, p.name
                    ),
                )
                .about(&p.operation)
                .file(&p.file),
            ),
            Some(op) => {
                if p.location().and_then(|l| op.param(l, &p.name)).is_some() {
                    report.documented.push(p.file.clone());
                    report.findings.push(
                        Finding::new(
                            Kind::NowDocumented,
                            format!(
                                "{}: this spec documents {} `{}` of {}",
                                p.file, p.location, p.name, p.operation
                            ),
                        )
                        .file(&p.file),
                    );
                }
            }
        }
    }

    let mut repaired_doc = other.clone();
    let (_, errors) = repairs::repair_lenient(&mut repaired_doc, overrides);
    let mut retiring: BTreeSet<String> = BTreeSet::new();
    for e in errors {
        let file = e.split_once(": ").map(|(f, _)| f.to_string());
        let retired = e.contains("no longer finds what it repairs");
        let kind = if retired {
            Kind::RepairRetired
        } else {
            Kind::RepairFails
        };
        let mut f = Finding::new(kind, e);
        if let Some(file) = &file {
            if let Some(op) = of_file.get(file) {
                f = f.about(op);
            }
            f = f.file(file);
            if retired {
                retiring.insert(file.clone());
            }
        }
        report.findings.push(f);
    }
    let repaired = Surface::of(&repaired_doc);

    retirements(&mut report, overrides, &retiring, other);

    let mut by_operation: BTreeMap<&str, Vec<&Use>> = BTreeMap::new();
    for u in &base.uses {
        by_operation
            .entry(u.operation.as_str())
            .or_default()
            .push(u);
    }
    let added_by: BTreeMap<&str, &str> = overrides
        .repairs
        .iter()
        .filter(|r| r.repair == "add_operation")
        .filter_map(|r| r.operation.as_deref().map(|o| (o, r.file.as_str())))
        .collect();
    let stripped_pinned = base.upstream.as_ref().map(|d| crate::strip::strip(d).doc);
    let pinned_upstream = stripped_pinned.as_ref().map(Surface::of);
    let mut renamed_to: BTreeSet<String> = BTreeSet::new();
    for (id, uses) in &by_operation {
        let tools: BTreeSet<&str> = uses.iter().map(|u| u.tool.as_str()).collect();
        let tools = tools.into_iter().collect::<Vec<_>>().join(", ");
        let pinned_op = base.used.get(id);
        let Some(op) = repaired.get(id) else {
            let renamed = pinned_op.and_then(|p| {
                let shape = changes::path_shape(&p.path);
                repaired
                    .operations
                    .values()
                    .find(|o| {
                        o.method == p.method
                            && changes::path_shape(&o.path) == shape
                            && !by_operation.contains_key(o.id.as_str())
                    })
                    .map(|o| (p, o))
            });
            match renamed {
                Some((p, o)) => {
                    renamed_to.insert(o.id.clone());
                    report.findings.push(
                        Finding::new(
                            Kind::Changed,
                            format!(
                                "{id} is {}{RENAMED} {} {}): use the new id in the declarations of {tools}",
                                o.id, p.method, o.path
                            ),
                        )
                        .about(id),
                    );
                }
                None => {
                    let at = pinned_op
                        .map(|o| format!(" ({} {})", o.method, o.path))
                        .unwrap_or_default();
                    report.findings.push(
                        Finding::new(Kind::Missing, format!("{id}{at}, used by {tools}")).about(id),
                    );
                }
            }
            continue;
        };
        if upstream.get(id).is_none() {
            let by = added_by.get(id).copied().unwrap_or("a repair");
            // Supplied at the pin already: known, nothing new to check.
            let as_pinned = pinned_upstream
                .as_ref()
                .is_some_and(|s| s.get(id).is_none());
            report.findings.push(
                Finding::new(
                    if as_pinned {
                        Kind::Note
                    } else {
                        Kind::Supplied
                    },
                    format!(
                        "{id} ({} {}) is not in this spec{}; {by} adds it; used by {tools}",
                        op.method,
                        op.path,
                        if as_pinned {
                            ", as in the pinned one"
                        } else {
                            ""
                        }
                    ),
                )
                .about(id),
            );
        }
        let Some(p) = pinned_op else { continue };
        if p.method != op.method || p.path != op.path {
            report.findings.push(
                Finding::new(
                    Kind::Changed,
                    format!(
                        "{id}: was {} {}, is {} {}; used by {tools}",
                        p.method, p.path, op.method, op.path
                    ),
                )
                .about(id),
            );
        }
        let sent: BTreeSet<&str> = uses
            .iter()
            .flat_map(|u| u.sends.iter().map(String::as_str))
            .collect();
        parameters(&mut report, id, &tools, p, op, &sent);
        if p.success != op.success || p.response != op.response {
            report.findings.push(
                Finding::new(
                    Kind::Note,
                    format!(
                        "{id}: answers {} {} (was {} {}); used by {tools}",
                        op.success.join("/"),
                        op.response,
                        p.success.join("/"),
                        p.response
                    ),
                )
                .about(id),
            );
        }
    }

    match (&stripped_pinned, &pinned_upstream) {
        (Some(stripped_pinned), Some(pinned_upstream)) => {
            operation_set(
                &mut report,
                pinned_upstream,
                &upstream,
                &by_operation,
                &renamed_to,
                &repaired,
            );
            schema_fields(
                &mut report,
                stripped_pinned,
                other,
                base,
                &by_operation,
                overrides,
                &retiring,
            );
        }
        _ => {
            for op in repaired.list_operations() {
                if base.used.get(&op.id).is_none()
                    && !by_operation.contains_key(op.id.as_str())
                    && !renamed_to.contains(&op.id)
                {
                    report.findings.push(
                        Finding::new(
                            Kind::NewList,
                            format!("{} ({} {})", op.id, op.method, op.path),
                        )
                        .about(&op.id),
                    );
                }
            }
        }
    }
    one_line_per_fact(&mut report, overrides);
    report
}

/// The parameter changes of one operation a tool calls.
fn parameters(
    report: &mut Report,
    id: &str,
    tools: &str,
    p: &Operation,
    op: &Operation,
    sent: &BTreeSet<&str>,
) {
    let mut new_optional: Vec<String> = Vec::new();
    let mut gone_unsent: Vec<String> = Vec::new();
    for c in changes::params(p, op) {
        let name = c.name();
        let is_sent = sent.contains(name.as_str())
            || (name.starts_with("body.") && sent.contains("body") && locate(op, "body").is_none());
        match c {
            ParamChange::Removed(_) if is_sent => report.findings.push(
                Finding::new(
                    Kind::Changed,
                    format!("{id}: the parameter `{name}` the tools send is not in this spec; used by {tools}"),
                )
                .about(id),
            ),
            ParamChange::Removed(_) => gone_unsent.push(name),
            ParamChange::Retyped { before, after } if is_sent => report.findings.push(
                Finding::new(
                    Kind::Changed,
                    format!(
                        "{id}: `{name}`, which the tools send, was {}, is {}; used by {tools}",
                        before.ty, after.ty
                    ),
                )
                .about(id),
            ),
            ParamChange::Retyped { before, after } => report.findings.push(
                Finding::new(
                    Kind::Note,
                    format!("{id}: `{name}` was {}, is {}; used by {tools}", before.ty, after.ty),
                )
                .about(id),
            ),
            ParamChange::Requirement { after, .. } if after.required && !is_sent => {
                report.findings.push(
                    Finding::new(
                        Kind::Changed,
                        format!(
                            "{id}: `{name}` is required in this spec and the tools do not send it; used by {tools}"
                        ),
                    )
                    .about(id),
                )
            }
            ParamChange::Requirement { after, .. } => report.findings.push(
                Finding::new(
                    Kind::Note,
                    format!(
                        "{id}: `{name}` is {} in this spec (the tools {} it); used by {tools}",
                        if after.required { "required" } else { "optional" },
                        if is_sent { "send" } else { "do not send" }
                    ),
                )
                .about(id),
            ),
            ParamChange::Added(q) if q.required => report.findings.push(
                Finding::new(
                    Kind::Changed,
                    format!(
                        "{id}: a new required {} parameter `{}` ({}); used by {tools}",
                        q.location.as_str(),
                        q.name,
                        q.ty
                    ),
                )
                .about(id),
            ),
            ParamChange::Added(q) => new_optional.push(format!("{name}` ({}", q.ty)),
        }
    }
    if !new_optional.is_empty() {
        let names: Vec<String> = new_optional.iter().map(|n| format!("`{n})")).collect();
        report.findings.push(
            Finding::new(
                Kind::Parameters,
                format!(
                    "{id}: new optional {} {}; account for {} in the declarations of {tools}",
                    if new_optional.len() == 1 {
                        "parameter"
                    } else {
                        "parameters"
                    },
                    names.join(", "),
                    if new_optional.len() == 1 {
                        "it"
                    } else {
                        "them"
                    }
                ),
            )
            .about(id),
        );
    }
    if !gone_unsent.is_empty() {
        report.findings.push(
            Finding::new(
                Kind::Parameters,
                format!(
                    "{id}: {} not in this spec; remove {} from the declarations of {tools}",
                    list(&gone_unsent),
                    if gone_unsent.len() == 1 { "it" } else { "them" }
                ),
            )
            .about(id),
        );
    }
}

/// The type renames of each retiring repair, from the operation as this spec has it.
fn retirements(
    report: &mut Report,
    overrides: &Overrides,
    retiring: &BTreeSet<String>,
    other: &Value,
) {
    for r in overrides
        .repairs
        .iter()
        .filter(|r| retiring.contains(&r.file))
    {
        let new_op = r.operation.as_deref().and_then(|id| {
            let (path, method) = locate_operation(other, id)?;
            other.get("paths")?.get(&path)?.get(&method)
        });
        let renames = retire::renames(r, other, new_op);
        report.retirements.push(Retirement {
            file: r.file.clone(),
            renames,
        });
    }
}

/// Operations added, removed and renamed between the two files, counted, and those no tool calls
/// listed (the tools' own are lines of their own).
fn operation_set(
    report: &mut Report,
    pinned: &Surface,
    upstream: &Surface,
    by_operation: &BTreeMap<&str, Vec<&Use>>,
    renamed_to: &BTreeSet<String>,
    repaired: &Surface,
) {
    let c = changes::operations(pinned, upstream);
    let lists: BTreeSet<&str> = repaired.list_operations().map(|o| o.id.as_str()).collect();
    let used = |id: &str| by_operation.contains_key(id);
    let touched_added = c.added.iter().filter(|o| used(&o.id)).count();
    let touched_removed = c.removed.iter().filter(|o| used(&o.id)).count();
    let touched_renamed = c.renamed.iter().filter(|(o, _)| used(&o.id)).count();
    let mut changed_elsewhere = 0;
    for (id, old) in &pinned.operations {
        if used(id) {
            continue;
        }
        if let Some(new) = upstream.get(id)
            && (!changes::params(old, new).is_empty()
                || old.success != new.success
                || old.response != new.response)
        {
            changed_elsewhere += 1;
        }
    }
    report.summary = Some(format!(
        "OPERATIONS: {} in the pinned spec, {} in this one: {} added ({} the tools call), {} removed ({} the tools call), {} renamed ({} the tools call); {} more that no tool calls changed their parameters or answers (the gateway follows the catalog: nothing to do).",
        pinned.operations.len(),
        upstream.operations.len(),
        c.added.len(),
        touched_added,
        c.removed.len(),
        touched_removed,
        c.renamed.len(),
        touched_renamed,
        changed_elsewhere
    ));
    for op in &c.added {
        if used(&op.id) || renamed_to.contains(&op.id) {
            continue;
        }
        let list = if lists.contains(op.id.as_str()) {
            " - a list no tool covers yet"
        } else {
            ""
        };
        report.findings.push(
            Finding::new(
                Kind::NewList,
                format!("{} ({} {}){list}", op.id, op.method, op.path),
            )
            .about(&op.id),
        );
    }
    for (old, new) in &c.renamed {
        if used(&old.id) {
            continue;
        }
        report.findings.push(
            Finding::new(
                Kind::Renamed,
                format!("{} is {} ({} {})", old.id, new.id, new.method, new.path),
            )
            .about(&old.id),
        );
    }
    for op in &c.removed {
        if used(&op.id) {
            continue;
        }
        report.findings.push(
            Finding::new(
                Kind::Removed,
                format!("{} ({} {})", op.id, op.method, op.path),
            )
            .about(&op.id),
        );
    }
}

/// The fields of the component schemas the tools' operations answer with (and those reachable from
/// them) that differ between the two files. A field a retiring `add_property` repair adds is that
/// repair's line, not one of these.
fn schema_fields(
    report: &mut Report,
    pinned: &Value,
    other: &Value,
    base: &Baseline,
    by_operation: &BTreeMap<&str, Vec<&Use>>,
    overrides: &Overrides,
    retiring: &BTreeSet<String>,
) {
    let mut tools_of: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (id, uses) in by_operation {
        let Some(op) = base.used.get(id) else {
            continue;
        };
        for doc in [pinned, other] {
            let Some(schema) = changes::answer_schema(doc, &op.method, &op.path) else {
                continue;
            };
            let mut reached = BTreeSet::new();
            changes::reachable_schemas(doc, schema, &mut reached);
            for name in reached {
                tools_of
                    .entry(name)
                    .or_default()
                    .extend(uses.iter().map(|u| u.tool.clone()));
            }
        }
    }
    let covered: BTreeSet<(String, String)> = overrides
        .repairs
        .iter()
        .filter(|r| r.repair == "add_property" && retiring.contains(&r.file))
        .filter_map(|r| Some((r.schema.clone()?, r.property.clone()?)))
        .collect();
    for (name, tools) in &tools_of {
        let pointer = format!("/components/schemas/{name}");
        let (Some(a), Some(b)) = (pinned.pointer(&pointer), other.pointer(&pointer)) else {
            continue;
        };
        let changes =
            changes::field_changes(&changes::fields(pinned, a), &changes::fields(other, b));
        let mut added = Vec::new();
        let mut gone = Vec::new();
        let mut retyped = Vec::new();
        for c in changes {
            match c {
                FieldChange::Added(f, field) if !covered.contains(&(name.clone(), f.clone())) => {
                    added.push(format!("`{f}` ({})", field.ty))
                }
                FieldChange::Added(..) => {}
                FieldChange::Removed(f, _) => gone.push(format!("`{f}`")),
                FieldChange::Retyped {
                    name: f,
                    before,
                    after,
                } => retyped.push(format!("`{f}` was {}, is {}", before.ty, after.ty)),
            }
        }
        if added.is_empty() && gone.is_empty() && retyped.is_empty() {
            continue;
        }
        let mut parts = Vec::new();
        if !added.is_empty() {
            parts.push(format!("new fields {}", added.join(", ")));
        }
        if !gone.is_empty() {
            parts.push(format!("gone {}", gone.join(", ")));
        }
        if !retyped.is_empty() {
            parts.push(retyped.join(", "));
        }
        let tools = if tools.len() > 6 {
            let first: Vec<String> = tools.iter().take(5).cloned().collect();
            format!("{} and {} more tools", first.join(", "), tools.len() - 5)
        } else {
            tools.iter().cloned().collect::<Vec<_>>().join(", ")
        };
        report.findings.push(Finding::new(
            Kind::Note,
            format!("schema {name}: {}; answered to {tools}", parts.join("; ")),
        ));
    }
}

/// A used operation's id that only the `dedupe_opids` repair makes (`SearchFiles2`), whose base id
/// this spec has once.
fn dedupe_base(id: &str) -> Option<&str> {
    let base = id.trim_end_matches(|c: char| c.is_ascii_digit());
    (base.len() < id.len() && !base.is_empty()).then_some(base)
}

/// Keeps one line per upstream fact: an operation that is gone or renamed takes the overrides about it
/// (and a retiring `dedupe_opids` that made its id) into its own line; a retiring repair carries the
/// answer and the types it leaves to upstream; a file reported twice is reported once.
fn one_line_per_fact(report: &mut Report, overrides: &Overrides) {
    let primary: BTreeMap<String, (usize, Kind, bool)> = report
        .findings
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let renamed = match f.kind {
                Kind::Missing | Kind::Removed => false,
                Kind::Renamed => true,
                Kind::Changed if f.line.contains(RENAMED) => true,
                _ => return None,
            };
            f.about.clone().map(|a| (a, (i, f.kind, renamed)))
        })
        .collect();
    let mut folded: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let mut drop: BTreeSet<usize> = BTreeSet::new();
    let dedupe_file = overrides
        .repairs
        .iter()
        .find(|r| r.repair == "dedupe_opids")
        .map(|r| r.file.clone());
    for (i, f) in report.findings.iter().enumerate() {
        if !matches!(
            f.kind,
            Kind::OverrideBroken | Kind::RepairFails | Kind::RepairRetired
        ) {
            continue;
        }
        let Some(file) = &f.file else { continue };
        let is_dedupe = f.kind == Kind::RepairRetired && Some(file) == dedupe_file.as_ref();
        let target = f
            .about
            .as_ref()
            .and_then(|a| primary.get(a))
            .or_else(|| {
                // A retiring `dedupe_opids`: the id it made is gone with the duplicate.
                is_dedupe
                    .then(|| {
                        primary
                            .iter()
                            .find(|(id, (_, kind, _))| {
                                *kind == Kind::Missing && dedupe_base(id).is_some()
                            })
                            .map(|(_, at)| at)
                    })
                    .flatten()
            })
            .map(|(at, _, renamed)| (*at, *renamed));
        if let Some((at, renamed)) = target {
            let text = if is_dedupe {
                format!(
                    "this spec has the operation once, so {file} retires with it (delete it when moving to this spec)"
                )
            } else if renamed {
                format!("{file} names it: change its `operation:` to the new id")
            } else {
                format!("{file} goes with it (delete it)")
            };
            let list = folded.entry(at).or_default();
            if !list.contains(&text) {
                list.push(text);
            }
            drop.insert(i);
        }
    }
    // The same file reported twice (an override that no longer fits also fails to apply): once.
    let mut seen_files: BTreeSet<String> = BTreeSet::new();
    for (i, f) in report.findings.iter().enumerate() {
        if drop.contains(&i) || !matches!(f.kind, Kind::OverrideBroken | Kind::RepairFails) {
            continue;
        }
        if let Some(file) = &f.file
            && !seen_files.insert(file.clone())
        {
            drop.insert(i);
        }
    }
    // A retiring repair carries its operation's new answer and the types it leaves to upstream.
    let retired_ops: BTreeMap<String, usize> = report
        .findings
        .iter()
        .enumerate()
        .filter(|(i, f)| f.kind == Kind::RepairRetired && !drop.contains(i))
        .filter_map(|(i, f)| {
            let file = f.file.as_ref()?;
            overrides
                .repairs
                .iter()
                .find(|r| &r.file == file && r.repair == "add_operation")
                .and_then(|r| r.operation.clone())
                .map(|op| (op, i))
        })
        .collect();
    for (i, f) in report.findings.iter().enumerate() {
        if f.kind == Kind::Note
            && f.line.contains(": answers ")
            && let Some(at) = f.about.as_ref().and_then(|a| retired_ops.get(a))
        {
            let answer = f
                .line
                .split_once(": ")
                .map(|(_, rest)| rest.split("; used by").next().unwrap_or(rest))
                .unwrap_or("");
            folded.entry(*at).or_default().push(format!(
                "this spec documents the operation itself: it {answer}"
            ));
            drop.insert(i);
        }
    }
    for r in &report.retirements {
        if let Some(at) = report
            .findings
            .iter()
            .position(|f| f.kind == Kind::RepairRetired && f.file.as_deref() == Some(&r.file))
        {
            for t in &r.renames {
                folded.entry(at).or_default().push(render_rename(t));
            }
        }
    }
    for (at, extra) in folded {
        if let Some(f) = report.findings.get_mut(at) {
            for e in extra {
                if e.starts_with("type ") {
                    f.line.push_str("\n      ");
                    f.line.push_str(&e);
                } else if f.line.ends_with('.') {
                    // After a sentence, another sentence.
                    let mut c = e.chars();
                    if let Some(first) = c.next() {
                        f.line.push(' ');
                        f.line.extend(first.to_uppercase());
                        f.line.push_str(c.as_str());
                        f.line.push('.');
                    }
                } else {
                    f.line.push_str("; ");
                    f.line.push_str(&e);
                }
            }
        }
    }
    let mut i = 0;
    report.findings.retain(|_| {
        let keep = !drop.contains(&i);
        i += 1;
        keep
    });
}

/// One type rename as the report shows it.
pub fn render_rename(t: &TypeRename) -> String {
    let mut s = match &t.to {
        Some(to) if to != &t.from => format!("type {} -> {to} ({})", t.from, t.at),
        Some(_) => format!(
            "type {} keeps its name, its fields change ({})",
            t.from, t.at
        ),
        None => format!("type {} goes away, nothing replaces it ({})", t.from, t.at),
    };
    if !t.fields_added.is_empty() {
        let names: Vec<String> = t
            .fields_added
            .iter()
            .map(|(n, f)| {
                let rust = retire::rust_field(n);
                if rust == *n {
                    format!("`{n}` ({})", f.ty)
                } else {
                    format!("`{n}` ({}, Rust `{rust}`)", f.ty)
                }
            })
            .collect();
        s.push_str(&format!(
            "; it has fields the old type lacks (a struct literal sets them): {}",
            names.join(", ")
        ));
    }
    if !t.fields_gone.is_empty() {
        s.push_str(&format!(
            "; fields gone (code that reads or sets them breaks): {}",
            list(&t.fields_gone)
        ));
    }
    s
}
