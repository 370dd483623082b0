//! Assembling a release's spec from a Mattermost source tree, as Mattermost's own build does.
//!
//! Mattermost publishes no spec file per release: its `api/Makefile` (target `build-v4`) concatenates
//! `api/v4/source/introduction.yaml`, the path fragments in a fixed order, and `definitions.yaml`. The
//! order is read from the tree: from the `build-v4` recipe of `api/Makefile` (each `$(V4_SRC)/<name>.yaml`
//! it names, in order, the Playbooks part left out), or, for a tree that keeps only the fragments, from
//! an `ORDER.txt` beside `api/` (one file name a line, recorded from that tree's Makefile). Nothing
//! here knows the order itself.
//!
//! A fragment that does not end with a newline gets one (a re-upload of the 11.6 tree lost them, and
//! concatenated as they are the fragments are not YAML); otherwise the bytes are the fragments' own.
//! The Playbooks merge and the code-sample step of the upstream build are not run: the result is what
//! upstream's build gives without network access (`../shared/spec/PROVENANCE.md`).

use std::path::{Path, PathBuf};

/// Where the fragments are, under a tree.
pub const SOURCE_DIR: &str = "api/v4/source";
/// The Makefile whose `build-v4` recipe gives the order.
pub const MAKEFILE: &str = "api/Makefile";
/// The recorded order, for a tree that has no Makefile.
pub const ORDER_FILE: &str = "ORDER.txt";

/// Where the order was read from, and the fragments in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// The file the order was read from: the tree's [`MAKEFILE`] or its [`ORDER_FILE`].
    pub from: PathBuf,
    /// File names under [`SOURCE_DIR`] (`users.yaml`), in the order they are concatenated.
    pub fragments: Vec<String>,
}

/// An assembled spec: its bytes and what it was made of.
#[derive(Debug, Clone)]
pub struct Assembled {
    /// The YAML spec: the fragments concatenated in order, each ending in a newline.
    pub bytes: Vec<u8>,
    /// The order it followed.
    pub order: Order,
    /// The fragments a newline was added after.
    pub newline_added: usize,
    /// Fragments in `api/v4/source` that the order does not name: left out, as Mattermost's build
    /// leaves them out, and said (a fragment added upstream without its Makefile line loses its paths).
    pub unnamed: Vec<String>,
}

/// The fragment names (`users.yaml`) the `build-v4` recipe of a Makefile concatenates, in order: every
/// `$(V4_SRC)/<name>.yaml` of the recipe's lines, once each. Lines of other targets (the Playbooks
/// merge reads `definitions.yaml` too) are not read.
pub fn makefile_order(text: &str) -> Result<Vec<String>, String> {
    let mut in_recipe = false;
    let mut found_target = false;
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        if !line.starts_with('\t') {
            let trimmed = line.trim_end();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            in_recipe = trimmed
                .split_once(':')
                .is_some_and(|(target, _)| target.split_whitespace().any(|t| t == "build-v4"))
                && !trimmed.starts_with('.');
            found_target |= in_recipe;
            continue;
        }
        if !in_recipe {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("$(V4_SRC)/") {
            rest = &rest[at + "$(V4_SRC)/".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                .collect();
            if name.ends_with(".yaml") && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    if !found_target {
        return Err("it has no `build-v4` target".into());
    }
    if out.is_empty() {
        return Err("its `build-v4` recipe names no $(V4_SRC)/<fragment>.yaml".into());
    }
    Ok(out)
}

/// The order of a tree: its `api/Makefile` when it has one, else its `ORDER.txt`.
pub fn order(tree: &Path) -> Result<Order, String> {
    let makefile = tree.join(MAKEFILE);
    if makefile.is_file() {
        let text = std::fs::read_to_string(&makefile)
            .map_err(|e| format!("cannot read {}: {e}", makefile.display()))?;
        let fragments = makefile_order(&text)
            .map_err(|e| format!("{} gives no order: {e}", makefile.display()))?;
        return Ok(Order {
            from: makefile,
            fragments,
        });
    }
    let listed = tree.join(ORDER_FILE);
    if listed.is_file() {
        let text = std::fs::read_to_string(&listed)
            .map_err(|e| format!("cannot read {}: {e}", listed.display()))?;
        let fragments: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        if fragments.is_empty() {
            return Err(format!("{} lists no fragment", listed.display()));
        }
        return Ok(Order {
            from: listed,
            fragments,
        });
    }
    Err(format!(
        "{} has neither {MAKEFILE} nor {ORDER_FILE}: give the root of a Mattermost source tree (the \
         directory that holds api/), e.g. a clone of mattermost/mattermost at a release tag",
        tree.display()
    ))
}

/// Assembles the tree's spec: every fragment of its order, each followed by a newline when it lacks
/// one. Every fragment the order names must exist; those it does not name are listed in
/// [`Assembled::unnamed`].
pub fn assemble(tree: &Path) -> Result<Assembled, String> {
    let order = order(tree)?;
    let dir = tree.join(SOURCE_DIR);
    if !dir.is_dir() {
        return Err(format!(
            "{} is not a directory: the tree has no spec fragments",
            dir.display()
        ));
    }
    let mut bytes = Vec::new();
    let mut newline_added = 0;
    for name in &order.fragments {
        if name.contains('/') || name.contains("..") {
            return Err(format!(
                "{} names `{name}`, which is not a file name in {SOURCE_DIR}",
                order.from.display()
            ));
        }
        let path = dir.join(name);
        let text = std::fs::read(&path).map_err(|e| {
            format!(
                "{} names {name}, but {} cannot be read: {e}",
                order.from.display(),
                path.display()
            )
        })?;
        bytes.extend_from_slice(&text);
        if text.last() != Some(&b'\n') {
            bytes.push(b'\n');
            newline_added += 1;
        }
    }
    let mut unnamed: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".yaml") && !order.fragments.contains(n))
        .collect();
    unnamed.sort();
    Ok(Assembled {
        bytes,
        order,
        newline_added,
        unnamed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Makefile of the shape of Mattermost's `api/Makefile` (written for this test).
    const MAKEFILE_TEXT: &str = "\
V4_SRC = $(ROOT)/v4/source
PLAYBOOKS_SRC = $(ROOT)/playbooks

build: build-v4

build-v4: node_modules playbooks
\t@echo Building
\t@if [ -r $(PLAYBOOKS_SRC)/merged-tags.yaml ]; then cat $(PLAYBOOKS_SRC)/merged-tags.yaml > $(V4_YAML); else cat $(V4_SRC)/introduction.yaml > $(V4_YAML); fi
\t@cat $(V4_SRC)/users.yaml >> $(V4_YAML)
\t@cat $(V4_SRC)/status.yaml >> $(V4_YAML)
\t@if [ -r $(PLAYBOOKS_SRC)/paths.yaml ]; then cat $(PLAYBOOKS_SRC)/paths.yaml >> $(V4_YAML); fi
\t@if [ -r $(PLAYBOOKS_SRC)/merged-definitions.yaml ]; then cat $(PLAYBOOKS_SRC)/merged-definitions.yaml >> $(V4_YAML); else cat $(V4_SRC)/definitions.yaml >> $(V4_YAML); fi

playbooks:
\tcd playbooks && node merge-definitions.js $(V4_SRC)/definitions.yaml
\tcd playbooks && node merge-tags.js $(V4_SRC)/extra.yaml
";

    #[test]
    fn the_order_is_the_build_v4_recipe_s_fragments_and_nothing_else() {
        assert_eq!(
            makefile_order(MAKEFILE_TEXT).expect("an order"),
            [
                "introduction.yaml",
                "users.yaml",
                "status.yaml",
                "definitions.yaml"
            ]
        );
        let e = makefile_order("all:\n\techo\n").expect_err("no build-v4");
        assert!(e.contains("build-v4"), "{e}");
        let e = makefile_order("build-v4:\n\techo nothing\n").expect_err("no fragment");
        assert!(e.contains("names no"), "{e}");
    }

    #[test]
    fn a_tree_is_assembled_in_its_order_with_missing_newlines_added() {
        let dir = std::env::temp_dir().join(format!("assemble-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let src = dir.join(SOURCE_DIR);
        std::fs::create_dir_all(&src).expect("dir");
        std::fs::write(dir.join(MAKEFILE), MAKEFILE_TEXT).expect("makefile");
        std::fs::write(src.join("introduction.yaml"), "openapi: 3.0.0\npaths:").expect("w");
        std::fs::write(src.join("users.yaml"), "  /a:\n    get: {}\n").expect("w");
        std::fs::write(src.join("status.yaml"), "  /b:\n    get: {}").expect("w");
        std::fs::write(src.join("definitions.yaml"), "components: {}\n").expect("w");
        let a = assemble(&dir).expect("assembles");
        assert_eq!(
            String::from_utf8_lossy(&a.bytes),
            "openapi: 3.0.0\npaths:\n  /a:\n    get: {}\n  /b:\n    get: {}\ncomponents: {}\n"
        );
        assert_eq!(a.newline_added, 2);
        assert!(a.order.from.ends_with(MAKEFILE));

        std::fs::write(src.join("new.yaml"), "  /c:\n    get: {}\n").expect("w");
        let b = assemble(&dir).expect("an unnamed fragment is left out, as upstream leaves it");
        assert_eq!(b.bytes, a.bytes);
        assert_eq!(b.unnamed, ["new.yaml"]);
        std::fs::remove_file(src.join("new.yaml")).expect("rm");

        std::fs::remove_file(src.join("status.yaml")).expect("rm");
        let e = assemble(&dir).expect_err("a missing fragment");
        assert!(
            e.contains("status.yaml") && e.contains("cannot be read"),
            "{e}"
        );

        std::fs::remove_file(dir.join(MAKEFILE)).expect("rm");
        std::fs::write(
            dir.join(ORDER_FILE),
            "introduction.yaml\nusers.yaml\ndefinitions.yaml\n",
        )
        .expect("w");
        let a = assemble(&dir).expect("from ORDER.txt");
        assert!(a.order.from.ends_with(ORDER_FILE));
        assert_eq!(a.order.fragments.len(), 3);

        std::fs::remove_file(dir.join(ORDER_FILE)).expect("rm");
        let e = assemble(&dir).expect_err("no order");
        assert!(e.contains("neither") && e.contains("api/Makefile"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
