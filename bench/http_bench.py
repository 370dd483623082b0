"""Benchmark: tool calls per second and p50/p99 latency over Streamable HTTP for 1, 16 and 64
people at once, for mattermost-mcp and for PyPI `mcp-server-mattermost` (cloud-ru-tech's server, in
its HTTP mode with per-request tokens: MATTERMOST_AUTH_MODE=client_token), in one run, on this
machine, against the same simulated workspace (`mattermost-mcp sim --people 64`); then the memory
(RSS) of each server after serving 64 people. Not a test: nothing here passes or fails.

Each person is one client with their own token that opens a 2025-11-25 session (both servers speak
it) and then calls, one call after another, for the duration: mattermost-mcp `read_channel`
{channel, limit: 20}, mcp-server-mattermost `get_channel_messages` {channel_id, per_page: 20}: one
page of the same channel, one Mattermost request each. Everything (simulator, servers, load) runs
on this machine, so the figures are this machine's, not the servers' alone.

Usage: bash bench/run.sh (builds the release binary, installs the other server in a venv, runs this).
"""

import argparse
import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time

import httpx

ACCEPT = "application/json, text/event-stream"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, proc, name, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"{name} exited with {proc.returncode} at start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"{name} did not listen on {port} within {timeout} s")


def rss_kib(pid):
    """VmRSS and VmHWM of a process and its children (the Python server may fork), in KiB."""
    pids = [pid]
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
        pids += [int(p) for p in out.split()]
    except OSError:
        pass
    rss = hwm = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1])
                    elif line.startswith("VmHWM:"):
                        hwm += int(line.split()[1])
        except OSError:
            pass
    return rss, hwm


def result_of(response):
    """The JSON-RPC message of a response, whether JSON or one SSE event."""
    text = response.text
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        for line in text.splitlines():
            if line.startswith("data:") and line[5:].strip():
                message = json.loads(line[5:])
                if "result" in message or "error" in message:
                    return message
        raise RuntimeError(f"no message in the event stream: {text[:200]}")
    return json.loads(text)


class Person:
    def __init__(self, url, token):
        self.url, self.token, self.session, self.next_id = url, token, None, 1
        self.http = httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=2))

    def headers(self):
        h = {"Authorization": f"Bearer {self.token}", "Accept": ACCEPT, "Content-Type": "application/json"}
        if self.session:
            h["Mcp-Session-Id"] = self.session
            h["MCP-Protocol-Version"] = "2025-11-25"
        return h

    async def send(self, method, params):
        self.next_id += 1
        body = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        r = await self.http.post(self.url, headers=self.headers(), json=body)
        if r.status_code != 200:
            raise RuntimeError(f"{method}: HTTP {r.status_code} {r.text[:300]}")
        return r, result_of(r)

    async def open(self):
        r, m = await self.send("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "http_bench", "version": "1"}})
        if "error" in m:
            raise RuntimeError(f"initialize: {m['error']}")
        self.session = r.headers.get("mcp-session-id")
        await self.http.post(self.url, headers=self.headers(),
                             json={"jsonrpc": "2.0", "method": "notifications/initialized"})

    async def call(self, tool, args):
        _, m = await self.send("tools/call", {"name": tool, "arguments": args})
        if "error" in m or m["result"].get("isError"):
            raise RuntimeError(f"{tool}: {json.dumps(m)[:300]}")


async def level(url, tokens, tool, args, people, seconds):
    persons = [Person(url, tokens[i]) for i in range(people)]
    await asyncio.gather(*(p.open() for p in persons))
    await asyncio.gather(*(p.call(tool, args) for p in persons))  # warm: the token check, first reads
    latencies, failures = [], 0
    stop = time.perf_counter() + seconds

    async def run(p):
        nonlocal failures
        while time.perf_counter() < stop:
            t = time.perf_counter()
            try:
                await p.call(tool, args)
                latencies.append(time.perf_counter() - t)
            except Exception as e:  # counted, reported
                failures += 1
                if failures <= 3:
                    print(f"  failure: {e}", file=sys.stderr)

    started = time.perf_counter()
    await asyncio.gather(*(run(p) for p in persons))
    elapsed = time.perf_counter() - started
    for p in persons:
        await p.http.aclose()
    latencies.sort()
    pct = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else float("nan")
    return {"calls": len(latencies), "per_s": len(latencies) / elapsed, "p50": pct(0.50), "p99": pct(0.99),
            "mean": statistics.fmean(latencies) * 1000 if latencies else float("nan"), "failures": failures}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/mattermost-mcp")
    ap.add_argument("--python-server", default="target/bench-venv/bin/mcp-server-mattermost")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--levels", default="1,16,64")
    a = ap.parse_args()
    levels = [int(x) for x in a.levels.split(",")]

    sim = subprocess.Popen([a.binary, "sim", "--people", str(max(levels))], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
    world = json.loads(sim.stdout.readline())
    tokens, channel = world["tokens"], world["channel"]
    procs = [sim]
    try:
        ours_port, theirs_port = free_port(), free_port()
        ours = subprocess.Popen(
            [a.binary, "serve", "--http", f"127.0.0.1:{ours_port}"],
            env={"PATH": os.environ.get("PATH", ""), "MATTERMOST_URL": world["url"], "MATTERMOST_MCP_LOG": "warn",
                 "MATTERMOST_MCP_PERSON_RATE": "1000000"},
            stderr=subprocess.DEVNULL)
        procs.append(ours)
        theirs = subprocess.Popen(
            [a.python_server, "--http", "--host", "127.0.0.1", "--port", str(theirs_port)],
            env={"PATH": os.environ.get("PATH", ""), "MATTERMOST_URL": world["url"],
                 "MATTERMOST_AUTH_MODE": "client_token", "MATTERMOST_LOG_LEVEL": "WARNING"},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(theirs)
        wait_listening(ours_port, ours, "mattermost-mcp")
        wait_listening(theirs_port, theirs, "mcp-server-mattermost")
        servers = [
            ("mattermost-mcp", ours, f"http://127.0.0.1:{ours_port}/mcp", "read_channel",
             {"channel": channel, "limit": 20}),
            ("mcp-server-mattermost 0.6.1", theirs, f"http://127.0.0.1:{theirs_port}/mcp", "get_channel_messages",
             {"channel_id": channel, "per_page": 20}),
        ]
        rows, memory = [], {}
        for name, proc, url, tool, args in servers:
            for n in levels:
                r = asyncio.run(level(url, tokens, tool, args, n, a.seconds))
                rows.append((name, n, r))
                print(f"{name:30} {n:3} people: {r['per_s']:8.1f} calls/s  p50 {r['p50']:7.1f} ms  "
                      f"p99 {r['p99']:7.1f} ms  ({r['calls']} calls, {r['failures']} failures)", file=sys.stderr)
            memory[name] = rss_kib(proc.pid)
        print(f"\n{os.cpu_count()} cores; {a.seconds:g} s per level; load, simulator and servers on this machine.\n")
        print("| server | people | calls/s | p50 ms | p99 ms | failures |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, n, r in rows:
            print(f"| {name} | {n} | {r['per_s']:.0f} | {r['p50']:.1f} | {r['p99']:.1f} | {r['failures']} |")
        print("\n| server | RSS after serving %d people | peak RSS |" % max(levels))
        print("|---|---:|---:|")
        for name, (rss, hwm) in memory.items():
            print(f"| {name} | {rss / 1024:.1f} MiB | {hwm / 1024:.1f} MiB |")
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


if __name__ == "__main__":
    main()
