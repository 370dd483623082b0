#!/usr/bin/env bash
# The HTTP benchmark (not part of CI): builds mattermost-mcp in release, installs PyPI
# mcp-server-mattermost 0.6.1 and httpx in a venv under target/, and runs bench/http_bench.py, which
# prints the README's table. Extra arguments go to http_bench.py (e.g. --seconds 5).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin mattermost-mcp
if [ ! -x target/bench-venv/bin/mcp-server-mattermost ]; then
    python3 -m venv target/bench-venv
    target/bench-venv/bin/pip install --quiet --disable-pip-version-check mcp-server-mattermost==0.6.1 httpx
fi
exec target/bench-venv/bin/python bench/http_bench.py --binary target/release/mattermost-mcp "$@"
