//! The process's TLS cryptography: rustls on the `ring` provider, for every TLS connection the server
//! makes or accepts (reqwest's, which is built without a provider of its own, the WebSocket's and the
//! HTTPS listener's). `ring` rather than rustls' default `aws-lc-rs`: the same TLS 1.2/1.3 suites for a
//! Mattermost server, without aws-lc's C library to build.

use std::sync::Arc;

/// The provider every TLS configuration of this process uses.
pub fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Makes [`provider`] the process's default, which reqwest's clients read when they are built; done
/// before the first client is built (by [`crate::Mattermost::connect`] and by anything else that builds
/// a `reqwest::Client`). Calling it again does nothing.
pub fn install() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Another thread may install it first: then the default is already ring's.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}
