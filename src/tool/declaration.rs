//! A tool's declaration: its name, title, description, toolset, arguments, every Mattermost call it
//! may make with each parameter accounted for, annotation hints, whether it asks the person first, how
//! it answers and is paged, and its code.

use super::code::{Code, Plan};
use crate::args::{Arg, Kind, Limit};
use crate::calls::Call;
use crate::error::ToolError;
use crate::paging::Strategy;
use serde_json::{Map, Value};

/// Groups of tools `MATTERMOST_TOOLSETS` chooses from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Toolset {
    /// People: who they are, their status.
    People,
    /// Teams and their members.
    Teams,
    /// Channels: lists, search, members, counts.
    Channels,
    /// Posts: channels, threads, mentions, saved and pinned posts, reactions, drafts, emoji.
    Posts,
    /// Files: search and read.
    Files,
    /// Tools that change something in Mattermost (offered only with `MATTERMOST_ALLOW_WRITES=true`).
    Writes,
    /// The operation gateway: every operation of the generated client.
    Api,
}

impl Toolset {
    pub(crate) const ALL: [Toolset; 7] = [
        Toolset::People,
        Toolset::Teams,
        Toolset::Channels,
        Toolset::Posts,
        Toolset::Files,
        Toolset::Writes,
        Toolset::Api,
    ];

    /// The toolsets listed when `MATTERMOST_TOOLSETS` is not set: every toolset of reading tools, and
    /// the writes (listed only when writes are allowed).
    pub(crate) const DEFAULT: [Toolset; 6] = [
        Toolset::People,
        Toolset::Teams,
        Toolset::Channels,
        Toolset::Posts,
        Toolset::Files,
        Toolset::Writes,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Toolset::People => "people",
            Toolset::Teams => "teams",
            Toolset::Channels => "channels",
            Toolset::Posts => "posts",
            Toolset::Files => "files",
            Toolset::Writes => "writes",
            Toolset::Api => "api",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<Toolset> {
        Toolset::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The four MCP annotation hints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

/// A tool that only reads this one Mattermost (a closed world: `openWorldHint` false).
pub(crate) const READS: Hints = Hints {
    read_only: true,
    destructive: false,
    idempotent: true,
    open_world: false,
};

/// Whether a tool asks the person before it sends anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asks {
    /// It never asks: it reads, or changes only what the person alone sees.
    Never,
    /// It asks before a write others will see (through elicitation), for this reason.
    First(&'static str),
}

/// How a tool answers.
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    /// One object.
    One,
    /// A list paged by cursor: `limit` and `cursor` are added to the arguments, the answer is the
    /// envelope, and `strategy` names the module that pages it.
    List { strategy: Strategy, limit: Limit },
    /// A list bounded by its input (at most `max` items, one per name given), so it needs no cursor.
    Bounded { max: usize, reason: &'static str },
}

/// A tool: its whole declaration and its code.
#[derive(Clone, Copy)]
pub struct Tool {
    pub name: &'static str,
    pub(crate) title: &'static str,
    pub(crate) description: &'static str,
    pub toolset: Toolset,
    pub(crate) args: &'static [Arg],
    pub answer: Answer,
    pub hints: Hints,
    pub asks: Asks,
    pub(crate) calls: &'static [Call],
    pub code: Code,
}

impl Tool {
    /// The arguments as published: the tool's own, then `limit` and `cursor` for a list.
    pub fn all_args(&self) -> Vec<Arg> {
        let mut args = self.args.to_vec();
        if let Answer::List { .. } = self.answer {
            args.push(Arg {
                name: "limit",
                kind: Kind::Limit,
                required: false,
                about: "",
                shapes: Some("the page size"),
            });
            args.push(Arg {
                name: "cursor",
                kind: Kind::Cursor,
                required: false,
                about: "",
                shapes: Some("where the page starts"),
            });
        }
        args
    }

    pub(crate) fn limit(&self) -> Option<Limit> {
        match self.answer {
            Answer::List { limit, .. } => Some(limit),
            _ => None,
        }
    }

    pub fn writes(&self) -> bool {
        !self.hints.read_only
    }

    /// Every call the tool may make: its own, those that resolving its arguments may make, and the
    /// person's own user for a list's cursor (all declared once in [`crate::calls`]).
    pub(crate) fn all_calls(&self) -> Vec<&'static Call> {
        let mut calls: Vec<&'static Call> = self.calls.iter().collect();
        let mut add = |c: &'static Call| {
            if !calls.iter().any(|k| k.operation == c.operation) {
                calls.push(c);
            }
        };
        for a in self.args {
            for c in crate::calls::resolving(a.kind) {
                add(c);
            }
        }
        if self.limit().is_some() {
            add(&crate::calls::ME);
        }
        calls
    }

    /// The operations the tool may send.
    pub fn operations(&self) -> Vec<&'static str> {
        self.all_calls().iter().map(|c| c.operation).collect()
    }

    /// What a call with these (checked) arguments may send: its plan for a tool whose arguments name
    /// what it sends, otherwise every operation the tool declares, writing when the tool writes.
    pub fn plan(&self, args: &Map<String, Value>) -> Result<Plan, ToolError> {
        match self.code.plan {
            Some(plan) => plan(args),
            None => Ok(Plan {
                operations: self.operations(),
                writes: self.writes(),
            }),
        }
    }

    /// Whether what a call sends, and so whether it writes, is decided per call from its arguments.
    pub fn planned_per_call(&self) -> bool {
        self.code.plan.is_some()
    }
}
