//! `add_reaction`: reacts to a post with an emoji named as a person types it (`thumbsup`, `:+1:`, 👍),
//! after the person confirmed. Names fold to Mattermost's own (`crate::resolve::emoji`); a name that is
//! neither a system emoji nor one of the server's custom emoji is refused with the closest names. A post
//! already holding 50 different emoji takes no new one (Mattermost's limit), and a reaction the person
//! already gave is not sent again.

use super::common::{self, place, snippet, writes};
use super::reactions::{EMOJI, Reacted, emoji_name, reactions};
use crate::calls::{Call, MY_TEAMS, POST_CHANNEL_READ, POST_READ, Source, USERNAMES};
use crate::confirm::{self, Question};
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError, quote};
use crate::mattermost::facts::PostFacts;
use crate::mattermost::types;
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use serde::Deserialize;

/// Mattermost's `UniqueEmojiReactionLimitPerPost` default.
const DISTINCT_EMOJI_MAX: usize = 50;

pub(crate) const TOOL: Tool = Tool {
    name: "add_reaction",
    title: "React to a post",
    description: "Reacts to a post with an emoji by name (thumbsup, :+1:) or character (👍); an unknown name is refused with the closest. Asks first.",
    toolset: Toolset::Writes,
    args: &[super::POST, EMOJI],
    answer: Answer::One,
    hints: writes(false, true),
    asks: Asks::First(
        "everyone who can read the post sees the reaction, and its author is notified",
    ),
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
            operation: "SaveReaction",
            params: &[
                (
                    "body.user_id",
                    Source::Fixed("the person's id", "a reaction is the person's own"),
                ),
                ("body.post_id", Source::Arg("post")),
                ("body.emoji_name", Source::Arg("emoji")),
                ("body.create_at", Source::Omitted("set by Mattermost")),
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
    let existing = reactions(&post);
    if existing
        .iter()
        .any(|r| r.user_id.as_deref() == Some(&me) && r.emoji_name.as_deref() == Some(&name))
    {
        return Ok(Reacted {
            done: format!("You had already reacted with :{name}:; nothing was sent."),
            post_id: post.id().to_string(),
            emoji: name,
            changed: false,
            confirmed: None,
        });
    }
    let mut distinct: Vec<&str> = existing
        .iter()
        .filter_map(|r| r.emoji_name.as_deref())
        .collect();
    distinct.sort();
    distinct.dedup();
    if distinct.len() >= DISTINCT_EMOJI_MAX && !distinct.contains(&name.as_str()) {
        return Err(ToolError::new(
            ErrorKind::Refused,
            format!(
                "Post {} already has {} different emoji, Mattermost's most; it takes no new one. React with one it \
                 has ({}) instead.",
                quote(post.id()),
                distinct.len(),
                distinct.iter().take(10).copied().collect::<Vec<_>>().join(", ")
            ),
        )
        .into());
    }
    let channel = common::read_channel(cx, post.channel()).await?;
    let where_ = place(cx, &channel).await?;
    let authors = cx.usernames([post.author().to_string()]).await?;
    let author = authors
        .get(post.author())
        .cloned()
        .unwrap_or_else(|| post.author().to_string());
    let question = Question {
        action: format!("React with :{name}: to @{author}'s post"),
        text: format!(
            "React with :{name}: to @{author}'s post in {where_}:\n\n\"{}\"\n\nEveryone who can read the post sees \
             your reaction.",
            snippet(post.message(), 200)
        ),
        binding: vec![post.id().to_string(), name.clone()],
    };
    let cleared = confirm::ask(cx, &input, &question).await?;
    let body = types::Reaction {
        user_id: Some(me),
        post_id: Some(post.id().to_string()),
        emoji_name: Some(name.clone()),
        create_at: None,
    };
    common::write(
        cx,
        &cleared,
        cx.api().save_reaction().body(body).send(),
        "post",
        post.id(),
    )
    .await?;
    Ok(Reacted {
        done: format!("Reacted with :{name}: to @{author}'s post in {where_}."),
        post_id: post.id().to_string(),
        emoji: name,
        changed: true,
        confirmed: Some(cleared.how()),
    })
}
