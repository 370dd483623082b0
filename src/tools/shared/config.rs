//! The server's client configuration (GetClientConfig `format=old`), read once and reused for a few
//! minutes: the writes read its limits from it, read_inbox whether collapsed reply threads are on.

use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::{MmError, types};
use progenitor_client::Error;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// How long the configuration is reused before it is read again.
const CONFIG_FOR: Duration = Duration::from_secs(300);

/// The client configuration, as key and value (GetClientConfig `format=old`), reused for a few
/// minutes.
pub async fn client_config(cx: &Ctx) -> Result<Arc<HashMap<String, String>>, ToolError> {
    if let Some(c) = cx.note::<HashMap<String, String>>("client_config", CONFIG_FOR) {
        return Ok(c);
    }
    let config: HashMap<String, String> = match cx
        .api()
        .get_client_config()
        .format("old")
        .send()
        .await
    {
        Ok(v) => v.into_inner(),
        Err(e) => {
            let e: Error<types::AppError> = match e {
                Error::ErrorResponse(rv) => {
                    return Err(ToolError::new(
                        ErrorKind::MattermostRefused,
                        format!(
                            "Mattermost refused to give its client configuration ({}); nothing was sent.",
                            rv.status()
                        ),
                    ));
                }
                Error::UnexpectedResponse(r) => Error::UnexpectedResponse(r),
                Error::CommunicationError(e) => Error::CommunicationError(e),
                Error::ResponseBodyError(e) => Error::ResponseBodyError(e),
                Error::InvalidResponsePayload(b, e) => Error::InvalidResponsePayload(b, e),
                Error::InvalidUpgrade(e) => Error::InvalidUpgrade(e),
                Error::Custom(s) => Error::Custom(s),
                Error::InvalidRequest(s) => Error::InvalidRequest(s),
            };
            return Err(cx.fail(MmError::from_client(e).await, "client configuration", "old"));
        }
    };
    Ok(cx.set_note("client_config", config))
}
