//! Who a new post mentions, as `app/notification.go` SendNotifications decides it before
//! `channel_store.go` IncrementMentionCount: the DM partner, every other member of a group message,
//! and in team channels the keywords of `app/mention_keywords.go` (`@username`; `@channel` and
//! `@all` for every member; `@here` for members whose status is online) found by the word splitting
//! of `app/mention_parser_standard.go`.
//!
//! Approximations: the simulated users have the notify props the simulator renders (no extra
//! mention keys, `first_name` off, channel mentions on, no channel that ignores them), there are no
//! groups, and the message is not parsed as Markdown (the real parser skips code spans and code
//! blocks).

use std::collections::HashMap;

/// The mention keywords of a team channel: keyword (lowercase) → the user ids it mentions.
pub(crate) struct Keywords(HashMap<String, Vec<String>>);

impl Keywords {
    /// Keywords for the active members of a channel: `(user id, username, online)`.
    pub(crate) fn for_members<'a>(members: impl Iterator<Item = (&'a str, &'a str, bool)>) -> Self {
        let mut k: HashMap<String, Vec<String>> = HashMap::new();
        for (id, username, online) in members {
            let mut add = |word: String| k.entry(word).or_default().push(id.to_string());
            add(format!("@{}", username.to_lowercase()));
            add("@channel".to_string());
            add("@all".to_string());
            if online {
                add("@here".to_string());
            }
        }
        Keywords(k)
    }

    fn check(&self, word: &str, out: &mut Vec<String>) -> bool {
        match self.0.get(&word.to_lowercase()) {
            Some(ids) => {
                for id in ids {
                    if !out.contains(id) {
                        out.push(id.clone());
                    }
                }
                true
            }
            None => false,
        }
    }

    /// The user ids a message mentions (the poster is not removed here).
    pub(crate) fn mentioned(&self, message: &str) -> Vec<String> {
        let mut out = Vec::new();
        let is_word_char = |c: char| {
            c == ':' || c == '.' || c == '-' || c == '_' || c == '@' || c.is_alphanumeric()
        };
        for raw in message
            .split(|c: char| !is_word_char(c))
            .filter(|w| !w.is_empty())
        {
            // an emoji like :smile: is skipped whole
            if raw.len() > 1 && raw.starts_with(':') && raw.ends_with(':') {
                continue;
            }
            let word = raw.trim_start_matches([':', '.', '-', '_']);
            if word.is_empty() || self.check(word, &mut out) {
                continue;
            }
            // "@alice." or "@alice-": try without the trailing punctuation
            let mut stem = word;
            let mut found = false;
            while let Some(last) = stem.chars().last() {
                if !".-:_".contains(last) {
                    break;
                }
                stem = &stem[..stem.len() - last.len_utf8()];
                if !stem.is_empty() && self.check(stem, &mut out) {
                    found = true;
                    break;
                }
            }
            if found {
                continue;
            }
            if word.contains(['.', '-', ':']) {
                for part in word.split(['.', '-', ':']).filter(|p| !p.is_empty()) {
                    self.check(part, &mut out);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kw() -> Keywords {
        Keywords::for_members(
            [("A", "alice", true), ("B", "bob", false)]
                .iter()
                .map(|(a, b, c)| (*a, *b, *c)),
        )
    }

    #[test]
    fn finds_usernames_with_trailing_punctuation_and_in_compounds() {
        let k = kw();
        assert_eq!(k.mentioned("hey @Alice, look"), vec!["A"]);
        assert_eq!(k.mentioned("thanks @bob."), vec!["B"]);
        assert_eq!(k.mentioned("cc:@alice-@bob"), vec!["A", "B"]);
        assert!(k.mentioned("alice without an at").is_empty());
        assert!(k.mentioned("email alice@example.com").is_empty());
    }

    #[test]
    fn channel_wide_words_mention_everyone_and_here_only_the_online() {
        let k = kw();
        assert_eq!(k.mentioned("@channel standup"), vec!["A", "B"]);
        assert_eq!(k.mentioned("@here anyone?"), vec!["A"]);
        assert!(k.mentioned(":alice: emoji only").is_empty());
    }
}
