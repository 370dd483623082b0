//! The MCP surface: tools/list paging, cursors refused as they should be, the token kept secret, and
//! malformed JSON-RPC answered with its code over stdio and HTTP (and a clean exit at the end of stdin).

use crate::read_channel::tied_channel;
use crate::{harness, http_harness};
use mattermost_mcp::paging::cursor;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

#[tokio::test(flavor = "multi_thread")]
async fn tools_list_at_page_size_1_reaches_every_tool_and_refuses_a_bad_cursor() {
    let (world, _, _) = tied_channel(3, 1, 1);
    let sim = mattermost_sim::Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(&sim.url(), &sim.token("alice"), &[], &["--page-size", "1"]).await;
    let mut names = Vec::new();
    let mut cursor = None;
    loop {
        let page = mcp.list_tools_page(cursor.clone()).await.expect("a page");
        assert!(page.tools.len() <= 1);
        names.extend(page.tools.iter().map(|t| t.name.to_string()));
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    let offered: Vec<String> = mattermost_mcp::inventory::Offer::new(None, false)
        .expect("default")
        .tools()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, offered, "every tool, once, in the inventory's order");
    let err = mcp
        .list_tools_page(Some("bogus".into()))
        .await
        .expect_err("a bad cursor is refused");
    let text = format!("{err:?}");
    assert!(
        text.contains("-32602")
            || text.contains("InvalidParams")
            || text.contains("INVALID_PARAMS"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn foreign_other_argument_altered_and_garbled_cursors_are_refused() {
    let (mut world, channel, _) = tied_channel(50, 3, 2);
    let team = world.team_id("eng").unwrap_or_default();
    let other = world.channel(&team, "other", "Other", mattermost_sim::ChannelKind::Public);
    let alice = world.user_id("alice").unwrap_or_default();
    world.join(&other, &alice);
    world.post(&other, &alice, 1_700_000_000_000, "hello");
    let (_sim, mcp) = harness::start(world, "alice").await;
    let first = mcp
        .ok("read_channel", json!({"channel": channel, "limit": 5}))
        .await;
    let good = first["next_cursor"].as_str().expect("a cursor").to_string();

    // The same cursor continues with another limit.
    mcp.ok(
        "read_channel",
        json!({"channel": channel, "limit": 9, "cursor": good}),
    )
    .await;

    let other_args = mcp
        .refused("read_channel", json!({"channel": other, "cursor": good}))
        .await;
    assert_eq!(other_args["kind"], json!("bad_cursor"));
    assert!(
        other_args["message"]
            .as_str()
            .unwrap_or_default()
            .contains("other arguments")
    );

    let binding = cursor::Binding::new(
        "list_saved",
        &harness::obj(json!({"channel": channel})),
        &alice,
    );
    let mut fields = cursor::Fields::default();
    fields.num(5);
    let foreign = cursor::encode(&binding, &fields);
    let e = mcp
        .refused(
            "read_channel",
            json!({"channel": channel, "cursor": foreign}),
        )
        .await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("made by the tool `list_saved`"),
        "{e}"
    );

    // Change one character of the position inside the cursor, keeping its form.
    let mut chars: Vec<char> = good.chars().collect();
    let at = (0..chars.len().saturating_sub(10))
        .rev()
        .find(|i| chars[*i].is_ascii_alphanumeric())
        .expect("a letter or digit in the position");
    chars[at] = if chars[at] == 'a' { 'b' } else { 'a' };
    let altered: String = chars.into_iter().collect();
    let e = mcp
        .refused(
            "read_channel",
            json!({"channel": channel, "cursor": altered}),
        )
        .await;
    let m = e["message"].as_str().unwrap_or_default();
    assert!(
        m.contains("was changed after this server made it"),
        "an altered cursor is named as such: {m}"
    );

    for garbled in ["hello", "", "%%%", "eyJ0IjoxfQ", "a1b2c3d4.e5f6"] {
        let e = mcp
            .refused(
                "read_channel",
                json!({"channel": channel, "cursor": garbled}),
            )
            .await;
        assert_eq!(e["kind"], json!("bad_cursor"), "{garbled}: {e}");
        let m = e["message"].as_str().unwrap_or_default();
        assert!(
            m.contains("without `cursor`")
                || (garbled.is_empty() && m.contains("Leave `cursor` out")),
            "names the next step: {m}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_limit_out_of_range_is_refused_with_the_range() {
    let (world, channel, _) = tied_channel(5, 1, 4);
    let (sim, mcp) = harness::start(world, "alice").await;
    for bad in [json!(0), json!(201), json!(-3), json!("ten"), json!(2.5)] {
        let e = mcp
            .refused("read_channel", json!({"channel": channel, "limit": bad}))
            .await;
        assert_eq!(e["kind"], json!("bad_argument"), "{bad}");
    }
    let e = mcp
        .refused("read_channel", json!({"channel": channel, "limit": 500}))
        .await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("1 to 200"),
        "{e}"
    );
    assert!(sim.log().is_empty(), "nothing was sent for a bad argument");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_token_never_appears_in_stderr_or_any_result() {
    let (world, channel, _) = tied_channel(40, 3, 6);
    let (sim, mcp) = harness::start(world, "alice").await;
    let token = sim.token("alice");
    let mut answers = Vec::new();
    answers.push(mcp.call("get_me", json!({})).await);
    answers.push(
        mcp.call("read_channel", json!({"channel": channel, "limit": 7}))
            .await,
    );
    answers.push(
        mcp.call(
            "read_channel",
            json!({"channel": "zzzzzzzzzzzzzzzzzzzzzzzzzz"}),
        )
        .await,
    );
    answers.push(
        mcp.call(
            "read_channel",
            json!({"channel": channel, "cursor": "garbage"}),
        )
        .await,
    );
    sim.expire_token("alice");
    answers.push(mcp.call("get_me", json!({})).await);
    for a in &answers {
        let text = serde_json::to_string(a).unwrap_or_default();
        assert!(!text.contains(&token), "a result carries the token: {text}");
    }
    let expired = harness::error_of(answers.last().expect("the last answer"));
    assert_eq!(expired["kind"], json!("unauthorized"), "{expired}");
    assert!(
        expired["message"]
            .as_str()
            .unwrap_or_default()
            .contains("MATTERMOST_TOKEN")
    );
    let stderr = mcp.stderr();
    assert!(
        stderr.contains("connected to"),
        "the server logs on stderr: {stderr}"
    );
    assert!(!stderr.contains(&token), "stderr carries the token");
}

#[tokio::test(flavor = "multi_thread")]
async fn get_me_says_who_the_server_acts_as() {
    let (world, _, _) = tied_channel(1, 1, 8);
    let (_sim, mcp) = harness::start(world, "alice").await;
    let me = mcp.ok("get_me", json!({})).await;
    assert_eq!(me["username"], json!("alice"));
    assert_eq!(me["is_bot"], json!(false));
    assert!(
        me["mattermost_version"]
            .as_str()
            .unwrap_or_default()
            .starts_with("11."),
        "{me}"
    );
}

/// The malformed requests of issue 17, each with the JSON-RPC error code and id it must get, sent
/// after a session has started.
fn malformed() -> Vec<(&'static str, i64, Value)> {
    vec![
        // Not JSON: -32700 with a null id.
        (r#"{"jsonrpc":"2.0","id":1,"#, -32700, Value::Null),
        ("garbage", -32700, Value::Null),
        // JSON, not a JSON-RPC 2.0 message: -32600, with the id when it can be read, else null.
        (
            r#"{"jsonrpc":"1.0","id":2,"method":"ping"}"#,
            -32600,
            json!(2),
        ),
        (r#"{"id":3,"method":"ping"}"#, -32600, json!(3)),
        (r#"{"jsonrpc":"2.0","id":4}"#, -32600, json!(4)),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            -32600,
            Value::Null,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            -32600,
            Value::Null,
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"ping","params":"x"}"#,
            -32600,
            json!(5),
        ),
        (
            r#"[{"jsonrpc":"2.0","id":6,"method":"ping"}]"#,
            -32600,
            Value::Null,
        ),
        ("[]", -32600, Value::Null),
        // A known method with missing or wrong params: -32602, not -32601.
        (
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}"#,
            -32602,
            json!(7),
        ),
        (
            r#"{"jsonrpc":"2.0","id":8,"method":"prompts/get","params":{}}"#,
            -32602,
            json!(8),
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{}}"#,
            -32602,
            json!(9),
        ),
        (
            r#"{"jsonrpc":"2.0","id":10,"method":"completion/complete"}"#,
            -32602,
            json!(10),
        ),
        (
            r#"{"jsonrpc":"2.0","id":"s","method":"ping","params":[]}"#,
            -32602,
            json!("s"),
        ),
        // An unknown method, and one this server does not serve: -32601.
        (
            r#"{"jsonrpc":"2.0","id":11,"method":"no/such"}"#,
            -32601,
            json!(11),
        ),
        (
            r#"{"jsonrpc":"2.0","id":12,"method":"logging/setLevel","params":{"level":"info"}}"#,
            -32601,
            json!(12),
        ),
    ]
}

/// Checks one JSON-RPC error answer.
fn is_error(answer: &Value, code: i64, id: &Value, sent: &str) {
    let o = answer
        .as_object()
        .unwrap_or_else(|| panic!("{sent}: {answer}"));
    assert_eq!(o.get("jsonrpc"), Some(&json!("2.0")), "{sent}: {answer}");
    assert_eq!(o.get("id"), Some(id), "{sent}: the id, present: {answer}");
    assert_eq!(answer["error"]["code"], json!(code), "{sent}: {answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(!message.is_empty(), "{sent}: {answer}");
}

/// `mattermost-mcp` over stdio, spoken to a line at a time.
struct RawStdio {
    child: tokio::process::Child,
    stdin: tokio::process::ChildStdin,
    stdout: tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
}

impl RawStdio {
    fn spawn(sim: &mattermost_sim::Sim) -> RawStdio {
        let mut child = tokio::process::Command::new(harness::BIN)
            .env_clear()
            .env("MATTERMOST_URL", sim.url())
            .env("MATTERMOST_TOKEN", sim.token("alice"))
            .env("MATTERMOST_MCP_LOG", "info")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn the server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = tokio::io::BufReader::new(child.stdout.take().expect("stdout")).lines();
        RawStdio {
            child,
            stdin,
            stdout,
        }
    }

    async fn send(&mut self, line: &[u8]) {
        self.stdin.write_all(line).await.expect("write");
        self.stdin.write_all(b"\n").await.expect("write");
        self.stdin.flush().await.expect("flush");
    }

    async fn answer(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(30), self.stdout.next_line())
            .await
            .expect("an answer within 30 s")
            .expect("read")
            .expect("a line");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    async fn start_session(&mut self) {
        self.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"}}})
            .to_string()
            .as_bytes(),
        )
        .await;
        let init = self.answer().await;
        assert_eq!(init["id"], json!(0), "{init}");
        self.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
    }

    /// Closes stdin; the exit code and what the server logged.
    async fn close(mut self) -> (Option<i32>, String) {
        drop(self.stdin);
        let status = tokio::time::timeout(Duration::from_secs(30), self.child.wait())
            .await
            .expect("the server stops when stdin ends")
            .expect("wait");
        let mut stderr = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            e.read_to_string(&mut stderr).await.ok();
        }
        (status.code(), stderr)
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn over_stdio_each_malformed_request_gets_its_json_rpc_code_and_the_session_goes_on() {
    let (world, _, _) = tied_channel(1, 1, 9);
    let sim = mattermost_sim::Sim::start(world).await.expect("sim");
    let mut mcp = RawStdio::spawn(&sim);
    mcp.start_session().await;
    for (sent, code, id) in malformed() {
        mcp.send(sent.as_bytes()).await;
        let answer = mcp.answer().await;
        is_error(&answer, code, &id, sent);
    }
    // A line over the 16 MiB a stdio message may be is answered with its request's id (which comes
    // after its params here, as the TypeScript SDK writes it), and the next request still is.
    let big = json!({"jsonrpc": "2.0", "method": "tools/call",
        "params": {"name": "get_channel", "arguments": {"channel": "x".repeat(17 << 20)}}, "id": 99});
    mcp.send(big.to_string().as_bytes()).await;
    let answer = mcp.answer().await;
    is_error(&answer, -32600, &json!(99), "a 17 MiB line");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("16777216 bytes"),
        "{answer}"
    );
    mcp.send(br#"{"jsonrpc":"2.0","id":100,"method":"ping"}"#)
        .await;
    assert_eq!(
        mcp.answer().await,
        json!({"jsonrpc": "2.0", "id": 100, "result": {}})
    );
    let (code, stderr) = mcp.close().await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("ERROR"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_end_of_stdin_is_a_clean_exit_before_and_after_a_session() {
    let (world, _, _) = tied_channel(1, 1, 10);
    let sim = mattermost_sim::Sim::start(world).await.expect("sim");
    let before = RawStdio::spawn(&sim);
    // Wait until it serves (its check at start is done) before closing.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (code, stderr) = before.close().await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("ERROR"), "{stderr}");

    let mut after = RawStdio::spawn(&sim);
    after.start_session().await;
    let (code, stderr) = after.close().await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("ERROR"), "{stderr}");
}

/// An HTTP POST of `body` to `/mcp` with the token, the Accept MCP asks for and `content_type`.
async fn post(
    server: &http_harness::Instance,
    token: &str,
    content_type: &str,
    body: &str,
    session: Option<&str>,
) -> http_harness::Answer {
    let mut req = http_harness::http()
        .post(server.endpoint())
        .bearer_auth(token)
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", content_type)
        .body(body.to_string());
    if let Some(s) = session {
        req = req
            .header("Mcp-Session-Id", s)
            .header("MCP-Protocol-Version", "2025-11-25");
    }
    http_harness::send(req).await
}

/// The JSON-RPC message of an answer in a 2025-11-25 session: a JSON body, or the last `data:` of
/// an SSE stream.
fn message_of(a: &http_harness::Answer) -> Value {
    if a.header("content-type")
        .is_some_and(|c| c.contains("event-stream"))
    {
        let data = a
            .body
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(str::trim)
            .rfind(|d| !d.is_empty())
            .unwrap_or_default();
        serde_json::from_str(data).unwrap_or_else(|e| panic!("{e}: {}", a.body))
    } else {
        a.json()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn over_http_a_body_that_is_no_message_is_400_with_its_json_rpc_error_and_wrong_params_are_32602()
 {
    let (world, _, _) = tied_channel(1, 1, 11);
    let sim = mattermost_sim::Sim::start(world).await.expect("sim");
    let server = http_harness::spawn(&sim.url(), &[], &[]).await;
    let token = sim.token("alice");
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}});
    let opened = post(&server, &token, "application/json", &init.to_string(), None).await;
    assert_eq!(opened.status, 200, "{}", opened.body);
    let session = opened.header("mcp-session-id").expect("a session id");
    let done = post(
        &server,
        &token,
        "application/json",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        Some(&session),
    )
    .await;
    assert_eq!(done.status, 202, "{}", done.body);
    for (sent, code, id) in malformed() {
        let a = post(&server, &token, "application/json", sent, Some(&session)).await;
        if code == -32700 || code == -32600 {
            // Not a message at all: 400, with the JSON-RPC error as a JSON body.
            assert_eq!(a.status, 400, "{sent}: {}", a.body);
            assert_eq!(
                a.header("content-type").as_deref(),
                Some("application/json"),
                "{sent}"
            );
        } else {
            assert_eq!(a.status, 200, "{sent}: {}", a.body);
        }
        is_error(&message_of(&a), code, &id, sent);
    }
    // The same in the stateless 2026-07-28 form, where a request carries its own _meta.
    for method in ["tools/call", "prompts/get", "resources/read"] {
        let (headers, body) = http_harness::stateless_request(method, json!({}), 21);
        let mut req = http_harness::http()
            .post(server.endpoint())
            .bearer_auth(&token)
            .body(body.to_string());
        for (k, v) in headers {
            req = req.header(k, v);
        }
        let a = http_harness::send(req).await;
        assert_eq!(a.status, 200, "{method}: {}", a.body);
        is_error(&a.json(), -32602, &json!(21), method);
    }
    // 2026-07-28 has no initialize: 404 with -32601 there, even with params it cannot read.
    let (headers, body) = http_harness::stateless_request("initialize", json!({}), 22);
    let mut req = http_harness::http()
        .post(server.endpoint())
        .bearer_auth(&token)
        .body(body.to_string());
    for (k, v) in headers {
        req = req.header(k, v);
    }
    let a = http_harness::send(req).await;
    assert_eq!(a.status, 404, "{}", a.body);
    is_error(&a.json(), -32601, &json!(22), "a stateless initialize");
    // A wrong Content-Type stays 415.
    let a = post(&server, &token, "text/plain", "{}", Some(&session)).await;
    assert_eq!(a.status, 415, "{}", a.body);
    // And the session still serves.
    let a = post(
        &server,
        &token,
        "application/json",
        r#"{"jsonrpc":"2.0","id":30,"method":"ping"}"#,
        Some(&session),
    )
    .await;
    assert_eq!(
        message_of(&a),
        json!({"jsonrpc": "2.0", "id": 30, "result": {}})
    );
}
