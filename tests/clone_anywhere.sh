#!/usr/bin/env bash
# A clone builds anywhere: clones the committed state of this checkout's HEAD into a fresh temporary
# directory with nothing beside it (the clone's ../shared does not exist) and MATTERMOST_OPENAPI unset,
# installs it there with the README's `cargo install --path . --locked` (as a debug build), runs the
# installed `mattermost-mcp demo` and checks it answers MCP initialize and tools/list over stdio, then
# checks that a second `cargo build` rebuilds nothing.
#
# The clone builds into this checkout's target directory (CARGO_TARGET_DIR, else ./target): Cargo keys
# a workspace crate's artifacts by its path, so the clone's own crates, its build script and the
# generated client are built afresh from the clone (what this checks), while the crates.io
# dependencies already built here are reused (Cargo.toml gives the binary the features the tests turn
# on, so that a build of the binary alone finds them compiled; only rmcp, whose client the tests use,
# is compiled again). CLONE_TARGET_DIR=fresh gives the clone a target of its own instead (a full debug
# build, every dependency included).
#
# Usage: tests/clone_anywhere.sh   (CI runs it as its own step)
set -euo pipefail
source_repo="$(cd "$(dirname "$0")/.." && pwd)"
shared_target="$(realpath -m "${CARGO_TARGET_DIR:-$source_repo/target}")"
head="$(git -C "$source_repo" rev-parse HEAD)"
if [ -n "$(git -C "$source_repo" status --porcelain --untracked-files=no)" ]; then
  echo "note: $source_repo has uncommitted changes; the clone is of the commit $head only"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/mattermost-mcp-clone.XXXXXX")"
trap 'rm -rf "$work"' EXIT
clone="$work/repo"
git clone --quiet --no-checkout "$source_repo" "$clone"
git -C "$clone" checkout --quiet "$head"
if [ -e "$clone/../shared" ]; then
  echo "FAIL: $clone/../shared exists; the clone must have nothing beside it" >&2
  exit 1
fi
ls -A "$work"

unset MATTERMOST_OPENAPI MATTERMOST_OPENAPI_SHA256 CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR
# No debug info: this build checks that the clone builds and serves, not what a debugger sees (about a
# third less time on two cores; the dependencies are built without it anyway, Cargo.toml's profile.dev).
export CARGO_PROFILE_DEV_DEBUG=0
if [ "${CLONE_TARGET_DIR:-}" = "fresh" ]; then
  export CARGO_TARGET_DIR="$clone/target"
else
  export CARGO_TARGET_DIR="$shared_target"
fi
cd "$clone"

echo "== the README's install from the clone: cargo install --path . --locked (--debug, into $work/install), commit $head"
start=$(date +%s)
cargo install --path . --locked --debug --target-dir "$CARGO_TARGET_DIR" --root "$work/install" 2>&1 \
  | tee "$work/install.log"
echo "installed in $(( $(date +%s) - start )) s"
if [ "${CLONE_TARGET_DIR:-}" != "fresh" ]; then
  # Into a target the tests built: only the clone's own crates (named with their path) and rmcp (whose
  # client features only the tests use) may be compiled. Any other crate means the binary's features
  # and the tests' differ again: give the binary the test-only dependencies' features (Cargo.toml's
  # aligned block), or nearly everything is compiled twice in CI.
  again="$(sed -n 's/^ *Compiling \([^ ]*\) v[^ ]*$/\1/p' "$work/install.log" | grep -vx rmcp || true)"
  if [ -n "$again" ]; then
    echo "FAIL: the install compiled again crates the tests had compiled: $(echo $again)" >&2
    echo "      (their features differ between the binary alone and the tests; see Cargo.toml)" >&2
    exit 1
  fi
fi
bin="$work/install/bin/mattermost-mcp"
"$bin" --version

echo "== mattermost-mcp demo answers MCP initialize and tools/list over stdio"
python3 - "$bin" <<'PY'
import json, subprocess, sys

proc = subprocess.Popen([sys.argv[1], "demo"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL, text=True, env={"MATTERMOST_MCP_LOG": "warn"})

def send(message):
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()

def answer(want_id):
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"FAIL: the server closed stdout before answering request {want_id}")
        message = json.loads(line)
        if message.get("id") == want_id:
            if "error" in message:
                sys.exit(f"FAIL: request {want_id} answered an error: {message['error']}")
            return message["result"]

try:
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "clone-anywhere", "version": "1"}}})
    init = answer(1)
    if "tools" not in init.get("capabilities", {}):
        sys.exit(f"FAIL: initialize offers no tools: {init}")
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    tools, cursor, request = [], None, 2
    while True:
        send({"jsonrpc": "2.0", "id": request, "method": "tools/list",
              "params": {"cursor": cursor} if cursor else {}})
        page = answer(request)
        tools += [t["name"] for t in page["tools"]]
        cursor = page.get("nextCursor")
        request += 1
        if not cursor:
            break
    for name in ("get_me", "read_channel", "search_posts"):
        if name not in tools:
            sys.exit(f"FAIL: tools/list lacks {name}: {tools}")
    print(f"ok: {init['serverInfo']['name']} {init['serverInfo'].get('version', '')} lists {len(tools)} tools")
finally:
    proc.stdin.close()
    proc.terminate()
    proc.wait(timeout=10)
PY

echo "== a second cargo build of the clone rebuilds nothing"
bash "$clone/tests/no_rebuild.sh" "$clone"
