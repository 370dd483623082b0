//! The HTTP test harness: the built `mattermost-mcp serve --http` as a child process against a
//! simulated Mattermost, driven by rmcp's Streamable HTTP client in either protocol generation
//! (2025-11-25 with `initialize` and `Mcp-Session-Id`, or stateless 2026-07-28 with
//! `server/discover`), or by plain HTTP requests where a test needs the status and headers.

use crate::harness::{BIN, check_envelope, obj};
use rmcp::model::{CallToolRequestParams, CallToolResult, ProtocolVersion};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};

/// A running `mattermost-mcp serve --http`.
pub struct Instance {
    pub child: tokio::process::Child,
    pub port: u16,
    log: Arc<Mutex<String>>,
}

/// Starts `serve --http 127.0.0.1:0` against `mattermost`, with nothing from the environment but
/// `env`, and waits until it listens.
pub async fn spawn(mattermost: &str, env: &[(&str, &str)], args: &[&str]) -> Instance {
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.arg("serve").arg("--http").arg("127.0.0.1:0").args(args);
    spawn_cmd(cmd, mattermost, env).await
}

/// Like [`spawn`], with the process's open-file limit (soft and hard) set to `nofile` by the shell
/// that starts it, as a small service limit would.
pub async fn spawn_with_nofile(mattermost: &str, env: &[(&str, &str)], nofile: u32) -> Instance {
    let mut cmd = tokio::process::Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(format!("ulimit -n {nofile} && exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(["serve", "--http", "127.0.0.1:0"]);
    spawn_cmd(cmd, mattermost, env).await
}

async fn spawn_cmd(
    mut cmd: tokio::process::Command,
    mattermost: &str,
    env: &[(&str, &str)],
) -> Instance {
    cmd.env_clear()
        .env("MATTERMOST_URL", mattermost)
        .env("MATTERMOST_MCP_LOG", "debug");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = cmd.spawn().expect("spawn the server");
    let stderr = child.stderr.take().expect("stderr");
    let log = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = tokio::sync::oneshot::channel::<u16>();
    let sink = log.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(stderr).lines();
        let mut tx = Some(tx);
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(rest) = line.split("serving MCP over HTTP on ").nth(1) {
                let port = rest
                    .split_whitespace()
                    .next()
                    .and_then(|a| a.rsplit(':').next())
                    .and_then(|p| p.parse().ok());
                if let (Some(port), Some(tx)) = (port, tx.take()) {
                    let _ = tx.send(port);
                }
            }
            if let Ok(mut s) = sink.lock() {
                s.push_str(&line);
                s.push('\n');
            }
        }
    });
    let port = match tokio::time::timeout(Duration::from_secs(30), rx).await {
        Ok(Ok(port)) => port,
        _ => panic!(
            "the server did not start listening: {}",
            log.lock().map(|s| s.clone()).unwrap_or_default()
        ),
    };
    Instance { child, port, log }
}

/// Starts the server and expects it to stop at start with an error; returns its exit code and log.
pub async fn refuses_to_start(env: &[(&str, &str)], args: &[&str]) -> (Option<i32>, String) {
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.arg("serve").args(args).env_clear();
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = tokio::time::timeout(Duration::from_secs(30), cmd.output())
        .await
        .expect("the server stops by itself")
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

impl Instance {
    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The MCP endpoint.
    pub fn endpoint(&self) -> String {
        format!("{}/mcp", self.base())
    }

    /// Everything the server logged so far.
    pub fn log(&self) -> String {
        self.log.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Sends SIGTERM.
    pub fn terminate(&self) {
        if let Some(pid) = self.child.id() {
            let _ = std::process::Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status();
        }
    }

    /// Waits for the process to end; its exit code.
    pub async fn exit_code(&mut self, within: Duration) -> Option<i32> {
        tokio::time::timeout(within, self.child.wait())
            .await
            .expect("the server stops in time")
            .ok()
            .and_then(|s| s.code())
    }
}

/// Which protocol generation a client speaks.
#[derive(Clone, Copy, Debug)]
pub enum Generation {
    /// 2025-11-25: `initialize`, then `Mcp-Session-Id` on every request.
    Sessions,
    /// 2026-07-28: `server/discover`, no session, every request self-contained.
    Stateless,
}

/// rmcp's client over Streamable HTTP.
pub struct Client {
    pub service: RunningService<RoleClient, ()>,
}

/// Connects rmcp's client to `endpoint` with `token` as the bearer.
pub async fn connect(endpoint: &str, token: &str, generation: Generation) -> Client {
    let config =
        StreamableHttpClientTransportConfig::with_uri(endpoint.to_string()).auth_header(token);
    mattermost_client::tls::install();
    let transport = StreamableHttpClientTransport::from_config(config);
    let service = match generation {
        Generation::Sessions => ().serve(transport).await,
        Generation::Stateless => {
            ().serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
        }
    }
    .unwrap_or_else(|e| panic!("the {generation:?} client connects to {endpoint}: {e}"));
    Client { service }
}

impl Client {
    /// The protocol version the client and server agreed on.
    pub fn protocol(&self) -> Option<String> {
        self.service
            .peer_info()
            .map(|i| i.protocol_version.as_str().to_string())
    }

    pub async fn call(&self, tool: &str, args: Value) -> CallToolResult {
        self.try_call(tool, args)
            .await
            .unwrap_or_else(|e| panic!("{tool}: protocol error {e}"))
    }

    /// A call whose request may fail on its way (the client's error, as text), for a test that kills
    /// an instance while a client talks to it.
    pub async fn try_call(&self, tool: &str, args: Value) -> Result<CallToolResult, String> {
        self.service
            .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(obj(args)))
            .await
            .map_err(|e| e.to_string())
    }

    /// The structured answer of a call that must succeed.
    pub async fn ok(&self, tool: &str, args: Value) -> Value {
        let r = self.call(tool, args.clone()).await;
        succeeded(tool, &args, r)
    }

    /// The error of a call that must be refused.
    pub async fn refused(&self, tool: &str, args: Value) -> Value {
        let r = self.call(tool, args.clone()).await;
        assert_eq!(r.is_error, Some(true), "{tool} {args} should be refused");
        crate::harness::error_of(&r)
    }

    /// Every page of a list, following next_cursor.
    pub async fn pages(&self, tool: &str, args: Value) -> Vec<Value> {
        let mut pages = Vec::new();
        let mut args = obj(args);
        loop {
            let page = self.ok(tool, Value::Object(args.clone())).await;
            check_envelope(&page);
            let next = page["next_cursor"].as_str().map(str::to_string);
            pages.push(page);
            match next {
                Some(c) => {
                    args.insert("cursor".into(), json!(c));
                }
                None => return pages,
            }
            assert!(pages.len() < 5_000, "{tool} does not reach its end");
        }
    }
}

/// The ids of items.
pub fn item_ids(pages: &[Value]) -> Vec<String> {
    pages
        .iter()
        .flat_map(|p| p["items"].as_array().cloned().unwrap_or_default())
        .map(|i| i["id"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A plain HTTP client (no proxy, short timeouts).
pub fn http() -> reqwest::Client {
    mattermost_client::tls::install();
    reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(60))
        .build()
        .expect("an HTTP client")
}

/// The headers and body of a self-contained 2026-07-28 request.
pub fn stateless_request(
    method: &str,
    params: Value,
    id: u64,
) -> (Vec<(&'static str, String)>, Value) {
    let mut params = obj(params);
    params.insert(
        "_meta".into(),
        json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "mattermost-mcp-tests", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}
        }),
    );
    let mut headers = vec![
        ("MCP-Protocol-Version", "2026-07-28".to_string()),
        ("Mcp-Method", method.to_string()),
        ("Accept", "application/json, text/event-stream".to_string()),
        ("Content-Type", "application/json".to_string()),
    ];
    if let Some(name) = params.get("name").and_then(Value::as_str) {
        headers.push(("Mcp-Name", name.to_string()));
    }
    (
        headers,
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
    )
}

/// What a plain HTTP request got back.
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|_| panic!("a JSON body, got {} {:?}", self.status, self.body))
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    }
}

/// A stateless 2026-07-28 tools/call sent as plain HTTP, with `token` (if any) and `extra` headers.
pub async fn raw_call(
    endpoint: &str,
    token: Option<&str>,
    tool: &str,
    args: Value,
    extra: &[(&str, &str)],
) -> Answer {
    let (headers, body) =
        stateless_request("tools/call", json!({"name": tool, "arguments": args}), 1);
    let mut req = http().post(endpoint).body(body.to_string());
    for (k, v) in headers {
        req = req.header(k, v);
    }
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    for (k, v) in extra {
        req = req.header(*k, *v);
    }
    send(req).await
}

/// Sends a request; its status, headers and body.
pub async fn send(req: reqwest::RequestBuilder) -> Answer {
    let r = req.send().await.expect("the request is answered");
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let body = r.text().await.unwrap_or_default();
    Answer {
        status,
        headers,
        body,
    }
}

/// The result of a stateless tools/call answered 200.
pub fn tool_result(answer: &Answer) -> Value {
    assert_eq!(answer.status, 200, "{}", answer.body);
    let v = answer.json();
    assert!(v.get("error").is_none(), "a JSON-RPC error: {v}");
    v["result"].clone()
}

/// The structured answer of a call that must have succeeded.
pub fn succeeded(tool: &str, args: &Value, r: CallToolResult) -> Value {
    assert_ne!(
        r.is_error,
        Some(true),
        "{tool} {args} answered an error: {:?}",
        r.structured_content
    );
    r.structured_content.expect("structured content")
}
