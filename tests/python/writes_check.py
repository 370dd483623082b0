"""The writing tools through a real MCP client (the Python `mcp` package, 2.3.0) against
`mattermost-mcp demo` with MATTERMOST_ALLOW_WRITES=true, in both protocol forms: the low-level
ClientSession (2025-11-25, the server asks with an elicitation/create request) and mcp.Client in auto
mode (2026-07-28, the server answers input-required results and the client retries).

With an elicitation callback that accepts, every writing tool is called and what it did is read back
through the reading tools; with one that declines, every tool that asks is refused as declined and
nothing was posted.

Usage: python tests/python/writes_check.py path/to/mattermost-mcp
"""

import asyncio
import secrets
import sys
from datetime import datetime, timedelta, timezone

import mcp
from mcp import ClientSession, stdio_client

from demo_client import Asker, call, demo_params, fail, ok

ASKING = [
    "create_post", "send_direct_message", "update_post", "delete_post", "add_reaction",
    "remove_reaction", "pin_post", "join_channel", "leave_channel", "add_channel_members",
    "create_channel", "set_status",
]


async def town_messages(client):
    page = await ok(client, "read_channel", {"channel": "town-square", "team": "acme", "limit": 50})
    return [item["text"] for item in page["items"]]


def later(hours):
    return (datetime.now(timezone.utc) + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")


async def every_tool(client, asker, form):
    tag = secrets.token_hex(4)
    message = f"posted through {form} {tag}"
    v = await ok(client, "create_post", {
        "channel": "~town-square", "message": message,
        "files": [{"name": "notes.txt", "content": "the plan"}],
    })
    post = v["post_id"]
    if v["confirmed"] != "by_person" or not v["marked_ai_generated"] or len(v["file_ids"]) != 1:
        fail(f"create_post: {v}")
    if message not in await town_messages(client):
        fail("create_post: the post does not read back")
    await ok(client, "create_post", {"channel": "~town-square", "message": "a reply", "root": post})
    await ok(client, "send_direct_message", {"to": ["alice"], "message": f"hi alice {tag}"})
    v = await ok(client, "update_post", {"post": post, "message": message + " (edited)"})
    if v["message"] != message + " (edited)":
        fail(f"update_post: {v}")
    v = await ok(client, "add_reaction", {"post": post, "emoji": "👍"})
    if v["emoji"] != "+1":
        fail(f"add_reaction: {v}")
    await ok(client, "remove_reaction", {"post": post, "emoji": ":thumbsup:"})
    await ok(client, "pin_post", {"post": post})
    await ok(client, "pin_post", {"post": post, "pinned": False})
    await ok(client, "save_post", {"post": post})
    saved = await ok(client, "list_saved", {})
    if post not in [i["id"] for i in saved["items"]]:
        fail("save_post: not among the saved posts")
    await ok(client, "save_post", {"post": post, "saved": False})
    await ok(client, "follow_thread", {"post": post})
    await ok(client, "follow_thread", {"post": post, "following": False})
    await ok(client, "set_post_reminder", {"post": post, "at": later(24)})
    await ok(client, "save_draft", {"channel": "~town-square", "message": f"draft {tag}"})
    v = await ok(client, "delete_draft", {"channel": "~town-square"})
    if v.get("message") != f"draft {tag}":
        fail(f"delete_draft: {v}")
    await ok(client, "leave_channel", {"channel": "off-topic"})
    await ok(client, "join_channel", {"channel": "off-topic"})
    v = await ok(client, "create_channel", {"team": "acme", "display_name": f"Py check {tag}", "private": True})
    v = await ok(client, "add_channel_members", {"channel": v["channel_id"], "users": ["alice"]})
    if v["added"] != ["alice"]:
        fail(f"add_channel_members: {v}")
    await ok(client, "set_status", {"status": "away", "custom_text": "checking", "custom_emoji": "🧪"})
    v = await ok(client, "delete_post", {"post": post})
    if v["replies_deleted"] != 1:
        fail(f"delete_post: {v}")
    if len(asker.questions) < 12:
        fail(f"{form}: only {len(asker.questions)} questions for the visible writes")
    print(f"{form}: every writing tool worked after the person accepted; {len(asker.questions)} questions asked")


async def declined(client, asker, form):
    tag = secrets.token_hex(4)
    own = await own_post(client)
    args = {
        "create_post": {"channel": "~town-square", "message": f"never posted {tag}"},
        "send_direct_message": {"to": ["alice"], "message": f"never sent {tag}"},
        "update_post": {"post": own, "message": "never edited"},
        "delete_post": {"post": own},
        "add_reaction": {"post": own, "emoji": "tada"},
        "remove_reaction": {"post": own, "emoji": "tada"},
        "pin_post": {"post": own},
        "join_channel": {"channel": "releases"},
        "leave_channel": {"channel": "off-topic"},
        "add_channel_members": {"channel": "off-topic", "users": ["grace"]},
        "create_channel": {"team": "acme", "display_name": f"Never {tag}"},
        "set_status": {"status": "dnd"},
    }
    refused = 0
    for tool in ASKING:
        error, value = await call(client, tool, args[tool])
        kind = value.get("error", {}).get("kind") if error else None
        if kind == "declined":
            refused += 1
        elif error or "nothing was sent" not in value.get("done", ""):
            fail(f"{form}: {tool} was neither declined nor a no-op: {value}")
    if f"never posted {tag}" in await town_messages(client):
        fail(f"{form}: a declined post was made")
    if refused < 8 or refused != len(asker.questions):
        fail(f"{form}: {refused} declined of {len(asker.questions)} questions")
    print(f"{form}: {refused} visible writes declined by the person, nothing sent")


async def own_post(client):
    """A post of the demo user's own to act on: the newest of theirs in town-square."""
    page = await ok(client, "read_channel", {"channel": "town-square", "team": "acme", "limit": 100})
    mine = [i["id"] for i in page["items"] if i.get("by") == "demo" and not i.get("type")]
    if not mine:
        fail("the demo user has no post in town-square to act on")
    return mine[-1]


async def legacy(binary, accept):
    asker = Asker(accept)
    async with stdio_client(demo_params(binary, MATTERMOST_ALLOW_WRITES="true")) as (read, write):
        async with ClientSession(read, write, elicitation_callback=asker) as session:
            await session.initialize()
            if accept:
                await every_tool(session, asker, "2025-11-25")
            else:
                await declined(session, asker, "2025-11-25")


async def stateless(binary, accept):
    asker = Asker(accept)
    async with mcp.Client(demo_params(binary, MATTERMOST_ALLOW_WRITES="true"), mode="auto", elicitation_callback=asker) as client:
        if client.protocol_version != "2026-07-28":
            fail(f"mcp.Client negotiated {client.protocol_version}, not 2026-07-28")
        if accept:
            await every_tool(client, asker, "2026-07-28")
        else:
            await declined(client, asker, "2026-07-28")


async def main(binary):
    await legacy(binary, True)
    await legacy(binary, False)
    await stateless(binary, True)
    await stateless(binary, False)
    print("OK")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "target/debug/mattermost-mcp"))
