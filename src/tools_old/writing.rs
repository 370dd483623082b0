//! Tools that change something: only the person's own read state so far.

use crate::context::{Ctx, Input, Output};
use crate::error::ToolError;
use crate::mattermost::{send, types};
use crate::names;
use crate::time::rfc3339;
use serde_json::json;

pub async fn mark_channel_read(cx: &Ctx, input: Input) -> Result<Output, ToolError> {
    let args = &input.args;
    let reference = args.str("channel").unwrap_or_default();
    let channel_id = names::channel_id(cx, reference, args.str("team")).await?;
    let include_threads = args.flag("include_threads");
    let body = types::ViewChannelBody {
        channel_id: channel_id.clone(),
        prev_channel_id: None,
        collapsed_threads_supported: Some(!include_threads),
    };
    let answer = send(cx.mm.api.view_channel().user_id("me").body(body).send())
        .await
        .map_err(|e| cx.fail(e, "channel", reference))?
        .into_inner();
    let at = answer
        .last_viewed_at_times
        .as_ref()
        .and_then(|m| m.get(&channel_id))
        .and_then(|v| v.as_i64());
    Ok(Output::One(json!({
        "channel_id": channel_id,
        "marked_read": answer.status.as_deref() == Some("OK"),
        "threads_marked_read": include_threads,
        "last_viewed": at.map(rfc3339),
    })))
}
