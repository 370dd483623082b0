//! `create_channel`: creates a public or private channel in one of the person's teams, after they
//! confirmed its name, kind, purpose and header. Without `name`, the URL name is made from the display
//! name (lowercase letters, digits and dashes). A name already taken is refused before asking.

use super::common::{self, writes};
use crate::args::{Arg, Kind};
use crate::calls::{Call, Source, TEAM_CALLS};
use crate::confirm::{self, Confirmed, Question};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::TeamFacts;
use crate::mattermost::types;
use crate::resolve;
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "create_channel",
    title: "Create a channel",
    description: "Creates a public (default) or private channel in a team; without `name` the URL name comes from the display name. Asks first; a taken name is refused.",
    toolset: Toolset::Writes,
    args: &[
        Arg {
            name: "team",
            kind: Kind::Team,
            required: true,
            about: "The team.",
            shapes: None,
        },
        Arg {
            name: "display_name",
            kind: Kind::Text { max: 64 },
            required: true,
            about: "Its display name.",
            shapes: None,
        },
        Arg {
            name: "name",
            kind: Kind::Text { max: 64 },
            required: false,
            about: "Its URL name (a-z, 0-9, - and _).",
            shapes: None,
        },
        Arg {
            name: "private",
            kind: Kind::Flag,
            required: false,
            about: "true: private.",
            shapes: None,
        },
        Arg {
            name: "purpose",
            kind: Kind::Text { max: 250 },
            required: false,
            about: "What it is for.",
            shapes: None,
        },
        Arg {
            name: "header",
            kind: Kind::Text { max: 1024 },
            required: false,
            about: "Its header (Markdown).",
            shapes: None,
        },
    ],
    answer: Answer::One,
    hints: writes(false, false),
    asks: Asks::First(
        "a public channel is listed to the whole team, and the channel gets a join message",
    ),
    calls: &[
        TEAM_CALLS[0],
        TEAM_CALLS[1],
        TEAM_CALLS[2],
        Call {
            operation: "GetChannelByName",
            params: &[
                ("team_id", Source::Arg("team")),
                ("channel_name", Source::Arg("name")),
                (
                    "include_deleted",
                    Source::Fixed("true", "an archived channel's name is taken too"),
                ),
            ],
        },
        Call {
            operation: "CreateChannel",
            params: &[
                ("body.team_id", Source::Arg("team")),
                ("body.name", Source::Arg("name")),
                ("body.display_name", Source::Arg("display_name")),
                ("body.type", Source::Arg("private")),
                ("body.purpose", Source::Arg("purpose")),
                ("body.header", Source::Arg("header")),
            ],
        },
    ],
    code: crate::one!(run => Created),
};

#[derive(Deserialize)]
struct Args {
    team: String,
    display_name: String,
    name: Option<String>,
    #[serde(default)]
    private: bool,
    purpose: Option<String>,
    header: Option<String>,
}

/// A channel created.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Created {
    pub(crate) done: String,
    pub(crate) channel_id: String,
    pub(crate) name: String,
    pub(crate) display_name: String,
    pub(crate) private: bool,
    pub(crate) team: String,
    pub(crate) url: String,
    pub(crate) confirmed: Confirmed,
}

/// A URL name from a display name, as the web app makes one: lowercase, runs of other characters as
/// one dash, no dash at either end, at most 64 characters; `None` when fewer than 2 are left.
pub(crate) fn url_name(display: &str) -> Option<String> {
    let mut out = String::new();
    for c in display.to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out: String = out.trim_matches('-').chars().take(64).collect();
    let out = out.trim_end_matches('-').to_string();
    (out.len() >= 2).then_some(out)
}

fn valid_name(name: &str) -> bool {
    (2..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        && !name.starts_with('-')
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Created, Stop> {
    confirm::preflight(&input)?;
    let args = &input.args;
    let team = resolve::team_of(cx, &args.team).await?;
    let name = match &args.name {
        Some(n) => {
            let n = n.trim().trim_start_matches('~').to_string();
            if !valid_name(&n) {
                return Err(ToolError::bad_argument(format!(
                    "{} is not a channel URL name: give 2 to 64 of a-z, 0-9, - and _ (not starting with -), or \
                     leave `name` out to make one from the display name.",
                    quote(&n)
                ))
                .into());
            }
            n
        }
        None => match url_name(&args.display_name) {
            Some(n) => n,
            None => {
                return Err(ToolError::bad_argument(format!(
                    "No URL name can be made from the display name {}: give `name` (2 to 64 of a-z, 0-9, - and _).",
                    quote(&args.display_name)
                ))
                .into());
            }
        },
    };
    match cx
        .send(
            cx.api()
                .get_channel_by_name()
                .team_id(team.id())
                .channel_name(&name)
                .include_deleted(true)
                .send(),
        )
        .await
    {
        Ok(existing) => {
            let existing = existing.into_inner();
            return Err(ToolError::new(
                ErrorKind::Refused,
                format!(
                    "Team {} has a channel named ~{name} already ({}, id {}). Nothing was created: give another \
                     `name`, or join that channel.",
                    team.display_name(),
                    existing.display_name.unwrap_or_default(),
                    existing.id.unwrap_or_default()
                ),
            )
            .into());
        }
        Err(e) if matches!(e.status(), Some(404 | 403)) => {}
        Err(e) => return Err(cx.fail(e, "channel", &name).into()),
    }
    let kind = if args.private { "private" } else { "public" };
    let mut text = format!(
        "Create the {kind} channel ~{name} \"{}\" in team {}.",
        args.display_name,
        team.display_name()
    );
    if let Some(p) = &args.purpose {
        text.push_str(&format!("\nPurpose: {p}"));
    }
    if let Some(h) = &args.header {
        text.push_str(&format!("\nHeader: {h}"));
    }
    text.push_str(if args.private {
        "\nOnly the people added to it will see it."
    } else {
        "\nEveryone in the team can find and join it."
    });
    let question = Question {
        action: format!("Create the {kind} channel ~{name}"),
        text,
        binding: vec![
            team.id().to_string(),
            name.clone(),
            args.display_name.clone(),
            kind.to_string(),
            args.purpose.clone().unwrap_or_default(),
            args.header.clone().unwrap_or_default(),
        ],
    };
    let cleared = confirm::ask(cx, &input, &question).await?;
    let body = types::CreateChannelBody {
        team_id: team.id().to_string(),
        name: name.clone(),
        display_name: args.display_name.clone(),
        type_: if args.private { "P" } else { "O" }.to_string(),
        purpose: args.purpose.clone(),
        header: args.header.clone(),
    };
    let made = common::write(
        cx,
        &cleared,
        cx.api().create_channel().body(body).send(),
        "channel",
        &name,
    )
    .await?;
    cx.forget_own_lists();
    Ok(Created {
        done: format!(
            "Created the {kind} channel ~{name} in team {}.",
            team.display_name()
        ),
        channel_id: made.id.clone().unwrap_or_default(),
        url: format!("{}/{}/channels/{name}", cx.url(), team.name()),
        name,
        display_name: args.display_name.clone(),
        private: args.private,
        team: team.display_name().to_string(),
        confirmed: cleared.how(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_names_are_made_like_the_web_apps() {
        assert_eq!(
            url_name("Launch Planning!").as_deref(),
            Some("launch-planning")
        );
        assert_eq!(url_name("  Q3 -- roadmap  ").as_deref(), Some("q3-roadmap"));
        assert_eq!(url_name("日本").as_deref(), None);
        assert!(valid_name("launch-planning") && !valid_name("-x") && !valid_name("a"));
    }
}
