//! A post named by its id or its permalink.

use crate::error::{ToolError, quote};
use crate::ids::is_id;

/// A post reference: an id, or a permalink (`https://host/team/pl/<id>`, `.../_redirect/pl/<id>`).
pub(crate) fn post_id(reference: &str) -> Result<String, ToolError> {
    let r = reference.trim();
    if is_id(r) {
        return Ok(r.to_string());
    }
    let path = r.split(['?', '#']).next().unwrap_or("");
    if let Some((_, id)) = path.trim_end_matches('/').rsplit_once("/pl/")
        && is_id(id)
    {
        return Ok(id.to_string());
    }
    Err(ToolError::bad_argument(format!(
        "{} is not a post: give a post id (26 lowercase letters and digits) or a post's permalink \
         (https://<server>/<team>/pl/<post id>), as read and search tools return them.",
        quote(reference)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn posts_are_ids_or_permalinks() {
        let id = "abcdefghijklmnopqrstuvwxyz";
        assert_eq!(post_id(id).ok().as_deref(), Some(id));
        assert_eq!(
            post_id(&format!("https://chat.example.com/eng/pl/{id}"))
                .ok()
                .as_deref(),
            Some(id)
        );
        assert_eq!(
            post_id(&format!("https://c/_redirect/pl/{id}?x=1"))
                .ok()
                .as_deref(),
            Some(id)
        );
        for bad in [
            "abc",
            "../../users/me",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "https://c/pl/short",
        ] {
            assert!(post_id(bad).is_err(), "{bad}");
        }
    }
}
