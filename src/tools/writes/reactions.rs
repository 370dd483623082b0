//! What the reaction tools share: the `emoji` argument, the answer of a reaction written, an emoji named as Mattermost knows it, and a post's reactions.

use crate::confirm::Confirmed;
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::types;
use crate::resolve::emoji::{self, EmojiName};
use schemars::JsonSchema;
use serde::Serialize;

/// The emoji argument of the reaction tools.
pub(crate) const EMOJI: crate::args::Arg = crate::args::Arg {
    name: "emoji",
    kind: crate::args::Kind::Text { max: 80 },
    required: true,
    about: "thumbsup, :+1:, a custom emoji's name, or 👍.",
    shapes: None,
};

/// A reaction added or taken back.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Reacted {
    pub(crate) done: String,
    pub(crate) post_id: String,
    /// The emoji's name as Mattermost stores it.
    pub(crate) emoji: String,
    /// false when it already was as asked: nothing was sent.
    pub(crate) changed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) confirmed: Option<Confirmed>,
}

/// The emoji a reference names, as Mattermost stores it: a system emoji, or a custom emoji the server
/// has (one lookup).
pub(crate) async fn emoji_name(cx: &Ctx, reference: &str) -> Result<String, ToolError> {
    match emoji::parse(reference)? {
        EmojiName::System(n) => Ok(n),
        EmojiName::Custom(n) => {
            match cx
                .send(cx.api().get_emoji_by_name().emoji_name(&n).send())
                .await
            {
                Ok(_) => Ok(n),
                Err(e) if matches!(e.status(), Some(404 | 501 | 403)) => {
                    Err(emoji::unknown(reference))
                }
                Err(e) => Err(cx.fail(e, "emoji", reference)),
            }
        }
    }
}

/// The post's reactions, from its metadata.
pub(crate) fn reactions(post: &types::Post) -> Vec<types::Reaction> {
    post.metadata
        .as_ref()
        .and_then(|m| m.reactions.clone())
        .unwrap_or_default()
}
