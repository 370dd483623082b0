//! `send_direct_message`: a message to one person (a direct message, yourself included) or to 2 to 7
//! people (a group message), after the person confirmed it. The direct or group channel is made (or
//! found: Mattermost answers the existing one) only after the confirmation; the message is made once
//! and marked like every post (`posting`).

use super::checks::check_message;
use super::common::{self, writes};
use super::files::{self, FileArg};
use super::posting::{self, Outgoing, PostWritten, Reached};
use crate::args::{Arg, Kind};
use crate::calls::{CLIENT_CONFIG, CREATE_POST, Call, MENTION_SUGGESTIONS, MENTIONED, Source};
use crate::confirm::shown;
use crate::confirm::{self, Question};
use crate::context::Ctx;
use crate::error::{ToolError, quote};
use crate::mattermost::facts::UserFacts;
use crate::resolve;
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use serde::Deserialize;

pub(crate) const TOOL: Tool = Tool {
    name: "send_direct_message",
    title: "Send a direct message",
    description: "Messages one person (yourself too) or 2 to 7 people (one group message), with up to 10 files. Asks first; checked, made once and marked like create_post.",
    toolset: Toolset::Writes,
    args: &[
        Arg {
            name: "to",
            kind: Kind::Users { max: 7 },
            required: true,
            about: "1 person, or 2 to 7 for a group message: usernames, ids or emails.",
            shapes: None,
        },
        super::MESSAGE,
        super::FILES,
    ],
    answer: Answer::One,
    hints: writes(false, false),
    asks: Asks::First("a direct or group message notifies the people it is sent to"),
    calls: &[
        Call {
            operation: "CreateDirectChannel",
            params: &[("body", Source::Arg("to"))],
        },
        Call {
            operation: "CreateGroupChannel",
            params: &[("body", Source::Arg("to"))],
        },
        CLIENT_CONFIG,
        MENTIONED,
        MENTION_SUGGESTIONS,
        Call {
            operation: "UploadFile",
            params: &[
                (
                    "channel_id",
                    Source::Fixed(
                        "the direct or group channel with `to`",
                        "the files go where the message goes",
                    ),
                ),
                (
                    "filename",
                    Source::Omitted("the files go in the multipart body, each with its name"),
                ),
                ("body.files", Source::Arg("files")),
                (
                    "body.channel_id",
                    Source::Omitted("the channel goes in the query, read before the files"),
                ),
                (
                    "body.client_ids",
                    Source::Omitted("files are matched to their names by their order"),
                ),
            ],
        },
        Call {
            operation: "CreatePost",
            params: &[
                (
                    "set_online",
                    Source::Omitted(
                        "Mattermost's default (true): posting is the person's own activity",
                    ),
                ),
                (
                    "body.channel_id",
                    Source::Fixed(
                        "the direct or group channel with `to`",
                        "a message goes to the people named",
                    ),
                ),
                ("body.message", Source::Arg("message")),
                (
                    "body.root_id",
                    Source::Omitted("a message starts no thread of another"),
                ),
                ("body.file_ids", Source::Arg("files")),
                CREATE_POST.params[5],
                CREATE_POST.params[6],
                CREATE_POST.params[7],
            ],
        },
    ],
    code: crate::one!(run => PostWritten),
};

#[derive(Deserialize)]
struct Args {
    to: Vec<String>,
    message: String,
    #[serde(default)]
    files: Vec<FileArg>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<PostWritten, Stop> {
    confirm::preflight(&input)?;
    let args = &input.args;
    let (found, missing) = resolve::users(cx, &args.to).await?;
    if let Some((reference, closest)) = missing.into_iter().next() {
        let hint = if closest.is_empty() {
            String::new()
        } else {
            format!(" The closest usernames are: {}.", closest.join(", "))
        };
        return Err(ToolError::bad_argument(format!(
            "Nobody is named {}.{hint} Nothing was sent. Call search_users to find someone by part of their name.",
            quote(&reference)
        ))
        .into());
    }
    let (me, my_name) = common::me(cx).await?;
    let mut others: Vec<(String, String)> = Vec::new();
    for (_, u) in &found {
        if u.id() != me && !others.iter().any(|(id, _)| id == u.id()) {
            others.push((u.id().to_string(), u.username().to_string()));
        }
        if u.deactivated() {
            return Err(ToolError::bad_argument(format!(
                "@{} is deactivated and cannot read messages. Nothing was sent.",
                u.username()
            ))
            .into());
        }
    }
    others.sort();
    let (limits, _) = check_message(cx, input.tool, &args.message).await?;
    let prepared = files::prepare(cx, input.tool, &args.files, &limits)?;

    let names: Vec<String> = others.iter().map(|(_, n)| format!("@{n}")).collect();
    let (whom, action) = match others.len() {
        0 => (
            "yourself".to_string(),
            "Send this message to yourself".to_string(),
        ),
        1 => (
            names[0].clone(),
            format!("Send this direct message to {}", names[0]),
        ),
        _ => (
            format!("the group of {} ({})", names.join(", "), others.len()),
            format!("Send this group message to {}", names.join(", ")),
        ),
    };
    let mut text = format!(
        "Send as @{my_name} to {whom}:\n\n{}\n",
        shown(&args.message)
    );
    if !prepared.is_empty() {
        text.push_str(&format!("Files: {}\n", files::listed(&prepared)));
    }
    text.push_str("It will be marked as written with an AI assistant.");
    let mut binding: Vec<String> = others.iter().map(|(id, _)| id.clone()).collect();
    binding.push(args.message.clone());
    binding.extend(prepared.iter().map(|f| format!("{}:{}", f.name, f.sha256)));
    let cleared = confirm::ask(
        cx,
        &input,
        &Question {
            action,
            text,
            binding,
        },
    )
    .await?;

    let channel = if others.len() <= 1 {
        let other = others
            .first()
            .map(|(id, _)| id.clone())
            .unwrap_or(me.clone());
        common::write(
            cx,
            &cleared,
            cx.api()
                .create_direct_channel()
                .body(vec![me.clone(), other])
                .send(),
            "direct message with",
            &whom,
        )
        .await?
    } else {
        let mut ids: Vec<String> = others.iter().map(|(id, _)| id.clone()).collect();
        ids.push(me.clone());
        common::write(
            cx,
            &cleared,
            cx.api().create_group_channel().body(ids).send(),
            "group message with",
            &whom,
        )
        .await?
    };
    let channel_id = channel.id.clone().unwrap_or_default();
    cx.forget_own_lists();
    let file_ids = files::upload(cx, &cleared, &channel_id, prepared).await?;
    let made = posting::make(
        cx,
        &cleared,
        Outgoing {
            channel_id: &channel_id,
            message: &args.message,
            root_id: None,
            file_ids,
        },
    )
    .await?;
    Ok(PostWritten::of(
        cx,
        format!("Sent to {whom}."),
        made,
        Reached {
            channel: match others.len() {
                0 => "your direct message with yourself".into(),
                1 => format!("your direct message with {}", names[0]),
                _ => format!("the group message with {}", names.join(", ")),
            },
            reached: others.len() as i64,
            notified: Vec::new(),
            confirmed: cleared.how(),
        },
    ))
}
