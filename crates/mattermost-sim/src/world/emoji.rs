//! Emoji: custom ones (`Emoji` rows) as the seeding API makes them, and the system emoji names
//! (`model.SystemEmojis`), which reactions and custom statuses may use without a custom emoji
//! (`model.GetSystemEmojiId`, `model.IsSystemEmojiName`).

use std::collections::HashSet;
use std::sync::OnceLock;

use super::{Emoji, World};

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

impl World {
    /// A custom emoji; returns its id.
    pub fn emoji(&mut self, creator_id: &str, name: &str) -> String {
        if let Some(e) = self.emoji.iter().find(|e| e.name == name) {
            return e.id.clone();
        }
        let id = self.new_id();
        let at = self.tick();
        self.emoji.push(Emoji {
            id: id.clone(),
            creator_id: creator_id.to_string(),
            name: name.to_string(),
            create_at: at,
        });
        id
    }
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
