// Starting `mattermost-mcp demo --http 127.0.0.1:0` for the Node checks, as tests/python/http_check.py
// does: its start log names the demo tokens ("Bearer <token>` (user @demo)") and the address clients
// connect to ("clients connect to http://127.0.0.1:PORT/mcp").

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** Fails the check: prints why and exits 1. */
export function fail(message) {
  console.log(`FAIL: ${message}`);
  process.exit(1);
}

/** Asserts `ok`, or fails with `message`. */
export function check(ok, message) {
  if (!ok) fail(message);
}

/** The environment a demo runs with: PATH, a quiet log, and `env`. */
export function demoEnv(env = {}) {
  return { PATH: process.env.PATH ?? "", MATTERMOST_MCP_LOG: "info", ...env };
}

/**
 * Starts the demo over HTTP; resolves to { url, tokens: {demo, alice}, stop }. `stop` sends SIGTERM
 * and resolves to the exit code.
 */
export function startDemo(binary, env = {}) {
  const child = spawn(binary, ["demo", "--http", "127.0.0.1:0"], {
    env: demoEnv(env),
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)));
  // A check that fails exits at once (fail() calls process.exit): the demo must not outlive it.
  const orphaned = () => child.kill("SIGKILL");
  process.on("exit", orphaned);
  const stop = async () => {
    process.off("exit", orphaned);
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const tokens = {};
    let found = false;
    const lines = createInterface({ input: child.stderr });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("the demo did not start within 60 s"));
    }, 60_000);
    lines.on("line", (line) => {
      if (process.env.DEMO_LOG) console.error(line);
      if (found) return; // keep reading, so the server never waits on a full pipe
      for (const m of line.matchAll(/Bearer ([a-z0-9]+)`? \(user @(\w+)\)/g)) {
        tokens[m[2]] = m[1];
      }
      const url = line.match(/clients connect to (http:\/\/[0-9.:]+\/mcp)/);
      if (url) {
        found = true;
        clearTimeout(timer);
        if (!tokens.demo || !tokens.alice) {
          child.kill("SIGKILL");
          reject(new Error(`the demo printed no tokens for @demo and @alice: ${JSON.stringify(tokens)}`));
          return;
        }
        resolve({ url: url[1], tokens, stop });
      }
    });
    child.on("exit", (code) => {
      if (!found) {
        clearTimeout(timer);
        reject(new Error(`the demo exited ${code} before it served`));
      }
    });
  });
}
