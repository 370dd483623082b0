//! `update_post`: replaces the message of one of the person's own posts (never another's, even with
//! admin rights), after they confirmed the old and the new text. The confirmation is bound to the
//! post's version (`update_at`): read again just before the edit, a post that changed since is not
//! edited. The edit keeps the post's other props and marks it as written with an assistant.

use super::checks;
use super::common::{self, own_post, place, writes};
use super::posting::AI_PROP;
use crate::args::{Arg, Kind};
use crate::calls::{
    CLIENT_CONFIG, Call, MENTION_SUGGESTIONS, MENTIONED, MY_TEAMS, POST_CHANNEL_READ, POST_READ,
    Source, USERNAMES,
};
use crate::confirm::shown;
use crate::confirm::{self, Confirmed, Question};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::PostFacts;
use crate::show::permalink;
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "update_post",
    title: "Edit your post",
    description: "Replaces the message of your own post (never another's, even as an admin). Asks first, showing old and new; nothing is edited if the post changed meanwhile.",
    toolset: Toolset::Writes,
    args: &[
        super::POST,
        Arg {
            name: "message",
            kind: Kind::Text { max: 100_000 },
            required: true,
            about: "The new message (Markdown), exactly as it will read.",
            shapes: None,
        },
    ],
    answer: Answer::One,
    hints: writes(true, true),
    asks: Asks::First("everyone who can read the channel sees the edit"),
    calls: &[
        POST_READ,
        POST_CHANNEL_READ,
        CLIENT_CONFIG,
        MENTIONED,
        MENTION_SUGGESTIONS,
        USERNAMES,
        MY_TEAMS,
        Call {
            operation: "PatchPost",
            params: &[
                ("post_id", Source::Arg("post")),
                ("body.message", Source::Arg("message")),
                (
                    "body.props",
                    Source::Omitted(
                        "the spec types props as a string, which the server cannot decode; an edit keeps the post's \
                         props, so a post made through this server stays marked and one written by hand is not marked",
                    ),
                ),
                ("body.is_pinned", Source::Omitted("an edit does not pin")),
                (
                    "body.file_ids",
                    Source::Omitted("an edit keeps the post's files"),
                ),
                ("body.has_reactions", Source::Omitted("set by Mattermost")),
            ],
        },
    ],
    code: crate::one!(run => Edited),
};

#[derive(Deserialize)]
struct Args {
    post: String,
    message: String,
}

/// An edited post.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Edited {
    pub(crate) done: String,
    pub(crate) post_id: String,
    pub(crate) permalink: String,
    pub(crate) channel_id: String,
    pub(crate) channel: String,
    pub(crate) previous_message: String,
    pub(crate) message: String,
    /// Whether the post is marked as written with an AI assistant: an edit keeps the post's marking as it
    /// was (a post made through this server is marked).
    pub(crate) marked_ai_generated: bool,
    pub(crate) confirmed: Confirmed,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Edited, Stop> {
    confirm::preflight(&input)?;
    let args = &input.args;
    let (me, _) = common::me(cx).await?;
    let post = common::read_post(cx, &args.post).await?;
    own_post(input.tool, &post, &me)?;
    if post.message() == args.message {
        return Err(ToolError::bad_argument(format!(
            "Post {} already reads exactly that; nothing was changed.",
            quote(post.id())
        ))
        .into());
    }
    let limits = checks::limits(cx).await?;
    checks::length(input.tool, &args.message, &limits)?;
    checks::no_credential(cx, input.tool, "message", &args.message)?;
    let mentions = checks::mentions(&args.message);
    checks::mentioned_people(cx, input.tool, &mentions.people).await?;
    let channel = common::read_channel(cx, post.channel()).await?;
    let where_ = place(cx, &channel).await?;
    let version = post.updated();
    let question = Question {
        action: format!("Replace the message of your post in {where_}"),
        text: format!(
            "Edit your post in {where_}. It now reads:\n\n{}\n\nIt will read:\n\n{}\n\nEveryone who can read the \
             channel sees the edit (mentions in it notify nobody again).",
            shown(post.message()),
            shown(&args.message)
        ),
        binding: vec![
            post.id().to_string(),
            version.to_string(),
            args.message.clone(),
        ],
    };
    let cleared = confirm::ask(cx, &input, &question).await?;
    let now = if cleared.how() == Confirmed::ByPerson && !input.call.stateless() {
        common::read_post(cx, post.id()).await?
    } else {
        post.clone()
    };
    if now.updated() != version {
        return Err(ToolError::new(
            ErrorKind::Changed,
            format!(
                "Post {} changed after the person was asked (it was edited, reacted to or pinned since); nothing was \
                 edited. Call update_post again to be asked about it as it is now.",
                quote(post.id())
            ),
        )
        .into());
    }
    let body = crate::mattermost::types::PatchPostBody {
        message: Some(args.message.clone()),
        props: None,
        file_ids: None,
        has_reactions: None,
        is_pinned: None,
    };
    let edited = common::write(
        cx,
        &cleared,
        cx.api().patch_post().post_id(post.id()).body(body).send(),
        "post",
        post.id(),
    )
    .await?;
    Ok(Edited {
        done: format!("Edited your post in {where_}."),
        post_id: post.id().to_string(),
        permalink: permalink(cx.url(), post.id()),
        channel_id: post.channel().to_string(),
        channel: where_,
        previous_message: post.message().to_string(),
        marked_ai_generated: edited
            .props
            .as_ref()
            .and_then(|p| p.get(AI_PROP))
            .and_then(serde_json::Value::as_str)
            .is_some_and(|s| !s.is_empty()),
        message: edited.message.unwrap_or_default(),
        confirmed: cleared.how(),
    })
}
