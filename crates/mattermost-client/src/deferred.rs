//! A part of Mattermost's answer kept as the JSON Mattermost sent until it is read (the fields the
//! build script lists in `build/deferred.rs`: a post's file descriptions, link previews, images,
//! custom emoji, acknowledgements and priority, which no list of posts shows).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use std::fmt;
use std::marker::PhantomData;

/// JSON checked to be well formed and kept as it came; [`Deferred::read`] parses it into `T`.
/// Written back (serialized), it is exactly the JSON that came.
pub struct Deferred<T> {
    raw: Box<RawValue>,
    of: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> Deferred<T> {
    /// The part as the generated type; an error says how the JSON Mattermost sent does not fit it.
    pub fn read(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.raw.get())
    }
}

impl<T> Deferred<T> {
    /// The JSON as Mattermost sent it.
    pub fn json(&self) -> &str {
        self.raw.get()
    }
}

impl<T> Clone for Deferred<T> {
    fn clone(&self) -> Self {
        Deferred {
            raw: self.raw.clone(),
            of: PhantomData,
        }
    }
}

impl<T> fmt::Debug for Deferred<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Deferred").field(&self.raw.get()).finish()
    }
}

impl<T> Serialize for Deferred<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(serializer)
    }
}

impl<'de, T> Deserialize<'de> for Deferred<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Deferred {
            raw: Box::<RawValue>::deserialize(deserializer)?,
            of: PhantomData,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::types::{FileInfo, Post};

    const POST: &str = r#"{"id":"p1","message":"hi","metadata":{"files":[{"id":"f1","name":"a.txt","size":7, "extension":"txt"}],"reactions":[{"user_id":"u1","emoji_name":"smile","post_id":"p1","create_at":1}],"embeds":[{"type":"opengraph","url":"https://example.com","data":{"title":"t"}}]}}"#;

    #[test]
    fn a_posts_files_are_kept_as_sent_and_read_when_asked() {
        let post: Post = serde_json::from_str(POST).unwrap();
        let meta = post.metadata.as_ref().unwrap();
        // The reactions, which lists show, are parsed with the post.
        assert_eq!(
            meta.reactions.as_ref().unwrap()[0].emoji_name.as_deref(),
            Some("smile")
        );
        let files = meta.files.as_ref().unwrap();
        assert_eq!(
            files.json(),
            r#"[{"id":"f1","name":"a.txt","size":7, "extension":"txt"}]"#
        );
        let read: Vec<FileInfo> = files.read().unwrap();
        assert_eq!(read[0].name.as_deref(), Some("a.txt"));
        assert_eq!(read[0].size, Some(7));
    }

    #[test]
    fn written_back_a_post_keeps_its_deferred_parts_exactly() {
        let post: Post = serde_json::from_str(POST).unwrap();
        let back: serde_json::Value = serde_json::to_value(&post).unwrap();
        let sent: serde_json::Value = serde_json::from_str(POST).unwrap();
        assert_eq!(back["metadata"]["files"], sent["metadata"]["files"]);
        assert_eq!(back["metadata"]["embeds"], sent["metadata"]["embeds"]);
        let text = serde_json::to_string(&post).unwrap();
        assert!(
            text.contains(r#""files":[{"id":"f1","name":"a.txt","size":7, "extension":"txt"}]"#)
        );
    }

    #[test]
    fn a_part_that_does_not_fit_its_type_fails_when_read_and_says_why() {
        let post: Post = serde_json::from_str(
            r#"{"id":"p1","metadata":{"files":[{"id":"f1","size":"seven"}]}}"#,
        )
        .unwrap();
        let err = post.metadata.unwrap().files.unwrap().read().unwrap_err();
        assert!(err.to_string().contains("invalid type"), "{err}");
    }

    #[test]
    fn malformed_json_is_still_refused_when_the_answer_is_read() {
        assert!(serde_json::from_str::<Post>(r#"{"metadata":{"files":[{"id":}]}}"#).is_err());
    }
}
