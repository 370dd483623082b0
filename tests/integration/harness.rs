//! The test harness: the built `mattermost-mcp` binary driven as a real MCP client would, over stdio,
//! with rmcp's own client, against a simulated Mattermost on 127.0.0.1.

use mattermost_sim::{Sim, World};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, Implementation, NumberOrString, PaginatedRequestParams,
    ProgressNotificationParam, ProgressToken, ProtocolVersion, RequestMetaObject,
};
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{
    ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, RoleClient, ServiceExt,
};

use serde_json::{Map, Value, json};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use tokio::io::AsyncReadExt;

pub const BIN: &str = env!("CARGO_BIN_EXE_mattermost-mcp");

/// How the test client answers when the server asks the person (elicitation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Answer {
    /// Accepts with the confirmation ticked.
    #[default]
    Accept,
    /// Accepts with the confirmation unticked.
    Untick,
    Decline,
    Cancel,
    /// Declares no elicitation capability: the server cannot ask.
    CannotAsk,
}

/// Which protocol the test client speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Protocol {
    /// `initialize`, 2025-11-25: the server asks with an `elicitation/create` request.
    #[default]
    Legacy,
    /// `server/discover`, 2026-07-28: the server answers input-required results, which rmcp's client
    /// answers through this handler and retries.
    Stateless,
}

/// Called when the client answers a question (to look at the simulator at that moment).
pub type OnAnswer = Arc<dyn Fn() + Send + Sync>;

/// The client side: rmcp's client, recording the progress notifications the server sends and the
/// questions it asks, and answering them as `answer` says.
#[derive(Clone, Default)]
pub struct Recorder {
    pub progress: Arc<Mutex<Vec<String>>>,
    pub questions: Arc<Mutex<Vec<String>>>,
    pub answer: Answer,
    pub on_answer: Option<OnAnswer>,
    /// Each `notifications/resources/updated` (its URI) and `list_changed` (as "list_changed"),
    /// with when it arrived and the notification as JSON.
    pub updates: Arc<Mutex<Vec<(std::time::Instant, String, String)>>>,
}

impl ClientHandler for Recorder {
    fn get_info(&self) -> ClientConfig {
        let caps = if self.answer == Answer::CannotAsk {
            ClientCapabilities::default()
        } else {
            ClientCapabilities::builder().enable_elicitation().build()
        };
        ClientConfig::new(caps, Implementation::new("mattermost-mcp-tests", "1"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _cx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        if let ElicitRequestParams::FormElicitationParams { message, .. } = &request
            && let Ok(mut q) = self.questions.lock()
        {
            q.push(message.clone());
        }
        if let Some(hook) = &self.on_answer {
            hook();
        }
        Ok(match self.answer {
            Answer::Accept => {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"confirm": true}))
            }
            Answer::Untick => {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"confirm": false}))
            }
            Answer::Cancel => ElicitResult::new(ElicitationAction::Cancel),
            Answer::Decline | Answer::CannotAsk => ElicitResult::new(ElicitationAction::Decline),
        })
    }

    async fn on_resource_updated(
        &self,
        params: rmcp::model::ResourceUpdatedNotificationParam,
        _cx: NotificationContext<RoleClient>,
    ) {
        let json = serde_json::to_string(&params).unwrap_or_default();
        if let Ok(mut u) = self.updates.lock() {
            u.push((std::time::Instant::now(), params.uri, json));
        }
    }

    async fn on_resource_list_changed(&self, _cx: NotificationContext<RoleClient>) {
        if let Ok(mut u) = self.updates.lock() {
            u.push((
                std::time::Instant::now(),
                "list_changed".into(),
                String::new(),
            ));
        }
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _cx: NotificationContext<RoleClient>,
    ) {
        if let Ok(mut p) = self.progress.lock() {
            p.push(params.message.unwrap_or_default());
        }
    }
}

/// A running `mattermost-mcp` with a client connected to it.
pub struct Mcp {
    pub client: RunningService<RoleClient, Recorder>,
    recorder: Recorder,
    stderr: Arc<Mutex<String>>,
}

/// Starts the server against `url` with `token`, with nothing else from the environment but `env`.
pub async fn spawn(url: &str, token: &str, env: &[(&str, &str)], args: &[&str]) -> Mcp {
    spawn_as(url, token, env, args, Protocol::Legacy, Recorder::default()).await
}

/// Like [`spawn`], with the protocol the client speaks and how it answers questions.
pub async fn spawn_as(
    url: &str,
    token: &str,
    env: &[(&str, &str)],
    args: &[&str],
    protocol: Protocol,
    recorder: Recorder,
) -> Mcp {
    let mut cmd = tokio::process::Command::new(BIN);
    let (url, token) = (url.to_string(), token.to_string());
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    cmd.args(args);
    let cmd = cmd.configure(move |c| {
        c.env_clear();
        c.env("MATTERMOST_URL", &url)
            .env("MATTERMOST_TOKEN", &token)
            .env("MATTERMOST_MCP_LOG", "debug");
        for (k, v) in &env {
            c.env(k, v);
        }
    });
    let (transport, stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the server");
    let captured = Arc::new(Mutex::new(String::new()));
    if let Some(mut stderr) = stderr {
        let sink = captured.clone();
        tokio::spawn(async move {
            let mut buf = vec![0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                if let Ok(mut s) = sink.lock() {
                    s.push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            }
        });
    }
    let client = match protocol {
        Protocol::Legacy => recorder.clone().serve(transport).await.ok(),
        Protocol::Stateless => recorder
            .clone()
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .ok(),
    }
    .expect("the MCP session starts");
    Mcp {
        client,
        recorder,
        stderr: captured,
    }
}

/// A simulator with `world`, and the server connected to it as `user`.
pub async fn start(world: World, user: &str) -> (Sim, Mcp) {
    let sim = Sim::start(world).await.expect("the simulator starts");
    let mcp = spawn(&sim.url(), &sim.token(user), &[], &[]).await;
    sim.clear_log();
    (sim, mcp)
}

pub fn obj(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

impl Mcp {
    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The questions the server asked the person so far.
    pub fn questions(&self) -> Vec<String> {
        self.recorder
            .questions
            .lock()
            .map(|q| q.clone())
            .unwrap_or_default()
    }

    /// The progress messages received so far.
    pub fn progress(&self) -> Vec<String> {
        self.recorder
            .progress
            .lock()
            .map(|p| p.clone())
            .unwrap_or_default()
    }

    /// The progress notifications once `done` holds of them, or after 10 s whatever they are: the
    /// client handles a notification on its own task, so one sent before a result may be recorded
    /// just after the result is seen.
    pub async fn progress_until(&self, done: impl Fn(&[String]) -> bool) -> Vec<String> {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let seen = self.progress();
            if done(&seen) || std::time::Instant::now() >= until {
                return seen;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// A call that asks for progress notifications (a progress token in `_meta`).
    pub async fn call_with_progress(&self, tool: &str, args: Value) -> CallToolResult {
        let mut meta = RequestMetaObject::new();
        meta.set_progress_token(ProgressToken(NumberOrString::Number(7)));
        let mut params = CallToolRequestParams::new(tool.to_string()).with_arguments(obj(args));
        params.meta = Some(meta);
        self.client
            .call_tool(params)
            .await
            .unwrap_or_else(|e| panic!("{tool}: protocol error {e}"))
    }

    pub async fn call(&self, tool: &str, args: Value) -> CallToolResult {
        self.client
            .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(obj(args)))
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "{tool}: protocol error {e}; the server said:\n{}",
                    self.stderr()
                )
            })
    }

    /// The structured answer of a call that must succeed.
    pub async fn ok(&self, tool: &str, args: Value) -> Value {
        let r = self.call(tool, args.clone()).await;
        if r.is_error == Some(true) {
            panic!(
                "{tool} {args} answered an error: {:?}",
                r.structured_content
                    .or(Some(json!(format!("{:?}", r.content))))
            );
        }
        let v = r.structured_content.clone().expect("structured content");
        let text = r
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .expect("a text copy");
        let copy: Value = serde_json::from_str(&text).expect("the text copy is JSON");
        assert_eq!(copy, v, "the text content is the JSON of structuredContent");
        v
    }

    /// The error of a call that must be refused (`isError: true`).
    pub async fn refused(&self, tool: &str, args: Value) -> Value {
        let r = self.call(tool, args.clone()).await;
        assert_eq!(
            r.is_error,
            Some(true),
            "{tool} {args} should be refused, got {:?}",
            r.structured_content
        );
        error_of(&r)
    }

    /// Every page of a list call, following next_cursor; checks the envelope of each page.
    pub async fn pages(&self, tool: &str, args: Value) -> Vec<Value> {
        let mut pages = Vec::new();
        let mut args = obj(args);
        loop {
            let page = self.ok(tool, Value::Object(args.clone())).await;
            check_envelope(&page);
            let next = page
                .get("next_cursor")
                .and_then(Value::as_str)
                .map(str::to_string);
            pages.push(page);
            match next {
                Some(c) => {
                    args.insert("cursor".into(), json!(c));
                }
                None => return pages,
            }
            assert!(pages.len() < 10_000, "{tool} does not reach its end");
        }
    }

    /// Every item of every page.
    pub async fn read_all(&self, tool: &str, args: Value) -> Vec<Value> {
        self.pages(tool, args)
            .await
            .into_iter()
            .flat_map(|p| p["items"].as_array().cloned().unwrap_or_default())
            .collect()
    }

    /// The names of every tool listed, in order, across every page.
    pub async fn tool_names(&self) -> Vec<String> {
        self.list_all_tools()
            .await
            .iter()
            .map(|t| t.name.to_string())
            .collect()
    }

    /// Every tool listed, across every page.
    pub async fn list_all_tools(&self) -> Vec<rmcp::model::Tool> {
        let mut out = Vec::new();
        let mut cursor = None;
        loop {
            let page = self.list_tools_page(cursor).await.expect("tools/list");
            out.extend(page.tools);
            match page.next_cursor {
                Some(c) => cursor = Some(c),
                None => return out,
            }
        }
    }

    /// A raw call: its whole result, error or not.
    pub async fn result(&self, tool: &str, args: Value) -> CallToolResult {
        self.call(tool, args).await
    }

    pub async fn list_tools_page(
        &self,
        cursor: Option<String>,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ServiceError> {
        let params = cursor.map(|c| PaginatedRequestParams::default().with_cursor(Some(c)));
        self.client.list_tools(params).await
    }
}

/// The error of an error result (`isError: true`): its text is `{"error": {"kind", "message", ...}}` as
/// JSON, and it has no `structuredContent` (which the tool's output schema describes for successes).
pub fn error_of(r: &CallToolResult) -> Value {
    assert_eq!(r.is_error, Some(true), "not an error: {:?}", r.content);
    assert_eq!(
        r.structured_content, None,
        "an error result carries no structuredContent"
    );
    let text = r
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .expect("a text block");
    let v: Value = serde_json::from_str(&text).expect("the error's text is JSON");
    let e = v["error"].clone();
    assert!(e["kind"].is_string(), "the error has a kind: {v}");
    assert!(e["message"].is_string(), "the error has a message: {v}");
    e
}

/// The envelope every list answers with.
pub fn check_envelope(page: &Value) {
    let items = page["items"].as_array().expect("items is an array");
    assert_eq!(
        page["returned"].as_u64(),
        Some(items.len() as u64),
        "returned counts items"
    );
    let has_more = page["has_more"]
        .as_bool()
        .expect("has_more is always present");
    assert_eq!(
        page.get("next_cursor").is_some(),
        has_more,
        "next_cursor is present exactly when has_more"
    );
    assert!(
        page.get("total").is_some() || page["total_known"] == json!(false),
        "total or total_known: false"
    );
    assert!(page["requests"].as_u64().is_some(), "requests is present");
}

/// When the post an item shows was written, in milliseconds, from the simulator (tools show times to
/// the second; paging is tested to the millisecond).
pub fn created_ms(sim: &Sim, item: &Value) -> i64 {
    let id = item["id"].as_str().unwrap_or_default();
    sim.with_world(|w| w.post_created(id)).unwrap_or(0)
}

/// The ids of items.
pub fn ids(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| i["id"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A small workspace where every tool has something to answer, and the arguments to call each with.
pub struct Rich {
    pub channel: String,
    pub team: String,
    pub root: String,
    pub file: String,
}

pub fn rich_world() -> (World, Rich) {
    let mut w = World::new(99);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let team = w.team("eng", "Engineering", true);
    w.add_to_team(&team, &alice);
    w.add_to_team(&team, &bob);
    let channel = w.channel(
        &team,
        "town-square",
        "Town Square",
        mattermost_sim::ChannelKind::Public,
    );
    w.join(&channel, &alice);
    w.join(&channel, &bob);
    let t0 = 1_700_000_000_000i64;
    for k in 0..30 {
        let who = if k % 2 == 0 { &alice } else { &bob };
        w.post(
            &channel,
            who,
            t0 + k * 1000,
            &format!("hello number {k} @alice"),
        );
    }
    let root = w.post(&channel, &bob, t0 + 40_000, "hello thread");
    for k in 1..=3 {
        w.reply(&root, &alice, t0 + 40_000 + k, "hello reply");
    }
    w.follow(&alice, &root);
    w.save(&alice, &root);
    w.pin(&root);
    w.react(&bob, &root, "thumbsup", t0 + 41_000);
    let file = w.attach(&root, "notes.txt", b"line one\nline two\nhello three\n");
    w.draft(&alice, &channel, None, "a draft", t0 + 50_000);
    w.draft(&alice, &channel, Some(&root), "a reply draft", t0 + 51_000);
    w.emoji(&alice, "party-parrot");
    w.set_status(&bob, "away");
    w.view(&alice, &channel, t0 + 20_000);
    let dm = w.direct(&alice, &bob);
    w.post(&dm, &bob, t0 + 60_000, "hello in private");
    (
        w,
        Rich {
            channel,
            team,
            root,
            file,
        },
    )
}

/// Arguments to call `tool` with in the rich world: every required argument, from its kind.
pub fn sample_args(tool: &mattermost_mcp::tool::Tool, r: &Rich) -> Value {
    use mattermost_mcp::args::Kind;
    let mut args = Map::new();
    for a in tool.all_args().iter().filter(|a| a.required) {
        let v = match a.kind {
            Kind::Channel => json!(r.channel),
            Kind::Team => json!(r.team),
            Kind::Post => json!(r.root),
            Kind::User => json!("bob"),
            Kind::Users { .. } => json!(["bob", "alice"]),
            Kind::Text { .. } if a.name == "file" => json!(r.file),
            Kind::Text { .. } if a.name == "operation" => json!("GetAllTeams"),
            Kind::Text { .. } if a.name == "query" => json!("teams"),
            Kind::Text { .. } => json!("hello"),
            Kind::Time => json!("2023-11-14"),
            Kind::Flag => json!(false),
            Kind::Files { .. } => json!([{"name": "notes.txt", "content": "hello"}]),
            Kind::Seconds { .. } => json!(1),
            Kind::Object { .. } | Kind::Choices { .. } | Kind::Limit | Kind::Cursor => continue,
        };
        args.insert(a.name.to_string(), v);
    }
    Value::Object(args)
}

/// A certificate authority and a certificate for localhost and 127.0.0.1 it signed, made with openssl.
pub fn certificates(
    dir: &std::path::Path,
) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    std::fs::create_dir_all(dir).expect("dir");
    let run = |args: &[&str]| {
        let out = std::process::Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("openssl runs");
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=mattermost-mcp test CA",
    ]);
    run(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=localhost",
    ]);
    std::fs::write(dir.join("ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n").expect("ext");
    run(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "2",
        "-extfile",
        "ext",
    ]);
    (
        dir.join("ca.pem"),
        dir.join("server.pem"),
        dir.join("server.key"),
    )
}
