//! Mattermost ids: 26 lowercase letters and digits.

pub(crate) fn is_id(s: &str) -> bool {
    s.len() == 26
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}
