//! Who this server is, as clients and catalogues show it: its name, title, description, version,
//! website and icons, in one place. `initialize` and `server/discover` give them as the server's
//! `Implementation` ([`implementation`]); each tool carries its toolset's icon ([`toolset_icons`]); the
//! server card (`crate::serve::card`), the Claude Desktop bundle (`crate::bundle`) and `server.json`
//! (checked against these by a test) say the same.
//!
//! The icons are committed PNG files under `assets/` (drawn by `assets/draw_icons.py`) and travel as
//! `data:` URIs, so a client over stdio, with no HTTP address to fetch from, shows them too.

use crate::tool::Toolset;
use base64::Engine;
use rmcp::model::{Icon, Implementation};
use std::sync::LazyLock;

/// The server's name (its `Implementation.name` and its binary).
pub(crate) const NAME: &str = "mattermost-mcp";
/// The name a person sees.
pub const TITLE: &str = "Mattermost";
/// What it does, in one sentence (at most 100 characters, the MCP Registry's limit).
pub const DESCRIPTION: &str = env!("CARGO_PKG_DESCRIPTION");
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The project's home: its documentation and source.
pub const WEBSITE: &str = env!("CARGO_PKG_HOMEPAGE");
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");
/// The server's name in the MCP Registry and in its server card (reverse DNS of the repository's
/// owner, then the name).
pub const REGISTRY_NAME: &str = "io.github.mattermost-mcp/mattermost-mcp";
/// The licence, as an SPDX expression.
pub(crate) const LICENSE: &str = env!("CARGO_PKG_LICENSE");

/// The server's icon for a client's list of servers: 64x64 PNG.
pub(crate) const ICON_PNG: &[u8] = include_bytes!("../assets/icon-64.png");
pub(crate) const ICON_SIZE: &str = "64x64";
/// The same icon at 512x512, the size Claude Desktop shows a bundle's icon at.
pub const BUNDLE_ICON_PNG: &[u8] = include_bytes!("../assets/icon.png");

/// A PNG as a `data:` URI.
pub(crate) fn png_data_uri(png: &[u8]) -> String {
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    )
}

fn png_icon(png: &[u8], size: &str) -> Icon {
    Icon::new(png_data_uri(png))
        .with_mime_type("image/png")
        .with_sizes(vec![size.to_string()])
}

/// The server's icons, as `initialize` and `server/discover` give them.
pub(crate) fn icons() -> Vec<Icon> {
    vec![png_icon(ICON_PNG, ICON_SIZE)]
}

/// The server as `initialize` and `server/discover` describe it (made once: rmcp asks for it on
/// every stateless request, and the icon's `data:` URI is encoded anew each time it is made).
pub(crate) fn implementation() -> Implementation {
    static ME: LazyLock<Implementation> = LazyLock::new(|| {
        let mut me = Implementation::new(NAME, VERSION);
        me.title = Some(TITLE.to_string());
        me.description = Some(DESCRIPTION.to_string());
        me.website_url = Some(WEBSITE.to_string());
        me.icons = Some(icons());
        me
    });
    ME.clone()
}

/// The 32x32 glyph of a toolset.
fn toolset_png(set: Toolset) -> &'static [u8] {
    match set {
        Toolset::People => include_bytes!("../assets/toolsets/people.png"),
        Toolset::Teams => include_bytes!("../assets/toolsets/teams.png"),
        Toolset::Channels => include_bytes!("../assets/toolsets/channels.png"),
        Toolset::Posts => include_bytes!("../assets/toolsets/posts.png"),
        Toolset::Files => include_bytes!("../assets/toolsets/files.png"),
        Toolset::Writes => include_bytes!("../assets/toolsets/writes.png"),
        Toolset::Api => include_bytes!("../assets/toolsets/api.png"),
    }
}

static TOOLSET_ICONS: LazyLock<Vec<(Toolset, Vec<Icon>)>> = LazyLock::new(|| {
    Toolset::ALL
        .iter()
        .map(|s| (*s, vec![png_icon(toolset_png(*s), "32x32")]))
        .collect()
});

/// The icons every tool of a toolset carries (its toolset's glyph).
pub(crate) fn toolset_icons(set: Toolset) -> Vec<Icon> {
    TOOLSET_ICONS
        .iter()
        .find(|(s, _)| *s == set)
        .map(|(_, icons)| icons.clone())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_png(bytes: &[u8]) -> bool {
        bytes.starts_with(b"\x89PNG\r\n\x1a\n")
    }

    /// The width and height a PNG's IHDR says.
    fn png_size(bytes: &[u8]) -> (u32, u32) {
        let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
        let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
        (w, h)
    }

    #[test]
    fn the_icons_are_pngs_of_the_sizes_they_claim_and_small() {
        assert!(is_png(ICON_PNG) && png_size(ICON_PNG) == (64, 64));
        assert!(is_png(BUNDLE_ICON_PNG) && png_size(BUNDLE_ICON_PNG) == (512, 512));
        assert!(ICON_PNG.len() < 4096, "{} bytes", ICON_PNG.len());
        for set in Toolset::ALL {
            let png = toolset_png(set);
            assert!(is_png(png) && png_size(png) == (32, 32), "{}", set.name());
            assert!(png.len() < 1024, "{}: {} bytes", set.name(), png.len());
        }
        let uri = &icons()[0].src;
        assert!(
            uri.starts_with("data:image/png;base64,iVBORw0KGgo"),
            "{uri}"
        );
    }

    #[test]
    fn the_description_fits_the_registry_and_the_urls_are_https() {
        assert!(!DESCRIPTION.is_empty() && DESCRIPTION.chars().count() <= 100);
        assert!(WEBSITE.starts_with("https://") && REPOSITORY.starts_with("https://github.com/"));
        // The registry name is the repository's owner under io.github.
        let owner = REPOSITORY
            .trim_start_matches("https://github.com/")
            .split('/')
            .next()
            .unwrap();
        assert_eq!(REGISTRY_NAME, format!("io.github.{owner}/{NAME}"));
    }
}
