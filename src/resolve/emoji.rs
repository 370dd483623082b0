//! An emoji named as a person types it: `thumbsup`, `:+1:` or the character 👍.
//!
//! Two tables meet here. Mattermost's own names for its system emoji (`emoji_names.txt`, from the
//! server's `SystemEmojis`) decide what a reaction may be called. The `emojis` crate (the Unicode
//! emoji with GitHub's gemoji shortcodes) turns a character into names and folds aliases: a name is
//! sent as the first of its emoji's gemoji shortcodes that Mattermost also knows, so `thumbsup` and 👍
//! both become `+1`, the name Mattermost's own emoji picker sends, and one reaction is never split over
//! two names. A name neither table knows may be a custom emoji, which the tool looks up; an unknown
//! one is refused with the closest system names.

use super::matching::distance;
use crate::error::{ToolError, quote};
use std::collections::HashSet;
use std::sync::OnceLock;

const NAMES: &str = include_str!("emoji_names.txt");

/// Mattermost's system emoji names.
pub(crate) fn system_names() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| {
        NAMES
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    })
}

/// An emoji reference, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EmojiName {
    /// One of Mattermost's system emoji, by the name to send.
    System(String),
    /// Not a system emoji: a custom emoji of this name, if the server has one.
    Custom(String),
}

impl EmojiName {
    #[cfg(test)]
    pub(crate) fn name(&self) -> &str {
        match self {
            EmojiName::System(n) | EmojiName::Custom(n) => n,
        }
    }
}

/// The name Mattermost knows for an emoji of the `emojis` table: its first gemoji shortcode that
/// Mattermost also has.
fn mattermost_name(e: &emojis::Emoji) -> Option<String> {
    let names = system_names();
    e.shortcodes()
        .find(|s| names.contains(s))
        .map(str::to_string)
}

/// A custom emoji name as Mattermost allows them: 1 to 64 of a-z, 0-9, `-`, `_`, `+`.
fn custom_like(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_+".contains(&b))
}

/// Reads an emoji reference.
pub(crate) fn parse(reference: &str) -> Result<EmojiName, ToolError> {
    let r = reference.trim();
    if !r.is_ascii() {
        let plain: String = r.chars().filter(|c| *c != '\u{fe0f}').collect();
        let found = emojis::get(r).or_else(|| emojis::get(&plain));
        return match found.and_then(mattermost_name) {
            Some(name) => Ok(EmojiName::System(name)),
            None => Err(ToolError::bad_argument(format!(
                "{} is not an emoji Mattermost has a name for. Give one emoji character, or its name \
                 (thumbsup, :+1:, white_check_mark).",
                quote(reference)
            ))),
        };
    }
    let name = r.trim_matches(':').to_ascii_lowercase();
    if system_names().contains(name.as_str()) {
        let folded = emojis::get_by_shortcode(&name)
            .and_then(mattermost_name)
            .unwrap_or(name);
        return Ok(EmojiName::System(folded));
    }
    if custom_like(&name) {
        return Ok(EmojiName::Custom(name));
    }
    Err(unknown(reference))
}

/// The refusal of a name no table knows, with the closest system names.
pub(crate) fn unknown(reference: &str) -> ToolError {
    let wanted = reference.trim().trim_matches(':').to_ascii_lowercase();
    let closest = closest(&wanted);
    ToolError::bad_argument(format!(
        "No emoji is named {}. The closest names are: {}. Give one of them, the emoji character, or the exact \
         name of a custom emoji of this server.",
        quote(reference),
        closest.join(", ")
    ))
    .with("closest", serde_json::json!(closest))
}

/// The five system names closest to `wanted` (names that contain it first, then by edit distance).
pub(crate) fn closest(wanted: &str) -> Vec<String> {
    let mut scored: Vec<(usize, usize, &str)> = system_names()
        .iter()
        .filter(|n| !n.contains("skin_tone"))
        .map(|n| {
            let contains = usize::from(!(n.contains(wanted) || wanted.contains(*n)));
            (contains, distance(wanted, n), *n)
        })
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(5)
        .map(|(_, _, n)| n.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_colons_and_characters_fold_to_mattermosts_name() {
        for r in ["thumbsup", ":+1:", "+1", "👍", "THUMBSUP", " :thumbsup: "] {
            assert_eq!(parse(r).ok(), Some(EmojiName::System("+1".into())), "{r}");
        }
        assert_eq!(
            parse("✅").ok(),
            Some(EmojiName::System("white_check_mark".into()))
        );
        assert_eq!(
            parse("❤️").ok().map(|e| e.name().to_string()),
            Some("heart".into())
        );
    }

    #[test]
    fn an_unknown_name_may_be_custom_and_otherwise_gets_the_closest_names() {
        assert_eq!(
            parse("party-parrot").ok(),
            Some(EmojiName::Custom("party-parrot".into()))
        );
        let e = parse("thumbs up!").unwrap_err();
        assert!(e.message.contains("thumbsup"), "{}", e.message);
        assert!(closest("thumbsupp").contains(&"thumbsup".to_string()));
    }

    #[test]
    fn the_table_is_mattermosts_whole_list() {
        assert!(system_names().len() > 4000);
        assert!(system_names().contains("white_check_mark"));
    }
}
