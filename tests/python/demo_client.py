"""What the Python checks share: failing loudly, the demo server's parameters, an elicitation
callback that answers as told, and calls that check the structured result against its text copy."""

import json
import os
import sys

import mcp.types
from mcp import StdioServerParameters


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def demo_params(binary, **env):
    """`mattermost-mcp demo` over stdio, quiet, with these variables besides PATH."""
    return StdioServerParameters(
        command=binary,
        args=["demo"],
        env={"PATH": os.environ.get("PATH", ""), "MATTERMOST_MCP_LOG": "warn", **env},
    )


class Asker:
    """An elicitation callback that records each question and answers as told."""

    def __init__(self, accept):
        self.accept = accept
        self.questions = []

    async def __call__(self, ctx, p):
        self.questions.append(p.message)
        if self.accept:
            return mcp.types.ElicitResult(action="accept", content={"confirm": True})
        return mcp.types.ElicitResult(action="decline")


async def call(client, tool, args):
    """(is_error, structuredContent); fails when either copy is missing or a success's differ."""
    result = await client.call_tool(tool, args)
    structured = result.structured_content
    text = result.content[0].text if result.content else None
    if structured is None or text is None:
        fail(f"{tool}: no structured result or no text copy")
    if not result.is_error and json.loads(text) != structured:
        fail(f"{tool}: the structured result and its text copy differ")
    return result.is_error, structured


async def ok(client, tool, args):
    error, value = await call(client, tool, args)
    if error:
        fail(f"{tool} {args}: {value}")
    return value


async def refused(client, tool, args):
    """The message of the error a call must answer."""
    error, value = await call(client, tool, args)
    if not error:
        fail(f"{tool} {args} should be refused, got {value}")
    return value["error"]["message"]
