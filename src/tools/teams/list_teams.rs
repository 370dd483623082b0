//! `list_teams`: the teams the person belongs to, by display name then id. Mattermost gives the list
//! whole (in no order), so every page reads it again and continues after the last team shown
//! (`paging::whole_list`).

use crate::calls::MY_TEAMS;
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::TeamFacts;
use crate::paging::whole_list::{self, After, Keyed, Order};
use crate::paging::{Page, Strategy};
use crate::show::TeamItem;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::args::LISTS;
use crate::tools::shared::lists::name_key;
use serde::Deserialize;

pub(crate) const TOOL: Tool = Tool {
    name: "list_teams",
    title: "Your teams",
    description: "Your teams by display name; archived teams are left out.",
    toolset: Toolset::Teams,
    args: &[],
    answer: Answer::List {
        strategy: Strategy::WholeList,
        limit: LISTS,
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[MY_TEAMS],
    code: crate::list!(run => TeamItem),
};

#[derive(Deserialize)]
struct Args {}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<TeamItem>, ToolError> {
    let after = input.position::<After>()?;
    // Read afresh for every page (not the person's teams kept for name lookups), so that each page
    // continues the list as it is now.
    let teams = cx
        .call(
            cx.api().get_teams_for_user().user_id("me").send(),
            "teams of the user",
            "me",
        )
        .await?;
    let keyed = teams
        .iter()
        .filter(|t| t.delete_at.unwrap_or(0) == 0)
        .map(|t| Keyed::new(name_key(t.display_name()), t.id(), TeamItem::of(t)))
        .collect();
    let sorted = whole_list::sort(keyed, Order::Ascending);
    let (items, next) = whole_list::page(
        &sorted,
        Order::Ascending,
        after.as_ref(),
        input.limit as usize,
    );
    Ok(Page::new(items)
        .continue_at(next)
        .with_total(sorted.len() as u64))
}
