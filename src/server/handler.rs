//! The MCP methods the server answers, as rmcp's `ServerHandler`: the server's description and
//! capabilities, `tools/list` and `tools/call`, resources (templates, reads), completion and prompts.

use super::call;
use super::list;
use super::resources::Caller;
use super::state::{INSTRUCTIONS, Server};
use crate::resources as published;
use crate::tool::{CallContext, Stop};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    ContentBlock, CustomRequest, CustomResult, ErrorCode, GetPromptRequestParams,
    GetPromptResponse, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let builder = ServerCapabilities::builder()
            .enable_completions()
            .enable_prompts()
            .enable_resources();
        let capabilities = if self.live.is_some() {
            // resources/subscribe and subscriptions/listen, and list changes of the person's
            // channels (see `subscribe.rs`)
            builder
                .enable_resources_subscribe()
                .enable_resources_list_changed()
                .enable_tools()
                .build()
        } else {
            builder.enable_tools().build()
        };
        ServerConfig::new(capabilities)
            .with_server_info(crate::identity::implementation())
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        list::page(
            &self.listed,
            self.page_size,
            request.as_ref().and_then(|r| r.cursor.as_deref()),
        )
    }

    // The methods whose futures are large return them boxed: rmcp moves each request's future into a
    // task of its own, and the largest method's future is every request's size (unboxed, the
    // subscription and completion methods made every call's future 12 KB in a test build).
    fn call_tool(
        &self,
        request: CallToolRequestParams,
        rcx: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CallToolResponse, ErrorData>> + Send + '_ {
        Box::pin(async move {
            let Some(tool) = self.tool(&request.name) else {
                if let Some(e) = self.refusal(&request.name) {
                    return Ok(call::error_result(&request.name, &e).into());
                }
                let names: Vec<&str> = self.tools.iter().map(|t| t.name).collect();
                return Err(ErrorData::invalid_params(
                    format!(
                        "There is no tool `{}`; the tools are: {}.",
                        request.name,
                        names.join(", ")
                    ),
                    None,
                ));
            };
            let cx = self.people.of(&rcx)?;
            let client = CallContext {
                peer: Some(rcx.peer.clone()),
                protocol: rcx.protocol_version(),
                capabilities: rcx.client_capabilities(),
                input_responses: request.input_responses.clone(),
                request_state: request.request_state.clone(),
                confirm_writes: self.offer.confirm_writes,
                covering: self.covering.clone(),
                live: self.live_person(&cx),
            };
            let (outcome, blocks) = self
                .run_request(&cx, tool, request.arguments.as_ref(), client, &rcx)
                .await;
            Ok(match outcome {
                Ok(value) => {
                    let links = published::links::of(tool.name, &value);
                    // The text copy as `CallToolResult::structured` writes it, but written into bytes
                    // (its `Display` goes through the formatter, a call per token), in a buffer sized for a
                    // page (a growing buffer copies the text each time it doubles).
                    let mut bytes = Vec::with_capacity(16 * 1024);
                    serde_json::to_writer(&mut bytes, &value).map_err(|e| {
                        ErrorData::internal_error(
                            format!("the answer could not be written: {e}"),
                            None,
                        )
                    })?;
                    let text = String::from_utf8(bytes).map_err(|e| {
                        ErrorData::internal_error(
                            format!("the answer could not be written: {e}"),
                            None,
                        )
                    })?;
                    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
                    result.structured_content = Some(value);
                    result.content.extend(blocks);
                    result.content.extend(links);
                    result.into()
                }
                Err(Stop::NeedsInput(ask)) => CallToolResponse::InputRequired(*ask),
                Err(Stop::Error(e)) => call::error_result(tool.name, &e).into(),
            })
        })
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _rcx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(published::resources(
            |tool| self.tool(tool).is_some(),
        )))
    }

    #[allow(deprecated)]
    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        rcx: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send + '_ {
        Box::pin(async move { self.subscribe_uri(&request.uri, &rcx).await })
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        rcx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.unsubscribe_uri(&request.uri, &rcx);
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.live
            .as_ref()
            .map(|_| super::subscribe::accepted_filter(requested))
    }

    fn listen(
        &self,
        context: SubscriptionContext,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send + '_ {
        Box::pin(self.listen_stream(context))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _rcx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            published::templates(|tool| self.tool(tool).is_some()),
        ))
    }

    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        rcx: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ReadResourceResponse, ErrorData>> + Send + '_ {
        Box::pin(async move {
            let target = published::target(&request.uri)?;
            let caller = Caller {
                server: self,
                cx: self.people.of(&rcx)?,
                rcx: &rcx,
            };
            let (answer, blocks) =
                published::Runner::run_tool(&caller, target.template.tool, target.args)
                    .await
                    .map_err(|e| published::error(&e))?;
            Ok(published::contents(&request.uri, answer, blocks).into())
        })
    }

    fn complete(
        &self,
        request: CompleteRequestParams,
        rcx: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CompleteResult, ErrorData>> + Send + '_ {
        Box::pin(async move {
            let caller = Caller {
                server: self,
                cx: self.people.of(&rcx)?,
                rcx: &rcx,
            };
            published::complete::complete(&caller, &request).await
        })
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _rcx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(crate::prompts::list(
            &self.offer,
        )))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _rcx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        crate::prompts::get(&self.offer, &request.name, request.arguments.as_ref()).map(Into::into)
    }

    /// A request rmcp could not read as any method it knows: -32602 for a method served here whose
    /// params are wrong (see [`crate::jsonrpc::invalid_params`]), -32601 for any other.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        rcx: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let with_initialize = rcx.protocol_version().is_none_or(|v| v.has_initialize());
        Err(crate::jsonrpc::invalid_params(
            &request.method,
            request.params.as_ref(),
            with_initialize,
        )
        .unwrap_or_else(|| ErrorData::new(ErrorCode::METHOD_NOT_FOUND, request.method, None)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size of what `f` returns, without calling it.
    fn returned<A, B, C, R>(_: impl FnOnce(A, B, C) -> R) -> usize {
        std::mem::size_of::<R>()
    }

    #[test]
    fn a_requests_future_stays_small_because_the_large_methods_are_boxed() {
        // rmcp moves every request's future (its `handle_request`, as large as the largest method's)
        // into a task: a 12 KB future when the subscription and completion methods were not boxed,
        // copied on every call. Sizes here are the test build's (unoptimized, larger than release's).
        let size = returned(
            |s: &'static Server, r: rmcp::model::ClientRequest, c: RequestContext<RoleServer>| {
                rmcp::Service::<RoleServer>::handle_request(s, r, c)
            },
        );
        assert!(
            size <= 6 * 1024,
            "a request's future is {size} bytes: box the future of the method that grew"
        );
    }
}
