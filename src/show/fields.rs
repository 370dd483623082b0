//! Small helpers of the shown items' fields: a flag left out when false, and a text cut to a length
//! (with the length it had).

/// Whether a flag is false, so that it is left out of an item (`skip_serializing_if`).
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

/// Text cut to `max` characters: the text shown, and its whole length when it was cut.
/// A text cut to `max` characters, with its whole length when it was cut.
pub(crate) fn cut(text: &str, max: Option<usize>) -> (String, Option<usize>) {
    let length = text.chars().count();
    match max {
        Some(max) if length > max => (text.chars().take(max).collect(), Some(length)),
        _ => (text.to_string(), None),
    }
}
