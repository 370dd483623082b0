#!/usr/bin/env bash
# The HTTP benchmark (not part of CI): builds mattermost-mcp in release, installs Debian's wrk and
# valgrind when missing (as root), PyPI mcp-server-mattermost 0.6.1 in a venv under target/ (the
# peer), and runs bench/bench.py, which prints the README's tables.
#
#   bash bench/run.sh                 # this checkout, and the peer
#   bash bench/run.sh --against REV   # also REV's build (a git revision), side by side in the same run
#
# Further arguments go to bench/bench.py (e.g. --seconds 5, --modes stateless, --callgrind-calls 0).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"

against=()
if [ "${1:-}" = "--against" ]; then
    rev="$2"
    shift 2
    # REV's release build in a worktree of its own (its target beside ours, so dependencies are shared
    # between runs).
    dir="$target/bench-against/src"
    git worktree remove --force "$dir" 2>/dev/null || rm -rf "$dir"
    git worktree add --detach "$dir" "$rev" >/dev/null
    (cd "$dir" && CARGO_TARGET_DIR="$(realpath "$target")/bench-against/target" cargo build --release --locked --bin mattermost-mcp)
    against=(--against "$target/bench-against/target/release/mattermost-mcp" --against-name "$(git rev-parse --short "$rev")")
fi
cargo build --release --locked --bin mattermost-mcp

missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v valgrind >/dev/null || missing+=(valgrind)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ! -x "$target/bench-venv/bin/mcp-server-mattermost" ]; then
    python3 -m venv "$target/bench-venv"
    "$target/bench-venv/bin/pip" install --quiet --disable-pip-version-check mcp-server-mattermost==0.6.1
fi
exec python3 bench/bench.py --binary "$target/release/mattermost-mcp" "${against[@]}" \
    --peer "$target/bench-venv/bin/mcp-server-mattermost" --profiles "$target/bench-profiles" "$@"
