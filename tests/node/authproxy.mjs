// A loopback proxy that adds `Authorization: Bearer <token>` to every request and streams the answer
// back unbuffered (SSE included). The conformance suite sends no headers of its own, and every MCP
// request to `demo --http` needs a demo token. A `Host` or `Origin` that names the proxy itself is
// rewritten to the upstream address; any other value (`evil.example.com`, say) passes untouched, so
// the suite's DNS-rebinding scenario still tests the server's own Host and Origin checks.

import http from "node:http";

/** Starts the proxy on 127.0.0.1 (port 0: any free one); resolves to { url, close }. */
export function startProxy({ upstream, token, port = 0 }) {
  const up = new URL(upstream);
  const server = http.createServer((req, res) => {
    const self = `127.0.0.1:${server.address().port}`;
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (headers.host === self || headers.host === `localhost:${server.address().port}`) {
      headers.host = up.host;
    }
    if (headers.origin === `http://${self}` || headers.origin === `http://localhost:${server.address().port}`) {
      headers.origin = up.origin;
    }
    const forward = http.request(
      { host: up.hostname, port: up.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        answer.pipe(res);
      },
    );
    forward.on("error", (e) => {
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "text/plain" });
      }
      res.end(`proxy: ${e.message}`);
    });
    req.pipe(forward);
    res.on("close", () => forward.destroy());
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = `http://127.0.0.1:${server.address().port}`;
      resolve({
        url: `${address}${up.pathname}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
