//! The Mattermost client: the code progenitor generates from the pinned, repaired OpenAPI spec
//! (`generated`, written by the build script — the workspace root's `build.rs`, which this crate's
//! `build.rs` links to, as `spec/` and `overrides/` link to the root's) and the thin hand layer
//! beside it: the connection ([`Mattermost::connect`]: TLS, timeouts, one pool for every person), the
//! transport hooks ([`transport`]: the person's token on each request, request counting,
//! declared-operation check, retries, rate limits), the call scope ([`call`]), the errors
//! ([`errors`]), the facts Mattermost encodes in its objects, decoded once ([`facts`]), every
//! operation classified and callable from JSON ([`operations`], for the operation gateway), the
//! hand-written multipart upload ([`upload`]) and what the build read ([`build_info`]).
//!
//! The generated client is compiled here, once: the server above it recompiles without it.
//! Regenerating the client never touches the hand layer.

#![warn(missing_docs)]

pub mod build_info;
pub mod call;
pub mod deferred;
pub mod errors;
pub mod facts;
mod generated;
pub mod operations;
mod secret;
pub mod tls;
pub mod transport;
pub mod upload;
pub mod versions;

pub use errors::MmError;
pub use generated::{Client, types};
use progenitor_client::ResponseValue;
pub use secret::Secret;
use std::path::PathBuf;
use std::time::Duration;

/// How to reach one Mattermost.
#[derive(Debug, Clone)]
pub struct Options {
    /// The server root, without a trailing slash or `/api/v4`.
    pub url: String,
    /// How long one request may take.
    pub timeout: Duration,
    /// A PEM file of extra certificate authorities to trust, beside the system's.
    pub ca_file: Option<PathBuf>,
}

/// Why a connection could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnectError {
    /// The CA file cannot be read or holds no certificate (`why` says which).
    CaFile {
        /// The file as configured.
        path: PathBuf,
        /// What is wrong with it, as the end of a sentence that starts with the path.
        why: String,
    },
    /// The HTTP client could not be built.
    Client(String),
}

impl std::fmt::Display for ConnectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConnectError::CaFile { path, why } => write!(f, "{} {why}", path.display()),
            ConnectError::Client(why) => write!(f, "cannot set up the HTTP client: {why}"),
        }
    }
}

/// The connection to one Mattermost.
pub struct Mattermost {
    api: Client,
    /// The server root, as configured.
    pub url: String,
}

impl Mattermost {
    /// The version of the Mattermost this connection reaches, once one of its answers has said it.
    pub fn server_version(&self) -> Option<mattermost_spec::releases::Version> {
        progenitor_client::ClientInfo::inner(&self.api).server.get()
    }

    /// The generated client, to build a request with (`mm.api().get_user().user_id("me").send()`).
    pub fn api(&self) -> &Client {
        &self.api
    }

    /// The connection to the Mattermost at `options.url`: one HTTP client and connection pool for every
    /// person; each request carries its person's token from the call's scope ([`call`]).
    pub fn connect(options: &Options) -> Result<Mattermost, ConnectError> {
        tls::install();
        let mut builder = reqwest::Client::builder()
            .user_agent(concat!("mattermost-mcp/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(options.timeout.min(Duration::from_secs(10)))
            .timeout(options.timeout)
            .redirect(reqwest::redirect::Policy::none());
        if let Some(path) = &options.ca_file {
            let ca = |why: String| ConnectError::CaFile {
                path: path.clone(),
                why,
            };
            let pem = std::fs::read(path).map_err(|e| ca(format!("cannot be read: {e}")))?;
            let certs = reqwest::Certificate::from_pem_bundle(&pem)
                .map_err(|e| ca(format!("holds no PEM certificate: {e}")))?;
            if certs.is_empty() {
                return Err(ca("holds no certificate".into()));
            }
            builder = builder.tls_certs_merge(certs);
        }
        let http = builder
            .build()
            .map_err(|e| ConnectError::Client(e.to_string()))?;
        let policy = transport::Policy {
            request_timeout: options.timeout,
            ..transport::Policy::default()
        };
        let api = Client::new_with_client(
            &options.url,
            http,
            transport::Transport {
                policy,
                server: Default::default(),
            },
        );

        Ok(Mattermost {
            api,
            url: options.url.clone(),
        })
    }
}

/// Awaits a generated call, reading its error into an [`MmError`]. The call's future (a request in
/// flight and its answer read, several kilobytes) is boxed at once, so the futures of the code that
/// awaits it stay small and are not copied whole each time they move.
pub fn send<T>(
    call: impl Future<Output = Result<ResponseValue<T>, progenitor_client::Error<types::AppError>>>,
) -> impl Future<Output = Result<ResponseValue<T>, MmError>> {
    let call = Box::pin(call);
    async move {
        match call.await {
            Ok(v) => Ok(v),
            Err(e) => Err(MmError::from_client(e).await),
        }
    }
}

/// The user's channels (GetChannelsForUser), with Mattermost's answer for a user with none read as
/// the empty list it means: the server streams the list, and when its first batch finds nothing it has
/// already written `[`, so the answer is a 200 whose body is `[` and an AppError
/// (`app.channel.get_channels.not_found.app_error`), not JSON (mattermost-list-semantics.md §8).
pub async fn channels_for_user(
    api: &Client,
    include_deleted: Option<bool>,
) -> Result<Vec<types::Channel>, MmError> {
    match send(
        api.get_channels_for_user()
            .user_id("me")
            .maybe(include_deleted, |b, v| b.include_deleted(v))
            .send(),
    )
    .await
    {
        Ok(list) => Ok(list.into_inner()),
        Err(MmError::NotMattermost {
            status: 200,
            detail,
            ..
        }) if detail.contains("get_channels.not_found") => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

/// Sets an optional parameter of a generated request builder only when it has a value:
/// `api.get_posts_for_channel().channel_id(id).maybe(after, |b, v| b.after(v))`.
pub trait Maybe: Sized {
    /// `set(self, v)` when `value` is `Some(v)`; `self` unchanged (the server's default applies)
    /// when it is `None`.
    fn maybe<V>(self, value: Option<V>, set: impl FnOnce(Self, V) -> Self) -> Self {
        match value {
            Some(v) => set(self, v),
            None => self,
        }
    }
}

impl<T> Maybe for T {}

/// Runs `f` as the person whose token this is, in a call scope that may send only `operations`
/// (named as the spec names them), as every tool call does: for code that calls Mattermost outside
/// any tool (the project's tests). There is no scope that may send anything.
pub async fn as_person<F: Future>(token: &Secret, operations: &[&'static str], f: F) -> F::Output {
    std::sync::Arc::new(call::CallScope::new(
        "direct",
        token.clone(),
        operations.iter().copied(),
        Duration::from_secs(60),
    ))
    .run(f)
    .await
}
