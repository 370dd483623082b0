//! `mattermost-mcp`: an MCP server for Mattermost over stdio.
//!
//! `serve` (the default) reads `MATTERMOST_URL` and `MATTERMOST_TOKEN` from the environment and serves
//! MCP on stdin/stdout; `demo` does the same against a built-in simulated Mattermost; `overrides` prints
//! the spec overrides the client was generated with. Logs go to stderr.

use mattermost_mcp::{
    config, context, inventory, log, mattermost, overrides_cmd, server, spec_check,
};

use clap::{Parser, Subcommand};
use rmcp::ServiceExt;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Parser)]
#[command(
    name = "mattermost-mcp",
    version,
    about = "An MCP server for Mattermost, over stdio."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Tools per tools/list page (0: all in one page).
    #[arg(long, default_value_t = 100, global = true)]
    page_size: usize,
}

#[derive(Subcommand)]
enum Command {
    /// Serve MCP on stdio against the Mattermost in MATTERMOST_URL, with the token in MATTERMOST_TOKEN.
    Serve,
    /// Serve MCP on stdio against a built-in simulated Mattermost with a small demo workspace.
    Demo,
    /// Print the spec overrides and repairs the client was generated with.
    Overrides,
    /// Compare another release's OpenAPI spec with the pinned one, for what the tools use.
    SpecCheck {
        /// The spec file (YAML or JSON) of another Mattermost release.
        path: std::path::PathBuf,
    },
    /// Print what the tool table uses of the pinned spec (the contents of spec/table-uses.json).
    #[command(hide = true)]
    TableUses,
    /// Print the README's tool list from the tool table.
    #[command(hide = true)]
    ToolsMarkdown,
}

fn main() -> ExitCode {
    log::init(std::env::var("MATTERMOST_MCP_LOG").ok().as_deref());
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            log::error(&format!("cannot start the async runtime: {e}"));
            return ExitCode::from(1);
        }
    };
    match cli.command.unwrap_or(Command::Serve) {
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
        Command::Serve => match config::Config::from_env() {
            Ok(config) => runtime.block_on(serve(config, cli.page_size)),
            Err(message) => {
                log::error(&message);
                ExitCode::from(2)
            }
        },
        Command::Demo => runtime.block_on(demo(cli.page_size)),
    }
}

async fn demo(page_size: usize) -> ExitCode {
    let sim = match mattermost_sim::Sim::start(mattermost_sim::World::demo()).await {
        Ok(sim) => sim,
        Err(e) => {
            log::error(&format!("cannot start the demo Mattermost: {e}"));
            return ExitCode::from(1);
        }
    };
    log::info(&format!(
        "demo: a simulated Mattermost with a small workspace runs at {} (user @demo); this process speaks MCP on \
         stdio. Connect an MCP client by giving it the command `mattermost-mcp demo`, e.g. \
         claude mcp add mattermost-demo -- mattermost-mcp demo",
        sim.url()
    ));
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
    serve(config, page_size).await
}

/// How long the check at start waits for Mattermost before serving anyway.
const START_CHECK: std::time::Duration = std::time::Duration::from_secs(3);

async fn serve(config: config::Config, page_size: usize) -> ExitCode {
    let offer = match inventory::Offer::new(config.toolsets.as_deref(), config.allow_writes) {
        Ok(o) => o.confirming(config.confirm_writes),
        Err(message) => {
            log::error(&message);
            return ExitCode::from(2);
        }
    };
    let mm = match mattermost::Mattermost::connect(&config) {
        Ok(mm) => Arc::new(mm),
        Err(message) => {
            log::error(&message);
            return ExitCode::from(2);
        }
    };
    let ctx = Arc::new(context::Ctx::new(mm, config.token.clone()));
    // The check at start never holds the client up: an address that accepts connections but never
    // answers gets a few seconds, then the server serves anyway and each call says what is wrong.
    let wait = config.timeout.min(START_CHECK);
    let check = ctx.request_as_me(
        "GetUser",
        wait,
        mattermost::send(ctx.mm.api.get_user().user_id("me").send()),
    );
    let checked = match tokio::time::timeout(wait, check).await {
        Ok(outcome) => outcome,
        Err(_) => Err(mattermost::MmError::Unreachable {
            detail: format!("no answer within {} s", wait.as_secs()),
            timeout: true,
        }),
    };
    match checked {
        Ok(me) => {
            let me = me.into_inner();
            log::info(&format!(
                "connected to {} as @{}",
                config.url,
                me.username.clone().unwrap_or_default()
            ));
            ctx.know_me(me);
        }
        Err(
            e @ (mattermost::MmError::Api { status: 401, .. }
            | mattermost::MmError::NotMattermost { .. }),
        ) => {
            log::error(&e.about("user", "me", &config.url).message);
            return ExitCode::from(2);
        }
        Err(e) => log::warn(&format!(
            "{} Serving anyway; tools will fail until it answers.",
            e.about("user", "me", &config.url).message
        )),
    }
    let server = server::Server::new(server::People::One(ctx), offer, page_size, config.budget);

    let running = match server.serve(rmcp::transport::stdio()).await {
        Ok(r) => r,
        Err(e) => {
            log::error(&format!("the MCP session did not start: {e}"));
            return ExitCode::from(1);
        }
    };
    match running.waiting().await {
        Ok(reason) => {
            log::info(&format!("session ended: {reason:?}"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            log::error(&format!("the MCP session failed: {e}"));
            ExitCode::from(1)
        }
    }
}
