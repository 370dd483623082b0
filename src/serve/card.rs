//! The server card (SEP-2127, "MCP Server Cards") at `/.well-known/mcp/server-card`: who this server
//! is ([`crate::identity`]), where it is served (the `/mcp` endpoint at the public URL, Streamable
//! HTTP), the protocol versions it speaks, how a request authenticates (a bearer token, or an OAuth
//! access token from Mattermost), and its capabilities, as `initialize` gives them. It names no tools:
//! which tools are offered depends on the configuration, and a client lists them after connecting.
//! The icon it names is served beside it at `/icon.png`.
//!
//! Both are public (no token), answered to any `Origin` with `Access-Control-Allow-Origin: *` (the
//! SEP asks for it, so a browser-based client can read the card) and cacheable for an hour.

use crate::identity;
use crate::serve::reply::{self, Body};
use bytes::Bytes;
use http::{HeaderValue, Method, Response, StatusCode, header};
use rmcp::model::{ProtocolVersion, ServerCapabilities};
use serde::Serialize;

/// Where the card is served.
pub(crate) const PATH: &str = "/.well-known/mcp/server-card";
/// Where the icon it names is served.
pub(crate) const ICON_PATH: &str = "/icon.png";
/// The schema the card declares, as SEP-2127 names it.
pub(crate) const SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

/// A server card.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Card {
    #[serde(rename = "$schema")]
    pub(crate) schema: &'static str,
    pub(crate) name: &'static str,
    pub(crate) version: &'static str,
    pub(crate) description: &'static str,
    pub(crate) title: &'static str,
    pub(crate) website_url: &'static str,
    pub(crate) repository: Repository,
    pub(crate) icons: Vec<CardIcon>,
    pub(crate) remotes: Vec<Remote>,
    pub(crate) capabilities: ServerCapabilities,
}

#[derive(Serialize)]
pub(crate) struct Repository {
    pub(crate) url: &'static str,
    pub(crate) source: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CardIcon {
    pub(crate) src: String,
    pub(crate) mime_type: &'static str,
    pub(crate) sizes: Vec<&'static str>,
}

/// How to reach the server over HTTP.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Remote {
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    pub(crate) url: String,
    pub(crate) supported_protocol_versions: Vec<String>,
    pub(crate) authentication: Authentication,
}

#[derive(Serialize)]
pub(crate) struct Authentication {
    pub(crate) required: bool,
    pub(crate) schemes: Vec<&'static str>,
}

impl Card {
    /// The card of a server reached at `public_url`, with its capabilities and protocol versions.
    pub(crate) fn new(
        public_url: &str,
        capabilities: ServerCapabilities,
        versions: &[ProtocolVersion],
    ) -> Card {
        Card {
            schema: SCHEMA,
            name: identity::REGISTRY_NAME,
            version: identity::VERSION,
            description: identity::DESCRIPTION,
            title: identity::TITLE,
            website_url: identity::WEBSITE,
            repository: Repository {
                url: identity::REPOSITORY,
                source: "github",
            },
            icons: vec![CardIcon {
                src: format!("{public_url}{ICON_PATH}"),
                mime_type: "image/png",
                sizes: vec![identity::ICON_SIZE],
            }],
            remotes: vec![Remote {
                kind: "streamable-http",
                url: format!("{public_url}/mcp"),
                supported_protocol_versions: versions.iter().map(|v| v.to_string()).collect(),
                // Every request carries its person's token: a personal access token or a bot token
                // (bearer), or an access token Mattermost issued through OAuth 2.0 (the protected
                // resource metadata names Mattermost as the authorization server).
                authentication: Authentication {
                    required: true,
                    schemes: vec!["bearer", "oauth2"],
                },
            }],
            capabilities,
        }
    }
}

/// The card and the icon, as served.
pub(crate) struct Published {
    card: Bytes,
}

impl Published {
    pub(crate) fn new(card: &Card) -> Published {
        Published {
            card: Bytes::from(serde_json::to_vec(card).unwrap_or_default()),
        }
    }

    /// The answer for `path`, when it is the card's or the icon's.
    pub(crate) fn answer(&self, method: &Method, path: &str) -> Option<Response<Body>> {
        let (bytes, kind) = match path {
            PATH => (self.card.clone(), "application/json"),
            ICON_PATH => (Bytes::from_static(identity::ICON_PNG), "image/png"),
            _ => return None,
        };
        let mut r = match *method {
            Method::GET => Response::new(reply::full(bytes)),
            Method::HEAD => Response::new(reply::full(Bytes::new())),
            // A browser's preflight.
            Method::OPTIONS => {
                let mut r = Response::new(reply::full(Bytes::new()));
                *r.status_mut() = StatusCode::NO_CONTENT;
                r
            }
            _ => {
                return Some(reply::with_header(
                    reply::error(
                        StatusCode::METHOD_NOT_ALLOWED,
                        "method_not_allowed",
                        &format!("{path} is read with GET."),
                    ),
                    header::ALLOW,
                    "GET, HEAD, OPTIONS",
                ));
            }
        };
        let h = r.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
        h.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=3600"),
        );
        h.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        h.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET"),
        );
        h.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static("Content-Type"),
        );
        Some(r)
    }
}
