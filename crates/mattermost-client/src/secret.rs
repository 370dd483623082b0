//! A token, kept out of every `Debug` print: it is shown to nobody and only ever put on a request by
//! the transport's `pre` hook.

/// A personal access token or bot token.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    /// Wraps a token.
    pub fn new(s: String) -> Secret {
        Secret(s)
    }

    /// The token itself, for the one place that sends it (and for comparing).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}
