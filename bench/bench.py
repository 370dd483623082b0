"""The HTTP benchmark: tool calls per second and p50/p99 latency over Streamable HTTP at 1, 16 and 64
people at once, with the CPU time each process spent per call (the server, the simulated Mattermost,
the load generator), then the instructions the server executes per call, counted by valgrind's
callgrind (the same count on a noisy machine). Not a test: nothing here passes or fails.

The load generator is wrk (C; bench/mcp.lua builds each person's request once): one wrk thread and
one connection per person, each with their own token, calling `read_channel {channel, limit: 20}`
one call after another, each call one Mattermost request. `stateless` calls are self-contained
2026-07-28 requests; `session` calls are 2025-11-25 requests within the session each person opens
first. The simulated Mattermost (`mattermost-mcp sim --people 64`) and the server run as separate
processes on this machine, so each one's CPU time is read from /proc.

With --against BINARY, an older build of mattermost-mcp is measured the same way in the same run
(side by side); with --peer PATH, PyPI's mcp-server-mattermost (its HTTP mode with per-request
tokens, get_channel_messages per_page 20, session mode only: it has no stateless mode).

Usage: bash bench/run.sh [--against REV] (builds the release binaries, installs wrk, valgrind and the
peer, runs this).
"""

import argparse
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
TICK = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, proc, name, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"{name} exited with {proc.returncode} at start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"{name} did not listen on {port} within {timeout} s")


def family(pid):
    """A process and its children (the Python peer may fork)."""
    pids = [pid]
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return pids + [int(p) for p in out.split()]


def cpu_seconds(pid):
    """User + system CPU seconds of a process and its children so far."""
    total = 0
    for p in family(pid):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except OSError:
            pass
    return total / TICK


def rss_mib(pid):
    total = 0
    for p in family(pid):
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def post(url, token, body, headers):
    h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
         "Authorization": f"Bearer {token}", **headers}
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=h, method="POST")
    with urllib.request.urlopen(req, timeout=120) as r:
        text = r.read().decode()
        if r.headers.get("content-type", "").startswith("text/event-stream"):
            for line in text.splitlines():
                if line.startswith("data:") and line[5:].strip():
                    m = json.loads(line[5:])
                    if "result" in m or "error" in m:
                        return r.headers, m
            raise RuntimeError(f"no message in the event stream: {text[:200]}")
        return r.headers, json.loads(text) if text.strip() else {}


def check_call(url, token, tool, args, mode):
    """One call as a person, before a run: it must succeed (this also warms the token check)."""
    if mode == "stateless":
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {}}
        _, m = post(url, token, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": tool, "arguments": args, "_meta": meta}},
                    {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool})
    else:
        h, m = post(url, token, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}, {})
        session = {"Mcp-Session-Id": h.get("mcp-session-id"), "MCP-Protocol-Version": "2025-11-25"}
        post(url, token, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
        _, m = post(url, token, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": tool, "arguments": args}}, session)
    if "error" in m or m.get("result", {}).get("isError"):
        raise RuntimeError(f"{tool} as a bench person: {json.dumps(m)[:400]}")


def wrk(url, tokens_file, people, tool, args, mode, seconds=None, calls=None):
    """Runs wrk; its summary (bench/mcp.lua's `done`) and its own CPU seconds."""
    stopped = None
    cmd = ["wrk", "-t", str(people), "-c", str(people), "--timeout", "300s",
           "-d", f"{int(seconds) if seconds else 3600}s", "-s", os.path.join(HERE, "mcp.lua"), url,
           "--", tokens_file, tool, json.dumps(args, separators=(",", ":")), mode, str(calls or 0)]
    if calls:
        # wrk waits out -d even when every thread has made its calls: each thread writes a line here
        # when it stops, and wrk is interrupted (it then prints its summary) once all have.
        stopped = tempfile.NamedTemporaryFile("w", suffix=".stopped", delete=False)
        stopped.close()
        cmd.append(stopped.name)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if stopped:
        while proc.poll() is None:
            with open(stopped.name) as fh:
                if sum(1 for _ in fh) >= people:
                    proc.send_signal(signal.SIGINT)
                    break
            time.sleep(0.5)
    out, err = proc.communicate()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if stopped:
        os.unlink(stopped.name)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = None
    for line in out.splitlines():
        if line.startswith("{"):
            summary = json.loads(line)
    if summary is None:
        sys.exit(f"wrk said nothing we can read:\n{out}\n{err}")
    return summary, cpu


class Run:
    """One server under test with its own simulated Mattermost."""

    def __init__(self, name, argv, env, tool, args, people, sim, wrap=None):
        self.name, self.tool, self.args = name, tool, args
        self.sim = subprocess.Popen([sim, "sim", "--people", str(people)], stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True)
        world = json.loads(self.sim.stdout.readline())
        self.tokens, channel = world["tokens"], world["channel"]
        self.args = {k: (channel if v == "{channel}" else v) for k, v in args.items()}
        self.port = free_port()
        full_env = {"PATH": os.environ.get("PATH", ""), "MATTERMOST_URL": world["url"], **env}
        argv = [a.replace("{port}", str(self.port)) for a in argv]
        self.proc = subprocess.Popen((wrap or []) + argv, env=full_env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        wait_listening(self.port, self.proc, name)
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.tokens_file = tempfile.NamedTemporaryFile("w", suffix=".tokens", delete=False)
        self.tokens_file.write("\n".join(self.tokens) + "\n")
        self.tokens_file.close()

    def stop(self):
        for p in (self.proc, self.sim):
            p.terminate()
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
        os.unlink(self.tokens_file.name)

    def level(self, people, mode, seconds):
        for t in self.tokens[:people]:
            check_call(self.url, t, self.tool, self.args, mode)
        s0, m0 = cpu_seconds(self.proc.pid), cpu_seconds(self.sim.pid)
        summary, load = wrk(self.url, self.tokens_file.name, people, self.tool, self.args, mode, seconds=seconds)
        s1, m1 = cpu_seconds(self.proc.pid), cpu_seconds(self.sim.pid)
        n = max(summary["requests"], 1)
        return {
            "calls": summary["requests"],
            "per_s": summary["requests"] / (summary["duration_us"] / 1e6),
            "p50": summary["p50_us"] / 1000, "p99": summary["p99_us"] / 1000,
            "errors": sum(summary[k] for k in summary if k.startswith("errors_")),
            "server_ms": (s1 - s0) * 1000 / n, "sim_ms": (m1 - m0) * 1000 / n, "load_ms": load * 1000 / n,
        }


READ = {"channel": "{channel}", "limit": 20}


def callgrind_count(name, binary, people, calls, out_dir, args=READ):
    """Instructions the server executes per read_channel call with `args` at `people` people, `calls`
    calls each. Every person first makes one uncounted call of a one-post page (token checks and
    caches), so `args` may also be ones the tool refuses."""
    env = {"MATTERMOST_MCP_LOG": "warn", "MATTERMOST_MCP_PERSON_RATE": "1000000"}
    prefix = os.path.join(out_dir, f"callgrind.{re.sub('[^a-z0-9]+', '-', name.lower())}")
    wrap = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={prefix}.%p"]
    run = Run(name, [binary, "serve", "--http", "127.0.0.1:{port}"], env, "read_channel", args, people,
              binary, wrap=wrap)
    warm = {"channel": run.args["channel"], "limit": 1}
    try:
        for t in run.tokens[:people]:
            check_call(run.url, t, run.tool, warm, "stateless")  # token checks and caches, uncounted
        pid = str(run.proc.pid)
        subprocess.run(["callgrind_control", "--instr=on", pid], check=True, capture_output=True)
        summary, _ = wrk(run.url, run.tokens_file.name, people, run.tool, run.args, "stateless", calls=calls)
        subprocess.run(["callgrind_control", "--dump=bench", pid], check=True, capture_output=True)
        subprocess.run(["callgrind_control", "--instr=off", pid], check=True, capture_output=True)
        dumps = [f for f in os.listdir(out_dir) if f.startswith(os.path.basename(prefix) + f".{pid}.")]
        total = 0
        for f in dumps:
            with open(os.path.join(out_dir, f)) as fh:
                for line in fh:
                    if line.startswith("summary:") or line.startswith("totals:"):
                        total = max(total, int(line.split()[1]))
        return {"calls": summary["requests"], "instructions": total,
                "per_call": total / max(summary["requests"], 1), "profile": prefix + f".{pid}.1"}
    finally:
        run.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/mattermost-mcp")
    ap.add_argument("--against", help="an older mattermost-mcp binary, measured side by side")
    ap.add_argument("--against-name", default="before")
    ap.add_argument("--peer", help="PyPI mcp-server-mattermost's command")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--levels", default="1,16,64")
    ap.add_argument("--modes", default="stateless,session")
    ap.add_argument("--callgrind-calls", type=int, default=10,
                    help="calls per person under callgrind at 64 people (0: skip the count)")
    ap.add_argument("--profiles", default="target/bench-profiles", help="where callgrind's files go")
    a = ap.parse_args()
    levels = [int(x) for x in a.levels.split(",")]
    modes = a.modes.split(",")
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (Debian: apt-get install wrk); bench/run.sh installs it")

    ours = [("mattermost-mcp", a.binary)] + ([(f"mattermost-mcp ({a.against_name})", a.against)] if a.against else [])
    rows = []
    env = {"MATTERMOST_MCP_LOG": "warn", "MATTERMOST_MCP_PERSON_RATE": "1000000"}
    for name, binary in ours:
        run = Run(name, [binary, "serve", "--http", "127.0.0.1:{port}"], env, "read_channel",
                  {"channel": "{channel}", "limit": 20}, max(levels), a.binary)
        try:
            for mode in modes:
                for n in levels:
                    r = run.level(n, mode, a.seconds)
                    rows.append((name, mode, n, r))
                    print(f"{name:32} {mode:9} {n:3} people: {r['per_s']:7.0f} calls/s  p50 {r['p50']:6.1f} ms  "
                          f"p99 {r['p99']:6.1f} ms  server {r['server_ms']:.3f} ms/call  sim {r['sim_ms']:.3f}  "
                          f"wrk {r['load_ms']:.3f}  ({r['calls']} calls, {r['errors']} errors)", file=sys.stderr)
            rss = rss_mib(run.proc.pid)
            rows.append((name, "rss", 0, rss))
        finally:
            run.stop()
    if a.peer:
        name = "mcp-server-mattermost 0.6.1"
        peer_env = {"MATTERMOST_AUTH_MODE": "client_token", "MATTERMOST_LOG_LEVEL": "WARNING"}
        run = Run(name, [a.peer, "--http", "--host", "127.0.0.1", "--port", "{port}"], peer_env,
                  "get_channel_messages", {"channel_id": "{channel}", "per_page": 20}, max(levels), a.binary)
        try:
            for n in levels:
                r = run.level(n, "session", a.seconds)
                rows.append((name, "session", n, r))
                print(f"{name:32} session   {n:3} people: {r['per_s']:7.0f} calls/s  p50 {r['p50']:6.1f} ms  "
                      f"p99 {r['p99']:6.1f} ms  server {r['server_ms']:.3f} ms/call  sim {r['sim_ms']:.3f}  "
                      f"wrk {r['load_ms']:.3f}  ({r['calls']} calls, {r['errors']} errors)", file=sys.stderr)
            rows.append((name, "rss", 0, rss_mib(run.proc.pid)))
        finally:
            run.stop()

    counts, parts = [], []
    if a.callgrind_calls and shutil.which("valgrind"):
        os.makedirs(a.profiles, exist_ok=True)
        profiles = os.path.abspath(a.profiles)
        for name, binary in ours:
            c = callgrind_count(name, binary, max(levels), a.callgrind_calls, profiles)
            counts.append((name, c))
            print(f"{name:32} callgrind: {c['per_call'] / 1e6:.3f} M instructions per call "
                  f"({c['calls']} calls at {max(levels)} people; {c['profile']})", file=sys.stderr)
        # This build's call taken apart: a call refused before any request to Mattermost (what every
        # tool call costs in HTTP, MCP and the tool's dispatch), a one-post page (one Mattermost request
        # more, 2 posts read, 1 shown), and what each further post adds (the 20-post page reads 21).
        refused = callgrind_count("refused", a.binary, max(levels), a.callgrind_calls, profiles,
                                  {"channel": "{channel}", "limit": -5})
        one = callgrind_count("one post", a.binary, max(levels), a.callgrind_calls, profiles,
                              {"channel": "{channel}", "limit": 1})
        full = counts[0][1]["per_call"]
        parts = [("a call refused before any request to Mattermost", refused["per_call"]),
                 ("a page of one post (one request, 2 posts read)", one["per_call"]),
                 ("each further post read and shown", (full - one["per_call"]) / 19),
                 ("a page of 20 posts (21 read)", full)]
        for what, n in parts:
            print(f"{'parts':32} {what}: {n / 1e6:.3f} M instructions per call", file=sys.stderr)

    print(f"\n{os.cpu_count()} cores; {a.seconds:g} s per level; wrk, the simulator and the server on this machine.\n")
    print("| server | calls | people | calls/s | p50 ms | p99 ms | errors | server CPU ms/call | simulator CPU ms/call | wrk CPU ms/call |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, mode, n, r in rows:
        if mode == "rss":
            continue
        print(f"| {name} | {mode} | {n} | {r['per_s']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} | {r['errors']} | "
              f"{r['server_ms']:.3f} | {r['sim_ms']:.3f} | {r['load_ms']:.3f} |")
    print("\n| server | RSS after the run |\n|---|---:|")
    for name, mode, n, r in rows:
        if mode == "rss":
            print(f"| {name} | {r:.1f} MiB |")
    if counts:
        print(f"\n| server | instructions per read_channel call, {max(levels)} people (callgrind) | calls counted |")
        print("|---|---:|---:|")
        for name, c in counts:
            print(f"| {name} | {c['per_call'] / 1e6:.2f} million | {c['calls']} |")
    if parts:
        print(f"\n| this build's read_channel call, taken apart | instructions |\n|---|---:|")
        for what, n in parts:
            print(f"| {what} | {n / 1e6:.3f} million |")


if __name__ == "__main__":
    main()
