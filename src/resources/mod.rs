//! MCP resources: a shared file (`mattermost://files/{file_id}`), a post with its whole thread
//! (`mattermost://posts/{post_id}`) and a channel's recent posts (`mattermost://channels/{channel_id}`),
//! offered as resource templates.
//!
//! A resource is read through the tool that reads the same thing — `read_file`, `read_thread`,
//! `read_channel` — run by the server exactly as a call of that tool (its argument checks, the person's
//! call scope, its declared operations, its time budget), so a resource read is as safe as the call
//! and pages the same way: it answers one page, the tool's answer as JSON, and when more follows the
//! answer's `next_uri` is the resource URI of the next page (`?cursor=…`, the tool's own cursor, so
//! the model can continue with the tool as well). An image `read_file` gives comes as a blob beside
//! the JSON.
//!
//! Also here: the `resource_link` blocks tool answers carry ([`links`]), completion of the templates'
//! arguments ([`complete`]); the content a tool adds beside its JSON answer is `crate::tool::extra`.

pub(crate) mod complete;
pub(crate) mod links;

use crate::error::{ErrorKind, ToolError, quote};
use crate::ids::is_id;
use rmcp::ErrorData;
use rmcp::model::{ContentBlock, ReadResourceResult, ResourceContents, ResourceTemplate};
use serde_json::{Map, Value, json};
use std::future::Future;
use std::pin::Pin;

/// The scheme of every resource URI.
pub(crate) const SCHEME: &str = "mattermost";

/// What each kind of resource is read by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Template {
    /// The URI's first segment (`files`), its template's name.
    pub(crate) kind: &'static str,
    pub(crate) uri_template: &'static str,
    /// The template's one argument.
    pub(crate) argument: &'static str,
    pub(crate) title: &'static str,
    pub(crate) description: &'static str,
    /// The tool that reads it, and the argument the URI's id goes to.
    pub(crate) tool: &'static str,
    pub(crate) tool_argument: &'static str,
}

/// The resource templates.
pub(crate) const TEMPLATES: [Template; 3] = [
    Template {
        kind: "files",
        uri_template: "mattermost://files/{file_id}",
        argument: "file_id",
        title: "A shared file",
        description: "A file's content as read_file reads it (text, PDF, Word, spreadsheet, slides, \
                      archive listing; an image as a blob), one page: next_uri reads the next.",
        tool: "read_file",
        tool_argument: "file",
    },
    Template {
        kind: "posts",
        uri_template: "mattermost://posts/{post_id}",
        argument: "post_id",
        title: "A post and its thread",
        description: "The whole thread of a post, root first, as read_thread reads it, one page: \
                      next_uri reads the next.",
        tool: "read_thread",
        tool_argument: "post",
    },
    Template {
        kind: "channels",
        uri_template: "mattermost://channels/{channel_id}",
        argument: "channel_id",
        title: "A channel's recent posts",
        description: "A channel's newest posts as read_channel reads them, one page: next_uri reads \
                      older ones. A channel's name works too (add ?team=<team> when it is in several).",
        tool: "read_channel",
        tool_argument: "channel",
    },
];

/// The person's inbox (`mattermost://me/inbox`), a fixed resource: the channels where they have
/// unread posts or mentions, as `list_channels` with `unread_only` reads them. Subscribing to it hears
/// of anything that changes what they have unread or are mentioned in.
pub(crate) const INBOX: Template = Template {
    kind: "me",
    uri_template: "mattermost://me/inbox",
    argument: "",
    title: "Your inbox",
    description: "The channels where you have unread posts or mentions, most recently active first, as \
                  list_channels reads them with unread_only, one page: next_uri reads the next. Subscribe \
                  to hear when what you have unread or are mentioned in changes.",
    tool: "list_channels",
    tool_argument: "",
};

/// The fixed resources (the inbox), as `resources/list` lists them, when their tool is offered.
pub(crate) fn resources(offered: impl Fn(&str) -> bool) -> Vec<rmcp::model::Resource> {
    if !offered(INBOX.tool) {
        return Vec::new();
    }
    vec![
        rmcp::model::Resource::new(INBOX.uri_template, "inbox")
            .with_title(INBOX.title)
            .with_description(INBOX.description)
            .with_mime_type("application/json"),
    ]
}

/// The template of a kind (`files`, `posts`, `channels`).
pub(crate) fn template(kind: &str) -> Option<&'static Template> {
    TEMPLATES.iter().find(|t| t.kind == kind)
}

/// The URI of a file, a post's thread or a channel.
pub(crate) fn uri(kind: &str, id: &str) -> String {
    [SCHEME, "://", kind, "/", id].concat()
}

/// The templates as MCP lists them, for those of `offered` tools.
pub(crate) fn templates(offered: impl Fn(&str) -> bool) -> Vec<ResourceTemplate> {
    TEMPLATES
        .iter()
        .filter(|t| offered(t.tool))
        .map(|t| {
            ResourceTemplate::new(t.uri_template, t.kind)
                .with_title(t.title)
                .with_description(t.description)
                .with_mime_type("application/json")
        })
        .collect()
}

/// A resource read as the tool call that reads it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Target {
    pub(crate) template: &'static Template,
    /// The tool's arguments: the id (or channel name) and any `cursor`, `limit`, `team` of the query.
    pub(crate) args: Map<String, Value>,
}

fn not_ours(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!(
            "{} is not a resource of this server. Its resources are {}, with an id from the tools' answers \
             (and `?cursor=` from a page's next_uri), and {}.",
            quote(uri),
            TEMPLATES
                .iter()
                .map(|t| t.uri_template)
                .collect::<Vec<_>>()
                .join(", "),
            INBOX.uri_template
        ),
        Some(json!({"uri": uri})),
    )
}

/// The tool call a resource URI stands for. The query may give `cursor` and `limit` (and `team`, for
/// a channel named by its name).
pub(crate) fn target(uri: &str) -> Result<Target, ErrorData> {
    let parsed = url::Url::parse(uri).map_err(|_| not_ours(uri))?;
    if parsed.scheme() != SCHEME {
        return Err(not_ours(uri));
    }
    if parsed.host_str() == Some(INBOX.kind) {
        if parsed.path() != "/inbox" {
            return Err(not_ours(uri));
        }
        let mut args = Map::new();
        args.insert("unread_only".into(), json!(true));
        for (key, value) in parsed.query_pairs() {
            let v = match key.as_ref() {
                "cursor" => json!(value),
                "limit" => value.parse::<u64>().map(Value::from).map_err(|_| {
                    ErrorData::invalid_params(
                        format!("limit={} is not a whole number.", quote(&value)),
                        Some(json!({"uri": uri})),
                    )
                })?,
                _ => {
                    return Err(ErrorData::invalid_params(
                        format!(
                            "{} asks for {}, which the inbox does not take; it takes cursor and limit.",
                            quote(uri),
                            quote(&key)
                        ),
                        Some(json!({"uri": uri})),
                    ));
                }
            };
            args.insert(key.into_owned(), v);
        }
        return Ok(Target {
            template: &INBOX,
            args,
        });
    }
    let Some(template) = parsed.host_str().and_then(template) else {
        return Err(not_ours(uri));
    };
    let segments: Vec<String> = parsed
        .path_segments()
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .map(|s| {
            percent_decode(s).ok_or_else(|| {
                ErrorData::invalid_params(
                    format!("{} holds a malformed %-escape.", quote(uri)),
                    None,
                )
            })
        })
        .collect::<Result<_, _>>()?;
    let [id] = segments.as_slice() else {
        return Err(ErrorData::invalid_params(
            format!(
                "{} does not name one {}: its form is {}.",
                quote(uri),
                template.argument,
                template.uri_template
            ),
            Some(json!({"uri": uri})),
        ));
    };
    if template.kind != "channels" && !is_id(id) {
        return Err(ErrorData::invalid_params(
            format!(
                "{} is not a {}: give the id (26 lowercase letters and digits) the tools answer, as in {}.",
                quote(id),
                template.argument,
                template.uri_template
            ),
            Some(json!({"uri": uri})),
        ));
    }
    let mut args = Map::new();
    args.insert(template.tool_argument.into(), json!(id));
    for (key, value) in parsed.query_pairs() {
        let accepted: &[&str] = if template.kind == "channels" {
            &["cursor", "limit", "team"]
        } else {
            &["cursor", "limit"]
        };
        if !accepted.contains(&key.as_ref()) {
            return Err(ErrorData::invalid_params(
                format!(
                    "{} asks for {}, which a {} resource does not take; it takes {}.",
                    quote(uri),
                    quote(&key),
                    template.kind,
                    accepted.join(", ")
                ),
                Some(json!({"uri": uri})),
            ));
        }
        let v = match key.as_ref() {
            "limit" => value.parse::<u64>().map(Value::from).map_err(|_| {
                ErrorData::invalid_params(
                    format!("limit={} is not a whole number.", quote(&value)),
                    Some(json!({"uri": uri})),
                )
            })?,
            _ => json!(value),
        };
        args.insert(key.into_owned(), v);
    }
    Ok(Target { template, args })
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The URI of the page after `answer`, when one follows: the same resource with the answer's cursor.
pub(crate) fn next_uri(uri: &str, answer: &Value) -> Option<String> {
    let cursor = answer.get("next_cursor")?.as_str()?;
    let mut next = url::Url::parse(uri).ok()?;
    let kept: Vec<(String, String)> = next
        .query_pairs()
        .filter(|(k, _)| k != "cursor")
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    next.query_pairs_mut()
        .clear()
        .extend_pairs(kept)
        .append_pair("cursor", cursor);
    Some(next.to_string())
}

/// The contents of a resource read: the tool's answer as JSON (with `next_uri` when more follows),
/// and each image the tool gave as a blob.
pub(crate) fn contents(
    uri: &str,
    mut answer: Value,
    blocks: Vec<ContentBlock>,
) -> ReadResourceResult {
    if let (Some(next), Some(map)) = (next_uri(uri, &answer), answer.as_object_mut()) {
        map.insert("next_uri".into(), json!(next));
    }
    let mut contents =
        vec![ResourceContents::text(answer.to_string(), uri).with_mime_type("application/json")];
    for block in blocks {
        if let ContentBlock::Image(image) = block {
            contents.push(ResourceContents::blob(image.data, uri).with_mime_type(image.mime_type));
        }
    }
    ReadResourceResult::new(contents)
}

/// A tool's failure, as the protocol error a resource read answers with: the message, and the
/// structured error as its data.
pub(crate) fn error(e: &ToolError) -> ErrorData {
    let data = Some(e.to_json());
    match e.kind {
        ErrorKind::NotFound | ErrorKind::Forbidden | ErrorKind::NotMember => {
            ErrorData::resource_not_found(e.message.clone(), data)
        }
        ErrorKind::BadArgument | ErrorKind::BadCursor | ErrorKind::Ambiguous => {
            ErrorData::invalid_params(e.message.clone(), data)
        }
        _ => ErrorData::internal_error(e.message.clone(), data),
    }
}

/// What the server gives the resource code: a tool run as the person who asked, through the server's
/// own checks, call scope and budget; its JSON answer and the content it added beside it.
pub(crate) type Ran = Result<(Value, Vec<ContentBlock>), ToolError>;

/// Runs tools as the person who asked (implemented by the server).
pub(crate) trait Runner: Sync {
    fn run_tool<'a>(
        &'a self,
        tool: &'static str,
        args: Map<String, Value>,
    ) -> Pin<Box<dyn Future<Output = Ran> + Send + 'a>>;

    /// A call scope of this person that may send only `operations`, within the server's budget (for
    /// completion's lookups, which no tool answers as they need).
    fn scope(
        &self,
        name: &'static str,
        operations: &'static [&'static str],
    ) -> std::sync::Arc<crate::mattermost::call::CallScope>;

    /// The person's context, for completion's lookups.
    fn cx(&self) -> &crate::context::Ctx;
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "abcdefghijklmnopqrstuvwxyz";

    #[test]
    fn uris_name_the_tool_call_that_reads_them() {
        let t = target(&format!("mattermost://files/{ID}")).expect("a file");
        assert_eq!(t.template.tool, "read_file");
        assert_eq!(
            t.args,
            json!({"file": ID}).as_object().cloned().unwrap_or_default()
        );
        let t = target(&format!("mattermost://posts/{ID}?cursor=ab.cd&limit=5")).expect("a post");
        assert_eq!(t.template.tool, "read_thread");
        assert_eq!(
            Value::Object(t.args),
            json!({"post": ID, "cursor": "ab.cd", "limit": 5})
        );
        let t = target("mattermost://channels/town%20square?team=acme").expect("a channel");
        assert_eq!(
            Value::Object(t.args),
            json!({"channel": "town square", "team": "acme"})
        );
    }

    #[test]
    fn other_uris_are_refused_naming_what_is_accepted() {
        for (uri, says) in [
            (
                "https://example.com/files/x",
                "is not a resource of this server",
            ),
            ("mattermost://users/abc", "is not a resource of this server"),
            (
                "mattermost://files/report.pdf",
                "`report.pdf` is not a file_id",
            ),
            ("mattermost://files/", "does not name one file_id"),
            (
                "mattermost://posts/abcdefghijklmnopqrstuvwxyz?team=x",
                "which a posts resource does not take",
            ),
            (
                "mattermost://posts/abcdefghijklmnopqrstuvwxyz?limit=many",
                "`many` is not a whole number",
            ),
        ] {
            let e = target(uri).expect_err(uri);
            assert!(e.message.contains(says), "{uri}: {}", e.message);
        }
    }

    #[test]
    fn the_next_page_is_the_same_resource_with_the_answers_cursor() {
        let uri = format!("mattermost://files/{ID}?limit=3&cursor=old");
        let next = next_uri(&uri, &json!({"next_cursor": "ab.cd-e"})).expect("a next page");
        assert_eq!(
            next,
            format!("mattermost://files/{ID}?limit=3&cursor=ab.cd-e")
        );
        assert!(next_uri(&uri, &json!({"has_more": false})).is_none());
        let read = contents(&uri, json!({"next_cursor": "x"}), Vec::new());
        let text = serde_json::to_value(&read.contents[0]).expect("json");
        assert!(
            text["text"]
                .as_str()
                .unwrap_or_default()
                .contains("next_uri")
        );
        assert_eq!(text["mimeType"], json!("application/json"));
    }
}
