//! Governance tests over the inventory: rules every tool's declaration is held to, checked by scanning
//! every tool (so a tool added later is held to them without anyone remembering). Each scan fails when
//! it finds too little to scan. The README's "Governance tests" section lists these tests and those of
//! `tests/integration/`; a test keeps the list equal to the tests.

use crate::args::Kind;
use crate::calls::{Call, Source};
use crate::inventory::{Offer, tools};
use crate::spec_check;
use crate::tool::{Answer, Tool};
use mattermost_spec::surface::{Location, WHOLE_BODY};
use mattermost_spec::{Surface, document};
use std::collections::{BTreeMap, BTreeSet};

const AT_LEAST_TOOLS: usize = 2;

fn all() -> &'static [&'static Tool] {
    let t = tools();
    assert!(
        t.len() >= AT_LEAST_TOOLS,
        "the inventory holds {} tools: too few to scan",
        t.len()
    );
    t
}

/// The spec as Mattermost publishes it (before any repair), read from where the build found it.
fn upstream() -> Surface {
    let doc = document::read(std::path::Path::new(
        mattermost_client::build_info::SPEC_PATH,
    ))
    .expect("the pinned spec reads");
    Surface::of(&doc)
}

/// The name a tool's declaration gives each parameter of an operation: path and query parameters by name, body fields
/// as `body.<field>`, a non-object body as `body`.
fn declared_names(op: &mattermost_spec::Operation) -> BTreeSet<String> {
    op.params
        .iter()
        .map(|p| match p.location {
            Location::Body if p.name == WHOLE_BODY => "body".to_string(),
            Location::Body => format!("body.{}", p.name),
            _ => p.name.clone(),
        })
        .collect()
}

fn is_resolution(call: &Call) -> bool {
    [Kind::Channel, Kind::Team, Kind::User, Kind::Post]
        .iter()
        .any(|k| crate::calls::resolving(*k).into_iter().any(|c| c == call))
}

#[test]
fn every_list_tool_takes_limit_and_cursor_and_states_its_limits() {
    let mut lists = 0;
    for t in all() {
        let names: Vec<&str> = t.all_args().iter().map(|a| a.name).collect();
        match t.answer {
            Answer::List { limit, .. } => {
                lists += 1;
                assert!(
                    names.contains(&"limit") && names.contains(&"cursor"),
                    "{} takes limit and cursor",
                    t.name
                );
                assert!(
                    limit.default >= 1 && limit.default <= limit.max && limit.max <= 200,
                    "{}: limits",
                    t.name
                );
                let d = crate::server::describe(t).description.unwrap_or_default();
                assert!(
                    d.contains(&format!("default {}", limit.default))
                        && d.contains(&format!("max {}", limit.max)),
                    "the published description of {} states its default and maximum limit as `default {}` and `max {}`",
                    t.name,
                    limit.default,
                    limit.max
                );
            }
            Answer::Bounded { max, reason } => {
                assert!(
                    !reason.trim().is_empty(),
                    "{} says why it is bounded by its input",
                    t.name
                );
                assert!(max >= 1, "{}: a bound", t.name);
                assert!(
                    !names.contains(&"cursor"),
                    "{} is bounded by its input and takes no cursor",
                    t.name
                );
            }
            Answer::One => assert!(
                !names.contains(&"cursor") && !names.contains(&"limit"),
                "{} is not a list",
                t.name
            ),
        }
    }
    assert!(lists >= 1, "no list tool found to scan");
}

#[test]
fn every_tool_declares_a_title_and_its_hints() {
    for t in all() {
        assert!(!t.title.trim().is_empty(), "{} has a title", t.name);
        let described = crate::server::describe(t);
        assert_eq!(
            described.title.as_deref(),
            Some(t.title),
            "{}: the title is published",
            t.name
        );
        let a = described.annotations.as_ref().expect("annotations");
        assert_eq!(
            a.read_only_hint,
            Some(t.hints.read_only),
            "{}: readOnlyHint",
            t.name
        );
        assert_eq!(
            a.open_world_hint,
            Some(t.hints.open_world),
            "{}: openWorldHint",
            t.name
        );
        if t.writes() {
            // The other two hints mean something only for a tool that writes.
            assert!(
                a.destructive_hint.is_some() && a.idempotent_hint.is_some(),
                "{} writes and declares destructiveHint and idempotentHint",
                t.name
            );
        }
        assert!(
            !(t.hints.read_only && t.hints.destructive),
            "{} cannot be read-only and destructive",
            t.name
        );
    }
}

#[test]
fn a_read_only_tool_calls_only_operations_that_read() {
    let surface = spec_check::pinned_surface();
    let mut scanned = 0;
    for t in all().iter().filter(|t| t.hints.read_only) {
        for op in t.operations() {
            let o = surface
                .get(op)
                .unwrap_or_else(|| panic!("{}: {op} is not in the pinned spec", t.name));
            assert!(
                o.reads(),
                "{} is read-only but calls {op} ({} {}), which changes data",
                t.name,
                o.method,
                o.path
            );
            scanned += 1;
        }
    }
    assert!(scanned >= AT_LEAST_TOOLS, "too few operations scanned");
}

#[test]
fn without_writes_allowed_no_tool_that_writes_is_offered() {
    for toolsets in [None, Some("all"), Some("writes"), Some("posts,writes")] {
        let offer = Offer::new(toolsets, false).expect("a valid offer");
        for t in offer.tools() {
            // The operation gateway decides per call: offered without writes, it is published
            // read-only and the server refuses each of its calls that would write.
            assert!(
                offer.published(t).hints.read_only,
                "{} writes but is offered without writes allowed (toolsets {toolsets:?})",
                t.name
            );
            assert!(
                t.hints.read_only || t.planned_per_call(),
                "{} writes but is offered without writes allowed (toolsets {toolsets:?})",
                t.name
            );
        }
    }
    assert!(Offer::new(None, false).expect("default").tools().len() >= AT_LEAST_TOOLS);
    // The rule itself, on a tool that writes.
    let mut writer = **all().first().expect("a tool");
    writer.name = "a_tool_that_writes";
    writer.hints.read_only = false;
    let everything = Offer {
        allow_writes: false,
        ..Offer::everything()
    };
    assert!(
        !everything.offers(&writer),
        "a write tool is offered without writes allowed"
    );
    assert!(
        Offer::everything().offers(&writer),
        "allowing writes offers it"
    );
}

#[test]
fn every_operation_a_tool_calls_exists_in_the_pinned_spec() {
    let surface = spec_check::pinned_surface();
    assert!(
        surface.operations.len() > 400,
        "the pinned surface is too small to be the spec"
    );
    for t in all() {
        for op in t.operations() {
            assert!(
                surface.get(op).is_some() || crate::mattermost::upload::HAND_WRITTEN.contains(&op),
                "{} calls {op}, which the pinned spec (as repaired) does not have",
                t.name
            );
        }
    }
}

#[test]
fn every_parameter_of_a_called_operation_is_accounted_for() {
    let surface = spec_check::pinned_surface();
    let mut checked = 0;
    for t in all() {
        let args: BTreeSet<&str> = t.all_args().iter().map(|a| a.name).collect();
        for call in t.all_calls() {
            let Some(op) = surface.get(call.operation) else {
                continue;
            };
            let spec_names = declared_names(op);
            let declared: BTreeMap<&str, &Source> =
                call.params.iter().map(|(n, s)| (*n, s)).collect();
            for name in &spec_names {
                assert!(
                    declared.contains_key(name.as_str()),
                    "{}: {} has the parameter `{name}`, which the tool's declaration does not account for (set it from an \
                     argument, fix it with a reason, give it to the paging strategy, or omit it saying what \
                     the user loses)",
                    t.name,
                    call.operation
                );
                checked += 1;
            }
            for (name, source) in &declared {
                assert!(
                    spec_names.contains(*name),
                    "{}: {} has no parameter `{name}` (stale or misspelt)",
                    t.name,
                    call.operation
                );
                let reason = match source {
                    Source::Arg(a) => {
                        assert!(
                            is_resolution(call) || args.contains(a),
                            "{}: `{name}` is set from `{a}`, which is not an argument",
                            t.name
                        );
                        continue;
                    }
                    Source::Fixed(value, why) => {
                        assert!(!value.is_empty(), "{}: {name} fixed to nothing", t.name);
                        why
                    }
                    Source::Paging(what) | Source::Omitted(what) => what,
                };
                assert!(
                    reason.split_whitespace().count() >= 3,
                    "{}: `{name}` of {} needs a reason that says something",
                    t.name,
                    call.operation
                );
            }
        }
    }
    assert!(checked >= 10, "too few parameters checked");
}

#[test]
fn every_argument_sets_a_parameter_or_shapes_the_answer() {
    for t in all() {
        let set: BTreeSet<&str> = t
            .calls
            .iter()
            .flat_map(|c| c.params.iter())
            .filter_map(|(_, s)| {
                if let Source::Arg(a) = s {
                    Some(*a)
                } else {
                    None
                }
            })
            .collect();
        for a in t.all_args() {
            let resolved = matches!(
                a.kind,
                Kind::Channel | Kind::Team | Kind::User | Kind::Users { .. } | Kind::Post
            ) && t.all_calls().iter().any(|c| is_resolution(c));
            assert!(
                set.contains(a.name) || a.shapes.is_some() || resolved,
                "{}: the argument `{}` sets no parameter and does not say how it shapes the answer",
                t.name,
                a.name
            );
        }
    }
}

#[test]
fn every_undocumented_parameter_a_tool_sends_is_declared_truly_undocumented_and_shown_by_a_test() {
    let upstream = upstream();
    let overrides = spec_check::overrides();
    assert!(
        overrides.parameters.len() >= 8,
        "too few undocumented parameters to scan"
    );
    let surface = spec_check::pinned_surface();
    let mut sent: BTreeSet<(String, String)> = BTreeSet::new();
    for t in all() {
        for call in t.all_calls() {
            let (Some(op), Some(raw)) = (surface.get(call.operation), upstream.get(call.operation))
            else {
                continue;
            };
            let documented = declared_names(raw);
            for (name, source) in call.params {
                if matches!(source, Source::Omitted(_))
                    || documented.contains(*name)
                    || !declared_names(op).contains(*name)
                {
                    continue;
                }
                let (location, plain) = match name.strip_prefix("body.") {
                    Some(f) => ("body", f),
                    None => ("query", *name),
                };
                let declared = overrides.parameters.iter().any(|p| {
                    p.operation == call.operation && p.name == plain && p.location == location
                });
                let repaired = raw.params.is_empty() && upstream.get(call.operation).is_none();
                assert!(
                    declared || repaired,
                    "{} sends `{name}` to {}, which the spec does not document and overrides/parameters/ does not declare",
                    t.name,
                    call.operation
                );
                sent.insert((call.operation.to_string(), plain.to_string()));
            }
        }
    }
    for p in &overrides.parameters {
        assert!(
            upstream
                .get(&p.operation)
                .and_then(|o| p.location().and_then(|l| o.param(l, &p.name)))
                .is_none(),
            "{}: documented after all",
            p.file
        );
        assert!(
            sent.contains(&(p.operation.clone(), p.name.clone())),
            "{}: no tool sends it; use it or delete the file",
            p.file
        );
        let (file, test) = p.test.split_once("::").expect("tests/<file>.rs::<test>");
        let text =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
                .unwrap_or_else(|e| panic!("{}: its test file {file} cannot be read: {e}", p.file));
        assert!(
            text.contains(&format!("async fn {test}(")) || text.contains(&format!("fn {test}(")),
            "{}: the test {test} is not in {file}",
            p.file
        );
    }
}

#[test]
fn spec_table_uses_json_is_what_the_tools_use() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/table-uses.json");
    let committed: mattermost_spec::check::TableUses = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| panic!("{} is missing or invalid; write it with: cargo run -q -- table-uses > spec/table-uses.json", path.display()));
    assert!(
        committed == spec_check::table_uses(),
        "spec/table-uses.json is not what the tools use; write it again with: cargo run -q -- table-uses > spec/table-uses.json"
    );
}
