// The official MCP conformance suite against `mattermost-mcp demo --http`, through the token proxy
// (authproxy.mjs): @modelcontextprotocol/conformance (the npm `latest`, every server scenario) and the
// published 0.2.0 prerelease, which has the 2026-07-28 scenarios (its `--suite all`, and exactly the
// scenarios each revision requires). Every check must pass except those listed, with their reasons,
// in conformance-expected.json; a failure not listed fails the run, and so does a listed check that
// no longer fails anywhere (the list must stay true). Prints a table of every scenario, and writes it
// to <out>/summary.md.
//
// Usage: node conformance.mjs path/to/mattermost-mcp <out-dir>

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startProxy } from "./authproxy.mjs";
import { fail, startDemo } from "./demo.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const [binary, out] = process.argv.slice(2);
if (!binary || !out) fail("usage: node conformance.mjs path/to/mattermost-mcp <out-dir>");

function suite(pkg) {
  const dir = path.join(here, "node_modules", pkg);
  const version = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version;
  return { entry: path.join(dir, "dist", "index.js"), version };
}
const latest = suite("@modelcontextprotocol/conformance");
const next = suite("conformance-next");
const runs = [
  { name: `${latest.version} --suite all`, suite: latest, args: ["--suite", "all"] },
  { name: `${next.version} --suite all`, suite: next, args: ["--suite", "all"] },
  { name: `${next.version} --requirements 2025-11-25`, suite: next, args: ["--requirements", "2025-11-25"] },
  { name: `${next.version} --requirements 2026-07-28`, suite: next, args: ["--requirements", "2026-07-28"] },
];

const expectedFile = JSON.parse(fs.readFileSync(path.join(here, "conformance-expected.json"), "utf8"));
const expected = new Map();
for (const group of expectedFile.groups) {
  for (const check of group.checks) expected.set(check, group.reason);
}

/** Runs the suite; resolves to { status, stdout, stderr } (killed after 10 minutes). */
function runSuite(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 600_000);
    child.on("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** The checks of a run's results folder: [{ scenario, id, status, message }]. */
function checksOf(dir) {
  const found = [];
  for (const entry of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, entry, "checks.json");
    if (!fs.existsSync(file)) continue;
    const scenario = entry.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
    for (const c of JSON.parse(fs.readFileSync(file, "utf8"))) {
      found.push({ scenario, id: c.id, status: c.status, message: c.errorMessage ?? "" });
    }
  }
  return found;
}

const demo = await startDemo(binary, { MATTERMOST_ALLOW_WRITES: "true" });
const proxy = await startProxy({ upstream: demo.url, token: demo.tokens.demo });
const results = [];
try {
  fs.rmSync(out, { recursive: true, force: true });
  for (const [i, run] of runs.entries()) {
    const dir = path.join(out, `run-${i}`);
    const started = Date.now();
    // The suite exits non-zero when any check fails; what failed is judged below. (Not spawnSync:
    // the proxy runs in this process and must go on answering.)
    const r = await runSuite(process.execPath, [
      run.suite.entry, "server", "--url", proxy.url, "-o", dir, ...run.args,
    ]);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "output.txt"), `${r.stdout ?? ""}\n${r.stderr ?? ""}`);
    const checks = checksOf(dir);
    if (checks.length === 0) {
      fail(`${run.name}: the suite wrote no results (exit ${r.status}): ${(r.stderr ?? "").slice(0, 2000)}`);
    }
    console.log(`${run.name}: ${new Set(checks.map((c) => c.scenario)).size} scenarios, ${checks.length} checks, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    results.push({ run, checks });
  }
} finally {
  await proxy.close();
  await demo.stop();
}

const failedSomewhere = new Set();
const seen = new Set();
const unexpected = [];
const warnings = [];
const scenarios = new Map(); // scenario -> run name -> { passed, failed: [], expected: Set, skipped }
for (const { run, checks } of results) {
  for (const c of checks) {
    const key = `${c.scenario}/${c.id}`;
    seen.add(key);
    const row = scenarios.get(c.scenario) ?? new Map();
    scenarios.set(c.scenario, row);
    const cell = row.get(run.name) ?? { passed: 0, skipped: 0, expected: new Set(), failed: [] };
    row.set(run.name, cell);
    if (c.status === "SUCCESS") cell.passed += 1;
    else if (c.status === "SKIPPED") cell.skipped += 1;
    else if (c.status === "FAILURE" || c.status === "WARNING") {
      failedSomewhere.add(key);
      if (expected.has(key)) cell.expected.add(expected.get(key));
      else if (c.status === "WARNING") warnings.push(`${run.name}: ${key}: ${c.message}`);
      else {
        cell.failed.push(key);
        unexpected.push(`${run.name}: ${key}: ${c.message}`);
      }
    }
  }
}
const stale = [...expected.keys()].filter((k) => !failedSomewhere.has(k));

const lines = [
  `Conformance suite: @modelcontextprotocol/conformance ${latest.version} and ${next.version}, against mattermost-mcp demo --http.`,
  "",
  `| scenario | ${runs.map((r) => r.name).join(" | ")} |`,
  `|---|${runs.map(() => "---").join("|")}|`,
];
const reasonsUsed = [];
const short = (reason) => {
  let n = reasonsUsed.indexOf(reason);
  if (n < 0) n = reasonsUsed.push(reason) - 1;
  return `n/a [${n + 1}]`;
};
for (const [scenario, row] of [...scenarios.entries()].sort()) {
  const cells = runs.map((r) => {
    const cell = row.get(r.name);
    if (!cell) return "";
    if (cell.failed.length) return `**FAIL** (${cell.failed.length})`;
    if (cell.expected.size) return [...cell.expected].map(short).join(", ") + ` (${cell.passed} passed)`;
    return `pass (${cell.passed}${cell.skipped ? `, ${cell.skipped} skipped` : ""})`;
  });
  lines.push(`| ${scenario} | ${cells.join(" | ")} |`);
}
lines.push("", "Not applicable, why:");
reasonsUsed.forEach((r, i) => lines.push(`[${i + 1}] ${r}`));
const summary = lines.join("\n");
fs.writeFileSync(path.join(out, "summary.md"), `${summary}\n`);
console.log(`\n${summary}\n`);

for (const w of warnings) console.log(`warning (not listed, not failed): ${w}`);
if (unexpected.length || stale.length) {
  for (const u of unexpected) console.log(`NEW FAILURE: ${u}`);
  for (const s of stale) {
    console.log(
      `NOW PASSES (or no longer runs): ${s} is listed in conformance-expected.json as expected to fail; remove it.`,
    );
  }
  fail(`${unexpected.length} new failure(s), ${stale.length} listed check(s) that no longer fail`);
}
const total = results.reduce((n, r) => n + r.checks.length, 0);
console.log(`OK: ${total} checks in ${runs.length} runs; every failure is a listed one (${expected.size} listed).`);
