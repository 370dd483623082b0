//! Tools run for a resource read or a completion, as the person of the request: the resource layer
//! names a tool and its arguments, and the call runs as any tool call does.

use super::state::Server;
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::call::{CallScope, Cancelled};
use crate::resources::{self, Ran};
use crate::tool::Stop;
use rmcp::RoleServer;
use rmcp::service::RequestContext;
use serde_json::Value;
use std::sync::Arc;

/// Tools run for a resource read or a completion, as the person of the request.
pub(super) struct Caller<'a> {
    pub(super) server: &'a Server,
    pub(super) cx: Arc<Ctx>,
    pub(super) rcx: &'a RequestContext<RoleServer>,
}

impl resources::Runner for Caller<'_> {
    fn run_tool<'a>(
        &'a self,
        name: &'static str,
        args: serde_json::Map<String, Value>,
    ) -> std::pin::Pin<Box<dyn Future<Output = Ran> + Send + 'a>> {
        Box::pin(async move {
            let Some(tool) = self.server.tool(name) else {
                return Err(self.server.refusal(name).unwrap_or_else(|| {
                    ToolError::internal(format!("internal error: there is no tool `{name}`"))
                }));
            };
            let client = self.server.client_of(self.rcx);
            match self
                .server
                .run_request(&self.cx, tool, Some(&args), client, self.rcx)
                .await
            {
                (Ok(value), blocks) => Ok((value, blocks)),
                (Err(Stop::Error(e)), _) => Err(e),
                (Err(Stop::NeedsInput(_)), _) => Err(ToolError::internal(format!(
                    "internal error: `{name}` asked the person something while read as a resource"
                ))),
            }
        })
    }

    fn scope(&self, name: &'static str, operations: &'static [&'static str]) -> Arc<CallScope> {
        let ct = self.rcx.ct.clone();
        let cancelled: Cancelled = Box::new(move || ct.is_cancelled());
        Arc::new(
            CallScope::new(
                name,
                self.cx.token().clone(),
                operations.iter().copied(),
                self.server.budget,
            )
            .with_cancellation(Some(cancelled)),
        )
    }

    fn cx(&self) -> &Ctx {
        &self.cx
    }
}
