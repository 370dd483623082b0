#!/usr/bin/env bash
# Checks that `cargo build` with nothing changed rebuilds nothing: no build script re-run (so no client
# regenerated), no crate compiled. Run it in a checkout that has been built; it builds once to be sure
# the state is settled, then once more verbosely and reads what cargo did.
#
# Usage: tests/no_rebuild.sh [CHECKOUT [CARGO ARGS...]]
#   CHECKOUT defaults to this script's checkout, CARGO ARGS to `build`. CI runs it after the tests with
#   `test --workspace --no-run`, the build it has just made (a plain `cargo build` after `cargo test`
#   rebuilds the crates whose features the dev-dependencies change, which says nothing about the spec);
#   tests/clone_anywhere.sh runs it with `build`.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
shift || true
[ $# -gt 0 ] || set -- build

cargo "$@" --locked --quiet
out="$(cargo "$@" --locked -v 2>&1)"
if grep -E '^\s*(Compiling|Running|Dirty)' <<<"$out"; then
  echo "FAIL: a second cargo build with nothing changed did the above; cargo's reasons:" >&2
  grep -E 'Dirty|rerun|changed' <<<"$out" >&2 || true
  exit 1
fi
grep -q 'Fresh mattermost-mcp' <<<"$out" || { echo "FAIL: cargo did not report mattermost-mcp fresh:" >&2; echo "$out" >&2; exit 1; }
echo "ok: a second \`cargo $*\` rebuilt nothing (mattermost-mcp fresh, its build script not re-run)"
