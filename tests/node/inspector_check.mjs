// The MCP Inspector's CLI (@modelcontextprotocol/inspector, `--cli`) against `mattermost-mcp demo`:
// over stdio, and over Streamable HTTP with a demo token in both protocol eras (legacy: initialize and
// a session; modern: 2026-07-28). Each lists the tools (with --strict, its schema-portability lint)
// and calls one that succeeds and one that fails; the failure's result must reach the caller with our
// error in its text (the Inspector exits 5, "tool returned isError", and prints the result), not the
// schema-validation error it gave for the old error shape.
//
// Usage: node inspector_check.mjs path/to/mattermost-mcp

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { check, fail, startDemo } from "./demo.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const binary = process.argv[2];
if (!binary) fail("usage: node inspector_check.mjs path/to/mattermost-mcp");
const pkg = path.join(here, "node_modules", "@modelcontextprotocol", "inspector");
const version = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8")).version;
const cli = path.join(pkg, "clients", "launcher", "build", "index.js");

/** Runs the Inspector CLI; resolves to { code, stdout, stderr }. */
function inspector(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, "--cli", "--format", "json", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      // Its catalog beside this file (not in ~), and no OS keychain to look for.
      env: {
        ...process.env,
        MCP_CATALOG_PATH: path.join(here, "inspector-catalog.json"),
        MCP_INSPECTOR_SECRET_STORE: "memory",
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function json(label, r) {
  try {
    return JSON.parse(r.stdout);
  } catch {
    return fail(`${label}: not JSON (exit ${r.code}): ${r.stdout.slice(0, 500)} ${r.stderr.slice(0, 500)}`);
  }
}

async function exercise(label, target) {
  const listed = await inspector(["--strict", "--method", "tools/list", ...target]);
  check(listed.code === 0, `${label}: tools/list exit ${listed.code}: ${listed.stderr.slice(0, 1000)}`);
  const tools = json(label, listed).result?.tools ?? [];
  check(tools.length >= 20 && tools.some((t) => t.name === "get_me"), `${label}: ${tools.length} tools listed`);

  const me = await inspector(["--method", "tools/call", "--tool-name", "get_me", ...target]);
  check(me.code === 0, `${label}: get_me exit ${me.code}: ${me.stdout.slice(0, 500)} ${me.stderr.slice(0, 500)}`);
  const who = JSON.parse(json(label, me).result.content[0].text);
  check(who.username === "demo", `${label}: get_me says ${who.username}`);

  const lost = await inspector([
    "--method", "tools/call", "--tool-name", "get_channel", "--tool-arg", "channel=no-such-channel-zz", ...target,
  ]);
  // 5: the tool answered isError:true; the result is on stdout.
  check(lost.code === 5, `${label}: get_channel exit ${lost.code}: ${lost.stdout.slice(0, 500)} ${lost.stderr.slice(0, 500)}`);
  const result = json(label, lost).result;
  check(result?.isError === true && result.structuredContent === undefined, `${label}: ${lost.stdout.slice(0, 500)}`);
  const error = JSON.parse(result.content[0].text).error;
  check(error.kind === "not_found" && error.message.includes("no-such-channel-zz"), `${label}: ${JSON.stringify(error)}`);
  console.log(`Inspector ${version} CLI, ${label}: ${tools.length} tools (--strict: no error-severity finding), get_me as @demo, the not-found error read`);
}

// Over stdio every tool is listed (every toolset, writes allowed), so the strict lint sees them all.
await exercise("stdio, every toolset", [
  "-e", "MATTERMOST_MCP_LOG=warn", "-e", "MATTERMOST_TOOLSETS=all", "-e", "MATTERMOST_ALLOW_WRITES=true",
  binary, "demo",
]);
const demo = await startDemo(binary);
try {
  for (const era of ["legacy", "modern"]) {
    await exercise(`Streamable HTTP, --protocol-era ${era}`, [
      // --server-url, not a positional URL: --header takes every argument after it.
      "--protocol-era", era, "--server-url", demo.url, "--header", `Authorization: Bearer ${demo.tokens.demo}`,
    ]);
  }
} finally {
  const code = await demo.stop();
  check(code === 0, `the HTTP demo exited ${code} on SIGTERM`);
}
console.log("OK");
