"""The cursors of every list tool, run through the PyPI `detect-secrets` scanner with its default plugins.

A cursor must survive the redactors that strip secret-looking strings from what a model reads: it must
be at most 80 characters and no default detect-secrets plugin may flag it, neither inside a JSON file
(how a transcript or a log holds it) nor scanned alone. The script starts `mattermost-mcp demo` with a
real MCP client (the Python `mcp` package), calls every list tool at limit 1 with sample arguments taken
from the demo, and collects each next_cursor; then it follows read_channel and list_saved for a few
pages to collect more, and walks search_posts into its older date windows.

Usage: python tests/python/cursor_secrets_check.py path/to/mattermost-mcp
"""

import asyncio
import json
import os
import sys
import tempfile

from mcp import ClientSession, StdioServerParameters, stdio_client
from detect_secrets import SecretsCollection
from detect_secrets.main import scan_adhoc_string
from detect_secrets.settings import default_settings

from demo_client import call, fail




def sample(arg_name, schema, ids):
    """A value for a required argument, from its name."""
    if arg_name in ("channel", "source"):
        return ids["channel"]
    if arg_name == "team":
        return ids["team"]
    if arg_name == "post":
        return ids["post"]
    if arg_name == "file":
        return ids["file"]
    if arg_name in ("user", "to"):
        return "alice"
    if arg_name == "users":
        return ["alice"]
    if arg_name == "terms":
        # the demo's long search history: 1,000 posts and 176 files over two years, walked by date windows
        return "nightly"
    if schema.get("type") == "boolean":
        return False
    return "the"


async def collect(binary):
    env = {"PATH": os.environ.get("PATH", ""), "MATTERMOST_MCP_LOG": "warn", "MATTERMOST_TOOLSETS": "all"}
    params = StdioServerParameters(command=binary, args=["demo", "--page-size", "0"], env=env)
    cursors = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            _, channels = await call(session, "list_channels", {"limit": 1})
            _, page = await call(session, "read_channel", {"channel": "town-square", "team": "acme", "limit": 1})
            _, files = await call(session, "search_files", {"terms": "notes", "limit": 1})
            ids = {
                "channel": page.get("channel_id", ""),
                "team": "acme",
                "post": (page.get("items") or [{}])[0].get("id", ""),
                "file": (files.get("items") or [{}])[0].get("id", ""),
            }
            for tool in tools:
                props = tool.input_schema.get("properties", {})
                if "cursor" not in props:
                    continue
                args = {name: sample(name, props.get(name, {}), ids) for name in tool.input_schema.get("required", [])}
                if tool.name == "call_operation":
                    # The town square's bookmarks: a list the gateway pages by its own cursor.
                    args = {"operation": "ListChannelBookmarksForChannel", "params": {"channel_id": ids["channel"]}}
                if tool.name == "find_operations":
                    args["query"] = "channel"
                if tool.name == "wait_for_activity":
                    # nothing new arrives in the demo: each page is an honest timeout with a cursor to wait on
                    args["timeout_secs"] = 1
                args["limit"] = 1
                pages = 0
                while pages < 3:
                    error, answer = await call(session, tool.name, args)
                    if error:
                        fail(f"{tool.name} {args}: {answer}")
                    cursor = answer.get("next_cursor")
                    if not cursor:
                        break
                    cursors.setdefault(tool.name, []).append(cursor)
                    args["cursor"] = cursor
                    pages += 1
            # A search walked into its older date windows: the cursors that carry a window's day.
            args = {"terms": "nightly", "limit": 200}
            for _ in range(3):
                error, answer = await call(session, "search_posts", args)
                if error or not answer.get("next_cursor"):
                    break
                cursors.setdefault("search_posts", []).append(answer["next_cursor"])
                args["cursor"] = answer["next_cursor"]
    return cursors


def flagged_in_file(cursors):
    """Findings of a scan of a JSON file holding every cursor, as a transcript would."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        for tool, list_ in cursors.items():
            for c in list_:
                f.write(json.dumps({"tool": tool, "next_cursor": c}) + "\n")
        path = f.name
    try:
        with default_settings():
            found = SecretsCollection()
            found.scan_file(path)
        return [s.secret_value for _, s in found]
    finally:
        os.unlink(path)


def flagged_alone(cursor):
    """Plugins that flag a cursor scanned on its own (`detect-secrets scan --string`)."""
    with default_settings():
        report = scan_adhoc_string(cursor)
    return [line for line in report.splitlines() if ": True" in line]


def main(binary):
    cursors = asyncio.run(collect(binary))
    every = [c for list_ in cursors.values() for c in list_]
    if len(cursors) < 5:
        fail(f"only {len(cursors)} list tools gave a cursor: {sorted(cursors)}")
    longest = max(len(c) for c in every)
    if longest > 80:
        worst = next(t for t, list_ in cursors.items() if any(len(c) == longest for c in list_))
        fail(f"a cursor of {longest} characters from {worst}")
    in_file = flagged_in_file(cursors)
    if in_file:
        fail(f"detect-secrets flags cursors in a JSON file: {in_file}")
    for tool, list_ in cursors.items():
        for c in list_:
            alone = flagged_alone(c)
            if alone:
                fail(f"detect-secrets flags {tool}'s cursor {c}: {alone}")
    print(
        f"cursors: {len(every)} from {len(cursors)} list tools, at most {longest} characters, none flagged by "
        f"detect-secrets' default plugins"
    )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    main(sys.argv[1])
