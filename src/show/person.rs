//! People as tools show them: who they are ([`UserItem`]) and their presence ([`StatusItem`]).

use super::fields::is_false;
use crate::mattermost::facts::UserFacts;
use crate::mattermost::types;
use crate::time::rfc3339;
use schemars::JsonSchema;
use serde::Serialize;

/// A person: id, username, name, nickname, email, and whether they are a bot or deactivated.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct UserItem {
    pub(crate) id: String,
    pub(crate) username: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) nickname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) email: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) is_bot: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) deactivated: bool,
}

impl UserItem {
    pub(crate) fn of(u: &types::User) -> UserItem {
        UserItem {
            id: u.id().to_string(),
            username: u.username().to_string(),
            name: u.full_name(),
            nickname: u.nickname.clone().filter(|n| !n.is_empty()),
            email: u.email.clone().filter(|e| !e.is_empty()),
            is_bot: u.is_bot == Some(true),
            deactivated: u.deactivated(),
        }
    }
}

/// A custom status a person set.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct CustomStatus {
    pub(crate) text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) emoji: Option<String>,
    /// When it ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) until: Option<String>,
}

/// A person's presence: `status` (online, away, dnd, offline), whether they set it themselves, their
/// last activity, when Do Not Disturb ends, and their custom status.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct StatusItem {
    pub(crate) id: String,
    pub(crate) username: String,
    pub(crate) status: String,
    pub(crate) set_by_user: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) last_activity: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) dnd_until: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) custom_status: Option<CustomStatus>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) deactivated: bool,
}

impl StatusItem {
    pub(crate) fn of(u: &types::User, s: Option<&types::Status>) -> StatusItem {
        StatusItem {
            id: u.id().to_string(),
            username: u.username().to_string(),
            status: s
                .and_then(|s| s.status.clone())
                .unwrap_or_else(|| "offline".into()),
            set_by_user: s.and_then(|s| s.manual).unwrap_or(false),
            last_activity: s
                .and_then(|s| s.last_activity_at)
                .filter(|t| *t > 0)
                .map(rfc3339),
            dnd_until: s
                .and_then(|s| s.dnd_end_time)
                .filter(|t| *t > 0)
                .map(|secs| rfc3339(secs.saturating_mul(1000))),
            custom_status: custom_status(u),
            deactivated: u.deactivated(),
        }
    }
}

/// The custom status a person set (`props.customStatus`, a JSON text): emoji, text and when it ends.
fn custom_status(u: &types::User) -> Option<CustomStatus> {
    let raw = u.props.as_ref()?.get("customStatus")?.as_str()?;
    let parsed: serde_json::Value = serde_json::from_str(raw).ok()?;
    let text = parsed["text"].as_str().unwrap_or("");
    let emoji = parsed["emoji"].as_str().unwrap_or("");
    if text.is_empty() && emoji.is_empty() {
        return None;
    }
    Some(CustomStatus {
        text: text.to_string(),
        emoji: (!emoji.is_empty()).then(|| emoji.to_string()),
        until: parsed["expires_at"]
            .as_str()
            .filter(|t| !t.is_empty() && !t.starts_with("0001-"))
            .map(str::to_string),
    })
}
