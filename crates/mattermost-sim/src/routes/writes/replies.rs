//! The answers and errors the write routes share: `201 Created`, `{"status":"OK"}` and the
//! `AppError`s of a rejected body or parameter.

use serde_json::{Value, json};

use crate::reply::{AppError, Reply};

/// A 201 with a JSON body (`w.WriteHeader(http.StatusCreated)`).
pub(crate) fn created(v: &Value) -> Reply {
    let mut r = Reply::json(v);
    r.status = 201;
    r
}

/// `ReturnStatusOK`: `{"status":"OK"}`.
pub(crate) fn status_ok() -> Reply {
    Reply::json(&json!({"status": "OK"}))
}

/// `c.SetInvalidParam(name)` (`api.context.invalid_body_param.app_error`, 400).
pub(crate) fn invalid(name: &str) -> AppError {
    AppError::invalid_param(name)
}

/// An AppError with the given status, id and (English) message.
pub(crate) fn app_error(status: u16, id: &str, message: &str) -> AppError {
    AppError::new(status, id, message)
}

/// `api.context.invalid_param.app_error` ("Invalid {{.Name}} parameter.").
pub(crate) fn invalid_app_param(name: &str) -> AppError {
    AppError::new(
        400,
        "api.context.invalid_param.app_error",
        &format!("Invalid {name} parameter."),
    )
}

/// `App.GetUser` for an unknown id: 404 `app.user.missing_account.const`.
pub(crate) fn missing_account() -> AppError {
    crate::routes::user_not_found()
}
