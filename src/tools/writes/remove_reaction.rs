//! `remove_reaction`: takes back the person's own reaction to a post, after they confirmed. A reaction
//! they did not give is not sent for. Removing is idempotent by nature, so it is sent once more when
//! the first request may not have arrived.

use super::common::{self, idempotent, place, snippet, write_failed, writes};
use super::reactions::{EMOJI, Reacted, emoji_name, reactions};
use crate::calls::{Call, MY_TEAMS, POST_CHANNEL_READ, POST_READ, Source, USERNAMES};
use crate::confirm::{self, Question};
use crate::context::Ctx;
use crate::mattermost::facts::PostFacts;
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use serde::Deserialize;

pub(crate) const TOOL: Tool = Tool {
    name: "remove_reaction",
    title: "Take back your reaction",
    description: "Takes back your reaction to a post (emoji by name or character). Asks first.",
    toolset: Toolset::Writes,
    args: &[super::POST, EMOJI],
    answer: Answer::One,
    hints: writes(true, true),
    asks: Asks::First("everyone who can read the post sees the reaction go"),
    calls: &[
        POST_READ,
        POST_CHANNEL_READ,
        USERNAMES,
        MY_TEAMS,
        Call {
            operation: "GetEmojiByName",
            params: &[("emoji_name", Source::Arg("emoji"))],
        },
        Call {
            operation: "DeleteReaction",
            params: &[
                (
                    "user_id",
                    Source::Fixed("the person's id", "only the person's own reaction"),
                ),
                ("post_id", Source::Arg("post")),
                ("emoji_name", Source::Arg("emoji")),
            ],
        },
    ],
    code: crate::one!(run => Reacted),
};

#[derive(Deserialize)]
struct Args {
    post: String,
    emoji: String,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Reacted, Stop> {
    confirm::preflight(&input)?;
    let args = &input.args;
    let (me, _) = common::me(cx).await?;
    let post = common::read_post(cx, &args.post).await?;
    let name = emoji_name(cx, &args.emoji).await?;
    let mine = reactions(&post)
        .iter()
        .any(|r| r.user_id.as_deref() == Some(&me) && r.emoji_name.as_deref() == Some(&name));
    if !mine {
        return Ok(Reacted {
            done: format!("You have no :{name}: reaction on that post; nothing was sent."),
            post_id: post.id().to_string(),
            emoji: name,
            changed: false,
            confirmed: None,
        });
    }
    let channel = common::read_channel(cx, post.channel()).await?;
    let where_ = place(cx, &channel).await?;
    let question = Question {
        action: format!("Remove your :{name}: reaction"),
        text: format!(
            "Remove your :{name}: reaction from the post in {where_}:\n\n\"{}\"",
            snippet(post.message(), 200)
        ),
        binding: vec![post.id().to_string(), name.clone()],
    };
    let cleared = confirm::ask(cx, &input, &question).await?;
    idempotent(cx, &cleared, || {
        cx.api()
            .delete_reaction()
            .user_id(&me)
            .post_id(post.id())
            .emoji_name(&name)
            .send()
    })
    .await
    .map_err(|e| write_failed(cx, e, "post", post.id()))?;
    Ok(Reacted {
        done: format!("Removed your :{name}: reaction from the post in {where_}."),
        post_id: post.id().to_string(),
        emoji: name,
        changed: true,
        confirmed: Some(cleared.how()),
    })
}
