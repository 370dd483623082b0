//! Mattermost: the client generated from the spec ([`generated`]) and the thin hand layer beside it:
//! the connection ([`Mattermost::connect`]: TLS, timeouts, one pool for every person), the transport
//! hooks ([`transport`]: the person's token on each request, request counting, declared-operation
//! check, retries, rate limits), the call scope ([`call`]), the errors ([`errors`]), the facts
//! Mattermost encodes in its objects, decoded once ([`facts`]), and every operation classified and
//! callable from JSON ([`operations`], for the operation gateway). Regenerating the client never
//! touches this layer.

pub mod call;
pub mod errors;
pub mod facts;
pub mod generated;
pub mod operations;
pub mod transport;
pub mod upload;

use crate::config::Config;
pub use errors::MmError;
pub use generated::{Client, types};
use progenitor_client::ResponseValue;

/// The connection to one Mattermost.
pub struct Mattermost {
    pub api: Client,
    /// The server root, as configured.
    pub url: String,
}

impl Mattermost {
    /// The connection to the Mattermost at `config.url`: one HTTP client and connection pool for every
    /// person; each request carries its person's token from the call's scope ([`call`]).
    pub fn connect(config: &Config) -> Result<Mattermost, String> {
        let mut builder = reqwest::Client::builder()
            .user_agent(concat!("mattermost-mcp/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(config.timeout.min(std::time::Duration::from_secs(10)))
            .timeout(config.timeout)
            .redirect(reqwest::redirect::Policy::none());
        if let Some(path) = &config.ca_file {
            let pem = std::fs::read(path).map_err(|e| {
                format!(
                    "{}={} cannot be read: {e}",
                    crate::config::CA_FILE,
                    path.display()
                )
            })?;
            let certs = reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| {
                format!(
                    "{}={} holds no PEM certificate: {e}",
                    crate::config::CA_FILE,
                    path.display()
                )
            })?;
            if certs.is_empty() {
                return Err(format!(
                    "{}={} holds no certificate",
                    crate::config::CA_FILE,
                    path.display()
                ));
            }
            builder = builder.tls_certs_merge(certs);
        }
        let http = builder
            .build()
            .map_err(|e| format!("cannot set up the HTTP client: {e}"))?;
        let policy = transport::Policy {
            request_timeout: config.timeout,
            ..transport::Policy::default()
        };
        let api = Client::new_with_client(&config.url, http, transport::Transport { policy });

        Ok(Mattermost {
            api,
            url: config.url.clone(),
        })
    }
}

/// Awaits a generated call, reading its error into an [`MmError`].
pub async fn send<T>(
    call: impl Future<Output = Result<ResponseValue<T>, progenitor_client::Error<types::AppError>>>,
) -> Result<ResponseValue<T>, MmError> {
    match call.await {
        Ok(v) => Ok(v),
        Err(e) => Err(MmError::from_client(e).await),
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
    fn maybe<V>(self, value: Option<V>, set: impl FnOnce(Self, V) -> Self) -> Self {
        match value {
            Some(v) => set(self, v),
            None => self,
        }
    }
}

impl<T> Maybe for T {}

/// Runs `f` as the person whose token this is, allowed to send any operation: only for the project's
/// own tests that call Mattermost directly, outside any tool.
pub async fn as_person_for_tests<F: Future>(token: &crate::config::Secret, f: F) -> F::Output {
    std::sync::Arc::new(call::CallScope::any_for_tests(
        token.clone(),
        std::time::Duration::from_secs(60),
    ))
    .run(f)
    .await
}
