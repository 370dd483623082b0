//! Mattermost as an OAuth 2.0 authorization server: its RFC 8414 metadata, which an MCP client reads
//! after following the MCP server's protected resource metadata to this server.

use serde_json::json;

use crate::reply::{AppError, HResult, Reply};
use crate::routes::Ctx;

/// GET /.well-known/oauth-authorization-server — no session needed. 501
/// `api.oauth.authorization_server_metadata.disabled.app_error` when the OAuth service provider is
/// off; otherwise the default metadata for the site URL (code flow, authorization_code and
/// refresh_token grants, `none` and `client_secret_post` client authentication, scope `user`, PKCE
/// with S256), and the registration endpoint only when dynamic client registration is on.
// Mirrors server/channels/web/oauth.go getAuthorizationServerMetadata →
// app/oauth.go GetAuthorizationServerMetadata → model/oauth_metadata.go GetDefaultMetadata
pub(crate) fn metadata(ctx: &mut Ctx) -> HResult {
    if !ctx.w.settings.enable_oauth_service_provider {
        return Err(AppError::new(
            501,
            "api.oauth.authorization_server_metadata.disabled.app_error",
            "OAuth Service Provider is disabled.",
        ));
    }
    let site = ctx.site_url.trim_end_matches('/').to_string();
    let mut m = json!({
        "issuer": site,
        "authorization_endpoint": format!("{site}/oauth/authorize"),
        "token_endpoint": format!("{site}/oauth/access_token"),
        "response_types_supported": ["code"],
        "scopes_supported": ["user"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_methods_supported": ["none", "client_secret_post"],
        "code_challenge_methods_supported": ["S256"],
    });
    if ctx.w.settings.enable_dynamic_client_registration {
        m["registration_endpoint"] = json!(format!("{site}/api/v4/oauth/apps/register"));
    }
    Ok(Reply::json(&m))
}
