//! The MCP handler rmcp's HTTP service makes for each session (and each stateless request): a
//! shared [`Server`], built once, so a request costs no rebuilding of the tool list. Every request
//! the server answers (tools, resources, completion, prompts) is handed to it as it is.

use crate::server::Server;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, CustomRequest,
    CustomResult, GetPromptRequestParams, GetPromptResponse, ListPromptsResult,
    ListResourceTemplatesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerConfig,
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

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        cx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.0.list_resource_templates(request, cx).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.0.read_resource(request, cx).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.0.complete(request, cx).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        cx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.0.list_prompts(request, cx).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.0.get_prompt(request, cx).await
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        cx: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        self.0.on_custom_request(request, cx).await
    }
}
