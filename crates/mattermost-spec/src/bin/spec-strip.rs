//! `spec-strip`: writes the prose-free copy of a Mattermost OpenAPI spec that the build reads, and
//! records both files' sha256 in `spec/pinned.yaml`.
//!
//! ```text
//! cargo run -p mattermost-spec --bin spec-strip -- UPSTREAM                  # the pinned release again
//! cargo run -p mattermost-spec --bin spec-strip -- UPSTREAM --release 11.7.0 # pin a new release
//! cargo run -p mattermost-spec --bin spec-strip -- UPSTREAM --out FILE       # any file, nothing pinned
//! cargo run -p mattermost-spec --bin spec-strip -- UPSTREAM --check          # is the committed copy current?
//! ```
//!
//! The repository is found by walking up from the current directory to `spec/pinned.yaml` (or given
//! with `--root DIR`).

use mattermost_spec::pinned::{self, Pin, sha256_hex};
use mattermost_spec::{document, strip};
use std::path::{Path, PathBuf};

const USAGE: &str = "usage: spec-strip UPSTREAM [--release NAME [--source TEXT]] [--out FILE] [--check] [--root DIR]
  UPSTREAM          Mattermost's OpenAPI file (YAML or JSON)
  (no option)       UPSTREAM must be the pinned release (its sha256 is in spec/pinned.yaml): writes
                    spec/<stripped> and records its sha256 in spec/pinned.yaml
  --release NAME    pins UPSTREAM as release NAME instead: its file name and sha256, and the stripped copy
  --source TEXT     with --release: where the file comes from (kept in pinned.yaml)
  --out FILE        writes the stripped copy of any spec to FILE and prints both sha256; pins nothing
  --check           writes nothing; exits 1 unless the committed copy is what stripping UPSTREAM gives
  --root DIR        the repository (default: the nearest directory above with spec/pinned.yaml)";

#[derive(Default)]
struct Args {
    upstream: Option<PathBuf>,
    release: Option<String>,
    source: Option<String>,
    out: Option<PathBuf>,
    check: bool,
    root: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut out = Args::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n\n{USAGE}"))
        };
        match a.as_str() {
            "--release" => out.release = Some(value("--release")?),
            "--source" => out.source = Some(value("--source")?),
            "--out" => out.out = Some(PathBuf::from(value("--out")?)),
            "--root" => out.root = Some(PathBuf::from(value("--root")?)),
            "--check" => out.check = true,
            "-h" | "--help" => return Err(USAGE.to_string()),
            s if s.starts_with('-') => return Err(format!("unknown option `{s}`\n\n{USAGE}")),
            s if out.upstream.is_none() => out.upstream = Some(PathBuf::from(s)),
            s => {
                return Err(format!(
                    "one UPSTREAM file only; `{s}` is a second\n\n{USAGE}"
                ));
            }
        }
    }
    if out.upstream.is_none() {
        return Err(format!("name the upstream spec file\n\n{USAGE}"));
    }
    if out.source.is_some() && out.release.is_none() {
        return Err(format!("--source goes with --release\n\n{USAGE}"));
    }
    if [out.release.is_some(), out.out.is_some(), out.check]
        .iter()
        .filter(|b| **b)
        .count()
        > 1
    {
        return Err(format!(
            "--release, --out and --check do different things; give one\n\n{USAGE}"
        ));
    }
    Ok(out)
}

fn find_root(given: Option<PathBuf>) -> Result<PathBuf, String> {
    if let Some(root) = given {
        return Ok(root);
    }
    let start = std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?;
    let mut dir: Option<&Path> = Some(&start);
    while let Some(d) = dir {
        if Pin::path(d).is_file() {
            return Ok(d.to_path_buf());
        }
        dir = d.parent();
    }
    Err(format!(
        "no spec/pinned.yaml in {} or above it: run this inside the repository, or give --root DIR",
        start.display()
    ))
}

fn stripped_name(upstream_file: &str) -> String {
    let stem = upstream_file
        .strip_suffix(".yaml")
        .or_else(|| upstream_file.strip_suffix(".yml"))
        .or_else(|| upstream_file.strip_suffix(".json"))
        .unwrap_or(upstream_file);
    format!("{stem}.stripped.json")
}

fn run(args: Args) -> Result<String, String> {
    let upstream = args.upstream.unwrap_or_default();
    let bytes =
        std::fs::read(&upstream).map_err(|e| format!("cannot read {}: {e}", upstream.display()))?;
    let upstream_sha = sha256_hex(&bytes);
    let doc = document::parse(&bytes, &upstream.display().to_string())?;
    let stripped = strip::strip(&doc);
    let out_bytes = strip::to_bytes(&stripped.doc);
    let out_sha = sha256_hex(&out_bytes);
    let mut report = format!(
        "{}: sha256 {upstream_sha}, {} bytes\n  dropped: {}\n  {} operations carry the permissions their description names\n",
        upstream.display(),
        bytes.len(),
        pinned::summary(&stripped.dropped),
        stripped.with_permissions,
    );

    if let Some(out) = args.out {
        write(&out, &out_bytes)?;
        report.push_str(&format!(
            "wrote {}: sha256 {out_sha}, {} bytes (nothing pinned)\n",
            out.display(),
            out_bytes.len()
        ));
        return Ok(report);
    }

    let root = find_root(args.root)?;
    let mut pin = Pin::load(&root)?;
    if args.check {
        let committed = std::fs::read(pin.stripped_path(&root)).unwrap_or_default();
        if upstream_sha != pin.sha256 {
            return Err(format!(
                "{report}{} is not the pinned `{}` (sha256 {})",
                upstream.display(),
                pin.file,
                pin.sha256
            ));
        }
        if committed != out_bytes || pin.stripped_sha256 != out_sha {
            return Err(format!(
                "{report}spec/{} is not what stripping {} gives (sha256 {out_sha}; committed {}, recorded {}). \
                 Run spec-strip without --check and commit the result.",
                pin.stripped,
                upstream.display(),
                sha256_hex(&committed),
                pin.stripped_sha256
            ));
        }
        report.push_str(&format!(
            "spec/{} is current (sha256 {out_sha})\n",
            pin.stripped
        ));
        return Ok(report);
    }

    match args.release {
        None if upstream_sha != pin.sha256 => {
            return Err(format!(
                "{report}{} is not the pinned `{}` (release {}, sha256 {}). To pin this file as a new release, \
                 add --release NAME; to strip it without pinning, --out FILE.",
                upstream.display(),
                pin.file,
                pin.release,
                pin.sha256
            ));
        }
        None => {}
        Some(release) => {
            let file = upstream
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .ok_or_else(|| format!("{} has no file name", upstream.display()))?;
            let old = pin.stripped_path(&root);
            pin.release = release;
            pin.sha256 = upstream_sha.clone();
            if let Some(source) = args.source {
                pin.source = source;
            }
            let name = stripped_name(&file);
            if !pin.stripped.is_empty() && pin.stripped != name && old.is_file() {
                std::fs::remove_file(&old)
                    .map_err(|e| format!("cannot remove the old copy {}: {e}", old.display()))?;
                report.push_str(&format!("removed the old copy {}\n", old.display()));
            }
            pin.file = file;
            pin.stripped = name;
        }
    }
    if pin.stripped.is_empty() {
        pin.stripped = stripped_name(&pin.file);
    }
    pin.stripped_sha256 = out_sha.clone();
    let target = pin.stripped_path(&root);
    write(&target, &out_bytes)?;
    pin.write(&root)?;
    report.push_str(&format!(
        "wrote {}: sha256 {out_sha}, {} bytes\nrecorded release {}, {} (sha256 {}) and spec/{} (sha256 {out_sha}) in spec/pinned.yaml\n",
        target.display(),
        out_bytes.len(),
        pin.release,
        pin.file,
        pin.sha256,
        pin.stripped
    ));
    Ok(report)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args).and_then(run) {
        Ok(report) => print!("{report}"),
        Err(message) => {
            eprintln!("spec-strip: {message}");
            std::process::exit(1);
        }
    }
}
