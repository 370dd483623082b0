// The Claude Desktop bundle, checked by the bundle format's own tool (@anthropic-ai/mcpb, the exact
// version of package-lock.json): `mattermost-mcp bundle` writes the .mcpb, `mcpb unpack` unpacks it,
// `mcpb validate` validates its manifest.json (the schema of its manifest_version, and the icon a
// PNG), and the manifest's command, with ${__dirname} and the person's settings substituted as
// Claude Desktop does, is started by the TypeScript SDK's stdio client against the simulator
// (`mattermost-mcp sim`): it must answer initialize as mattermost-mcp and list its tools.
//
// Usage: node bundle_check.mjs path/to/mattermost-mcp WORKDIR

import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { check, fail } from "./demo.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const [binary, work] = process.argv.slice(2);
if (!binary || !work) fail("usage: node bundle_check.mjs path/to/mattermost-mcp WORKDIR");
const mcpb = path.join(here, "node_modules", "@anthropic-ai", "mcpb", "dist", "cli", "cli.js");
const mcpbVersion = JSON.parse(
  fs.readFileSync(path.join(here, "node_modules", "@anthropic-ai", "mcpb", "package.json"), "utf8"),
).version;

fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
const bundle = execFileSync(binary, ["bundle", "--output", work], {
  env: { PATH: process.env.PATH ?? "", MATTERMOST_MCP_LOG: "warn" },
})
  .toString()
  .trim();
const size = fs.statSync(bundle).size;
console.log(`bundle: ${path.basename(bundle)}, ${(size / 1e6).toFixed(1)} MB`);

const unpacked = path.join(work, "unpacked");
execFileSync(process.execPath, [mcpb, "unpack", bundle, unpacked], { stdio: "inherit" });
let validated;
try {
  validated = execFileSync(process.execPath, [mcpb, "validate", path.join(unpacked, "manifest.json")]).toString();
} catch (e) {
  fail(`mcpb ${mcpbVersion} validate refused the manifest:\n${e.stdout}${e.stderr}`);
}
check(validated.includes("Manifest schema validation passes"), `mcpb validate said: ${validated}`);
console.log(`mcpb ${mcpbVersion} validate: manifest and icon pass`);

// A simulated Mattermost with one more person, for the settings Claude Desktop would ask for.
const sim = spawn(binary, ["sim", "--people", "1"], { stdio: ["ignore", "pipe", "ignore"] });
process.on("exit", () => sim.kill("SIGKILL"));
const world = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error("the simulator did not start within 60 s")), 60_000);
  createInterface({ input: sim.stdout }).once("line", (line) => {
    clearTimeout(timer);
    resolve(JSON.parse(line));
  });
});

const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, "manifest.json"), "utf8"));
const person = { mattermost_url: world.url, mattermost_token: world.tokens[0], allow_writes: "false" };
const fill = (s) =>
  s.replaceAll("${__dirname}", unpacked).replace(/\$\{user_config\.(\w+)\}/g, (_, k) => person[k] ?? "");
const config = manifest.server.mcp_config;
const env = { PATH: process.env.PATH ?? "", MATTERMOST_MCP_LOG: "warn" };
for (const [k, v] of Object.entries(config.env ?? {})) env[k] = fill(v);
check(
  manifest.user_config.mattermost_token.sensitive === true,
  "the token setting is marked sensitive",
);

const client = new Client({ name: "bundle-check", version: "1" });
await client.connect(
  new StdioClientTransport({ command: fill(config.command), args: (config.args ?? []).map(fill), env }),
);
const me = client.getServerVersion();
check(me?.name === "mattermost-mcp", `the unpacked server answers initialize as mattermost-mcp: ${JSON.stringify(me)}`);
check(Array.isArray(me.icons) && me.icons.length > 0, "initialize gives icons");
const { tools } = await client.listTools();
check(tools.some((t) => t.name === "read_channel"), "the unpacked server lists read_channel");
await client.close();
sim.kill("SIGTERM");
console.log(`the unpacked server answered initialize (${me.title} ${me.version}) and listed ${tools.length} tools`);
