"""The operation gateway (toolset `api`) through a real MCP client (the Python `mcp` package, 2.3.0)
against `mattermost-mcp demo`, in both protocol forms: the low-level ClientSession (2025-11-25, a write
asks with an elicitation/create request) and mcp.Client in auto mode (2026-07-28, input-required
results the client answers and retries).

Without writes allowed: find_operations finds the incoming webhooks operations, describe_operation
gives their parameters, call_operation lists the team's webhooks, pages the channel's bookmarks one at a
time to their end, refuses an unknown parameter naming the accepted ones, and refuses a writing
operation naming MATTERMOST_ALLOW_WRITES. With writes allowed: creating an incoming webhook asks first,
showing the method, path and body; accepted it is made once (read back), declined nothing is made.

Usage: python tests/python/gateway_check.py path/to/mattermost-mcp
"""

import asyncio
import sys

import mcp
from mcp import ClientSession, stdio_client

from demo_client import Asker, demo_params, fail, ok, refused


def params(binary, writes):
    allowed = {"MATTERMOST_ALLOW_WRITES": "true"} if writes else {}
    return demo_params(binary, MATTERMOST_TOOLSETS="all", **allowed)


async def ids_of(client):
    teams = await ok(client, "list_teams", {})
    acme = next(t["id"] for t in teams["items"] if t["name"] == "acme")
    town = await ok(client, "get_channel", {"channel": "town-square", "team": "acme"})
    return acme, town["id"]


async def webhook_names(client, team):
    page = await ok(client, "call_operation", {
        "operation": "GetIncomingWebhooks", "params": {"team_id": team}, "limit": 200})
    return [h["display_name"] for h in page["items"]]


async def reads(client, form):
    tools = await client.list_tools()
    names = [t.name for t in tools.tools]
    for name in ["find_operations", "describe_operation", "call_operation"]:
        if name not in names:
            fail(f"{form}: {name} is not listed with MATTERMOST_TOOLSETS=all")
    gateway = next(t for t in tools.tools if t.name == "call_operation")
    if not gateway.annotations or gateway.annotations.read_only_hint is not True:
        fail(f"{form}: call_operation is not published read-only without writes")

    found = await ok(client, "find_operations", {"query": "incoming webhooks", "limit": 5})
    if found["items"][0]["operation"] != "GetIncomingWebhooks" or found["requests"] != 0:
        fail(f"{form}: find_operations: {found}")
    described = await ok(client, "describe_operation", {"operation": "GetIncomingWebhooks"})
    if "team_id" not in [p["name"] for p in described["params"]]:
        fail(f"{form}: describe_operation: {described}")

    team, town = await ids_of(client)
    names = await webhook_names(client, team)
    if sorted(names) != ["CI failures", "Release notes"]:
        fail(f"{form}: the acme webhooks are {names}")

    seen, cursor, pages = [], None, 0
    while True:
        args = {"operation": "ListChannelBookmarksForChannel",
                "params": {"channel_id": town}, "limit": 1}
        if cursor:
            args["cursor"] = cursor
        page = await ok(client, "call_operation", args)
        pages += 1
        seen += [b["display_name"] for b in page["items"]]
        cursor = page.get("next_cursor")
        if not cursor:
            break
        if pages > 10:
            fail(f"{form}: the bookmarks do not end")
    if seen != ["Team handbook", "On-call rota"]:
        fail(f"{form}: the bookmarks paged one at a time are {seen}")

    message = await refused(client, "call_operation", {
        "operation": "GetIncomingWebhooks", "params": {"team": team}})
    if "`team`" not in message or "team_id" not in message:
        fail(f"{form}: an unknown parameter: {message}")
    message = await refused(client, "call_operation", {
        "operation": "CreateIncomingWebhook", "params": {"body": {"channel_id": town}}})
    if "MATTERMOST_ALLOW_WRITES=true" not in message:
        fail(f"{form}: a write without writes allowed: {message}")
    return team, town


async def write(client, asker, form, accept):
    team, town = await ids_of(client)
    before = await webhook_names(client, team)
    args = {"operation": "CreateIncomingWebhook",
            "params": {"body": {"channel_id": town, "display_name": f"Made over {form}"}}}
    if accept:
        made = await ok(client, "call_operation", args)
        if made["items"][0]["display_name"] != f"Made over {form}":
            fail(f"{form}: the write answered {made}")
    else:
        await refused(client, "call_operation", args)
    if len(asker.questions) != 1:
        fail(f"{form}: {len(asker.questions)} questions asked: {asker.questions}")
    question = asker.questions[0]
    if "POST /api/v4/hooks/incoming" not in question or f"Made over {form}" not in question:
        fail(f"{form}: the question does not show the request: {question}")
    after = await webhook_names(client, team)
    expected = before + [f"Made over {form}"] if accept else before
    if sorted(after) != sorted(expected):
        fail(f"{form}: webhooks after the write {after}, expected {expected}")


async def legacy(binary, writes, accept):
    asker = Asker(accept)
    async with stdio_client(params(binary, writes)) as (read, write_stream):
        async with ClientSession(read, write_stream, elicitation_callback=asker) as session:
            await session.initialize()
            if writes:
                await write(session, asker, "2025-11-25", accept)
            else:
                await reads(session, "2025-11-25")


async def stateless(binary, writes, accept):
    asker = Asker(accept)
    async with mcp.Client(params(binary, writes), mode="auto", elicitation_callback=asker) as client:
        if client.protocol_version != "2026-07-28":
            fail(f"mcp.Client negotiated {client.protocol_version}, not 2026-07-28")
        if writes:
            await write(client, asker, "2026-07-28", accept)
        else:
            await reads(client, "2026-07-28")


async def main(binary):
    await legacy(binary, False, False)
    await stateless(binary, False, False)
    await legacy(binary, True, True)
    await legacy(binary, True, False)
    await stateless(binary, True, True)
    await stateless(binary, True, False)
    print("OK")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "target/debug/mattermost-mcp"))
