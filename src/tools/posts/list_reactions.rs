//! `list_reactions`: a post's reactions, one group per emoji with who reacted, by username. Bounded by
//! Mattermost's limit of emoji on a post, so it answers whole, without a cursor.

use crate::calls::{Call, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::resolve;
use crate::show::ReactionGroup;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "list_reactions",
    title: "List a post's reactions",
    description: "The reactions to a post, one item per emoji in the order first used: how many, and who, by \
                  username. A post holds at most 500 different emoji, so the answer comes whole.",
    toolset: Toolset::Posts,
    args: &[super::POST],
    answer: Answer::Bounded {
        max: 500,
        reason: "one item per emoji on the post, and Mattermost allows at most 500 different emoji on a post (UniqueEmojiReactionLimitPerPost)",
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        Call {
            operation: "GetReactions",
            params: &[("post_id", Source::Arg("post"))],
        },
        USERNAMES,
    ],
    code: crate::one!(run => Reactions),
};

#[derive(Deserialize)]
struct Args {
    post: String,
}

/// A post's reactions.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Reactions {
    pub(crate) post_id: String,
    /// How many emoji items.
    pub(crate) returned: usize,
    /// How many reactions in all.
    pub(crate) reactions: usize,
    pub(crate) items: Vec<ReactionGroup>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Reactions, ToolError> {
    let given = &input.args.post;
    let post_id = resolve::post_id(given)?;
    // A post without reactions is answered `null` (`api4/reaction.go` `getReactions` encodes the nil
    // slice `store/sqlstore/reaction_store.go` `GetForPost` scans no rows into): the
    // `null_array_responses` repair reads it as `[]`.
    let reactions = cx
        .call(
            cx.api().get_reactions().post_id(&post_id).send(),
            "post",
            given,
        )
        .await?;
    let people: Vec<String> = reactions.iter().filter_map(|r| r.user_id.clone()).collect();
    let names = cx.usernames(people).await?;
    let items = ReactionGroup::all(&reactions, &names);
    Ok(Reactions {
        post_id,
        returned: items.len(),
        reactions: reactions.len(),
        items,
    })
}
