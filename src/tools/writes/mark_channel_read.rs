//! `mark_channel_read`: marks a channel read for the person, as opening it in Mattermost does, and
//! says what Mattermost did.
//!
//! Mattermost's ViewChannel (`app/channel.go` ViewChannel → MarkChannelsAsViewed) changes a channel
//! only when the person is a member with something unread (`channel_store.go`
//! GetChannelsWithUnreadsAndWithMentions: total posts above the member's count, or mentions); otherwise
//! it changes nothing — no read time, no thread — and still answers 200, with the channel's time for a
//! member and no time at all for a non-member. The channel's threads are marked read only along with a
//! channel that had something unread, and only when the client says it has no collapsed reply threads
//! (`include_threads`). So the membership is read first, to tell which of these happened.

use crate::args::{Arg, Kind};
use crate::calls::{Call, Source};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::ChannelFacts;
use crate::mattermost::types;
use crate::resolve;
use crate::show::unread_posts;
use crate::time::rfc3339;
use crate::tool::{Answer, Asks, Hints, Input, Tool, Toolset};
use crate::tools::shared::args::{CHANNEL, TEAM_OF_CHANNEL};
use crate::tools::shared::channels::{JOIN, channel_error, label};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Changes only the person's own state (what they have read), and the same call twice is the same.
const OWN_STATE: Hints = Hints {
    read_only: false,
    destructive: false,
    idempotent: true,
    open_world: false,
};

pub(crate) const TOOL: Tool = Tool {
    name: "mark_channel_read",
    title: "Mark a channel read",
    description: "Marks a channel read for you, as opening it does; only when the person asks. Says what \
                  Mattermost did (nothing if nothing was unread or you are not a member). Threads keep their \
                  unread state unless include_threads.",
    toolset: Toolset::Writes,
    args: &[
        CHANNEL,
        TEAM_OF_CHANNEL,
        Arg {
            name: "include_threads",
            kind: Kind::Flag,
            required: false,
            about: "Also mark the channel's threads read.",
            shapes: None,
        },
    ],
    answer: Answer::One,
    hints: OWN_STATE,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetChannel",
            params: &[("channel_id", Source::Arg("channel"))],
        },
        Call {
            operation: "GetChannelMember",
            params: &[
                ("channel_id", Source::Arg("channel")),
                (
                    "user_id",
                    Source::Fixed(
                        "me",
                        "the user's own membership: what is unread before marking",
                    ),
                ),
            ],
        },
        Call {
            operation: "ViewChannel",
            params: &[
                (
                    "user_id",
                    Source::Fixed("me", "only the token user's own read state is changed"),
                ),
                ("body.channel_id", Source::Arg("channel")),
                (
                    "body.prev_channel_id",
                    Source::Omitted(
                        "it only views a channel being left as well, which a tool has no part in",
                    ),
                ),
                (
                    "body.collapsed_threads_supported",
                    Source::Arg("include_threads"),
                ),
            ],
        },
    ],
    code: crate::one!(run => Marked),
};

/// What Mattermost did.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Marked {
    pub(crate) channel_id: String,
    /// false: you are not in the channel, which has no read state for you.
    pub(crate) member: bool,
    /// true only when something was unread and Mattermost marked it read.
    pub(crate) marked_read: bool,
    /// Unread posts before the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) unread_before: Option<i64>,
    /// Mentions before the call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mentions_before: Option<i64>,
    /// true when the channel's threads were marked read along with it.
    pub(crate) threads_marked_read: bool,
    /// When you last viewed the channel, as Mattermost now holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) last_viewed: Option<String>,
    /// What happened, in a sentence.
    pub(crate) note: String,
}

#[derive(Deserialize)]
struct Args {
    channel: String,
    team: Option<String>,
    #[serde(default)]
    include_threads: bool,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Marked, ToolError> {
    let args = &input.args;
    let reference = args.channel.as_str();
    let channel_id = resolve::channel_id(cx, reference, args.team.as_deref()).await?;
    let c = cx
        .send(cx.api().get_channel().channel_id(&channel_id).send())
        .await
        .map_err(|e| channel_error(cx, e, reference))?
        .into_inner();
    let member = match cx
        .send(
            cx.api()
                .get_channel_member()
                .channel_id(&channel_id)
                .user_id("me")
                .send(),
        )
        .await
    {
        Ok(m) => m.into_inner(),
        // 403 (no `read_channel`) or 404 (a system admin who is not in it): no membership.
        Err(e) if matches!(e.status(), Some(403 | 404)) => return Ok(not_member(&c)),
        Err(e) => return Err(cx.fail(e, "channel", reference)),
    };
    let unread = unread_posts(&c, &member);
    let mentions = member.mention_count.unwrap_or(0);
    let had_unread = unread > 0 || mentions > 0;
    let body = types::ViewChannelBody {
        channel_id: channel_id.clone(),
        prev_channel_id: None,
        collapsed_threads_supported: Some(!args.include_threads),
    };
    let answer = cx
        .call(
            cx.api().view_channel().user_id("me").body(body).send(),
            "channel",
            reference,
        )
        .await?;
    let Some(at) = answer
        .last_viewed_at_times
        .as_ref()
        .and_then(|m| m.get(&channel_id))
        .and_then(|v| v.as_i64())
    else {
        // No time for the channel: Mattermost found no membership (the person left meanwhile).
        return Ok(not_member(&c));
    };
    let threads_marked_read = had_unread && args.include_threads;
    let note = if had_unread {
        format!(
            "Mattermost marked {} read ({unread} unread posts, {mentions} mentions before){}.",
            label(&c),
            if threads_marked_read {
                ", with its threads"
            } else {
                "; its threads were left as they were"
            }
        )
    } else {
        format!(
            "Nothing in {} was unread, so Mattermost changed nothing (threads included).",
            label(&c)
        )
    };
    Ok(Marked {
        channel_id,
        member: true,
        marked_read: had_unread,
        unread_before: Some(unread),
        mentions_before: Some(mentions),
        threads_marked_read,
        last_viewed: Some(at).filter(|t| *t > 0).map(rfc3339),
        note,
    })
}

/// The answer for a channel the person is not in, for which Mattermost changes nothing (so the view
/// is not sent when the membership read already showed it).
fn not_member(c: &types::Channel) -> Marked {
    Marked {
        channel_id: c.id().to_string(),
        member: false,
        marked_read: false,
        unread_before: None,
        mentions_before: None,
        threads_marked_read: false,
        last_viewed: None,
        note: format!(
            "You are not a member of {}, so it has no read state for you and nothing was changed. Joining it \
             with {JOIN} starts one.",
            label(c)
        ),
    }
}
