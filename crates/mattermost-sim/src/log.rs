//! The request log: every request the simulator received, in arrival order, with what it answered.

/// One request as the simulator saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedRequest {
    /// The HTTP method, as sent (`GET`, `POST`, ...).
    pub method: String,
    /// The path without the query string, e.g. `/api/v4/channels/abc.../posts`.
    pub path: String,
    /// Decoded query pairs in the order they were sent.
    pub query: Vec<(String, String)>,
    /// The request body as text (lossy UTF-8), if it had one.
    pub body: Option<String>,
    /// The status code answered (including faults and 401s).
    pub status: u16,
    /// The user the token belongs to, if it belongs to one (even when expired).
    pub username: Option<String>,
    /// Header names lowercased; the `Authorization` value (and an `MMAUTHTOKEN` cookie) redacted.
    pub headers: Vec<(String, String)>,
}

impl LoggedRequest {
    /// The first value of a query parameter.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first value of a (lowercase) header.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}
