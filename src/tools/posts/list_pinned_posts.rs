//! `list_pinned_posts`: a channel's pinned posts, newest first. Mattermost gives the list whole, so each
//! page reads it again and goes on after the last post shown (`paging::whole_list`).

use super::common::{InChannel, channel_of};
use crate::args::Limit;
use crate::calls::{Call, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts;
use crate::paging::whole_list::{self, After, Order};
use crate::paging::{Page, Strategy};
use crate::show::{self, PostItem};
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::posts::{newest_first, post_items};
use serde::Deserialize;

pub(crate) const TOOL: Tool = Tool {
    name: "list_pinned_posts",
    title: "List a channel's pinned posts",
    description: "The posts pinned in a channel, newest first. Each page reads the list again and goes on \
                  after the last post shown, so pins added or removed between pages neither skip nor repeat \
                  others.",
    toolset: Toolset::Posts,
    args: &[super::CHANNEL, super::TEAM_OF_CHANNEL],
    answer: Answer::List {
        strategy: Strategy::WholeList,
        limit: Limit::new(30, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetPinnedPosts",
            params: &[("channel_id", Source::Arg("channel"))],
        },
        USERNAMES,
    ],
    code: crate::list!(run => PostItem, InChannel),
};

#[derive(Deserialize)]
struct Args {
    channel: String,
    team: Option<String>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<PostItem, InChannel>, ToolError> {
    let args = &input.args;
    let channel_id = channel_of(cx, &args.channel, args.team.as_deref()).await?;
    let after = input.position::<After>()?;
    let list = cx
        .call(
            cx.api().get_pinned_posts().channel_id(&channel_id).send(),
            "channel",
            &args.channel,
        )
        .await?;
    let sorted = newest_first(facts::ordered(list));
    let (shown, next) = whole_list::page(
        &sorted,
        Order::Descending,
        after.as_ref(),
        input.limit as usize,
    );
    let items = post_items(cx, &shown, Some(show::MESSAGE_CUT)).await?;
    Ok(Page::new(items)
        .continue_at(next)
        .with_total(sorted.len() as u64)
        .with_extra(InChannel::of(cx, &channel_id)))
}
