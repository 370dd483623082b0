//! The MCP handler rmcp's HTTP service makes for each session (and each stateless request): a
//! shared [`Server`], built once, so a request costs no rebuilding of the tool list.

use crate::server::Server;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::sync::Arc;

/// One server shared by every session.
#[derive(Clone)]
pub struct Shared(pub Arc<Server>);

impl ServerHandler for Shared {
    fn get_info(&self) -> ServerConfig {
        self.0.get_info()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        cx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.0.list_tools(request, cx).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.0.call_tool(request, cx).await
    }
}
