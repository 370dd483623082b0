//! The `resource_link` content blocks a tool's answer carries for the files and posts it names, after
//! the answer's text copy (they are not part of the JSON, so they cost a page's JSON nothing).
//!
//! - Files: every file an answer names — `read_file`'s file, `search_files`' matches, the `file_ids`
//!   of posts — named and typed where the answer says so.
//! - Posts, only where a link does not flood the answer: a thread's root (`read_thread`), each
//!   followed thread's root (`list_threads`), and a search's matches (`search_posts`,
//!   `list_mentions`). A channel's page of posts links none of its posts.
//! - A channel, for answers about one channel (`read_channel`, `read_unread`, `get_channel`).
//!
//! At most [`MAX_PER_KIND`] links of each kind, in the answer's order.

use super::uri;
use rmcp::model::{ContentBlock, Resource};
use serde_json::Value;
use std::collections::BTreeSet;

/// The most links of one kind (files, posts) an answer carries.
pub(crate) const MAX_PER_KIND: usize = 20;

#[derive(Default)]
struct Links {
    blocks: Vec<ContentBlock>,
    seen: BTreeSet<String>,
    files: usize,
    posts: usize,
}

impl Links {
    fn add(&mut self, kind: &str, id: &str, resource: impl FnOnce(String) -> Resource) {
        if id.is_empty() {
            return;
        }
        let count = match kind {
            "files" => &mut self.files,
            "posts" => &mut self.posts,
            _ => &mut 0,
        };
        if *count >= MAX_PER_KIND {
            return;
        }
        let u = uri(kind, id);
        if self.seen.insert(u.clone()) {
            *count += 1;
            self.blocks.push(ContentBlock::resource_link(resource(u)));
        }
    }

    /// A file shown as a `FileItem` (`id`, `name`, `mime_type`, `size`).
    fn file_item(&mut self, f: &Value) {
        let id = str_of(f, "id");
        self.add("files", id, |u| {
            let mut r = Resource::new(u, str_of(f, "name"));
            if let Some(m) = f.get("mime_type").and_then(Value::as_str) {
                r = r.with_mime_type(m);
            }
            if let Some(s) = f.get("size").and_then(Value::as_u64) {
                r = r.with_size(s);
            }
            r
        });
    }

    /// The files a post (or a thread's root) names by id.
    fn post_files(&mut self, post: &Value) {
        let of = str_of(post, "id");
        for id in post
            .get("file_ids")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if self.files >= MAX_PER_KIND {
                return;
            }
            self.add("files", id, |u| {
                Resource::new(u, ["file ", id].concat())
                    .with_description(["attached to post ", of].concat())
            });
        }
    }

    fn post(&mut self, id: &str, title: &str) {
        self.add("posts", id, |u| {
            Resource::new(u, format!("post {id}")).with_title(title.to_string())
        });
    }

    fn channel(&mut self, id: &str, name: Option<&str>) {
        self.add("channels", id, |u| {
            Resource::new(u, name.unwrap_or(id).to_string())
                .with_description("the channel's recent posts".to_string())
        });
    }
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn items(answer: &Value) -> impl Iterator<Item = &Value> {
    answer
        .get("items")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// A post's first words, as a link's title.
fn title_of(post: &Value) -> String {
    let text = str_of(post, "text");
    let words: String = text.chars().take(60).collect();
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > 60 {
        format!("{words}…")
    } else {
        words
    }
}

/// The links for `tool`'s answer.
pub(crate) fn of(tool: &str, answer: &Value) -> Vec<ContentBlock> {
    let mut l = Links::default();
    match tool {
        "read_file" => {
            if let Some(f) = answer.get("file") {
                l.file_item(f);
            }
        }
        "search_files" => items(answer).for_each(|f| l.file_item(f)),
        "read_thread" => {
            let root = str_of(answer, "root_id");
            let first = items(answer).find(|p| str_of(p, "id") == root);
            l.post(
                root,
                &first.map(title_of).unwrap_or_else(|| "thread".into()),
            );
        }
        "list_threads" => {
            for t in items(answer) {
                let title = t.get("root").map(title_of).unwrap_or_default();
                l.post(str_of(t, "id"), &title);
            }
        }
        "search_posts" | "list_mentions" => {
            for p in items(answer) {
                l.post(str_of(p, "id"), &title_of(p));
            }
        }
        "read_channel" | "read_unread" => {
            l.channel(str_of(answer, "channel_id"), None);
        }
        "get_channel" => {
            l.channel(
                str_of(answer, "id"),
                answer.get("name").and_then(Value::as_str),
            );
        }
        _ => {}
    }
    // Files the posts of any answer name.
    for p in items(answer) {
        l.post_files(p);
        if let Some(root) = p.get("root") {
            l.post_files(root);
        }
    }
    l.blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn uris(blocks: &[ContentBlock]) -> Vec<String> {
        blocks
            .iter()
            .filter_map(|b| match b {
                ContentBlock::ResourceLink(r) => Some(r.uri.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_channels_posts_link_their_files_not_themselves() {
        let page = json!({"channel_id": "c1", "items": [
            {"id": "p1", "text": "hi", "file_ids": ["f1", "f2"]},
            {"id": "p2", "text": "again", "file_ids": ["f1"]},
        ]});
        assert_eq!(
            uris(&of("read_channel", &page)),
            [
                "mattermost://channels/c1",
                "mattermost://files/f1",
                "mattermost://files/f2"
            ]
        );
    }

    #[test]
    fn a_search_links_its_matches_up_to_the_cap() {
        let many: Vec<Value> = (0..50)
            .map(|i| json!({"id": format!("p{i}"), "text": "a match"}))
            .collect();
        let blocks = of("search_posts", &json!({"items": many}));
        assert_eq!(blocks.len(), MAX_PER_KIND);
        assert_eq!(uris(&blocks)[0], "mattermost://posts/p0");
        let thread = of(
            "read_thread",
            &json!({"root_id": "r", "items": [{"id": "r", "text": "the root"}, {"id": "x", "text": "a reply"}]}),
        );
        assert_eq!(uris(&thread), ["mattermost://posts/r"]);
        let file = of(
            "read_file",
            &json!({"file": {"id": "f", "name": "a.pdf", "mime_type": "application/pdf", "size": 9}}),
        );
        let ContentBlock::ResourceLink(r) = &file[0] else {
            panic!("a link")
        };
        assert_eq!(
            (r.name.as_str(), r.mime_type.as_deref(), r.size),
            ("a.pdf", Some("application/pdf"), Some(9))
        );
        assert!(of("get_me", &json!({"id": "u"})).is_empty());
    }
}
