//! Serving MCP over stdio for one person: the token in `MATTERMOST_TOKEN`, checked at start; the
//! messages read through [`crate::serve::lines`]. The end of stdin ends the server normally (exit 0).

use crate::config::Config;
use crate::context::Ctx;
use crate::error::About;
use crate::inventory::Offer;
use crate::mattermost::MmError;
use crate::serve::lines::{Lines, MAX_LINE};
use crate::server::{People, Server};
use rmcp::ServiceExt;
use rmcp::service::ServerInitializeError;
use std::process::ExitCode;
use std::sync::Arc;

/// How long the check at start waits for Mattermost before serving anyway.
const START_CHECK: std::time::Duration = std::time::Duration::from_secs(3);

/// Serves MCP on stdin/stdout until the client closes it.
pub async fn run(config: Config, offer: Offer, page_size: usize) -> ExitCode {
    let mm = match config.connect() {
        Ok(mm) => Arc::new(mm),
        Err(message) => {
            crate::log::error(&message);
            return ExitCode::from(2);
        }
    };
    let ctx = Arc::new(Ctx::new(mm, config.token.clone()));
    // The check at start never holds the client up: an address that accepts connections but never
    // answers gets a few seconds, then the server serves anyway and each call says what is wrong.
    let wait = config.timeout.min(START_CHECK);
    let check = ctx.request_as_me(
        "GetUser",
        wait,
        ctx.send(ctx.api().get_user().user_id("me").send()),
    );
    let checked = match tokio::time::timeout(wait, check).await {
        Ok(outcome) => outcome,
        Err(_) => Err(MmError::Unreachable {
            detail: format!("no answer within {} s", wait.as_secs()),
            timeout: true,
        }),
    };
    match checked {
        Ok(me) => {
            let me = me.into_inner();
            crate::log::info(&format!(
                "connected to {} as @{}",
                config.url,
                me.username.clone().unwrap_or_default()
            ));
            ctx.know_me(me);
        }
        Err(e @ (MmError::Api { status: 401, .. } | MmError::NotMattermost { .. })) => {
            crate::log::error(&e.about("user", "me", &config.url).message);
            return ExitCode::from(2);
        }
        Err(e) => crate::log::warn(&format!(
            "{} Serving anyway; tools will fail until it answers.",
            e.about("user", "me", &config.url).message
        )),
    }
    let live = match crate::live::WatchSettings::from(|k| std::env::var(k).ok()).and_then(|s| {
        crate::live::Live::new(&config.url, config.ca_file.as_deref(), s, config.budget)
    }) {
        Ok(live) => live,
        Err(message) => {
            crate::log::error(&message);
            return ExitCode::from(2);
        }
    };
    let server =
        Server::new(People::One(ctx), offer, page_size, config.budget).with_live(live.clone());
    let (stdin, stdout) = rmcp::transport::stdio();
    let transport = Lines::new(stdin, stdout, MAX_LINE);
    let running = match server.serve(transport).await {
        Ok(r) => r,
        Err(ServerInitializeError::ConnectionClosed(_)) => {
            // The client closed stdin before it started a session: a normal end.
            crate::log::info("the client closed stdin before starting a session; stopping");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            crate::log::error(&format!("the MCP session did not start: {e}"));
            return ExitCode::from(1);
        }
    };
    let ended = running.waiting().await;
    live.shutdown();
    match ended {
        Ok(reason) => {
            crate::log::info(&format!("session ended: {reason:?}"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            crate::log::error(&format!("the MCP session failed: {e}"));
            ExitCode::from(1)
        }
    }
}
