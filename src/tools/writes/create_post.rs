//! `create_post`: a post in a channel, or with `root` a reply in a thread, after the person confirmed
//! exactly what goes where and whom it reaches. Made once (`posting`), marked as written with an
//! assistant.

use super::checks::check_message;
use super::checks::{self};
use super::common::{self, place, snippet, writes};
use super::files::{self, FileArg};
use super::posting::{self, Outgoing, PostWritten, Reached};
use crate::calls::{
    CHANNEL_MEMBERS, CHANNEL_READ, CHANNEL_STATS, CLIENT_CONFIG, CREATE_POST, Call,
    MEMBER_STATUSES, MENTION_SUGGESTIONS, MENTIONED, MY_TEAMS, Source, UPLOAD_FILE, USERNAMES,
};
use crate::confirm::shown;
use crate::confirm::{self, Question};
use crate::context::Ctx;
use crate::error::{ToolError, quote};
use crate::mattermost::facts::{ChannelFacts, PostFacts};
use crate::mattermost::types;
use crate::tool::{Answer, Asks, Input, Stop, Tool, Toolset};
use serde::Deserialize;

pub(crate) const TOOL: Tool = Tool {
    name: "create_post",
    title: "Post in a channel",
    description: "Posts in a channel, or in the thread of `root` (a reply's root), with up to 10 files. Asks the person first, showing the exact message, where, and whom it reaches (members; @channel, @all, @here). Refused before asking: over MaxPostSize, @mentions of nobody, files over MaxFileSize or like credentials. Made once even if the connection breaks; marked as written with AI.",
    toolset: Toolset::Writes,
    args: &[super::CHANNEL, super::MESSAGE, super::ROOT, super::FILES],
    answer: Answer::One,
    hints: writes(false, false),
    asks: Asks::First("a post is read by everyone in the channel, and mentions notify people"),
    calls: &[
        Call {
            operation: "GetPost",
            params: &[
                ("post_id", Source::Arg("root")),
                (
                    "include_deleted",
                    Source::Omitted("a deleted post has no thread to reply in"),
                ),
            ],
        },
        CHANNEL_READ,
        CHANNEL_STATS,
        CLIENT_CONFIG,
        MENTIONED,
        MENTION_SUGGESTIONS,
        CHANNEL_MEMBERS,
        MEMBER_STATUSES,
        UPLOAD_FILE,
        CREATE_POST,
        USERNAMES,
        MY_TEAMS,
    ],
    code: crate::one!(run => PostWritten),
};

#[derive(Deserialize)]
struct Args {
    channel: String,
    message: String,
    root: Option<String>,
    #[serde(default)]
    files: Vec<FileArg>,
}

/// The thread a reply goes to: the root of the post `root` names, which must be in `channel`.
async fn thread_root(
    cx: &Ctx,
    root: &str,
    channel: &types::Channel,
) -> Result<(String, types::Post), ToolError> {
    let post = common::read_post(cx, root).await?;
    let root_id = post.root().unwrap_or(post.id()).to_string();
    if post.channel() != channel.id() {
        return Err(ToolError::bad_argument(format!(
            "The post {} is in another channel ({}) than {}: a reply goes in its thread's channel. Give that \
             channel, or leave `root` out to post in this one.",
            quote(root),
            post.channel(),
            quote(channel.name())
        )));
    }
    let root_post = if root_id == post.id() {
        post
    } else {
        common::read_post(cx, &root_id).await?
    };
    Ok((root_id, root_post))
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<PostWritten, Stop> {
    confirm::preflight(&input)?;
    let args = &input.args;
    let channel = common::channel(cx, &args.channel, None).await?;
    if channel.archived() {
        return Err(ToolError::bad_argument(format!(
            "{} is archived: nobody can post in it. Choose another channel.",
            quote(&args.channel)
        ))
        .into());
    }
    let root = match &args.root {
        Some(r) => Some(thread_root(cx, r, &channel).await?),
        None => None,
    };
    let (limits, mentions) = check_message(cx, input.tool, &args.message).await?;
    let prepared = files::prepare(cx, input.tool, &args.files, &limits)?;
    let where_ = place(cx, &channel).await?;
    let members = common::member_count(cx, channel.id()).await?;
    let notified = checks::reach(cx, channel.id(), members, &mentions.channel_wide).await?;

    let (_, username) = common::me(cx).await?;
    let mut text = match &root {
        Some((_, root_post)) => {
            let names = cx.usernames([root_post.author().to_string()]).await?;
            let author = names
                .get(root_post.author())
                .cloned()
                .unwrap_or_else(|| root_post.author().to_string());
            format!(
                "Reply as @{username} in {where_}, in the thread of @{author}'s post \"{}\":\n\n{}\n",
                snippet(root_post.message(), 120),
                shown(&args.message)
            )
        }
        None => format!(
            "Post as @{username} in {where_}:\n\n{}\n",
            shown(&args.message)
        ),
    };
    if !prepared.is_empty() {
        text.push_str(&format!("Files: {}\n", files::listed(&prepared)));
    }
    text.push_str(&format!(
        "It reaches the channel's {} other members.\n",
        (members - 1).max(0)
    ));
    for line in &notified {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str("It will be marked as written with an AI assistant.");
    let mut binding = vec![
        channel.id().to_string(),
        root.as_ref().map(|(r, _)| r.clone()).unwrap_or_default(),
        args.message.clone(),
    ];
    binding.extend(prepared.iter().map(|f| format!("{}:{}", f.name, f.sha256)));
    let question = Question {
        action: match &root {
            Some(_) => format!("Send this reply in {where_}"),
            None => format!("Post this in {where_}"),
        },
        text,
        binding,
    };
    let cleared = confirm::ask(cx, &input, &question).await?;

    let file_ids = files::upload(cx, &cleared, channel.id(), prepared).await?;
    let made = posting::make(
        cx,
        &cleared,
        Outgoing {
            channel_id: channel.id(),
            message: &args.message,
            root_id: root.as_ref().map(|(r, _)| r.as_str()),
            file_ids,
        },
    )
    .await?;
    let done = match &root {
        Some(_) => format!("Replied in {where_}."),
        None => format!("Posted in {where_}."),
    };
    Ok(PostWritten::of(
        cx,
        done,
        made,
        Reached {
            channel: where_,
            reached: (members - 1).max(0),
            notified,
            confirmed: cleared.how(),
        },
    ))
}
