"""What people share, through a real MCP client (the Python `mcp` package, 2.3.0) against
`mattermost-mcp demo`: read_file on the demo's PDF, Word, Excel, PowerPoint, zip, tar and PNG files
(the PNG as image content), resource templates listed, read (a file page by page through next_uri, a
thread, a channel) and completed, and the prompts listed and got. Over stdio in both protocol forms
(ClientSession, 2025-11-25; mcp.Client in auto mode, 2026-07-28), then over Streamable HTTP as two
people, each completing and reading as themselves.

Usage: python tests/python/share_check.py path/to/mattermost-mcp
"""

import asyncio
import json
import sys

import mcp
import mcp.types as t
from mcp import ClientSession, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from demo_client import demo_params, fail
from http_check import start  # the demo over HTTP and its two people's tokens

KINDS = {
    "pdf": "page", "docx": "paragraph", "xlsx": "row", "pptx": "slide", "zip": "entry", "tar": "entry",
}
TEMPLATES = [
    "mattermost://channels/{channel_id}", "mattermost://files/{file_id}", "mattermost://posts/{post_id}",
]
PROMPTS = ["catch_up", "summarize_thread", "draft_reply"]


async def ok(client, tool, args):
    result = await client.call_tool(tool, args)
    if result.is_error or result.structured_content is None:
        fail(f"{tool} {args}: {result.content}")
    return result


async def demo_files(client):
    """One demo file of each kind read here: extension -> id."""
    found = await ok(client, "search_files", {
        "terms": "pdf png xlsx docx pptx zip tar", "match_any": True, "limit": 200,
    })
    files = {}
    for f in found.structured_content["items"]:
        files.setdefault(f.get("extension"), f["id"])
    for ext in list(KINDS) + ["png"]:
        if ext not in files:
            fail(f"the demo has no .{ext} file: {sorted(k for k in files if k)}")
    return files


def resource_json(read):
    texts = [c for c in read.contents if isinstance(c, t.TextResourceContents)]
    if len(texts) != 1:
        fail(f"a resource read gives one JSON text: {read.contents}")
    return json.loads(texts[0].text)


async def formats(client, form):
    files = await demo_files(client)
    for ext, where in KINDS.items():
        result = await ok(client, "read_file", {"file": files[ext]})
        items = result.structured_content["items"]
        if not any(where in i and i["text"] for i in items):
            fail(f"{form} read_file .{ext}: items should say their {where}: {items[:2]}")
        links = [b.uri for b in result.content if isinstance(b, t.ResourceLink)]
        if f"mattermost://files/{files[ext]}" not in [str(u) for u in links]:
            fail(f"{form} read_file .{ext}: no resource_link to the file: {links}")
    result = await ok(client, "read_file", {"file": files["png"]})
    images = [b for b in result.content if isinstance(b, t.ImageContent)]
    shown = result.structured_content.get("image") or {}
    if len(images) != 1 or images[0].mime_type != shown.get("mime") or max(shown["width"], shown["height"]) > 1568:
        fail(f"{form} read_file .png: one image block, at most 1568 px: {shown}")
    print(f"{form}: read_file reads {', '.join(KINDS)} by item and the PNG as a {shown['width']}x{shown['height']} image")
    return files


async def resources(client, files, form):
    templates = await client.list_resource_templates()
    uris = sorted(x.uri_template for x in templates.resource_templates)
    if uris != TEMPLATES:
        fail(f"{form} resources/templates/list: {uris}")
    # The PDF page by page, following next_uri.
    uri, pages = f"mattermost://files/{files['pdf']}?limit=1", []
    while uri and len(pages) < 50:
        page = resource_json(await client.read_resource(uri))
        pages.extend(i["page"] for i in page["items"])
        uri = page.get("next_uri")
    if len(pages) < 2 or pages != sorted(pages):
        fail(f"{form} resources/read of the PDF page by page: pages {pages}")
    image = await client.read_resource(f"mattermost://files/{files['png']}")
    if not any(isinstance(c, t.BlobResourceContents) for c in image.contents):
        fail(f"{form} resources/read of the PNG: no blob")
    channel = await ok(client, "get_channel", {"channel": "town-square", "team": "acme"})
    cid = channel.structured_content["id"]
    posts = resource_json(await client.read_resource(f"mattermost://channels/{cid}"))
    if not posts["items"]:
        fail(f"{form} resources/read of town-square: no posts")
    root = posts["items"][-1].get("root_id") or posts["items"][-1]["id"]
    thread = resource_json(await client.read_resource(f"mattermost://posts/{root}"))
    if root not in [p["id"] for p in thread["items"]]:
        fail(f"{form} resources/read of a thread: its root is missing")
    done = await client.complete(t.ResourceTemplateReference(type="ref/resource", uri=TEMPLATES[0]),
                                 {"name": "channel_id", "value": "town"})
    if cid not in done.completion.values:
        fail(f"{form} completion of channel_id 'town': {done.completion.values}")
    done = await client.complete(t.ResourceTemplateReference(type="ref/resource", uri=TEMPLATES[1]),
                                 {"name": "file_id", "value": "roadm"})
    if not done.completion.values:
        fail(f"{form} completion of file_id 'roadm': no file of the demo's roadmap")
    print(f"{form}: resources read ({len(pages)} PDF pages through next_uri), channel and file ids completed "
          f"({len(done.completion.values)} files for 'roadm')")
    return root


async def prompts(client, root, form):
    listed = await client.list_prompts()
    names = [p.name for p in listed.prompts]
    if names != PROMPTS:
        fail(f"{form} prompts/list: {names}")
    for name, args, tool in [
        ("catch_up", {}, "read_inbox"),
        ("summarize_thread", {"post": root}, "read_thread"),
        ("draft_reply", {"post": root}, "read_thread"),
    ]:
        got = await client.get_prompt(name, args)
        text = "".join(m.content.text for m in got.messages if isinstance(m.content, t.TextContent))
        if tool not in text or (args and root not in text):
            fail(f"{form} prompts/get {name}: {text}")
    print(f"{form}: prompts listed and got: {', '.join(names)}")


async def stdio(binary):
    async with stdio_client(demo_params(binary)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            files = await formats(session, "2025-11-25")
            root = await resources(session, files, "2025-11-25")
            await prompts(session, root, "2025-11-25")
    async with mcp.Client(demo_params(binary), mode="auto") as client:
        if client.protocol_version != "2026-07-28":
            fail(f"mcp.Client negotiated {client.protocol_version}, not 2026-07-28")
        files = await formats(client, "2026-07-28")
        root = await resources(client, files, "2026-07-28")
        await prompts(client, root, "2026-07-28")


async def as_person(url, token):
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
        async with mcp.Client(streamable_http_client(url, http_client=http), mode="auto") as client:
            templates = await client.list_resource_templates()
            if sorted(x.uri_template for x in templates.resource_templates) != TEMPLATES:
                fail("over HTTP: resources/templates/list")
            mine = await ok(client, "list_channels", {"limit": 200})
            ids = {c["id"] for c in mine.structured_content["items"]}
            done = await client.complete(t.ResourceTemplateReference(type="ref/resource", uri=TEMPLATES[0]),
                                         {"name": "channel_id", "value": "a"})
            if not set(done.completion.values) <= ids:
                fail("over HTTP: a completed channel is not one of the person's own")
            one = sorted(ids)[0]
            read = resource_json(await client.read_resource(f"mattermost://channels/{one}"))
            if read.get("channel_id") != one:
                fail(f"over HTTP: resources/read of a channel of the person's own: {read}")
            me = await ok(client, "get_me", {})
            await prompts(client, "x" * 26, "HTTP")
            return me.structured_content["username"], ids


async def http(binary):
    proc, url, tokens = start(binary)
    try:
        results = await asyncio.gather(*(as_person(url, tokens[u]) for u in ("demo", "alice")))
        for user, (name, _) in zip(("demo", "alice"), results):
            if name != user:
                fail(f"over HTTP the token of @{user} acted as @{name}")
        print("HTTP: @demo and @alice each list templates, complete among and read their own channels, get prompts")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


async def main(binary):
    await stdio(binary)
    await http(binary)
    print("OK")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "target/debug/mattermost-mcp"))
