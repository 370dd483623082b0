"""A real MCP client (the Python `mcp` package, 2.3.0) against `mattermost-mcp demo`.

It lists the tools through tools/list pages, reads a demo channel to its end through read_channel's
cursors, and checks what a user's client would rely on: every post once, has_more/next_cursor
consistent, a bad cursor refused as a tool error (its text the error as JSON, no structured result),
the structured result and its text copy equal.

Usage: python tests/python/mcp_client_check.py path/to/mattermost-mcp
"""

import asyncio
import os
import sys

import mcp.types
from mcp import ClientSession, StdioServerParameters, stdio_client

from demo_client import call, fail


async def main(binary):
    env = {"PATH": os.environ.get("PATH", ""), "MATTERMOST_MCP_LOG": "warn"}
    params = StdioServerParameters(command=binary, args=["demo", "--page-size", "4"], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            names, cursor, pages = [], None, 0
            while True:
                page = await session.list_tools(params=mcp.types.PaginatedRequestParams(cursor=cursor))
                pages += 1
                names += [t.name for t in page.tools]
                cursor = page.next_cursor
                if not cursor:
                    break
            if len(names) != len(set(names)) or "read_channel" not in names or pages < 2:
                fail(f"tools/list: {pages} pages, tools {names}")
            print(f"tools/list: {len(names)} tools in {pages} pages of at most 4")

            error, me = await call(session, "get_me", {})
            if error or me.get("username") != "demo":
                fail(f"get_me: {me}")

            seen, args, pages, requests = [], {"channel": "town-square", "team": "acme", "limit": 37}, 0, 0
            while True:
                error, page = await call(session, "read_channel", args)
                if error:
                    fail(f"read_channel: {page}")
                pages += 1
                requests += page["requests"]
                seen += [item["id"] for item in page["items"]]
                if page["has_more"] != ("next_cursor" in page):
                    fail("has_more and next_cursor disagree")
                if not page["has_more"]:
                    break
                args["cursor"] = page["next_cursor"]
            if len(seen) != len(set(seen)) or not seen:
                fail(f"read_channel: {len(seen)} posts, {len(set(seen))} distinct")
            print(f"read_channel: town-square read to its end: {len(seen)} posts in {pages} pages, {requests} Mattermost requests")

            error, refused = await call(session, "read_channel", {"channel": "town-square", "team": "acme", "cursor": "garbled"})
            if not error or refused["error"]["kind"] != "bad_cursor":
                fail(f"a garbled cursor was not refused: {refused}")
            print("read_channel: a garbled cursor is refused as a tool error")
    print("OK")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "target/debug/mattermost-mcp"))
