//! The command line of `mattermost-mcp`, which `src/main.rs` runs (here, in the library, so that a
//! release build compiles it once, with the code it calls, rather than again in the binary).
//!
//! `serve` (the default) reads `MATTERMOST_URL` and `MATTERMOST_TOKEN` from the environment and serves
//! MCP on stdin/stdout; `serve --http ADDR` serves Streamable HTTP for a whole team instead, each
//! request with its person's token (see `crate::serve`); `demo` does either against a
//! built-in simulated Mattermost; `overrides` prints the spec overrides the client was generated
//! with. Logs go to stderr.

use crate::{bundle, config, inventory, log, overrides_cmd, serve, spec_check};

use clap::{Args, Parser, Subcommand};

use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "mattermost-mcp",
    version,
    about = "An MCP server for Mattermost, over stdio or Streamable HTTP."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Tools per tools/list page (0: all in one page).
    #[arg(long, default_value_t = 100, global = true)]
    page_size: usize,
}

/// How to serve: stdio by default, or Streamable HTTP.
#[derive(Args, Clone, Default)]
struct Listen {
    /// Serve Streamable HTTP at /mcp on ADDR (IP:PORT, or a port alone on 127.0.0.1; default
    /// 127.0.0.1:8080), each request as the person whose `Authorization: Bearer` token it carries.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = serve::settings::DEFAULT_ADDR)]
    http: Option<String>,
    /// With --http: the server's certificate (PEM, with its chain), to serve HTTPS with rustls.
    #[arg(long, value_name = "PATH", requires = "http")]
    tls_cert: Option<std::path::PathBuf>,
    /// With --http: the certificate's private key (PEM).
    #[arg(long, value_name = "PATH", requires = "http")]
    tls_key: Option<std::path::PathBuf>,
}

impl Listen {
    fn transport(self) -> Transport {
        Transport {
            http: self.http,
            tls_cert: self.tls_cert,
            tls_key: self.tls_key,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Serve MCP against the Mattermost in MATTERMOST_URL: on stdio as the person whose token is in
    /// MATTERMOST_TOKEN, or with --http for a whole team, each request with its person's token.
    Serve(Listen),
    /// Serve MCP against a built-in simulated Mattermost with a small demo workspace (on stdio as
    /// @demo; with --http, each request with a demo token the log prints).
    ///
    /// Its tools only read unless MATTERMOST_ALLOW_WRITES=true is in its environment. Then the writes
    /// (posts, reactions, edits, ...) change only the demo's simulated workspace, in memory, gone when
    /// it stops: nothing reaches a real Mattermost. Writes others would see are first confirmed with the
    /// person through the MCP client (elicitation); in a client that cannot ask, set
    /// MATTERMOST_CONFIRM_WRITES=never as well.
    Demo(Listen),
    /// Start only the simulated Mattermost, with the demo workspace and N more people (for the
    /// benchmark): prints {"url", "tokens"} as one JSON line, then runs until killed.
    #[command(hide = true)]
    Sim {
        #[arg(long, default_value_t = 64)]
        people: usize,
    },
    /// Make a Claude Desktop bundle (.mcpb) of this binary: open it in Claude Desktop to install the
    /// server, which then asks for your Mattermost's address and your token.
    Bundle {
        /// Where to write it: a file, or a directory (default: the current one) to write
        /// mattermost-mcp-VERSION-PLATFORM-ARCH.mcpb in.
        #[arg(long, value_name = "PATH", default_value = ".")]
        output: std::path::PathBuf,
        /// The binary to bundle (default: this one).
        #[arg(long, value_name = "PATH")]
        binary: Option<std::path::PathBuf>,
    },
    /// Print the spec overrides and repairs the client was generated with.
    Overrides,
    /// Compare another release's OpenAPI spec with the pinned one, for what the tools use.
    SpecCheck {
        /// The spec file (YAML or JSON) of another Mattermost release.
        path: std::path::PathBuf,
    },
    /// Print what the tools use of the pinned spec (the contents of spec/table-uses.json).
    #[command(hide = true)]
    TableUses,
    /// Print the README's tool list from the inventory.
    #[command(hide = true)]
    ToolsMarkdown,
}

/// Runs the command line: parses the arguments, starts the async runtime and runs the command.
pub fn main() -> ExitCode {
    log::init(std::env::var("MATTERMOST_MCP_LOG").ok().as_deref());
    let cli = Cli::parse();
    // Workers get 8 MiB of stack: an unoptimized build keeps a call's whole future chain (tool, name
    // resolution, the generated request, reqwest, hyper) in frames that outgrew tokio's 2 MiB
    // default (seen: `get_channel` of an unknown `@name`). Only the pages touched are resident.
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(8 * 1024 * 1024)
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            log::error(&format!("cannot start the async runtime: {e}"));
            return ExitCode::from(1);
        }
    };
    match cli.command.unwrap_or(Command::Serve(Listen::default())) {
        Command::Bundle { output, binary } => {
            let binary = match binary.map(Ok).unwrap_or_else(std::env::current_exe) {
                Ok(b) => b,
                Err(e) => {
                    log::error(&format!(
                        "cannot find this binary ({e}); give it with --binary PATH"
                    ));
                    return ExitCode::from(1);
                }
            };
            match bundle::write(&binary, &output) {
                Ok((path, size)) => {
                    println!("{}", path.display());
                    log::info(&format!(
                        "wrote {} ({:.1} MB): open it in Claude Desktop (Settings > Extensions) to install the server",
                        path.display(),
                        size as f64 / 1_000_000.0
                    ));
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    log::error(&message);
                    ExitCode::from(1)
                }
            }
        }
        Command::Overrides => {
            print!("{}", overrides_cmd::report());
            ExitCode::SUCCESS
        }
        Command::SpecCheck { path } => match spec_check::run(&path) {
            Ok((report, buildable)) => {
                print!("{report}");
                if buildable {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(message) => {
                log::error(&message);
                ExitCode::from(2)
            }
        },
        Command::ToolsMarkdown => {
            print!("{}", spec_check::tools_markdown());
            ExitCode::SUCCESS
        }
        Command::TableUses => match serde_json::to_string_pretty(&spec_check::table_uses()) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                log::error(&e.to_string());
                ExitCode::from(1)
            }
        },
        Command::Serve(listen) => {
            let token_set = std::env::var(config::TOKEN).is_ok_and(|t| !t.trim().is_empty());
            if let Ok(token) = std::env::var(config::TOKEN) {
                // Redacted from every error read from Mattermost, over stdio and over HTTP (where it
                // is not used, but may still be echoed by a proxy that was given it).
                crate::mattermost::errors::redact_also(&config::Secret::new(
                    token.trim().to_string(),
                ));
            }
            let read = if listen.http.is_some() {
                config::Config::for_http(|name| std::env::var(name).ok())
            } else {
                config::Config::from_env()
            };
            match read {
                Ok(config) => {
                    runtime.block_on(serve(config, cli.page_size, listen.transport(), token_set))
                }
                Err(message) => {
                    log::error(&message);
                    ExitCode::from(2)
                }
            }
        }
        Command::Demo(listen) => runtime.block_on(demo(cli.page_size, listen.transport())),
        Command::Sim { people } => runtime.block_on(bench_sim(people)),
    }
}

async fn demo(page_size: usize, transport: Transport) -> ExitCode {
    let mut world = mattermost_sim::World::demo();
    // New tokens every run: the world is seeded, so its own tokens are the same in every copy of
    // this repository.
    let mut failed = false;
    world.replace_tokens(|| {
        crate::confirm::random_hex(13).unwrap_or_else(|_| {
            failed = true;
            String::new()
        })
    });
    if failed {
        log::error("cannot make the demo's tokens: no randomness from the operating system");
        return ExitCode::from(1);
    }
    let sim = match mattermost_sim::Sim::start(world).await {
        Ok(sim) => sim,
        Err(e) => {
            log::error(&format!("cannot start the demo Mattermost: {e}"));
            return ExitCode::from(1);
        }
    };
    if transport.http.is_some() {
        log::info(&format!(
            "demo: a simulated Mattermost with a small workspace runs at {}; send MCP requests with \
             `Authorization: Bearer {}` (user @demo) or `Bearer {}` (user @alice)",
            sim.url(),
            sim.token("demo"),
            sim.token("alice")
        ));
    } else {
        // The path this binary runs from: after `cargo run` it is on nobody's PATH.
        let me = std::env::current_exe()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| "mattermost-mcp".to_string());
        let command = if me.contains(char::is_whitespace) {
            format!("\"{me}\" demo")
        } else {
            format!("{me} demo")
        };
        log::info(&format!(
            "demo: a simulated Mattermost with a small workspace runs at {} (user @demo); this process speaks MCP on \
             stdio. Connect an MCP client by giving it the command `{command}`, e.g. \
             claude mcp add mattermost-demo -- {command}",
            sim.url()
        ));
    }
    let config = match config::Config::from(|name| match name {
        config::URL => Some(sim.url()),
        config::TOKEN => Some(sim.token("demo")),
        _ => std::env::var(name).ok(),
    }) {
        Ok(c) => c,
        Err(message) => {
            log::error(&message);
            return ExitCode::from(2);
        }
    };
    log::info(&demo_writes(
        config.allow_writes,
        config.confirm_writes == config::ConfirmWrites::Never,
    ));
    serve(config, page_size, transport, false).await
}

/// What the demo's start log says about writes.
fn demo_writes(allowed: bool, never_ask: bool) -> String {
    let only_demo =
        "they change only this demo's simulated workspace, in memory, and never a real Mattermost";
    match (allowed, never_ask) {
        (false, _) => format!(
            "demo: the tools only read. To try the writing tools, start the demo with {}=true in its environment: \
             {only_demo}.",
            config::ALLOW_WRITES
        ),
        (true, false) => format!(
            "demo: writes are allowed ({}=true): {only_demo}. Each write others would see is first confirmed with \
             the person through the MCP client; in a client that cannot ask, set {}=never as well.",
            config::ALLOW_WRITES,
            config::CONFIRM_WRITES
        ),
        (true, true) => format!(
            "demo: writes are allowed ({}=true) without confirmation ({}=never): {only_demo}.",
            config::ALLOW_WRITES,
            config::CONFIRM_WRITES
        ),
    }
}

/// The simulator alone, with the demo workspace, a channel of 100 posts with attachments, and
/// `people` more persons in it, each in the demo's team and channels with a few saved posts (for
/// `bench/`).
async fn bench_sim(people: usize) -> ExitCode {
    let mut world = mattermost_sim::World::demo();
    let team = world.team_id("acme").unwrap_or_default();
    let channels: Vec<String> = [
        "town-square",
        "off-topic",
        "engineering",
        "releases",
        "random",
    ]
    .iter()
    .filter_map(|c| world.channel_id("acme", c))
    .collect();
    let posts: Vec<String> = channels
        .iter()
        .flat_map(|c| world.post_ids_in(c))
        .take(40)
        .collect();
    // The benchmark's channel: 100 posts, each with a small attachment (every post then has file
    // ids, which the other server's models require).
    let bench = world.channel(&team, "bench", "Bench", mattermost_sim::ChannelKind::Public);
    let demo = world.user("demo");
    world.join(&bench, &demo);
    for i in 0..100i64 {
        let post = world.post(
            &bench,
            &demo,
            1_700_000_000_000 + i,
            &format!("bench post {i}"),
        );
        world.attach(
            &post,
            &format!("note-{i}.txt"),
            format!("note {i}").as_bytes(),
        );
    }
    let mut names = Vec::new();
    for i in 1..=people {
        let name = format!("person{i:03}");
        let id = world.user(&name);
        world.add_to_team(&team, &id);
        for c in channels.iter().chain([&bench]) {
            world.join(c, &id);
        }
        for p in posts.iter().skip(i % 7).step_by(3) {
            world.save(&id, p);
        }
        names.push(name);
    }
    let sim = match mattermost_sim::Sim::start(world).await {
        Ok(sim) => sim,
        Err(e) => {
            log::error(&format!("cannot start the simulated Mattermost: {e}"));
            return ExitCode::from(1);
        }
    };
    let tokens: Vec<String> = names.iter().map(|n| sim.token(n)).collect();
    let channel = bench;
    println!(
        "{}",
        serde_json::json!({"url": sim.url(), "tokens": tokens, "channel": channel, "team": team})
    );
    serve::listen::stop_signal().await;
    ExitCode::SUCCESS
}

/// What `serve` and `demo` were asked for: stdio, or HTTP on an address, with or without TLS.
struct Transport {
    http: Option<String>,
    tls_cert: Option<std::path::PathBuf>,
    tls_key: Option<std::path::PathBuf>,
}

async fn serve(
    config: config::Config,
    page_size: usize,
    transport: Transport,
    token_set: bool,
) -> ExitCode {
    let offer = match inventory::Offer::new(config.toolsets.as_deref(), config.allow_writes) {
        Ok(o) => o.confirming(config.confirm_writes),
        Err(message) => {
            log::error(&message);
            return ExitCode::from(2);
        }
    };
    crate::show::set_content(config.content);
    let Some(addr) = transport.http else {
        return serve::stdio::run(config, offer, page_size).await;
    };
    let settings = serve::settings::parse_addr(&addr).and_then(|addr| {
        let tls = match (transport.tls_cert, transport.tls_key) {
            (Some(cert), Some(key)) => Some(serve::settings::Tls { cert, key }),
            (None, None) => None,
            _ => {
                return Err(
                    "--tls-cert and --tls-key go together: give both (PEM files), or neither to serve plain HTTP \
                     behind a TLS proxy."
                        .to_string(),
                );
            }
        };
        serve::settings::HttpSettings::from(addr, tls, |name| std::env::var(name).ok())
    });
    match settings {
        Ok(settings) => serve::run_http(config, settings, offer, page_size, token_set).await,
        Err(message) => {
            log::error(&message);
            ExitCode::from(2)
        }
    }
}
