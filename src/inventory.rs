//! Every tool, in the order `tools/list` lists them, grouped into toolsets; and which of them a server
//! offers: the toolsets `MATTERMOST_TOOLSETS` chooses (the reading toolsets by default), and the tools
//! that write only when `MATTERMOST_ALLOW_WRITES=true`, whatever the toolsets say (the operation
//! gateway's `call_operation` is offered with its toolset, and each of its calls that would write is
//! refused without writes allowed).

use crate::config::ConfirmWrites;
use crate::tool::{Tool, Toolset};
use crate::tools;
use std::collections::BTreeSet;

/// Every tool.
pub fn tools() -> &'static [&'static Tool] {
    static ALL: &[&Tool] = &[
        // people
        &tools::people::get_me::TOOL,
        &tools::people::get_users::TOOL,
        &tools::people::search_users::TOOL,
        &tools::people::get_status::TOOL,
        // teams
        &tools::teams::list_teams::TOOL,
        &tools::teams::get_team::TOOL,
        &tools::teams::list_team_members::TOOL,
        // channels
        &tools::channels::list_channels::TOOL,
        &tools::channels::get_channel::TOOL,
        &tools::channels::search_channels::TOOL,
        &tools::channels::list_team_channels::TOOL,
        &tools::channels::list_archived_channels::TOOL,
        &tools::channels::list_channel_members::TOOL,
        &tools::channels::get_channel_stats::TOOL,
        // posts
        &tools::posts::read_channel::TOOL,
        &tools::posts::read_unread::TOOL,
        &tools::posts::read_inbox::TOOL,
        &tools::posts::read_thread::TOOL,
        &tools::posts::wait_for_activity::TOOL,
        &tools::posts::list_threads::TOOL,
        &tools::posts::list_pinned_posts::TOOL,
        &tools::posts::list_saved::TOOL,
        &tools::posts::search_posts::TOOL,
        &tools::posts::list_mentions::TOOL,
        &tools::posts::list_reactions::TOOL,
        &tools::posts::list_drafts::TOOL,
        &tools::posts::list_emoji::TOOL,
        // files
        &tools::files::search_files::TOOL,
        &tools::files::read_file::TOOL,
        // writes (toolset `writes`: only with MATTERMOST_ALLOW_WRITES=true)
        &tools::writes::mark_channel_read::TOOL,
        &tools::writes::create_post::TOOL,
        &tools::writes::send_direct_message::TOOL,
        &tools::writes::update_post::TOOL,
        &tools::writes::delete_post::TOOL,
        &tools::writes::add_reaction::TOOL,
        &tools::writes::remove_reaction::TOOL,
        &tools::writes::pin_post::TOOL,
        &tools::writes::save_post::TOOL,
        &tools::writes::follow_thread::TOOL,
        &tools::writes::join_channel::TOOL,
        &tools::writes::leave_channel::TOOL,
        &tools::writes::add_channel_members::TOOL,
        &tools::writes::create_channel::TOOL,
        &tools::writes::set_status::TOOL,
        &tools::writes::save_draft::TOOL,
        &tools::writes::delete_draft::TOOL,
        &tools::writes::set_post_reminder::TOOL,
        // the operation gateway (toolset `api`: every operation, each write gated and asked per call)
        &tools::api::find_operations::TOOL,
        &tools::api::describe_operation::TOOL,
        &tools::api::call_operation::TOOL,
    ];
    ALL
}

/// The tool of that name, offered or not.
pub fn find(name: &str) -> Option<&'static Tool> {
    tools().iter().copied().find(|t| t.name == name)
}

/// Which tools a server offers.
#[derive(Debug, Clone)]
pub struct Offer {
    pub toolsets: BTreeSet<Toolset>,
    pub allow_writes: bool,
    /// Whether the writes others will see ask the person first (`MATTERMOST_CONFIRM_WRITES`).
    pub confirm_writes: ConfirmWrites,
}

impl Offer {
    /// The offer for `MATTERMOST_TOOLSETS` (comma-separated names, or `all`; `None` for the default)
    /// and `MATTERMOST_ALLOW_WRITES`. An unknown name is refused with the accepted ones.
    pub fn new(toolsets: Option<&str>, allow_writes: bool) -> Result<Offer, String> {
        let chosen = match toolsets.map(str::trim).filter(|s| !s.is_empty()) {
            None => Toolset::DEFAULT.into_iter().collect(),
            Some("all") => Toolset::ALL.into_iter().collect(),
            Some(list) => {
                let mut set = BTreeSet::new();
                for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    if name == "all" {
                        set.extend(Toolset::ALL);
                        continue;
                    }
                    match Toolset::parse(name) {
                        Some(t) => {
                            set.insert(t);
                        }
                        None => {
                            return Err(format!(
                                "{}={list:?} names the toolset `{name}`, which does not exist. The toolsets are: {}, \
                                 or `all`. Fix the variable and start again.",
                                crate::config::TOOLSETS,
                                Toolset::ALL.map(Toolset::name).join(", ")
                            ));
                        }
                    }
                }
                set
            }
        };
        Ok(Offer {
            toolsets: chosen,
            allow_writes,
            confirm_writes: ConfirmWrites::Ask,
        })
    }

    /// The same offer, with writes others will see confirmed (or not) as `MATTERMOST_CONFIRM_WRITES` says.
    pub fn confirming(mut self, confirm_writes: ConfirmWrites) -> Offer {
        self.confirm_writes = confirm_writes;
        self
    }

    /// Every toolset, writes allowed: what the governance tests scan.
    pub fn everything() -> Offer {
        Offer {
            toolsets: Toolset::ALL.into_iter().collect(),
            allow_writes: true,
            confirm_writes: ConfirmWrites::Ask,
        }
    }

    /// Whether a tool is offered. A tool that decides per call whether it writes (the operation
    /// gateway) is offered with its toolset; the server refuses each of its calls that would write
    /// when writes are not allowed.
    pub fn offers(&self, tool: &Tool) -> bool {
        self.toolsets.contains(&tool.toolset)
            && (self.allow_writes || !tool.writes() || tool.planned_per_call())
    }

    /// A tool as this server publishes it: a tool that decides per call whether it writes (the
    /// operation gateway) is published read-only, idempotent and non-destructive when writes are not
    /// allowed, since every call of it that would write is then refused.
    pub fn published(&self, tool: &Tool) -> Tool {
        let mut t = *tool;
        if !self.allow_writes && t.planned_per_call() {
            t.hints = crate::tool::READS;
        }
        t
    }

    /// The tools offered, in inventory order.
    pub fn tools(&self) -> Vec<&'static Tool> {
        tools().iter().copied().filter(|t| self.offers(t)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_toolsets_are_refused_with_the_accepted_names() {
        let e = Offer::new(Some("posts,chanels"), false).unwrap_err();
        assert!(
            e.contains("`chanels`") && e.contains("people, teams, channels"),
            "{e}"
        );
        assert_eq!(
            Offer::new(Some("all"), false).map(|o| o.toolsets.len()),
            Ok(Toolset::ALL.len())
        );
        assert!(Offer::new(None, false).is_ok_and(|o| !o.toolsets.contains(&Toolset::Api)));
    }

    #[test]
    fn every_tool_carries_its_own_cursor_tag() {
        let mut seen = std::collections::BTreeMap::new();
        for name in tools().iter().map(|t| t.name).chain(["tools/list"]) {
            let tag = crate::paging::cursor::tool_tag(name);
            if let Some(other) = seen.insert(tag.clone(), name) {
                panic!(
                    "{name} and {other} share the cursor tag {tag}: a cursor of one would be taken for the other's"
                );
            }
        }
        assert!(seen.len() >= 20);
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = tools().iter().map(|t| t.name).collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len());
    }
}
