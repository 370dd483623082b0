//! Bad input and secrets: configuration refused with what to fix, TLS with an added certificate
//! authority, many calls at once on one session.

use crate::harness::{self, BIN};
use crate::read_channel::tied_channel;
use mattermost_sim::Sim;
use serde_json::json;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// Runs the binary with only `env`, expecting it to stop at once; returns its exit code and stderr.
async fn run_expecting_exit(env: &[(&str, &str)], args: &[&str]) -> (Option<i32>, String) {
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.env_clear()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = cmd.spawn().expect("spawn");
    let out = tokio::time::timeout(Duration::from_secs(20), child.wait_with_output())
        .await
        .expect("it stops by itself")
        .expect("output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_configuration_stops_the_server_saying_what_to_fix() {
    let token = "RECOGNISABLE-TOKEN-not-to-be-printed";
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[("MATTERMOST_TOKEN", token)], "MATTERMOST_URL is not set"),
        (
            &[("MATTERMOST_URL", "https://chat.example.com")],
            "MATTERMOST_TOKEN is not set",
        ),
        (
            &[
                ("MATTERMOST_URL", "http://chat.example.com"),
                ("MATTERMOST_TOKEN", token),
            ],
            "MATTERMOST_ALLOW_HTTP=true",
        ),
        (
            &[
                ("MATTERMOST_URL", "chat.example.com"),
                ("MATTERMOST_TOKEN", token),
            ],
            "is not an address",
        ),
        (
            &[
                ("MATTERMOST_URL", "https://chat.example.com"),
                ("MATTERMOST_TOKEN", token),
                ("MATTERMOST_TIMEOUT_SECS", "soon"),
            ],
            "MATTERMOST_TIMEOUT_SECS",
        ),
        (
            &[
                ("MATTERMOST_URL", "https://chat.example.com"),
                ("MATTERMOST_TOKEN", token),
                ("MATTERMOST_CA_FILE", "/nonexistent/ca.pem"),
            ],
            "cannot be read",
        ),
        (
            &[
                ("MATTERMOST_URL", "https://chat.example.com"),
                ("MATTERMOST_TOKEN", token),
                ("MATTERMOST_CA_FILE", "/etc/hostname"),
            ],
            "holds no",
        ),
    ];
    for (env, expected) in cases {
        let (code, stderr) = run_expecting_exit(env, &[]).await;
        assert_eq!(code, Some(2), "{env:?}: exits with status 2 ({stderr})");
        assert!(
            stderr.contains(expected),
            "{env:?}: the message says {expected:?}: {stderr}"
        );
        assert!(!stderr.contains(token), "the token is never printed");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_token_stops_the_server_at_start() {
    let (world, _, _) = tied_channel(1, 1, 41);
    let sim = Sim::start_detached(world).expect("sim");
    let (code, stderr) = run_expecting_exit(
        &[
            ("MATTERMOST_URL", &sim.url()),
            ("MATTERMOST_TOKEN", "not-a-token-anyone-has"),
        ],
        &[],
    )
    .await;
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("refused the token") && stderr.contains("MATTERMOST_TOKEN"),
        "{stderr}"
    );
}

/// A TLS front for the simulator: terminates TLS with `cert`/`key` and forwards the bytes.
async fn tls_front(backend: String, cert: &Path, key: &Path) -> u16 {
    use rustls_pki_types::pem::PemObject;
    use rustls_pki_types::{CertificateDer, PrivateKeyDer};
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .expect("certs")
        .map(|c| c.expect("cert"))
        .collect();
    let key = PrivateKeyDer::from_pem_file(key).expect("key");
    let config = tokio_rustls::rustls::ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("tls config");
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let (acceptor, backend) = (acceptor.clone(), backend.clone());
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let Ok(mut plain) = tokio::net::TcpStream::connect(&backend).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
            });
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread")]
async fn a_ca_file_adds_a_certificate_authority_to_the_systems() {
    let dir = std::env::temp_dir().join(format!("mattermost-mcp-tls-{}", std::process::id()));
    let (ca, cert, key) = harness::certificates(&dir);
    let (world, _, _) = tied_channel(3, 1, 42);
    let sim = Sim::start(world).await.expect("sim");
    let backend = sim.url().trim_start_matches("http://").to_string();
    let port = tls_front(backend, &cert, &key).await;
    let url = format!("https://localhost:{port}");

    let trusted = harness::spawn(
        &url,
        &sim.token("alice"),
        &[("MATTERMOST_CA_FILE", ca.to_str().unwrap_or_default())],
        &[],
    )
    .await;
    let me = trusted.ok("get_me", json!({})).await;
    assert_eq!(
        me["username"],
        json!("alice"),
        "with the CA file, TLS to the server works"
    );

    let untrusted = harness::spawn(&url, &sim.token("alice"), &[], &[]).await;
    let e = untrusted.refused("get_me", json!({})).await;
    assert_eq!(
        e["kind"],
        json!("unreachable"),
        "without it, the certificate is not trusted: {e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn sixty_four_concurrent_calls_on_one_session_each_get_their_own_result() {
    let (world, channel, posted) = tied_channel(300, 1, 43);
    let (_sim, mcp) = harness::start(world, "alice").await;
    let mcp = Arc::new(mcp);
    let mut calls = Vec::new();
    for n in 1..=64u64 {
        let (mcp, channel) = (mcp.clone(), channel.clone());
        calls.push(tokio::spawn(async move {
            let page = mcp
                .ok("read_channel", json!({"channel": channel, "limit": n}))
                .await;
            (n, page)
        }));
    }
    for call in calls {
        let (n, page) = call.await.expect("the call task");
        assert_eq!(
            page["returned"].as_u64(),
            Some(n),
            "the call with limit {n} got its own page"
        );
        let newest = page["items"]
            .as_array()
            .and_then(|i| i.last())
            .and_then(|p| p["id"].as_str())
            .unwrap_or_default()
            .to_string();
        assert_eq!(
            newest,
            posted[posted.len() - 1],
            "each page ends at the newest post"
        );
    }
}

/// Values that would change a request's path or query if they went into one unchecked.
const HOSTILE: &[&str] = &[
    "../../users/me",
    "..",
    "%2F..%2Fusers",
    "x?per_page=9999",
    "x#frag",
    "two words",
    "ｔｏｗｎ-ｓｑｕａｒｅ",
    "town-square/../x",
    "\u{202e}evil",
];

#[tokio::test(flavor = "multi_thread")]
async fn a_value_never_changes_the_path_or_query_of_the_request_it_goes_into() {
    use mattermost_mcp::args::Kind;
    let (world, rich) = harness::rich_world();
    let sim = Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(
        &sim.url(),
        &sim.token("alice"),
        &[
            ("MATTERMOST_ALLOW_WRITES", "true"),
            ("MATTERMOST_TOOLSETS", "all"),
        ],
        &[],
    )
    .await;
    let mut tried = 0;
    for tool in mattermost_mcp::inventory::Offer::everything().tools() {
        for arg in tool.all_args().iter().filter(|a| {
            matches!(
                a.kind,
                Kind::Channel
                    | Kind::Team
                    | Kind::Post
                    | Kind::User
                    | Kind::Users { .. }
                    | Kind::Text { .. }
            )
        }) {
            for value in HOSTILE {
                let mut args = harness::sample_args(tool, &rich);
                let v = if matches!(arg.kind, Kind::Users { .. }) {
                    json!([value])
                } else {
                    json!(value)
                };
                args[arg.name] = v;
                sim.clear_log();
                let _ = mcp.call(tool.name, args).await;
                tried += 1;
                for r in sim.log() {
                    let decoded = r.path.clone();
                    assert!(
                        !decoded.contains("..")
                            && !decoded.contains(' ')
                            && decoded.is_ascii()
                            && !decoded.split('/').any(|segment| segment == "x"),
                        "{}({}={value:?}) sent {} {}",
                        tool.name,
                        arg.name,
                        r.method,
                        r.path
                    );
                    assert!(
                        r.query
                            .iter()
                            .all(|(k, v)| k != "per_page"
                                || v.parse::<u32>().is_ok_and(|n| n <= 201)),
                        "{}({}={value:?}) changed the query: {:?}",
                        tool.name,
                        arg.name,
                        r.query
                    );
                    for segment in r.path.split('/') {
                        assert!(
                            segment
                                .chars()
                                .all(|c| c.is_ascii_alphanumeric() || "-_.@".contains(c)),
                            "{}({}={value:?}): a path segment {segment:?} in {}",
                            tool.name,
                            arg.name,
                            r.path
                        );
                    }
                }
            }
        }
    }
    assert!(tried >= 100, "too few hostile values tried: {tried}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_token_appears_in_no_result_error_log_line_or_panic() {
    use mattermost_sim::{Fault, FaultRule};
    let token = "RECOGNISABLE-SECRET-7f3a9c1e5b";
    let (mut world, rich) = harness::rich_world();
    world.set_token("alice", token);
    let sim = Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(
        &sim.url(),
        token,
        &[
            ("MATTERMOST_ALLOW_WRITES", "true"),
            ("MATTERMOST_TOOLSETS", "all"),
        ],
        &[],
    )
    .await;
    let mut texts = Vec::new();
    // Faults that fail at once for every tool; those that are retried with backoff (503, a cut
    // connection) for one tool, to keep the test quick.
    let faults = [
        None,
        Some(Fault::Status(500)),
        Some(Fault::RateLimited {
            retry_after_secs: 0,
        }),
        Some(Fault::Html),
        Some(Fault::MalformedJson),
    ];
    for fault in [Fault::Status(503), Fault::CutMidBody] {
        sim.inject(FaultRule::everywhere(fault));
        texts.push(
            serde_json::to_string(
                &mcp.call("read_channel", json!({"channel": rich.channel}))
                    .await,
            )
            .unwrap_or_default(),
        );
        sim.clear_faults();
    }

    for fault in &faults {
        sim.clear_faults();
        if let Some(f) = fault {
            sim.inject(FaultRule::everywhere(f.clone()));
        }
        for tool in mattermost_mcp::inventory::Offer::everything().tools() {
            let good = harness::sample_args(tool, &rich);
            texts.push(serde_json::to_string(&mcp.call(tool.name, good).await).unwrap_or_default());
            texts.push(
                serde_json::to_string(&mcp.call(tool.name, json!({"nonsense": 1})).await)
                    .unwrap_or_default(),
            );
        }
    }
    sim.clear_faults();
    sim.expire_token("alice");
    texts.push(serde_json::to_string(&mcp.call("get_me", json!({})).await).unwrap_or_default());
    assert!(
        texts.len() > 250,
        "too few results checked: {}",
        texts.len()
    );
    for t in &texts {
        assert!(!t.contains(token), "a result carries the token: {t}");
    }
    let stderr = mcp.stderr();
    assert!(!stderr.contains(token), "a log line carries the token");
    assert!(
        !stderr.contains("panicked"),
        "the server panicked: {stderr}"
    );
    assert!(
        sim.log()
            .iter()
            .all(|r| r.header("authorization") == Some("<redacted>")),
        "every request carried the token as a header, nowhere else"
    );
    assert!(
        sim.log()
            .iter()
            .all(|r| !r.path.contains(token) && r.query.iter().all(|(_, v)| !v.contains(token)))
    );
}
