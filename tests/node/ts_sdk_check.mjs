// The TypeScript SDK as the hosts built on it use it: v1 (@modelcontextprotocol/sdk, the latest 1.x)
// and v2 (@modelcontextprotocol/client), each over stdio (`mattermost-mcp demo`) and Streamable HTTP
// (`demo --http`, with a demo token), with writes allowed and an elicitation handler that declines.
// Each client calls a tool that succeeds, one that fails (an unknown channel), one refused for a bad
// argument, and a write the person declines, and checks that each result reaches the caller: a
// success's structuredContent equals its text; an error's text is the error as JSON
// ({"error": {"kind", "message", ...}}) and it has no structuredContent (the v1 client threw "Structured
// content does not match the tool's output schema" on the old shape).
//
// Usage: node ts_sdk_check.mjs path/to/mattermost-mcp

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { check, demoEnv, fail, startDemo } from "./demo.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const binary = process.argv[2];
if (!binary) fail("usage: node ts_sdk_check.mjs path/to/mattermost-mcp");
const WRITES = { MATTERMOST_ALLOW_WRITES: "true" };

function versionOf(pkg) {
  const file = path.join(here, "node_modules", pkg, "package.json");
  return JSON.parse(fs.readFileSync(file, "utf8")).version;
}

/** The clients: how each is made, with a handler that declines every question. */
const clients = {
  [`@modelcontextprotocol/sdk ${versionOf("@modelcontextprotocol/sdk")}`]: {
    make(questions) {
      const c = new ClientV1({ name: "ts-sdk-v1-check", version: "1" }, { capabilities: { elicitation: {} } });
      c.setRequestHandler(ElicitRequestSchema, async (req) => {
        questions.push(req.params.message);
        return { action: "decline" };
      });
      return c;
    },
    stdio: () => new StdioV1({ command: binary, args: ["demo"], env: demoEnv({ ...WRITES, MATTERMOST_MCP_LOG: "warn" }) }),
    http: (url, token) => new HttpV1(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  },
  [`@modelcontextprotocol/client ${versionOf("@modelcontextprotocol/client")}`]: {
    make(questions) {
      const c = new ClientV2({ name: "ts-sdk-v2-check", version: "1" }, { capabilities: { elicitation: {} } });
      c.setRequestHandler("elicitation/create", async (req) => {
        questions.push(req.params.message);
        return { action: "decline" };
      });
      return c;
    },
    stdio: () => new StdioV2({ command: binary, args: ["demo"], env: demoEnv({ ...WRITES, MATTERMOST_MCP_LOG: "warn" }) }),
    http: (url, token) => new HttpV2(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  },
};

/** The text of a result's first block. */
function textOf(label, result) {
  const text = result.content?.[0]?.text;
  check(typeof text === "string", `${label}: no text in ${JSON.stringify(result)}`);
  return text;
}

/** A call that must succeed: its structuredContent, equal to its text. */
async function ok(client, label, name, args) {
  const result = await client.callTool({ name, arguments: args });
  check(!result.isError, `${label}: ${name} failed: ${JSON.stringify(result)}`);
  const text = textOf(label, result);
  check(
    JSON.stringify(JSON.parse(text)) === JSON.stringify(result.structuredContent),
    `${label}: ${name}: the text copy differs from structuredContent`,
  );
  return result.structuredContent;
}

/** A call that must answer an error the caller can read: the error's JSON. */
async function refused(client, label, name, args) {
  let result;
  try {
    result = await client.callTool({ name, arguments: args });
  } catch (e) {
    fail(`${label}: ${name} threw instead of answering its error: ${e.message}`);
  }
  check(result.isError === true, `${label}: ${name} should be an error: ${JSON.stringify(result)}`);
  check(result.structuredContent === undefined, `${label}: ${name}: an error carries structuredContent`);
  const error = JSON.parse(textOf(label, result)).error;
  check(typeof error?.kind === "string" && typeof error?.message === "string", `${label}: ${name}: ${JSON.stringify(result)}`);
  return error;
}

async function exercise(clientName, transportName, client, questions) {
  const label = `${clientName} over ${transportName}`;
  // Hosts list the tools first; the v1 client then checks each result against the tool's outputSchema.
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  check(tools.length >= 40 && tools.every((t) => t.outputSchema), `${label}: ${tools.length} tools listed`);
  const me = await ok(client, label, "get_me", {});
  check(me.username === "demo", `${label}: get_me says ${me.username}`);
  const lost = await refused(client, label, "get_channel", { channel: "no-such-channel-zz" });
  check(lost.kind === "not_found" && lost.message.includes("no-such-channel-zz"), `${label}: unknown channel: ${JSON.stringify(lost)}`);
  const bad = await refused(client, label, "read_channel", { channel: "town-square", team: "acme", limit: "ten" });
  check(bad.kind === "bad_argument" && bad.message.includes("`limit`"), `${label}: bad limit: ${JSON.stringify(bad)}`);
  const declined = await refused(client, label, "create_post", {
    channel: "town-square",
    message: `never posted (${label.replaceAll("@", "")})`,
  });
  check(declined.kind === "declined", `${label}: declined write: ${JSON.stringify(declined)}`);
  check(questions.length === 1, `${label}: ${questions.length} questions asked, expected 1`);
  const page = await ok(client, label, "read_channel", { channel: "town-square", team: "acme", limit: 100 });
  check(
    !page.items.some((p) => (p.message ?? p.text ?? "").includes("never posted")),
    `${label}: a declined post was made`,
  );
  // v2 says which protocol it negotiated; v1 speaks 2025-11-25 (initialize).
  const protocol = client.getNegotiatedProtocolVersion?.() ?? "2025-11-25";
  console.log(
    `${label} (${protocol}): a success, not-found "${lost.message.slice(0, 50)}…", a bad argument and a declined write each reached the caller`,
  );
}

const demo = await startDemo(binary, WRITES);
try {
  for (const [name, c] of Object.entries(clients)) {
    for (const [transportName, transport] of [
      ["stdio", () => c.stdio()],
      ["Streamable HTTP", () => c.http(demo.url, demo.tokens.demo)],
    ]) {
      const questions = [];
      const client = c.make(questions);
      await client.connect(transport());
      try {
        await exercise(name, transportName, client, questions);
      } finally {
        await client.close();
      }
    }
  }
} catch (e) {
  fail(e.stack ?? String(e));
} finally {
  const code = await demo.stop();
  check(code === 0, `the HTTP demo exited ${code} on SIGTERM`);
}
console.log("OK");
