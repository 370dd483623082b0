//! The repository's working tree as `spec-check` and the release-day command read it: the pin
//! (`spec/pinned.yaml` and the committed prose-free copy), the overrides on disk (`overrides/`), and
//! what the tools use (`spec/table-uses.json`). Everything is read at run time, so deleting a retired
//! repair is seen at once, with no rebuild.

use crate::check::{Baseline, TableUses, Use};
use crate::document;
use crate::overrides::Overrides;
use crate::pinned::Pin;
use crate::repairs;
use crate::surface::Surface;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `spec/table-uses.json`, under the root.
pub const TABLE_USES: &str = "spec/table-uses.json";

/// A checkout of the project.
#[derive(Debug, Clone)]
pub struct Tree {
    /// The checkout's root: the directory that holds `spec/pinned.yaml` and `overrides/`.
    pub root: PathBuf,
}

impl Tree {
    /// The nearest directory at or above `start` that holds `spec/pinned.yaml` and `overrides/`.
    pub fn find(start: &Path) -> Result<Tree, String> {
        let mut dir: Option<&Path> = Some(start);
        while let Some(d) = dir {
            if Pin::path(d).is_file() && d.join("overrides").is_dir() {
                return Ok(Tree {
                    root: d.to_path_buf(),
                });
            }
            dir = d.parent();
        }
        Err(format!(
            "no spec/pinned.yaml and overrides/ in {} or above it: run this inside a checkout of the \
             project (the check reads the pin and the overrides from its working tree)",
            start.display()
        ))
    }

    /// The pin as `spec/pinned.yaml` has it now.
    pub fn pin(&self) -> Result<Pin, String> {
        Pin::load(&self.root)
    }

    /// The overrides as they are on disk now.
    pub fn overrides(&self) -> Result<Overrides, String> {
        Overrides::load(&self.root.join("overrides"))
            .map_err(|errors| format!("overrides/ does not load:\n  - {}", errors.join("\n  - ")))
    }

    /// The committed prose-free copy of the pinned spec.
    pub fn pinned_doc(&self, pin: &Pin) -> Result<Value, String> {
        document::read(&pin.stripped_path(&self.root))
    }

    /// `spec/table-uses.json`.
    pub fn table_uses(&self) -> Result<TableUses, String> {
        let path = self.root.join(TABLE_USES);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| {
            format!(
                "{} is not valid ({e}); write it again with `cargo run -q -- table-uses > {TABLE_USES}`",
                path.display()
            )
        })
    }

    /// The pinned release as `spec-check` compares with it: the uses (`uses`, or those of
    /// `spec/table-uses.json`), the repaired pinned definitions of their operations (from
    /// `spec/table-uses.json`, which holds them as the build repaired them; an operation it lacks, such
    /// as a hand-written multipart one, from the committed copy repaired with the overrides on disk),
    /// and the committed copy itself.
    pub fn baseline(&self, uses: Option<Vec<Use>>) -> Result<Baseline, String> {
        let pin = self.pin()?;
        let table = self.table_uses()?;
        let pinned_doc = self.pinned_doc(&pin)?;
        let uses = uses.unwrap_or(table.uses);
        let mut used = Surface::default();
        let mut repaired_doc = pinned_doc.clone();
        let overrides = self.overrides().unwrap_or_default();
        let _ = repairs::repair_lenient(&mut repaired_doc, &overrides);
        let repaired = Surface::of(&repaired_doc);
        for u in &uses {
            let op = table
                .operations
                .get(&u.operation)
                .or_else(|| repaired.get(&u.operation));
            if let Some(op) = op {
                used.operations.insert(op.id.clone(), op.clone());
            }
        }
        Ok(Baseline {
            name: format!("{} (sha256 {})", pin.file, pin.sha256),
            uses,
            used,
            upstream: Some(pinned_doc),
        })
    }
}

/// `spec-check PATH` on a working tree: the report, and its text.
pub fn spec_check(
    tree: &Tree,
    other: &Path,
    uses: Option<Vec<Use>>,
) -> Result<(crate::check::Report, String), String> {
    let doc = document::read(other)?;
    let base = tree.baseline(uses)?;
    let overrides = tree.overrides()?;
    let report = crate::check::compare_with(&base, &doc, &overrides);
    let text = report.render(&other.display().to_string(), &base.name);
    Ok((report, text))
}
