//! Every generated operation reads its JSON answer through the client's own
//! `transport::json_response` instead of progenitor's `ResponseValue::from_response`: the same
//! `ResponseValue` and the same errors, but the body checked as UTF-8 once and read as text (serde_json
//! read as bytes checks every string of it again). Done on the generated code's text: the call is
//! always written `ResponseValue::from_response(response)`.

const PROGENITORS: &str = "ResponseValue::from_response(";
const OURS: &str = "crate::transport::json_response(";

/// `code` with every answer read by `transport::json_response`; an error when progenitor wrote none
/// (a progenitor that names it otherwise: this rewrite must then be looked at again).
pub fn read_as_text(code: &str) -> Result<String, String> {
    let calls = code.matches(PROGENITORS).count();
    if calls == 0 {
        return Err(format!(
            "the generated client has no `{PROGENITORS}...)` call to read answers as text through \
             transport::json_response: look at build/responses.rs against this progenitor"
        ));
    }
    Ok(code.replace(PROGENITORS, OURS))
}
