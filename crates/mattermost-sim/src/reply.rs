//! What a handler answers: a [`Reply`] (status, content type, extra headers, body) or a Mattermost
//! [`AppError`]; `http.rs` adds the headers every API response carries and writes it to the wire.

use serde_json::{Value, json};

/// A Mattermost `model.AppError`.
#[derive(Clone, Debug)]
pub(crate) struct AppError {
    pub(crate) status: u16,
    pub(crate) id: String,
    pub(crate) message: String,
}

impl AppError {
    pub(crate) fn new(status: u16, id: &str, message: &str) -> AppError {
        AppError {
            status,
            id: id.to_string(),
            message: message.to_string(),
        }
    }

    /// `SetInvalidURLParam`.
    pub(crate) fn invalid_url_param(name: &str) -> AppError {
        AppError::new(
            400,
            "api.context.invalid_url_param.app_error",
            &format!("Invalid or missing {name} parameter in request URL."),
        )
    }

    /// `SetInvalidParam` (used for query and body params alike).
    pub(crate) fn invalid_param(name: &str) -> AppError {
        AppError::new(
            400,
            "api.context.invalid_body_param.app_error",
            &format!("Invalid or missing {name} in request body."),
        )
    }

    /// `SetPermissionError`.
    pub(crate) fn permission() -> AppError {
        AppError::new(
            403,
            "api.context.permissions.app_error",
            "You do not have the appropriate permissions.",
        )
    }

    pub(crate) fn not_found(id: &str, message: &str) -> AppError {
        AppError::new(404, id, message)
    }

    pub(crate) fn session_expired() -> AppError {
        AppError::new(
            401,
            "api.context.session_expired.app_error",
            "Invalid or expired session, please login again.",
        )
    }

    pub(crate) fn json(&self, request_id: &str) -> Value {
        json!({
            "id": self.id,
            "message": self.message,
            "detailed_error": "",
            "request_id": request_id,
            "status_code": self.status
        })
    }
}

/// A handler's answer before the common headers are added.
#[derive(Clone, Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) content_type: String,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Reply {
    pub(crate) fn json(v: &Value) -> Reply {
        let mut body = serde_json::to_vec(v).unwrap_or_default();
        body.push(b'\n');
        Reply {
            status: 200,
            content_type: "application/json".into(),
            headers: Vec::new(),
            body,
        }
    }

    pub(crate) fn raw(status: u16, content_type: &str, body: Vec<u8>) -> Reply {
        Reply {
            status,
            content_type: content_type.into(),
            headers: Vec::new(),
            body,
        }
    }

    /// `HandleEtag`: 304 with no body and the ETag header (`web/context.go`).
    pub(crate) fn not_modified(etag: &str) -> Reply {
        Reply {
            status: 304,
            content_type: "application/json".into(),
            headers: vec![("ETag".into(), etag.into())],
            body: Vec::new(),
        }
    }

    pub(crate) fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }
}

pub(crate) type HResult = Result<Reply, AppError>;
