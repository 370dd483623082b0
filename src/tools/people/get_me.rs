//! `get_me`: who the server acts as in Mattermost, and the Mattermost server's version (from the
//! `X-Version-Id` header of the same answer).

use crate::calls::ME;
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::UserFacts;
use crate::time::rfc3339;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "get_me",
    title: "Who am I",
    description: "Who this server acts as (id, username, name, email, roles, locale, timezone, bot) and the \
                  Mattermost server's address and version.",
    toolset: Toolset::People,
    args: &[],
    answer: Answer::One,
    hints: READS,
    asks: Asks::Never,
    calls: &[ME],
    code: crate::one!(run => Me),
};

/// The token's own user and the server it is on.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Me {
    pub(crate) id: String,
    pub(crate) username: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) first_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) last_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) nickname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) email: Option<String>,
    /// Mattermost's roles (system_user, system_admin, ...).
    pub(crate) roles: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) locale: Option<String>,
    /// The time zone in use (IANA name), automatic or set by hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) timezone: Option<String>,
    pub(crate) is_bot: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) created: Option<String>,
    pub(crate) mattermost_url: String,
    /// The release (major.minor.patch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mattermost_version: Option<String>,
    /// The whole `X-Version-Id` (release, build number, config hash, licence).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mattermost_version_id: Option<String>,
}

#[derive(Deserialize)]
struct Args {}

async fn run(cx: &Ctx, _input: Input<Args>) -> Result<Me, ToolError> {
    let answer = cx
        .send(cx.api().get_user().user_id("me").send())
        .await
        .map_err(|e| cx.fail(e, "user", "me"))?;
    let version = answer
        .headers()
        .get("x-version-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let u = answer.into_inner();
    cx.learn_user(&u);
    let nonempty = |s: &Option<String>| s.clone().filter(|v| !v.is_empty());
    let timezone = u.timezone.as_ref().and_then(|tz| {
        let zone = if tz.use_automatic_timezone.as_deref() == Some("true") {
            &tz.automatic_timezone
        } else {
            &tz.manual_timezone
        };
        nonempty(zone)
    });
    Ok(Me {
        id: u.id().to_string(),
        username: u.username().to_string(),
        first_name: nonempty(&u.first_name),
        last_name: nonempty(&u.last_name),
        nickname: nonempty(&u.nickname),
        email: nonempty(&u.email),
        roles: u
            .roles
            .as_deref()
            .map(|r| r.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
        locale: nonempty(&u.locale),
        timezone,
        is_bot: u.is_bot == Some(true),
        created: u.create_at.filter(|t| *t > 0).map(rfc3339),
        mattermost_url: cx.url().to_string(),
        mattermost_version: version
            .as_deref()
            .map(|v| v.split('.').take(3).collect::<Vec<_>>().join(".")),
        mattermost_version_id: version,
    })
}
