//! Any number of instances: three `serve --http` behind nginx (run unprivileged, with its own
//! configuration in a temporary directory) routing round-robin, so each request lands on another
//! instance than the one before. Stateless 2026-07-28 clients page `read_channel` and `list_saved`
//! to their ends with every item exactly once, as cursors carry all their state. 2025-11-25 sessions
//! need more: a shared session directory (`MATTERMOST_MCP_SESSION_DIR`) lets any instance continue
//! any session, and so does routing each person to one instance (nginx `hash $http_authorization`);
//! with neither, a session opened on one instance is unknown to the next.
//!
//! Without nginx the test says so loudly and is skipped (set MATTERMOST_MCP_REQUIRE_NGINX=1, as CI
//! does, to fail instead).

use crate::http::{Two, exactly_once, two_people};
use crate::http_harness::{self as h, Generation, Instance};
use mattermost_sim::Sim;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub(crate) fn nginx_binary() -> Option<PathBuf> {
    ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// Says loudly, past the test harness's capture, that the test did not run.
pub(crate) fn skip_loudly(why: &str) {
    assert!(
        std::env::var("MATTERMOST_MCP_REQUIRE_NGINX").is_err(),
        "nginx is required here (MATTERMOST_MCP_REQUIRE_NGINX is set): {why}"
    );
    let banner = format!(
        "\n{line}\n!!! SKIPPED: the nginx multi-instance test did not run: {why}.\n!!! Install it (apt-get install -y nginx) to run it; CI installs it.\n{line}\n",
        line = "!".repeat(78)
    );
    let _ = Command::new("sh")
        .arg("-c")
        .arg("printf '%s\\n' \"$0\" >&2")
        .arg(&banner)
        .status();
}

/// A free port on 127.0.0.1.
pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A running nginx; killed when dropped.
pub(crate) struct Nginx {
    child: Child,
    dir: PathBuf,
}

impl Drop for Nginx {
    /// Stops nginx as its master asks to be stopped (SIGTERM: it stops its workers, then itself);
    /// killing the master alone would leave the workers running.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        for _ in 0..100 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// nginx in front of `upstreams` on `port`, balancing as `balance` says (empty: round-robin).
pub(crate) fn start_nginx(binary: &Path, port: u16, upstreams: &[u16], balance: &str) -> Nginx {
    let dir = std::env::temp_dir().join(format!("mm-mcp-nginx-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let servers: String = upstreams
        .iter()
        .map(|p| format!("    server 127.0.0.1:{p};\n"))
        .collect();
    let d = dir.display();
    let conf = format!(
        "worker_processes 1;\ndaemon off;\npid {d}/nginx.pid;\nerror_log {d}/error.log warn;\n\
         events {{ worker_connections 256; }}\n\
         http {{\n  access_log {d}/access.log;\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
         \x20 fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n\
         \x20 upstream mcp {{\n    {balance}\n{servers}    keepalive 8;\n  }}\n\
         \x20 server {{\n    listen 127.0.0.1:{port};\n    location / {{\n      proxy_pass http://mcp;\n\
         \x20     proxy_http_version 1.1;\n      proxy_set_header Connection \"\";\n      proxy_set_header Host $http_host;\n\
         \x20     proxy_buffering off;\n      proxy_read_timeout 300s;\n      add_header X-Upstream $upstream_addr always;\n\
         \x20   }}\n  }}\n}}\n"
    );
    std::fs::write(dir.join("nginx.conf"), conf).expect("the config");
    let conf = dir.join("nginx.conf");
    let args = [
        "-p",
        &d.to_string(),
        "-e",
        &format!("{d}/error.log"),
        "-c",
        &conf.display().to_string(),
    ]
    .map(String::from);
    // Unprivileged: as root, drop to nobody for nginx (its directory is made writable for it).
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout == b"0\n")
        .unwrap_or(false);
    let mut cmd = if root && Path::new("/usr/bin/setpriv").exists() {
        let _ = Command::new("chmod")
            .args(["-R", "0777"])
            .arg(&dir)
            .status();
        let mut c = Command::new("/usr/bin/setpriv");
        c.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
            .arg(binary);
        c
    } else {
        Command::new(binary)
    };
    let child = cmd
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx starts");
    let nginx = Nginx { child, dir };
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return nginx;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!(
        "nginx did not listen on {port}: {}",
        std::fs::read_to_string(nginx.dir.join("error.log")).unwrap_or_default()
    );
}

/// Three instances against `sim`, all naming nginx's address as theirs, sharing `session_dir` if given.
async fn three(sim: &Sim, port: u16, session_dir: Option<&Path>) -> Vec<Instance> {
    let public = format!("http://127.0.0.1:{port}");
    let dir = session_dir.map(|d| d.display().to_string());
    let mut env = vec![("MATTERMOST_MCP_PUBLIC_URL", public.as_str())];
    if let Some(d) = &dir {
        env.push(("MATTERMOST_MCP_SESSION_DIR", d.as_str()));
    }
    let mut out = Vec::new();
    for _ in 0..3 {
        out.push(h::spawn(&sim.url(), &env, &[]).await);
    }
    out
}

/// Pages `tool` to its end with plain stateless requests through nginx; the item ids and the
/// instance that answered each page.
pub(crate) async fn page_raw(
    endpoint: &str,
    token: &str,
    tool: &str,
    args: Value,
) -> (Vec<String>, Vec<String>) {
    let (mut ids, mut upstreams) = (Vec::new(), Vec::new());
    let mut args = args.as_object().cloned().unwrap_or_default();
    loop {
        let a = h::raw_call(
            endpoint,
            Some(token),
            tool,
            Value::Object(args.clone()),
            &[],
        )
        .await;
        upstreams.push(a.header("x-upstream").expect("nginx names the upstream"));
        let r = h::tool_result(&a);
        assert_ne!(r["isError"], json!(true), "{r}");
        let page = &r["structuredContent"];
        ids.extend(h::item_ids(std::slice::from_ref(page)));
        match page["next_cursor"].as_str() {
            Some(c) => {
                args.insert("cursor".into(), json!(c));
            }
            None => return (ids, upstreams),
        }
        assert!(upstreams.len() < 2000, "{tool} does not end");
    }
}

pub(crate) fn posts_served(instances: &[Instance]) -> Vec<usize> {
    instances
        .iter()
        .map(|i| {
            i.log()
                .lines()
                .filter(|l| l.contains(" POST /mcp 200 "))
                .count()
        })
        .collect()
}

pub(crate) fn check_spread(upstreams: &[String], what: &str) {
    for pair in upstreams.windows(2) {
        assert_ne!(
            pair[0], pair[1],
            "{what}: two requests in a row on one instance"
        );
    }
    let distinct: std::collections::BTreeSet<&String> = upstreams.iter().collect();
    assert_eq!(distinct.len(), 3, "{what}: every instance served pages");
}

#[tokio::test(flavor = "multi_thread")]
async fn three_instances_behind_round_robin_nginx_page_every_item_exactly_once() {
    let Some(nginx) = nginx_binary() else {
        skip_loudly("nginx is not installed");
        return;
    };
    let Two {
        world,
        shared,
        shared_posts,
        alice_saved,
        ..
    } = two_people(150);
    let sim = Sim::start(world).await.expect("sim");
    let sessions = std::env::temp_dir().join(format!("mm-mcp-sessions-{}", std::process::id()));
    let port = free_port();
    let instances = three(&sim, port, Some(&sessions)).await;
    let ports: Vec<u16> = instances.iter().map(|i| i.port).collect();
    let _nginx = start_nginx(&nginx, port, &ports, "");
    let endpoint = format!("http://127.0.0.1:{port}/mcp");
    let token = sim.token("alice");

    // Stateless (2026-07-28), request by request: each page on another instance than the last.
    let (ids, upstreams) = page_raw(
        &endpoint,
        &token,
        "read_channel",
        json!({"channel": shared, "limit": 7}),
    )
    .await;
    exactly_once(&ids, &shared_posts, "read_channel through nginx");
    check_spread(&upstreams, "read_channel");
    let (ids, upstreams) = page_raw(&endpoint, &token, "list_saved", json!({"limit": 3})).await;
    exactly_once(&ids, &alice_saved, "list_saved through nginx");
    check_spread(&upstreams, "list_saved");

    // rmcp's client in both generations, through the same round-robin: sessions continue on any
    // instance because they share the session directory.
    for generation in [Generation::Stateless, Generation::Sessions] {
        let before = posts_served(&instances);
        let client = h::connect(&endpoint, &token, generation).await;
        let pages = client
            .pages("read_channel", json!({"channel": shared, "limit": 9}))
            .await;
        exactly_once(
            &h::item_ids(&pages),
            &shared_posts,
            "read_channel, rmcp's client",
        );
        let pages = client.pages("list_saved", json!({"limit": 4})).await;
        exactly_once(
            &h::item_ids(&pages),
            &alice_saved,
            "list_saved, rmcp's client",
        );
        let after = posts_served(&instances);
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            assert!(
                a - b >= 5,
                "{generation:?}: instance {i} served {} calls",
                a - b
            );
        }
        let _ = client.service.cancel().await;
    }

    // A session belongs to its opener on every instance: bob cannot use alice's.
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let opened = h::send(
        h::http()
            .post(&endpoint)
            .bearer_auth(&token)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .body(init.to_string()),
    )
    .await;
    let session = opened.header("mcp-session-id").expect("a session");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}});
    for (who, expected) in [
        ("bob", 404),
        ("bob", 404),
        ("alice", 200),
        ("alice", 200),
        ("alice", 200),
    ] {
        let a = h::send(
            h::http()
                .post(&endpoint)
                .bearer_auth(sim.token(who))
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json")
                .header("Mcp-Session-Id", &session)
                .header("MCP-Protocol-Version", "2025-11-25")
                .body(list.to_string()),
        )
        .await;
        assert_eq!(
            a.status,
            expected,
            "{who} on {:?}: {}",
            a.header("x-upstream"),
            a.body
        );
    }
    let _ = std::fs::remove_dir_all(&sessions);
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_shared_session_directory_a_session_is_unknown_to_the_next_instance() {
    let Some(nginx) = nginx_binary() else {
        skip_loudly("nginx is not installed");
        return;
    };
    let sim = Sim::start(two_people(3).world).await.expect("sim");
    let port = free_port();
    let instances = three(&sim, port, None).await;
    let ports: Vec<u16> = instances.iter().map(|i| i.port).collect();
    let _nginx = start_nginx(&nginx, port, &ports, "");
    let endpoint = format!("http://127.0.0.1:{port}/mcp");
    let token = sim.token("alice");
    let post = |body: Value, session: Option<&str>| {
        let mut r = h::http()
            .post(&endpoint)
            .bearer_auth(&token)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .body(body.to_string());
        if let Some(s) = session {
            r = r
                .header("Mcp-Session-Id", s)
                .header("MCP-Protocol-Version", "2025-11-25");
        }
        h::send(r)
    };
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let opened = post(init, None).await;
    let session = opened.header("mcp-session-id").expect("a session");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}});
    let statuses = [
        post(list.clone(), Some(&session)).await.status,
        post(list.clone(), Some(&session)).await.status,
        post(list.clone(), Some(&session)).await.status,
    ];
    assert_eq!(
        statuses.iter().filter(|s| **s == 404).count(),
        2,
        "round-robin sends two of three requests to instances that never saw the session: {statuses:?}"
    );
    // The same requests without a session (2026-07-28) are answered everywhere.
    for _ in 0..3 {
        let a = h::raw_call(&endpoint, Some(&token), "list_saved", json!({}), &[]).await;
        assert_eq!(a.status, 200, "{}", a.body);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn sticky_routing_by_person_carries_sessions_without_a_shared_directory() {
    let Some(nginx) = nginx_binary() else {
        skip_loudly("nginx is not installed");
        return;
    };
    let Two {
        world,
        shared,
        shared_posts,
        alice_saved,
        bob_saved,
        ..
    } = two_people(60);
    let sim = Sim::start(world).await.expect("sim");
    let port = free_port();
    let instances = three(&sim, port, None).await;
    let ports: Vec<u16> = instances.iter().map(|i| i.port).collect();
    let _nginx = start_nginx(&nginx, port, &ports, "hash $http_authorization consistent;");
    let endpoint = format!("http://127.0.0.1:{port}/mcp");
    for (who, saved) in [("alice", &alice_saved), ("bob", &bob_saved)] {
        let client = h::connect(&endpoint, &sim.token(who), Generation::Sessions).await;
        let pages = client
            .pages("read_channel", json!({"channel": shared, "limit": 9}))
            .await;
        exactly_once(&h::item_ids(&pages), &shared_posts, "read_channel, sticky");
        let pages = client.pages("list_saved", json!({"limit": 4})).await;
        exactly_once(&h::item_ids(&pages), saved, "list_saved, sticky");
        let _ = client.service.cancel().await;
    }
    // Each person's requests all reached one instance.
    for who in ["alice", "bob"] {
        let on: Vec<usize> = instances
            .iter()
            .map(|i| {
                i.log()
                    .lines()
                    .filter(|l| l.contains(" POST /mcp ") && l.ends_with(&format!("@{who}")))
                    .count()
            })
            .collect();
        assert_eq!(on.iter().filter(|n| **n > 0).count(), 1, "{who}: {on:?}");
    }
}
