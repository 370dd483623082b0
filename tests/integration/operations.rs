//! The operation catalog and dispatcher (`mattermost::operations`): every operation of the generated
//! client is classified; for every callable one, the request the dispatcher sends for sample
//! parameters (built from the catalog) has the spec's method, path (with hostile values
//! percent-encoded) and only the spec's query names; bad parameters are refused before anything is
//! sent. Requests go through the generated client and its transport hooks, in a call scope that
//! declares the one operation, to a small local listener that records each request and answers `{}`.

use mattermost_mcp::config::Secret;
use mattermost_mcp::mattermost::call::CallScope;
use mattermost_mcp::mattermost::operations::{
    self, AnswerKind, BODY, CALLABLE, DispatchError, Entry, Params,
};
use mattermost_mcp::mattermost::transport::Transport;
use mattermost_mcp::mattermost::{Client, MmError};
use mattermost_spec::catalog::{PagingKind, SAMPLE_ID, TypeInfo};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One request as the listener read it.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    target: String,
    body: String,
}

/// A listener on 127.0.0.1 that records every request and answers `answer` (JSON, 200).
struct Listener {
    url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    answer: Arc<Mutex<String>>,
}

impl Listener {
    async fn start() -> Listener {
        let socket = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}", socket.local_addr().expect("addr"));
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let answer = Arc::new(Mutex::new("{}".to_string()));
        let (s, a) = (seen.clone(), answer.clone());
        tokio::spawn(async move {
            while let Ok((mut conn, _)) = socket.accept().await {
                let (s, a) = (s.clone(), a.clone());
                tokio::spawn(async move {
                    let mut buf = Vec::new();
                    let mut chunk = [0u8; 8192];
                    let head_end = loop {
                        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                            break i + 4;
                        }
                        match conn.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    };
                    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
                    let length = head
                        .lines()
                        .find_map(|l| {
                            let (k, v) = l.split_once(':')?;
                            k.eq_ignore_ascii_case("content-length")
                                .then(|| v.trim().parse::<usize>().ok())?
                        })
                        .unwrap_or(0);
                    while buf.len() < head_end + length {
                        match conn.read(&mut chunk).await {
                            Ok(0) | Err(_) => break,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    }
                    let line = head.lines().next().unwrap_or("").to_string();
                    let mut parts = line.split(' ');
                    let seen = Seen {
                        method: parts.next().unwrap_or("").to_string(),
                        target: parts.next().unwrap_or("").to_string(),
                        body: String::from_utf8_lossy(&buf[head_end..]).to_string(),
                    };
                    s.lock().expect("log").push(seen);
                    let body = a.lock().expect("answer").clone();
                    let reply = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = conn.write_all(reply.as_bytes()).await;
                    let _ = conn.shutdown().await;
                });
            }
        });
        Listener { url, seen, answer }
    }

    fn client(&self) -> Client {
        mattermost_client::tls::install();
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .expect("http client");
        Client::new_with_client(&self.url, http, Transport::default())
    }

    fn take(&self) -> Vec<Seen> {
        std::mem::take(&mut *self.seen.lock().expect("log"))
    }
}

/// Sends `operation` the way the gateway will: in a call scope that declares exactly it.
async fn send(
    client: &Client,
    operation: &str,
    params: &Params,
) -> Result<operations::Answer, DispatchError> {
    let id: &'static str = match operations::resolve(operation) {
        Ok(entry) => entry.id.as_str(),
        Err(e) => return Err(e),
    };
    let scope = std::sync::Arc::new(CallScope::new(
        "call_operation",
        Secret::new("a-test-token".into()),
        [id],
        Duration::from_secs(30),
    ));
    scope.run(operations::call(client, operation, params)).await
}

/// A path parameter's hostile sample: it would leave its segment if it were not encoded.
const HOSTILE: &str = "../x26/a b?c#d%";
/// How the generated client must put it in the path.
const HOSTILE_ENCODED: &str = "..%2Fx26%2Fa%20b%3Fc%23d%25";

fn sample(t: &TypeInfo) -> Value {
    if let Some(first) = t.enum_values.first() {
        return first.clone();
    }
    let number = || {
        t.minimum
            .as_ref()
            .and_then(Value::as_i64)
            .map_or(1, |m| m.max(1))
    };
    match t.ty.as_str() {
        "integer" => json!(number()),
        "number" => json!(number() as f64 + 0.5),
        "boolean" => json!(true),
        "array" => match t.items.as_deref() {
            Some(i) if i.starts_with("integer") => json!([1]),
            Some("boolean") => json!([true]),
            _ => json!([SAMPLE_ID]),
        },
        _ => json!(SAMPLE_ID),
    }
}

/// Sample parameters for `entry`: every path and query parameter, and its sample body.
fn params_for(entry: &Entry) -> Params {
    let mut p = Params::new();
    for param in &entry.params {
        let v = if param.location == "path" && param.schema.ty == "string" {
            json!(HOSTILE)
        } else {
            sample(&param.schema)
        };
        p.insert(param.name.clone(), v);
    }
    if let Some(body) = &entry.body {
        p.insert(BODY.into(), body.sample.clone());
    }
    p
}

fn expected_path(entry: &Entry, params: &Params) -> String {
    let mut path = entry.path.clone();
    for p in entry.params.iter().filter(|p| p.location == "path") {
        let value = match &params[&p.name] {
            Value::String(s) if s == HOSTILE => HOSTILE_ENCODED.to_string(),
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        path = path.replace(&format!("{{{}}}", p.name), &value);
    }
    path
}

fn query_names(target: &str) -> BTreeSet<String> {
    target
        .split_once('?')
        .map(|(_, q)| {
            q.split('&')
                .filter(|kv| !kv.is_empty())
                .map(|kv| kv.split('=').next().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_generated_operation_is_classified() {
    let catalog = operations::catalog();
    let surface = mattermost_mcp::spec_check::pinned_surface();
    let callable: Vec<&str> = catalog
        .operations
        .iter()
        .filter(|e| e.callable())
        .map(|e| e.id.as_str())
        .collect();
    let generated: Vec<&str> = surface.operations.keys().map(String::as_str).collect();
    assert!(
        generated.len() > 500,
        "too few operations: {}",
        generated.len()
    );
    assert_eq!(callable, generated, "every generated operation is callable");
    assert_eq!(
        CALLABLE,
        &callable[..],
        "one dispatch arm per callable operation"
    );
    let not_callable: Vec<&Entry> = catalog
        .operations
        .iter()
        .filter(|e| !e.callable())
        .collect();
    assert_eq!(
        not_callable.len(),
        16,
        "the 16 multipart operations, and no other"
    );
    for e in &not_callable {
        assert!(
            e.not_callable
                .as_deref()
                .is_some_and(|r| r.contains("multipart")),
            "{}: {:?}",
            e.id,
            e.not_callable
        );
    }
    for e in catalog.operations.iter().filter(|e| e.callable()) {
        assert!(e.client_method.is_some(), "{} has its client method", e.id);
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for e in &catalog.operations {
        *counts.entry(format!("{:?}", e.access)).or_default() += 1;
        *counts
            .entry(e.paging.kind.as_str().to_string())
            .or_default() += 1;
    }
    eprintln!(
        "catalog: {} operations, {} callable; {counts:?}",
        catalog.operations.len(),
        callable.len()
    );
    for kind in PagingKind::ALL {
        if kind != PagingKind::Since {
            assert!(
                counts.contains_key(kind.as_str()),
                "no operation pages by {}",
                kind.as_str()
            );
        }
    }
}

#[tokio::test]
async fn every_operation_sends_the_specs_method_path_and_query_names() {
    let listener = Listener::start().await;
    let client = listener.client();
    let mut failures = Vec::new();
    let mut sent = 0;
    for entry in operations::catalog()
        .operations
        .iter()
        .filter(|e| e.callable())
    {
        let params = params_for(entry);
        *listener.answer.lock().expect("answer") = match entry.answer.kind {
            AnswerKind::Array => "[]".into(),
            _ => "{}".into(),
        };
        let outcome = send(&client, &entry.id, &params).await;
        let seen = listener.take();
        let [request] = &seen[..] else {
            failures.push(format!(
                "{}: {} requests sent ({outcome:?})",
                entry.id,
                seen.len()
            ));
            continue;
        };
        sent += 1;
        if request.method != entry.method {
            failures.push(format!(
                "{}: method {} (spec {})",
                entry.id, request.method, entry.method
            ));
        }
        let path = request.target.split('?').next().unwrap_or("");
        let want = expected_path(entry, &params);
        if path != want {
            failures.push(format!("{}: path {path} (expected {want})", entry.id));
        }
        let spec_query: BTreeSet<String> = entry
            .params
            .iter()
            .filter(|p| p.location == "query")
            .map(|p| p.name.clone())
            .collect();
        let names = query_names(&request.target);
        if !names.is_subset(&spec_query) {
            failures.push(format!(
                "{}: query {names:?} is not within the spec's {spec_query:?}",
                entry.id
            ));
        }
        if names != spec_query {
            failures.push(format!(
                "{}: every query parameter given is sent: sent {names:?}, given {spec_query:?}",
                entry.id
            ));
        }
        let json_body = entry
            .body
            .as_ref()
            .is_some_and(|b| b.media == "application/json");
        if json_body && request.body.is_empty() {
            failures.push(format!("{}: the body was not sent", entry.id));
        }
        if let Err(DispatchError::Mattermost {
            error: MmError::Refused(why),
            ..
        }) = &outcome
        {
            failures.push(format!("{}: refused on this side: {why}", entry.id));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        sent,
        CALLABLE.len(),
        "every callable operation sent one request"
    );
}

#[tokio::test]
async fn answers_come_back_as_json_bytes_or_nothing() {
    let listener = Listener::start().await;
    let client = listener.client();
    *listener.answer.lock().expect("answer") =
        r#"{"id":"x26sampleidxxxxxxxxxxxxxxx","username":"alice"}"#.into();
    let answer = send(&client, "GetUser", &params(json!({"user_id": "me"})))
        .await
        .expect("answers");
    let operations::Answer::Json { status: 200, value } = answer else {
        panic!("a JSON answer: {answer:?}")
    };
    assert_eq!(value["username"], "alice");
    assert_eq!(listener.take()[0].target, "/api/v4/users/me");

    *listener.answer.lock().expect("answer") = r#"{"status":"OK"}"#.into();
    let answer = send(&client, "get_file", &params(json!({"file_id": SAMPLE_ID})))
        .await
        .expect("answers");
    assert!(
        matches!(&answer, operations::Answer::Json { value, .. } if value["status"] == "OK"),
        "a binary answer labelled JSON is read as JSON: {answer:?}"
    );
    let file = params(json!({"file_id": SAMPLE_ID}));
    let answer = operations::call_capped(&client, "GetFile", &file, 4);
    let scope = std::sync::Arc::new(CallScope::new(
        "call_operation",
        Secret::new("a-test-token".into()),
        ["GetFile"],
        Duration::from_secs(30),
    ));
    let answer = scope.run(answer).await.expect("answers");
    assert!(
        matches!(&answer, operations::Answer::Bytes { bytes, truncated: true, .. } if bytes.len() == 4),
        "cut at the cap: {answer:?}"
    );
}

fn params(v: Value) -> Params {
    v.as_object().cloned().unwrap_or_default()
}

#[tokio::test]
async fn bad_parameters_are_refused_before_anything_is_sent() {
    let listener = Listener::start().await;
    let client = listener.client();
    let id = json!("x26sampleidxxxxxxxxxxxxxxx");
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "GetPostsForChannel",
            json!({"channel_id": id, "page": "abc"}),
            "page",
        ),
        (
            "GetPostsForChannel",
            json!({"channel_id": id, "per_page": true}),
            "per_page",
        ),
        (
            "GetPostsForChannel",
            json!({"channel_id": id, "collapsedThreads": "maybe"}),
            "collapsedThreads",
        ),
        (
            "GetPostsForChannel",
            json!({"channel_id": ".."}),
            "channel_id",
        ),
        (
            "GetPostsForChannel",
            json!({"channel_id": ""}),
            "channel_id",
        ),
        (
            "GetPostsForChannel",
            json!({"channel_id": {"an": "object"}}),
            "channel_id",
        ),
        (
            "SearchPosts",
            json!({"team_id": id, "body": "not an object"}),
            "body",
        ),
        (
            "SearchPosts",
            json!({"team_id": id, "body": {"terms": 7, "is_or_search": false}}),
            "body",
        ),
        (
            "GetPostsForReporting",
            json!({"body": {"channel_id": id, "sort_direction": "sideways"}}),
            "body",
        ),
    ];
    for (op, p, name) in cases {
        let e = send(&client, op, &params(p.clone()))
            .await
            .expect_err("refused");
        let DispatchError::InvalidParameter {
            operation,
            name: n,
            expected,
            rejected,
            ..
        } = &e
        else {
            panic!("{op} {p}: an invalid parameter, not {e:?}")
        };
        assert_eq!((operation.as_str(), n.as_str()), (op, name), "{e}");
        assert!(!expected.is_empty() && !rejected.is_empty(), "{e}");
        let text = e.to_string();
        assert!(
            text.contains(name) && text.contains("Nothing was sent"),
            "names the parameter and the next step: {text}"
        );
    }
    let e = send(&client, "GetPostsForChannel", &params(json!({"page": 1})))
        .await
        .expect_err("refused");
    assert!(
        matches!(&e, DispatchError::MissingParameter { name, .. } if name == "channel_id"),
        "{e:?}"
    );
    let e = send(&client, "SearchPosts", &params(json!({"team_id": id})))
        .await
        .expect_err("refused");
    assert!(
        matches!(&e, DispatchError::MissingParameter { name, .. } if name == "body"),
        "{e:?}"
    );
    let e = send(
        &client,
        "GetPostsForChannel",
        &params(json!({"channel_id": id, "bogus": 1})),
    )
    .await
    .expect_err("refused");
    assert!(
        matches!(&e, DispatchError::UnknownParameter { name, accepted, .. } if name == "bogus" && accepted.contains(&"per_page".to_string())),
        "{e:?}"
    );
    let e = send(&client, "GetPostz", &Params::new())
        .await
        .expect_err("refused");
    assert!(
        matches!(&e, DispatchError::UnknownOperation { suggestions, .. } if !suggestions.is_empty()),
        "{e:?}"
    );
    let e = send(&client, "UploadFile", &Params::new())
        .await
        .expect_err("refused");
    assert!(
        matches!(&e, DispatchError::NotCallable { reason, .. } if reason.contains("multipart")),
        "{e:?}"
    );
    assert!(listener.take().is_empty(), "nothing was sent");

    // Lenient where a model stringifies: "2" for an integer, one id for an array of ids.
    let ok = send(
        &client,
        "GetPostsForChannel",
        &params(json!({"channel_id": id, "page": "2"})),
    )
    .await;
    assert!(ok.is_ok(), "{ok:?}");
    let ok = send(&client, "GetUsersByIds", &params(json!({"body": id}))).await;
    assert!(
        !matches!(ok, Err(DispatchError::InvalidParameter { .. })),
        "{ok:?}"
    );
    let seen = listener.take();
    assert_eq!(seen.len(), 2);
    assert!(seen[0].target.contains("page=2"), "{seen:?}");
    assert_eq!(seen[1].body, format!("[{id}]"));
}

/// Every required parameter left out, and every integer or boolean one given a word, is refused
/// naming it, for every operation, and nothing is sent.
#[tokio::test]
async fn every_operations_parameters_are_checked() {
    let listener = Listener::start().await;
    let client = listener.client();
    let mut checked = 0;
    for entry in operations::catalog()
        .operations
        .iter()
        .filter(|e| e.callable())
    {
        let full = params_for(entry);
        for p in &entry.params {
            if p.required {
                let mut without = full.clone();
                without.remove(&p.name);
                let e = send(&client, &entry.id, &without)
                    .await
                    .expect_err("refused");
                assert!(
                    matches!(&e, DispatchError::MissingParameter { name, .. } if name == &p.name),
                    "{}: {e:?}",
                    entry.id
                );
                checked += 1;
            }
            if matches!(p.schema.ty.as_str(), "integer" | "boolean") {
                let mut wrong = full.clone();
                wrong.insert(p.name.clone(), json!("a word"));
                let e = send(&client, &entry.id, &wrong).await.expect_err("refused");
                assert!(
                    matches!(&e, DispatchError::InvalidParameter { name, rejected, .. } if name == &p.name && rejected.contains("a word")),
                    "{}: {e:?}",
                    entry.id
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "too little checked: {checked}");
    assert!(listener.take().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn an_operation_the_scope_does_not_declare_is_refused_by_the_transport() {
    let listener = Listener::start().await;
    let client = listener.client();
    let scope = std::sync::Arc::new(CallScope::new(
        "call_operation",
        Secret::new("a-test-token".into()),
        ["GetUser"],
        Duration::from_secs(30),
    ));
    let e = scope
        .run(operations::call(
            &client,
            "GetTeam",
            &params(json!({"team_id": SAMPLE_ID})),
        ))
        .await
        .expect_err("refused");
    assert!(
        matches!(&e, DispatchError::Mattermost { error: MmError::Refused(why), .. } if why.contains("its declaration does not")),
        "{e:?}"
    );
    assert!(listener.take().is_empty(), "nothing was sent");
}
