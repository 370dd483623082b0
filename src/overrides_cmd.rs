//! `mattermost-mcp overrides`: the overrides and repairs the client was generated with, as a table
//! (kind, operation, parameter or repair, evidence), then every edit the build made and every operation
//! it left out.

use serde_json::Value;

const OVERRIDES: &str = mattermost_client::build_info::OVERRIDES_TABLE_JSON;
const NORMALIZATION: &str = mattermost_client::build_info::NORMALIZATION_JSON;

fn s(v: &Value, k: &str) -> String {
    v.get(k).and_then(Value::as_str).unwrap_or("").to_string()
}

fn oneline(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The report, as printed.
pub fn report() -> String {
    let overrides: Value = serde_json::from_str(OVERRIDES).unwrap_or(Value::Null);
    let normalization: Value = serde_json::from_str(NORMALIZATION).unwrap_or(Value::Null);
    let mut rows: Vec<[String; 4]> = Vec::new();
    for p in overrides["parameters"].as_array().into_iter().flatten() {
        rows.push([
            "undocumented parameter".into(),
            s(p, "operation"),
            format!("{} {} ({})", s(p, "in"), s(p, "name"), s(p, "type")),
            oneline(&format!(
                "{} {}: {} Shown by {}",
                s(p, "source"),
                s(p, "function"),
                s(p, "reads"),
                s(p, "test")
            )),
        ]);
    }
    let edits = normalization["edits"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for r in overrides["repairs"].as_array().into_iter().flatten() {
        let file = s(r, "file");
        let count = edits.iter().filter(|e| s(e, "file") == file).count();
        let target = [s(r, "operation"), s(r, "schema")]
            .into_iter()
            .filter(|x| !x.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let evidence = match r.get("evidence").and_then(Value::as_str) {
            Some(e) => format!("Upstream: {} Evidence: {e}", s(r, "upstream")),
            None => format!("Upstream: {}", s(r, "upstream")),
        };
        rows.push([
            "repair".into(),
            if target.is_empty() {
                "(whole spec)".into()
            } else {
                target
            },
            format!(
                "{} ({count} edit{})",
                s(r, "repair"),
                if count == 1 { "" } else { "s" }
            ),
            oneline(&evidence),
        ]);
    }
    let mut out = String::new();
    out.push_str(&format!(
        "Overrides of the Mattermost OpenAPI spec {} (sha256 {}), from overrides/:\n\n",
        mattermost_client::build_info::SPEC_FILE,
        mattermost_client::build_info::SPEC_SHA256
    ));
    let widths = [22usize, 24, 44];
    out.push_str(&format!(
        "{:<22}  {:<24}  {:<44}  {}\n",
        "KIND", "OPERATION", "PARAMETER OR REPAIR", "EVIDENCE"
    ));
    for row in &rows {
        out.push_str(&format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {}\n",
            row[0],
            row[1],
            row[2],
            row[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2]
        ));
    }
    out.push_str(&format!("\nEdits the build made ({}):\n", edits.len()));
    for e in &edits {
        out.push_str(&format!(
            "  {:<22} {:<60} {}\n",
            s(e, "repair"),
            s(e, "at"),
            s(e, "what")
        ));
    }
    let excluded = normalization["excluded"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    out.push_str(&format!(
        "\nOperations left out of the generated client ({}):\n",
        excluded.len()
    ));
    for x in &excluded {
        out.push_str(&format!(
            "  {:<32} {} {}: {}\n",
            s(x, "operation"),
            s(x, "method"),
            s(x, "path"),
            s(x, "reason")
        ));
    }
    out
}
