//! `delete_post`: deletes one of the person's own posts (never another's, even with admin rights),
//! after they confirmed it, told how many replies go with a thread's root. Bound to the post's version
//! and reply count: a post that changed after the question is not deleted.

use super::common::{self, own_post, place, writes};
use crate::calls::{Call, MY_TEAMS, POST_CHANNEL_READ, POST_READ, Source, USERNAMES};
use crate::confirm::shown;
use crate::confirm::{self, Confirmed, Question};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::PostFacts;
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "delete_post",
    title: "Delete your post",
    description: "Deletes your own post (never another's, even as an admin); a thread's root takes its replies. Asks first, saying how many go; nothing is deleted if the post changed meanwhile.",
    toolset: Toolset::Writes,
    args: &[super::POST],
    answer: Answer::One,
    hints: writes(true, true),
    asks: Asks::First(
        "everyone who could read the post loses it, and a root takes its replies along",
    ),
    calls: &[
        POST_READ,
        POST_CHANNEL_READ,
        USERNAMES,
        MY_TEAMS,
        Call {
            operation: "DeletePost",
            params: &[("post_id", Source::Arg("post"))],
        },
    ],
    code: crate::one!(run => Deleted),
};

#[derive(Deserialize)]
struct Args {
    post: String,
}

/// A deleted post.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Deleted {
    pub(crate) done: String,
    pub(crate) post_id: String,
    pub(crate) channel_id: String,
    pub(crate) channel: String,
    /// The replies deleted with it (a thread's root takes its replies along).
    pub(crate) replies_deleted: i64,
    pub(crate) confirmed: Confirmed,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Deleted, Stop> {
    confirm::preflight(&input)?;
    let (me, _) = common::me(cx).await?;
    let post = common::read_post(cx, &input.args.post).await?;
    own_post(input.tool, &post, &me)?;
    let replies = if post.root().is_none() {
        post.reply_count.unwrap_or(0).max(0)
    } else {
        0
    };
    let channel = common::read_channel(cx, post.channel()).await?;
    let where_ = place(cx, &channel).await?;
    let along = match replies {
        0 => String::new(),
        1 => "\n\nIt is a thread's root: its 1 reply is deleted with it.".to_string(),
        n => format!("\n\nIt is a thread's root: its {n} replies are deleted with it."),
    };
    let question = Question {
        action: if replies > 0 {
            format!("Delete your post and its {replies} replies in {where_}")
        } else {
            format!("Delete your post in {where_}")
        },
        text: format!(
            "Delete your post in {where_}:\n\n{}{along}\n\nNobody can read it afterwards.",
            shown(post.message())
        ),
        binding: vec![
            post.id().to_string(),
            post.updated().to_string(),
            replies.to_string(),
        ],
    };
    let cleared = confirm::ask(cx, &input, &question).await?;
    if cleared.how() == Confirmed::ByPerson && !input.call.stateless() {
        let now = common::read_post(cx, post.id()).await?;
        let now_replies = if now.root().is_none() {
            now.reply_count.unwrap_or(0).max(0)
        } else {
            0
        };
        if now.updated() != post.updated() || now_replies != replies {
            return Err(ToolError::new(
                ErrorKind::Changed,
                format!(
                    "Post {} changed after the person was asked (edited, or replies came or went); nothing was \
                     deleted. Call delete_post again to be asked about it as it is now.",
                    quote(post.id())
                ),
            )
            .into());
        }
    }
    common::write(
        cx,
        &cleared,
        cx.api().delete_post().post_id(post.id()).send(),
        "post",
        post.id(),
    )
    .await?;
    Ok(Deleted {
        done: match replies {
            0 => format!("Deleted your post in {where_}."),
            n => format!("Deleted your post in {where_} and its {n} replies."),
        },
        post_id: post.id().to_string(),
        channel_id: post.channel().to_string(),
        channel: where_,
        replies_deleted: replies,
        confirmed: cleared.how(),
    })
}
