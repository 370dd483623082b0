"""What the Python checks share: failing loudly, the demo server's parameters, an elicitation
callback that answers as told, and calls that check a result's shape: a success's structured result
against its text copy, an error's text as the error's JSON (and no structured result)."""

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


def answer_of(tool, result):
    """(is_error, value) of a tool result. A success's value is its structuredContent, whose text copy
    must equal it; an error has no structuredContent, and its text is the error as JSON,
    {"error": {"kind", "message", ...}}, which is its value."""
    text = result.content[0].text if result.content else None
    if text is None:
        fail(f"{tool}: no text")
    if result.is_error:
        if result.structured_content is not None:
            fail(f"{tool}: an error result carries structuredContent: {result.structured_content}")
        error = json.loads(text)
        if not isinstance(error.get("error", {}).get("message"), str) or "kind" not in error["error"]:
            fail(f"{tool}: an error's text is not the error as JSON: {text}")
        return True, error
    if result.structured_content is None:
        fail(f"{tool}: no structured result")
    if json.loads(text) != result.structured_content:
        fail(f"{tool}: the structured result and its text copy differ")
    return False, result.structured_content


async def call(client, tool, args):
    """(is_error, value): see answer_of."""
    return answer_of(tool, await client.call_tool(tool, args))


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
