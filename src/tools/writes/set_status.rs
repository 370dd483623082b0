//! `set_status`: sets the person's presence (online, away, do not disturb until a time, offline), their
//! custom status (text, emoji, until a time), or clears the custom status, after they confirmed:
//! everyone who sees them sees their status.

use super::common::{self, writes};
use crate::args::{Arg, Kind};
use crate::calls::{Call, ME, Source};
use crate::confirm::{self, Confirmed, Question};
use crate::context::Ctx;
use crate::error::{ToolError, quote};
use crate::mattermost::types;
use crate::time::rfc3339;
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

const STATUSES: &[&str] = &["online", "away", "dnd", "offline"];

pub(crate) const TOOL: Tool = Tool {
    name: "set_status",
    title: "Set your status",
    description: "Sets your presence (online, away, dnd, offline), your custom status, or clears it. Asks first: everyone sees your status.",
    toolset: Toolset::Writes,
    args: &[
        Arg {
            name: "status",
            kind: Kind::Text { max: 10 },
            required: false,
            about: "online, away, dnd or offline.",
            shapes: None,
        },
        Arg {
            name: "dnd_until",
            kind: Kind::Time,
            required: false,
            about: "When dnd ends (implies dnd).",
            shapes: None,
        },
        Arg {
            name: "custom_text",
            kind: Kind::Text { max: 100 },
            required: false,
            about: "Custom status text.",
            shapes: None,
        },
        Arg {
            name: "custom_emoji",
            kind: Kind::Text { max: 80 },
            required: false,
            about: "Custom status emoji (name or character).",
            shapes: None,
        },
        Arg {
            name: "custom_until",
            kind: Kind::Time,
            required: false,
            about: "When the custom status ends.",
            shapes: None,
        },
        Arg {
            name: "clear_custom",
            kind: Kind::Flag,
            required: false,
            about: "true clears the custom status.",
            shapes: Some("chooses UnsetUserCustomStatus"),
        },
    ],
    answer: Answer::One,
    hints: writes(true, true),
    asks: Asks::First("everyone who sees you sees your status"),
    calls: &[
        ME,
        Call {
            operation: "GetEmojiByName",
            params: &[("emoji_name", Source::Arg("custom_emoji"))],
        },
        Call {
            operation: "UpdateUserStatus",
            params: &[
                (
                    "user_id",
                    Source::Fixed("the person's id", "the person's own status"),
                ),
                (
                    "body.user_id",
                    Source::Fixed("the person's id", "the person's own status"),
                ),
                ("body.status", Source::Arg("status")),
                ("body.dnd_end_time", Source::Arg("dnd_until")),
            ],
        },
        Call {
            operation: "UpdateUserCustomStatus",
            params: &[
                (
                    "user_id",
                    Source::Fixed("the person's id", "the person's own status"),
                ),
                ("body.text", Source::Arg("custom_text")),
                ("body.emoji", Source::Arg("custom_emoji")),
                (
                    "body.duration",
                    Source::Fixed(
                        "date_and_time with custom_until, left out without",
                        "the custom status ends at custom_until, or stays until cleared",
                    ),
                ),
                ("body.expires_at", Source::Arg("custom_until")),
            ],
        },
        Call {
            operation: "UnsetUserCustomStatus",
            params: &[(
                "user_id",
                Source::Fixed("the person's id", "the person's own status"),
            )],
        },
    ],
    code: crate::one!(run => StatusSet),
};

#[derive(Deserialize)]
struct Args {
    status: Option<String>,
    dnd_until: Option<String>,
    custom_text: Option<String>,
    custom_emoji: Option<String>,
    custom_until: Option<String>,
    #[serde(default)]
    clear_custom: bool,
}

/// A custom status as set.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Custom {
    pub(crate) text: String,
    pub(crate) emoji: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) until: Option<String>,
}

/// What was set.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct StatusSet {
    pub(crate) done: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) dnd_until: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) custom: Option<Custom>,
    #[serde(default, skip_serializing_if = "crate::show::is_false")]
    pub(crate) cleared_custom: bool,
    pub(crate) confirmed: Confirmed,
}

fn future(name: &str, value: &str) -> Result<i64, ToolError> {
    let ms = crate::time::parse(value).unwrap_or(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    if ms <= now {
        return Err(ToolError::bad_argument(format!(
            "`{name}` is {} ({}), which is not in the future. Give a later time.",
            quote(value),
            rfc3339(ms)
        )));
    }
    Ok(ms)
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<StatusSet, Stop> {
    confirm::preflight(&input)?;
    let args = &input.args;
    let status = match (&args.status, &args.dnd_until) {
        (Some(s), _) => {
            let s = s.trim().to_ascii_lowercase();
            if !STATUSES.contains(&s.as_str()) {
                return Err(ToolError::bad_argument(format!(
                    "`status` is {}; give online, away, dnd (do not disturb) or offline.",
                    quote(&s)
                ))
                .into());
            }
            Some(s)
        }
        (None, Some(_)) => Some("dnd".to_string()),
        (None, None) => None,
    };
    let dnd_until = match &args.dnd_until {
        Some(t) if status.as_deref() == Some("dnd") => Some(future("dnd_until", t)?),
        Some(_) => {
            return Err(ToolError::bad_argument(
                "`dnd_until` goes with status dnd only; leave it out or set status to dnd.",
            )
            .into());
        }
        None => None,
    };
    let custom_given =
        args.custom_text.is_some() || args.custom_emoji.is_some() || args.custom_until.is_some();
    if custom_given && args.clear_custom {
        return Err(ToolError::bad_argument(
            "`clear_custom` clears the custom status, and custom_text/custom_emoji/custom_until set one: give one or \
             the other.",
        )
        .into());
    }
    if status.is_none() && !custom_given && !args.clear_custom {
        return Err(ToolError::bad_argument(
            "set_status needs something to set: status (online, away, dnd, offline), dnd_until, custom_text, \
             custom_emoji, custom_until, or clear_custom.",
        )
        .into());
    }
    let custom = if custom_given {
        let emoji = match &args.custom_emoji {
            Some(e) => super::reactions::emoji_name(cx, e).await?,
            None => "speech_balloon".to_string(),
        };
        let until = match &args.custom_until {
            Some(t) => Some(future("custom_until", t)?),
            None => None,
        };
        Some(Custom {
            text: args.custom_text.clone().unwrap_or_default(),
            emoji,
            until: until.map(rfc3339),
        })
    } else {
        None
    };
    let mut lines = Vec::new();
    if let Some(s) = &status {
        lines.push(match dnd_until {
            Some(t) => format!("Presence: {s} until {}", rfc3339(t)),
            None => format!("Presence: {s}"),
        });
    }
    if let Some(c) = &custom {
        lines.push(format!(
            "Custom status: :{}: {}{}",
            c.emoji,
            c.text,
            c.until
                .as_ref()
                .map(|u| format!(" (until {u})"))
                .unwrap_or_default()
        ));
    }
    if args.clear_custom {
        lines.push("Clear the custom status.".into());
    }
    let question = Question {
        action: "Set your status".into(),
        text: format!(
            "Set your status:\n\n{}\n\nEveryone who sees you sees it.",
            lines.join("\n")
        ),
        binding: lines.clone(),
    };
    let cleared = confirm::ask(cx, &input, &question).await?;
    let (me, _) = common::me(cx).await?;
    if let Some(s) = &status {
        let body = types::UpdateUserStatusBody {
            user_id: me.clone(),
            status: s.clone(),
            dnd_end_time: dnd_until.map(|ms| ms / 1000),
        };
        common::write(
            cx,
            &cleared,
            cx.api().update_user_status().user_id(&me).body(body).send(),
            "status of user",
            &me,
        )
        .await?;
    }
    if let Some(c) = &custom {
        let body = types::UpdateUserCustomStatusBody {
            text: c.text.clone(),
            emoji: c.emoji.clone(),
            duration: c.until.as_ref().map(|_| "date_and_time".to_string()),
            expires_at: c.until.clone(),
        };
        common::write(
            cx,
            &cleared,
            cx.api()
                .update_user_custom_status()
                .user_id(&me)
                .body(body)
                .send(),
            "custom status of user",
            &me,
        )
        .await?;
    }
    if args.clear_custom {
        common::write(
            cx,
            &cleared,
            cx.api().unset_user_custom_status().user_id(&me).send(),
            "custom status of user",
            &me,
        )
        .await?;
    }
    Ok(StatusSet {
        done: format!("Set: {}", lines.join("; ")),
        status,
        dnd_until: dnd_until.map(rfc3339),
        custom,
        cleared_custom: args.clear_custom,
        confirmed: cleared.how(),
    })
}
