//! A file as tools show it: id, name, type, size, who shared it and when, the post it is attached to
//! and where.

use crate::mattermost::facts::FileFacts;
use crate::mattermost::types;
use crate::time::rfc3339;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::HashMap;

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct FileItem {
    pub(crate) id: String,
    pub(crate) name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) extension: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mime_type: Option<String>,
    pub(crate) size: u64,
    pub(crate) time: String,
    /// Who shared it, by username (`by_id` when the username is not known).
    #[serde(rename = "by", skip_serializing_if = "Option::is_none")]
    pub(crate) author: Option<String>,
    #[serde(rename = "by_id", skip_serializing_if = "Option::is_none")]
    pub(crate) author_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) post_id: Option<String>,
    /// The permalink of the post it is attached to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) permalink: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) channel_id: Option<String>,
    /// The channel as a person names it, when it is yours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) channel: Option<String>,
}

impl FileItem {
    pub(crate) fn of(
        f: &types::FileInfo,
        usernames: &HashMap<String, String>,
        base_url: &str,
    ) -> FileItem {
        let user = f.user_id.clone().unwrap_or_default();
        let author = usernames.get(&user).cloned();
        let post_id = f.post_id.clone().filter(|p| !p.is_empty());
        FileItem {
            id: f.id().to_string(),
            name: f.name().to_string(),
            extension: f.extension.clone().filter(|e| !e.is_empty()),
            mime_type: f.mime().map(str::to_string),
            size: f.size(),
            time: rfc3339(f.create_at.unwrap_or(0)),
            author_id: author.is_none().then_some(user),
            author,
            permalink: post_id
                .as_deref()
                .map(|p| super::post::permalink(base_url, p)),
            post_id,
            channel_id: None,
            channel: None,
        }
    }

    /// The same item, saying which channel it is in.
    pub(crate) fn in_channel(mut self, channel_id: &str, label: Option<&str>) -> FileItem {
        self.channel_id = Some(channel_id.to_string());
        self.channel = label.map(str::to_string);
        self
    }
}
