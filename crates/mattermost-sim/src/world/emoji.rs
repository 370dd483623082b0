//! The system emoji names (`model.SystemEmojis`), which reactions and custom statuses may use
//! without a custom emoji (`model.GetSystemEmojiId`, `model.IsSystemEmojiName`).

use std::collections::HashSet;
use std::sync::OnceLock;

static NAMES: &str = include_str!("system_emoji_names.txt");

/// `model.IsSystemEmojiName`.
pub(crate) fn is_system_emoji(name: &str) -> bool {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| {
        NAMES
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    })
    .contains(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_the_common_names() {
        for n in [
            "+1",
            "-1",
            "thumbsup",
            "smile",
            "tada",
            "speech_balloon",
            "white_check_mark",
        ] {
            assert!(is_system_emoji(n), "{n}");
        }
        assert!(!is_system_emoji("party_parrot"));
        assert!(!is_system_emoji(""));
    }
}
