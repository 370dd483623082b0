//! The OAuth 2.0 Protected Resource Metadata (RFC 9728) at `/.well-known/oauth-protected-resource`:
//! this server is the resource, and the Mattermost server is its authorization server. A client that
//! speaks MCP authorization reads it after a 401, then reads Mattermost's own metadata
//! (`/.well-known/oauth-authorization-server`, RFC 8414, served by Mattermost when its OAuth 2.0
//! service provider is on) to sign the person in there. The access token Mattermost issues is sent
//! back here as the bearer and used on Mattermost's REST API as the person.

use serde_json::{Value, json};

/// The metadata document for the resource at `endpoint`, signed in at `mattermost`.
pub(crate) fn protected_resource(endpoint: &str, mattermost: &str) -> Value {
    json!({
        "resource": endpoint,
        "authorization_servers": [mattermost],
        "bearer_methods_supported": ["header"],
        "resource_name": "Mattermost (MCP)",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_names_the_resource_and_mattermost() {
        let m = protected_resource("https://mcp.example.com/mcp", "https://chat.example.com");
        assert_eq!(m["resource"], "https://mcp.example.com/mcp");
        assert_eq!(m["authorization_servers"][0], "https://chat.example.com");
    }
}
