"""A real MCP client (the Python `mcp` package, 2.3.0) against `mattermost-mcp demo --http`.

In each protocol generation (mode="legacy": 2025-11-25 with initialize and a session; mode="auto":
2026-07-28, stateless, negotiated by discover) and as two people at once, it reads a demo channel
and the saved posts to their ends through their cursors, and checks: every item once, the person's
own answers only, a cursor of one person refused for the other, and a request without a token
answered 401 with a WWW-Authenticate that points at the protected resource metadata.

Usage: python tests/python/http_check.py path/to/mattermost-mcp
"""

import asyncio
import os
import re
import subprocess
import sys
import threading

import httpx2
import mcp
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from demo_client import answer_of, fail


def start(binary):
    env = {"PATH": os.environ.get("PATH", ""), "MATTERMOST_MCP_LOG": "info"}
    proc = subprocess.Popen([binary, "demo", "--http", "127.0.0.1:0"], env=env, stderr=subprocess.PIPE, text=True)
    tokens, url = {}, None
    for line in proc.stderr:
        for token, user in re.findall(r"Bearer ([a-z0-9]+)`? \(user @(\w+)\)", line):
            tokens[user] = token
        found = re.search(r"clients connect to (http://[0-9.:]+/mcp)", line)
        if found:
            url = found.group(1)
            break
    if not url or set(tokens) != {"demo", "alice"}:
        proc.kill()
        fail(f"the demo did not start over HTTP (url {url}, users {sorted(tokens)})")
    # Keep reading the server's log (one line a request), so it never waits on a full pipe.
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    return proc, url, tokens


async def page_to_end(client, tool, args):
    seen, args = [], dict(args)
    while True:
        result = await client.call_tool(tool, args)
        page = result.structured_content
        if result.is_error or page is None:
            fail(f"{tool}: {page}")
        seen += [item["id"] for item in page["items"]]
        if page["has_more"] != ("next_cursor" in page):
            fail(f"{tool}: has_more and next_cursor disagree")
        if not page["has_more"]:
            return seen
        args["cursor"] = page["next_cursor"]


async def as_person(url, token, mode):
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
        async with mcp.Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            version = client.protocol_version
            channel = await page_to_end(client, "read_channel", {"channel": "town-square", "team": "acme", "limit": 9})
            saved = await page_to_end(client, "list_saved", {"limit": 2})
            first = await client.call_tool("list_saved", {"limit": 1})
            cursor = (first.structured_content or {}).get("next_cursor")
            return version, channel, saved, cursor


async def refuses_cursor(url, token, cursor):
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
        async with mcp.Client(streamable_http_client(url, http_client=http), mode="auto") as client:
            error, value = answer_of("list_saved", await client.call_tool("list_saved", {"limit": 1, "cursor": cursor}))
            return error and value["error"]["kind"] == "bad_cursor"


async def main(binary):
    proc, url, tokens = start(binary)
    try:
        async with httpx2.AsyncClient() as http:
            r = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                                headers={"Accept": "application/json, text/event-stream"})
            challenge = r.headers.get("www-authenticate", "")
            if r.status_code != 401 or "resource_metadata=" not in challenge:
                fail(f"no token: {r.status_code} {challenge}")
            print(f"no token: 401, {challenge}")
        for mode, expected in (("legacy", "2025-11-25"), ("auto", "2026-07-28")):
            results = await asyncio.gather(*(as_person(url, tokens[u], mode) for u in ("demo", "alice")))
            for user, (version, channel, saved, cursor) in zip(("demo", "alice"), results):
                if version != expected:
                    fail(f"mode {mode}: negotiated {version}, expected {expected}")
                if not channel or len(channel) != len(set(channel)) or len(saved) != len(set(saved)):
                    fail(f"{user}, {mode}: an item twice or none ({len(channel)} posts, {len(saved)} saved)")
                print(f"{expected} as @{user}: town-square {len(channel)} posts, saved {len(saved)}, each once")
            (_, c1, s1, cursor), (_, c2, s2, _) = results
            if c1 != c2:
                fail("the same public channel reads differently for two people")
            if cursor and not await refuses_cursor(url, tokens["alice"], cursor):
                fail("alice could continue demo's saved list with demo's cursor")
        print("a cursor made for @demo is refused for @alice")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            fail("the server did not stop on SIGTERM")
        if proc.returncode != 0:
            fail(f"the server exited {proc.returncode} on SIGTERM")
    print("OK")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "target/debug/mattermost-mcp"))
