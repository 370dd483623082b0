//! Live tests: the server against a real Mattermost, when one is configured.
//!
//! Set `MATTERMOST_LIVE_URL` and `MATTERMOST_LIVE_TOKEN` (a system administrator's token) and run
//! `cargo test --test live`. The tests seed and own their fixtures: a team, a channel and posts named at
//! random (`lt-<hex>`), archived at the end. Without the two variables they say loudly that they were
//! skipped and pass (CI has no Mattermost). This binary has its own `main` (no libtest harness) so that
//! the skip is printed whatever the output capture.

// Tests and their helpers say what must hold with unwrap and expect; outside tests both are denied.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mattermost_mcp::config::Config;
use mattermost_mcp::mattermost::{as_person, send};
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt, service::RunningService};
use serde_json::{Value, json};
use std::collections::BTreeSet;

const BIN: &str = env!("CARGO_BIN_EXE_mattermost-mcp");

struct Live {
    url: String,
    token: String,
    http: reqwest::Client,
}

impl Live {
    async fn api(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, String> {
        let mut request = self
            .http
            .request(method.clone(), format!("{}/api/v4{path}", self.url))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            request = request.json(&b);
        }
        let response = request
            .send()
            .await
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        if !status.is_success() {
            return Err(format!("{method} {path}: {status}: {text}"));
        }
        Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    async fn post(&self, path: &str, body: Value) -> Result<Value, String> {
        self.api(reqwest::Method::POST, path, Some(body)).await
    }
}

/// The posts a channel holds already: Mattermost posts the creator's "joined the channel" system
/// message when a channel is created (`postJoinChannelMessage`), so a fresh channel is not empty.
async fn existing_posts(live: &Live, channel_id: &str) -> Result<BTreeSet<String>, String> {
    let page = live
        .api(
            reqwest::Method::GET,
            &format!("/channels/{channel_id}/posts?per_page=200"),
            None,
        )
        .await?;
    Ok(page["order"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|id| id.as_str().map(str::to_string))
        .collect())
}

fn random_name() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("lt-{:x}", nanos ^ u128::from(std::process::id()))
}

async fn mcp(live: &Live) -> RunningService<RoleClient, ()> {
    mcp_with(live, &[]).await
}

/// The server, with some more settings (writes allowed, toolsets).
async fn mcp_with(live: &Live, extra: &[(&str, &str)]) -> RunningService<RoleClient, ()> {
    let (url, token) = (live.url.clone(), live.token.clone());
    let extra: Vec<(String, String)> = extra
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let cmd = tokio::process::Command::new(BIN).configure(move |c| {
        c.env_clear()
            .env("MATTERMOST_URL", &url)
            .env("MATTERMOST_TOKEN", &token)
            .env("MATTERMOST_ALLOW_HTTP", "true");
        for (k, v) in &extra {
            c.env(k, v);
        }
    });
    ().serve(TokioChildProcess::new(cmd).expect("spawn"))
        .await
        .expect("session")
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    args: Value,
) -> Result<Value, String> {
    let args = args.as_object().cloned().unwrap_or_default();
    let r = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .map_err(|e| e.to_string())?;
    if r.is_error == Some(true) {
        // An error result's text is the error as JSON; it has no structuredContent.
        let text = r
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .unwrap_or_default();
        Err(format!("{tool}: {text}"))
    } else {
        Ok(r.structured_content.unwrap_or_default())
    }
}

async fn read_all(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    mut args: Value,
) -> Result<(Vec<String>, u64), String> {
    let mut ids = Vec::new();
    let mut requests = 0;
    loop {
        let page = call(client, tool, args.clone()).await?;
        requests += page["requests"].as_u64().unwrap_or(0);
        ids.extend(
            page["items"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|i| i["id"].as_str().map(str::to_string)),
        );
        match page["next_cursor"].as_str() {
            Some(c) => args["cursor"] = json!(c),
            None => return Ok((ids, requests)),
        }
    }
}

/// Seeds a team and a channel of 250 posts in bursts of up to 5 per millisecond (an administrator may
/// set create_at), and reads it to its end at several limits: every post exactly once.
async fn a_tied_channel_reads_every_post_exactly_once(
    live: &Live,
    team: &str,
) -> Result<(), String> {
    let me = live.api(reqwest::Method::GET, "/users/me", None).await?;
    let channel = live
        .post("/channels", json!({"team_id": team, "name": random_name(), "display_name": "live ties", "type": "O"}))
        .await?;
    let channel_id = channel["id"].as_str().ok_or("no channel id")?.to_string();
    let before = existing_posts(live, &channel_id).await?;
    let mut posted = BTreeSet::new();
    let mut t: i64 = 1_600_000_000_000;
    while posted.len() < 250 {
        for k in 0..(1 + posted.len() % 5) {
            let p = live
                .post("/posts", json!({"channel_id": channel_id, "message": format!("live post {} {k}", posted.len()), "create_at": t}))
                .await?;
            posted.insert(p["id"].as_str().unwrap_or_default().to_string());
        }
        t += 1;
    }
    posted.extend(before);
    let client = mcp(live).await;
    for limit in [1, 7, 200] {
        let (ids, requests) = read_all(
            &client,
            "read_channel",
            json!({"channel": channel_id, "limit": limit}),
        )
        .await?;
        let unique: BTreeSet<String> = ids.iter().cloned().collect();
        if unique.len() != ids.len() || unique != posted {
            return Err(format!(
                "limit {limit}: {} posts read, {} distinct, {} posted",
                ids.len(),
                unique.len(),
                posted.len()
            ));
        }
        println!(
            "    limit {limit}: {} posts exactly once, {requests} requests",
            ids.len()
        );
    }
    let _ = me;
    Ok(())
}

/// A post made through the server exists once, carries Mattermost's AI-generated mark with the
/// person's own id, takes a reaction, and is read back once by read_channel.
async fn a_post_made_through_the_server_is_made_once_marked_and_read_back(
    live: &Live,
    team: &str,
) -> Result<(), String> {
    let me = live.api(reqwest::Method::GET, "/users/me", None).await?;
    let me_id = me["id"].as_str().ok_or("no user id")?.to_string();
    let channel = live
        .post("/channels", json!({"team_id": team, "name": random_name(), "display_name": "live writes", "type": "O"}))
        .await?;
    let channel_id = channel["id"].as_str().ok_or("no channel id")?.to_string();
    let client = mcp_with(
        live,
        &[
            ("MATTERMOST_ALLOW_WRITES", "true"),
            ("MATTERMOST_CONFIRM_WRITES", "never"),
        ],
    )
    .await;
    let text = format!("live write {}", random_name());
    let made = call(
        &client,
        "create_post",
        json!({"channel": channel_id, "message": text}),
    )
    .await?;
    let post_id = made["post_id"].as_str().ok_or("no post_id")?.to_string();
    let stored = live
        .api(reqwest::Method::GET, &format!("/posts/{post_id}"), None)
        .await?;
    if stored["props"]["ai_generated_by"] != json!(me_id)
        || made["marked_ai_generated"] != json!(true)
    {
        return Err(format!(
            "the post is not marked as AI-generated by its author: props {}",
            stored["props"]
        ));
    }
    call(
        &client,
        "add_reaction",
        json!({"post": post_id, "emoji": "thumbsup"}),
    )
    .await?;
    let reactions = live
        .api(
            reqwest::Method::GET,
            &format!("/posts/{post_id}/reactions"),
            None,
        )
        .await?;
    let thumbs = reactions
        .as_array()
        .into_iter()
        .flatten()
        // Mattermost's own name for thumbsup is `+1` (`thumbsup` is its alias); either is one reaction.
        .filter(|r| {
            matches!(r["emoji_name"].as_str(), Some("+1" | "thumbsup"))
                && r["user_id"] == json!(me_id)
        })
        .count();
    if thumbs != 1 {
        return Err(format!(
            "{thumbs} thumbsup reactions of mine, want 1: {reactions}"
        ));
    }
    let (ids, _) = read_all(
        &client,
        "read_channel",
        json!({"channel": channel_id, "limit": 200}),
    )
    .await?;
    let copies = ids.iter().filter(|i| **i == post_id).count();
    if copies != 1 {
        return Err(format!("read_channel gave the post {copies} times"));
    }
    println!("    posted, marked, reacted to and read back once: {post_id}");
    Ok(())
}

/// The operation gateway reaches an operation no tool covers (the person's preferences) with one
/// request, and refuses a parameter the operation does not take before sending anything.
async fn the_gateway_reads_an_operation_no_tool_covers(live: &Live) -> Result<(), String> {
    let me = live.api(reqwest::Method::GET, "/users/me", None).await?;
    let me_id = me["id"].as_str().ok_or("no user id")?.to_string();
    let client = mcp_with(live, &[("MATTERMOST_TOOLSETS", "all")]).await;
    let page = call(
        &client,
        "call_operation",
        json!({"operation": "GetPreferences", "params": {"user_id": me_id}, "limit": 200}),
    )
    .await?;
    if !page["items"].is_array() || page["requests"] != json!(1) {
        return Err(format!("GetPreferences through the gateway: {page}"));
    }
    match call(
        &client,
        "call_operation",
        json!({"operation": "GetPreferences", "params": {"user": me_id}}),
    )
    .await
    {
        Err(e) if e.contains("user_id") => {}
        other => {
            return Err(format!(
                "an unknown parameter was not refused naming user_id: {other:?}"
            ));
        }
    }
    println!(
        "    GetPreferences: {} preferences in 1 request",
        page["items"].as_array().map(Vec::len).unwrap_or(0)
    );
    Ok(())
}

/// The undocumented collapsedThreads is read by the real server: only thread roots come back.
async fn collapsed_threads_is_read_by_the_server(live: &Live, team: &str) -> Result<(), String> {
    let channel = live.post("/channels", json!({"team_id": team, "name": random_name(), "display_name": "live threads", "type": "O"})).await?;
    let channel_id = channel["id"].as_str().unwrap_or_default().to_string();
    let base = existing_posts(live, &channel_id).await?.len();
    let root = live
        .post(
            "/posts",
            json!({"channel_id": channel_id, "message": "a root"}),
        )
        .await?;
    live.post(
        "/posts",
        json!({"channel_id": channel_id, "message": "a reply", "root_id": root["id"]}),
    )
    .await?;
    let config = Config::from(|k| match k {
        "MATTERMOST_URL" => Some(live.url.clone()),
        "MATTERMOST_TOKEN" => Some(live.token.clone()),
        "MATTERMOST_ALLOW_HTTP" => Some("true".into()),
        _ => None,
    })?;
    let mm = config.connect()?;
    let token = config.token.clone();
    let all = as_person(
        &token,
        &["GetPostsForChannel"],
        send(
            mm.api()
                .get_posts_for_channel()
                .channel_id(&channel_id)
                .page(0)
                .per_page(60)
                .send(),
        ),
    )
    .await
    .map_err(|e| format!("{e:?}"))?;
    let roots = as_person(
        &token,
        &["GetPostsForChannel"],
        send(
            mm.api()
                .get_posts_for_channel()
                .channel_id(&channel_id)
                .collapsed_threads(true)
                .page(0)
                .per_page(60)
                .send(),
        ),
    )
    .await
    .map_err(|e| format!("{e:?}"))?;
    let (a, r) = (
        all.into_inner().order.unwrap_or_default().len(),
        roots.into_inner().order.unwrap_or_default().len(),
    );
    if a != base + 2 || r != base + 1 {
        return Err(format!(
            "without collapsedThreads {a} posts (want {}), with it {r} (want {})",
            base + 2,
            base + 1
        ));
    }
    Ok(())
}

#[tokio::main]
async fn main() {
    // `MATTERMOST_LIVE_URL=simulator` runs the suite against the project's simulator, to check the suite
    // itself (CI does); any other value is a real Mattermost.
    let mut simulator = None;
    let (url, token) = match (
        std::env::var("MATTERMOST_LIVE_URL"),
        std::env::var("MATTERMOST_LIVE_TOKEN"),
    ) {
        (Ok(url), _) if url == "simulator" => {
            let mut world = mattermost_sim::World::new(5);
            let admin = world.user("admin");
            world.make_admin(&admin);
            let sim = mattermost_sim::Sim::start(world)
                .await
                .expect("the simulator starts");
            let pair = (sim.url(), sim.token("admin"));
            simulator = Some(sim);
            pair
        }
        (Ok(url), Ok(token)) => (url, token),
        _ => {
            println!(
                "\n==> LIVE TESTS SKIPPED: set MATTERMOST_LIVE_URL and MATTERMOST_LIVE_TOKEN (a system administrator's"
            );
            println!(
                "    token) to run them against a real Mattermost; see the README's Tests section.\n"
            );
            return;
        }
    };
    let _keep = simulator;
    mattermost_client::tls::install();
    let live = Live {
        url: url.trim_end_matches('/').to_string(),
        token,
        http: reqwest::Client::new(),
    };
    let team = match live.post("/teams", json!({"name": random_name(), "display_name": "mattermost-mcp live tests", "type": "O"})).await {
        Ok(t) => t["id"].as_str().unwrap_or_default().to_string(),
        Err(e) => {
            println!("live tests: cannot create their team: {e}");
            std::process::exit(1);
        }
    };
    println!("live tests against {} (team {team})", live.url);
    let mut failed = 0;
    let results = [
        (
            "a_tied_channel_reads_every_post_exactly_once",
            a_tied_channel_reads_every_post_exactly_once(&live, &team).await,
        ),
        (
            "collapsed_threads_is_read_by_the_server",
            collapsed_threads_is_read_by_the_server(&live, &team).await,
        ),
        (
            "a_post_made_through_the_server_is_made_once_marked_and_read_back",
            a_post_made_through_the_server_is_made_once_marked_and_read_back(&live, &team).await,
        ),
        (
            "the_gateway_reads_an_operation_no_tool_covers",
            the_gateway_reads_an_operation_no_tool_covers(&live).await,
        ),
    ];
    for (name, result) in results {
        match result {
            Ok(()) => println!("  ok    {name}"),
            Err(e) => {
                failed += 1;
                println!("  FAIL  {name}: {e}");
            }
        }
    }
    let _ = live
        .api(reqwest::Method::DELETE, &format!("/teams/{team}"), None)
        .await;
    if failed > 0 {
        std::process::exit(1);
    }
}
