//! `tools/call`: a tool run for a person — its arguments and cursor checked against its declaration,
//! its code run inside a call scope (the person's token, the operations it declares, request counting,
//! the time budget, progress and cancellation) — and what a failure means for the call (the budget,
//! the cancellation, whether calling again loses anything), shaped as an error result.

use super::state::Server;
use crate::args;
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::inventory;
use crate::mattermost::call::{CallScope, Cancelled, Progress};
use crate::paging::cursor::{self, Binding};
use crate::tool::extra;
use crate::tool::{Asks, CallContext, Raw, Stop, Tool};
use rmcp::RoleServer;
use rmcp::model::{CallToolResult, ContentBlock, ProgressNotificationParam};
use rmcp::service::RequestContext;
use serde_json::Value;
use std::sync::Arc;

impl Server {
    /// Why a tool that exists is not callable here, or `None` when it is.
    pub(super) fn refusal(&self, name: &str) -> Option<ToolError> {
        let tool = inventory::find(name)?;
        if tool.writes() && !tool.planned_per_call() && !self.offer.allow_writes {
            return Some(writes_not_allowed(&format!("`{name}`")));
        }
        Some(ToolError::new(
            ErrorKind::Refused,
            format!(
                "`{name}` belongs to the toolset `{}`, which this server does not list. Add it to MATTERMOST_TOOLSETS \
                 (or set it to all) to use it.",
                tool.toolset.name()
            ),
        ))
    }

    /// Runs a tool for a person: checks, the call scope, the answer.
    pub(crate) async fn run(
        &self,
        cx: &Ctx,
        tool: &'static Tool,
        arguments: Option<&serde_json::Map<String, Value>>,
        client: CallContext,
        progress: Option<Progress>,
        cancelled: Option<Cancelled>,
    ) -> Result<Value, Stop> {
        let (args, limit) = args::check(tool.name, &tool.all_args(), arguments, tool.limit())?;
        let plan = tool.plan(args.map())?;
        if plan.writes && !self.offer.allow_writes {
            let what = match plan.operations.as_slice() {
                [one] if tool.planned_per_call() => format!("`{}` through `{}`", one, tool.name),
                _ => format!("`{}`", tool.name),
            };
            return Err(Stop::Error(writes_not_allowed(&what)));
        }
        let mut learned = 0;
        if tool.planned_per_call() && tool.limit().is_some() && !cx.knows_me() {
            // A list's cursor is bound to the person; a call whose scope declares only what its plan
            // names learns who the person is first, in a scope of its own that declares only that
            // (its requests count in the call's `requests`).
            let me = Arc::new(CallScope::new(
                tool.name,
                cx.token().clone(),
                [crate::calls::ME.operation],
                self.budget,
            ));
            me.run(Box::pin(cx.my_id())).await?;
            learned = me.requests();
        }
        let mut scope = CallScope::new(tool.name, cx.token().clone(), plan.operations, self.budget)
            .with_progress(progress)
            .with_cancellation(cancelled);
        if matches!(tool.asks, Asks::First(_)) {
            // Its writes wait for the person's yes (`confirm::Cleared`).
            scope = scope.guarding_writes();
        }
        let scope = Arc::new(scope);
        for _ in 0..learned {
            scope.count_request();
        }
        let budget = self.budget;
        let outcome = async {
            let person = if tool.limit().is_some() {
                cx.my_id().await?
            } else {
                String::new()
            };
            let binding = Binding::new(tool.name, args.map(), &person);
            let position =
                match args.str("cursor") {
                    Some(c) => {
                        let names: Vec<&str> = inventory::tools().iter().map(|t| t.name).collect();
                        Some(cursor::decode(c, &binding, &names).map_err(|e| {
                            ToolError::new(ErrorKind::BadCursor, e.message(tool.name))
                        })?)
                    }
                    None => None,
                };
            let raw = Raw {
                args: args.into_map(),
                asks_first: matches!(tool.asks, Asks::First(_)),
                limit,
                position,
                binding,
                call: Arc::new(client),
            };
            (tool.code.run)(cx, raw).await
        };
        let resumable = arguments.is_some_and(|a| a.get("cursor").is_some());
        // Boxed, so that the scope and the timeout around it move a pointer, not the call.
        let running = scope.run(Box::pin(outcome));
        let outcome = match tokio::time::timeout(budget, running).await {
            Ok(outcome) => outcome,
            Err(_) => Err(Stop::Error(ToolError::new(
                ErrorKind::Timeout,
                format!(
                    "The call ran out of its time budget ({} s) after {} Mattermost requests.",
                    budget.as_secs(),
                    scope.requests()
                ),
            ))),
        };
        match outcome {
            Ok(v) => Ok(v),
            Err(Stop::NeedsInput(ask)) => Err(Stop::NeedsInput(ask)),
            Err(Stop::Error(e)) => Err(Stop::Error(self.explain(e, tool, &scope, resumable))),
        }
    }

    /// Says what a failure means for the call: the budget, the cancellation, and whether calling again
    /// loses anything.
    fn explain(
        &self,
        mut e: ToolError,
        tool: &Tool,
        scope: &CallScope,
        resumable: bool,
    ) -> ToolError {
        if scope.is_cancelled() && matches!(e.kind, ErrorKind::Refused) {
            e = ToolError::new(
                ErrorKind::Cancelled,
                format!(
                    "The call was cancelled after {} Mattermost requests.",
                    scope.requests()
                ),
            );
        }
        let out_of_budget = scope.remaining().is_zero()
            || (e.kind == ErrorKind::Timeout && scope.was_bound_by_budget());
        if out_of_budget
            && matches!(
                e.kind,
                ErrorKind::Timeout | ErrorKind::Unreachable | ErrorKind::Refused
            )
        {
            e = ToolError::new(
                ErrorKind::Timeout,
                format!(
                    "The call ran out of its time budget ({} s, MATTERMOST_CALL_BUDGET_SECS) after {} Mattermost \
                     requests.",
                    self.budget.as_secs(),
                    scope.requests()
                ),
            );
        }
        if e.kind.is_transient() && tool.limit().is_some() {
            e.message.push_str(if resumable {
                " No page was returned, so nothing was skipped: call again with the same arguments and the same cursor."
            } else {
                " No page was returned: call again with the same arguments."
            });
        }
        e.with("requests", Value::from(scope.requests()))
    }
}

/// The refusal of a write (`what` names it) by a server started without writes.
fn writes_not_allowed(what: &str) -> ToolError {
    ToolError::new(
        ErrorKind::WritesNotAllowed,
        format!(
            "{what} changes something in Mattermost, and this server was started without writes: it offers only \
             tools that read. The person who runs it can allow writes by setting MATTERMOST_ALLOW_WRITES=true in \
             its environment (writes others will see are then confirmed with them first)."
        ),
    )
}

impl Server {
    /// Runs a tool for the request `rcx`, with its progress token and its cancellation: a cancelled
    /// call's future is dropped at once (the request in flight with it), so it sends Mattermost
    /// nothing more. Also answers the content blocks the tool's code added beside its JSON.
    pub(super) async fn run_request(
        &self,
        cx: &Ctx,
        tool: &'static Tool,
        arguments: Option<&serde_json::Map<String, Value>>,
        client: CallContext,
        rcx: &RequestContext<RoleServer>,
    ) -> (Result<Value, Stop>, Vec<ContentBlock>) {
        let ct = rcx.ct.clone();
        let flag = ct.clone();
        let cancelled: Cancelled = Box::new(move || flag.is_cancelled());
        let running = extra::collect(Box::pin(self.run(
            cx,
            tool,
            arguments,
            client,
            progress_of(rcx),
            Some(cancelled),
        )));
        tokio::select! {
            out = running => out,
            () = ct.cancelled() => (
                Err(Stop::Error(ToolError::new(
                    ErrorKind::Cancelled,
                    format!("The client cancelled `{}`; it stopped and sent Mattermost nothing more.", tool.name),
                ))),
                Vec::new(),
            ),
        }
    }

    /// The client of a request that is not a tool call (a resource read, a completion).
    pub(super) fn client_of(&self, rcx: &RequestContext<RoleServer>) -> CallContext {
        CallContext {
            peer: Some(rcx.peer.clone()),
            protocol: rcx.protocol_version(),
            capabilities: rcx.client_capabilities(),
            input_responses: None,
            request_state: None,
            confirm_writes: self.offer.confirm_writes,
            covering: self.covering.clone(),
            live: None,
        }
    }
}

/// The client's progress notifications for a request that asked for them.
fn progress_of(rcx: &RequestContext<RoleServer>) -> Option<Progress> {
    let token = rcx.meta.get_progress_token()?;
    let peer = rcx.peer.clone();
    Some(Box::new(move |step, total, message| {
        let mut param =
            ProgressNotificationParam::new(token.clone(), f64::from(step)).with_message(message);
        if let Some(total) = total {
            param = param.with_total(f64::from(total));
        }
        let peer = peer.clone();
        tokio::spawn(async move {
            let _ = peer.notify_progress(param).await;
        });
    }))
}

/// An error result: its text is the error as JSON (`{"error": {"kind", "message", ...}}`), and it has
/// no `structuredContent`, which the tool's output schema describes for successes only (clients that
/// check it against the schema, such as the TypeScript SDK v1, would throw instead of showing it).
pub(super) fn error_result(tool: &str, e: &ToolError) -> CallToolResult {
    crate::log::info(&format!("{tool} answered an error: {}", e.kind));
    crate::log::debug(&format!("{tool}: {}", e.message));
    let mut json = e.to_json();
    crate::show::text::clean_value(&mut json);
    CallToolResult::error(vec![ContentBlock::text(json.to_string())])
}
