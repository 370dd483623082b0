//! What a tool is: its declaration (name, title, description, toolset, arguments, every Mattermost call
//! it may make with each parameter accounted for, annotation hints, whether it asks the person first,
//! how it is paged) and its code with its output type, built by [`one!`](crate::one) or
//! [`list!`](crate::list) so that the published output schema and the code's answer cannot drift. Each
//! tool lives in one file under `crate::tools`, which holds its declaration, its body and its output
//! type; [`crate::inventory`] lists them all.
//!
//! Also here: what one call's code works with ([`Input`]: its typed arguments, limit, cursor position
//! and the client it came from).

use crate::args::{Arg, Kind, Limit};
use crate::calls::Call;
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::paging::Strategy;
use crate::paging::cursor::{self, Binding, Fields, Position};
use crate::paging::envelope::{Envelope, Page};
use rmcp::model::{InputRequiredResult, InputResponses, JsonObject};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

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
    pub const ALL: [Toolset; 7] = [
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
    pub const DEFAULT: [Toolset; 6] = [
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

    pub fn parse(name: &str) -> Option<Toolset> {
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
pub const READS: Hints = Hints {
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

/// Why a call's code stopped without an answer.
#[derive(Debug)]
pub enum Stop {
    /// A failure, told to the model.
    Error(ToolError),
    /// The call needs the person's input first (the 2026-07-28 form of asking): the client asks, then
    /// calls again with the answer.
    NeedsInput(Box<InputRequiredResult>),
}

impl From<ToolError> for Stop {
    fn from(e: ToolError) -> Stop {
        Stop::Error(e)
    }
}

/// A tool's code: from the checked input to its answer as JSON.
pub type Run =
    for<'a> fn(&'a Ctx, Raw) -> Pin<Box<dyn Future<Output = Result<Value, Stop>> + Send + 'a>>;

/// What one call of a tool whose operations depend on its arguments (the operation gateway) will
/// send, worked out from its checked arguments before anything is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The operations the call's scope declares: the transport refuses any other.
    pub operations: Vec<&'static str>,
    /// Whether the call writes: refused, naming `MATTERMOST_ALLOW_WRITES`, when writes are not allowed.
    pub writes: bool,
}

/// Works out a call's [`Plan`] from its checked arguments; an error is the call's answer, and nothing
/// is sent.
pub type Planner = fn(&Map<String, Value>) -> Result<Plan, ToolError>;

/// A tool's code and the schema of what it answers, made together by [`one!`](crate::one) or
/// [`list!`](crate::list).
#[derive(Clone, Copy)]
pub struct Code {
    pub run: Run,
    pub output: fn() -> JsonObject,
    /// `None` for a tool that declares its calls: every call's scope declares them, and the tool is
    /// offered only when writes are allowed if it writes. `Some` for a tool whose arguments name what it
    /// sends (the operation gateway): each call's scope declares only what its plan names, and the
    /// server refuses a plan that writes when writes are not allowed, so the tool itself is offered
    /// whether writes are allowed or not.
    pub plan: Option<Planner>,
}

/// A tool: its whole declaration and its code.
#[derive(Clone, Copy)]
pub struct Tool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub toolset: Toolset,
    pub args: &'static [Arg],
    pub answer: Answer,
    pub hints: Hints,
    pub asks: Asks,
    pub calls: &'static [Call],
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

    pub fn limit(&self) -> Option<Limit> {
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
    pub fn all_calls(&self) -> Vec<&'static Call> {
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

/// How the call came in: the client that sent it, and what it said besides the arguments.
#[derive(Clone, Default)]
pub struct Client {
    /// The MCP peer, to ask the person (elicitation) or notify.
    pub peer: Option<rmcp::Peer<rmcp::RoleServer>>,
    /// The protocol version of the request.
    pub protocol: Option<rmcp::model::ProtocolVersion>,
    /// What the client can do (elicitation, ...).
    pub capabilities: Option<rmcp::model::ClientCapabilities>,
    /// The answers to what an earlier round of this call asked (2026-07-28).
    pub input_responses: Option<InputResponses>,
    /// The state an earlier round of this call handed the client (2026-07-28).
    pub request_state: Option<String>,
    /// Whether writes others will see ask the person first (`MATTERMOST_CONFIRM_WRITES`).
    pub confirm_writes: crate::config::ConfirmWrites,
    /// The tools this server offers (the operation gateway names those that already cover an
    /// operation).
    pub offered: Arc<[&'static Tool]>,
}

impl Client {
    /// Whether the client said it can ask the person through a form (elicitation).
    pub fn can_elicit(&self) -> bool {
        self.capabilities
            .as_ref()
            .is_some_and(|c| c.elicitation.is_some())
    }

    /// Whether the request speaks the stateless protocol (2026-07-28 or later), where asking the
    /// person is a result the client answers by calling again, not a request of the server's.
    pub fn stateless(&self) -> bool {
        self.protocol
            .as_ref()
            .is_some_and(|v| v.as_str() >= "2026-07-28")
    }
}

/// A call's input as the server checked it, before the tool's code reads its typed arguments.
pub struct Raw {
    pub args: Map<String, Value>,
    pub limit: u32,
    pub position: Option<Fields>,
    pub binding: Binding,
    pub client: Arc<Client>,
}

impl Raw {
    /// The typed input of a tool whose arguments are `A`. The arguments passed the check of the tool's
    /// declaration already, so a failure here is a mismatch between the declaration and `A` (a bug).
    pub fn typed<A: DeserializeOwned>(self) -> Result<(Input<A>, Binding), ToolError> {
        let args: A = serde_json::from_value(Value::Object(self.args)).map_err(|e| {
            ToolError::internal(format!(
                "internal error: the arguments of `{}` passed their check but do not fit the tool's argument \
                 type ({e}). Please report this.",
                self.binding.tool
            ))
        })?;
        Ok((
            Input {
                args,
                limit: self.limit,
                position: self.position,
                tool: self.binding.tool,
                fingerprint: self.binding.fingerprint.clone(),
                client: self.client,
            },
            self.binding,
        ))
    }
}

/// One call's input as a tool's code reads it.
pub struct Input<A> {
    pub args: A,
    /// The page size, for list tools.
    pub limit: u32,
    position: Option<Fields>,
    pub tool: &'static str,
    /// The fingerprint of the arguments that chose the list.
    pub fingerprint: String,
    pub client: Arc<Client>,
}

impl<A> Input<A> {
    /// The key a whole list read for this call is kept under for its cursor chain: the tool and the
    /// arguments that chose the list.
    pub fn list_key(&self) -> String {
        format!("{}:{}", self.tool, self.fingerprint)
    }

    /// The cursor's position as the strategy's own type; `None` on a list's first page.
    pub fn position<P: Position>(&self) -> Result<Option<P>, ToolError> {
        match &self.position {
            None => Ok(None),
            Some(fields) => cursor::position(fields)
                .map(Some)
                .map_err(|e| ToolError::new(ErrorKind::BadCursor, e.message(self.tool))),
        }
    }

    /// Whether a cursor was given.
    pub fn resumed(&self) -> bool {
        self.position.is_some()
    }

    /// Tells the client how far the call is, when it asked for progress.
    pub fn progress(&self, total: Option<u32>, message: impl Into<String>) {
        if let Some(scope) = crate::mattermost::call::current() {
            scope.report_step(total, message.into());
        }
    }

    /// Whether the client cancelled the call.
    pub fn cancelled(&self) -> bool {
        crate::mattermost::call::current().is_some_and(|s| s.is_cancelled())
    }
}

/// The number of Mattermost requests the running call has made.
pub fn requests_so_far() -> u32 {
    crate::mattermost::call::current()
        .map(|s| s.requests())
        .unwrap_or(0)
}

/// A single object's answer as JSON.
pub fn answer<T: Serialize>(tool: &str, value: &T) -> Result<Value, Stop> {
    serde_json::to_value(value).map_err(|e| {
        Stop::Error(ToolError::internal(format!(
            "internal error: the answer of `{tool}` could not be written as JSON ({e})"
        )))
    })
}

/// A list's page as its envelope, as JSON.
pub fn envelope<I: Serialize, X: Serialize>(
    page: Page<I, X>,
    binding: &Binding,
) -> Result<Value, Stop> {
    let env = Envelope::of(page, binding, requests_so_far());
    answer(binding.tool, &env)
}

/// The published output schema of `T`, kept small because every client lists it on every start:
/// schemars' schema, inlined, without `$schema`, titles, formats, descriptions or defaults; the answer's
/// own fields typed in full; the objects inside it (a list's items, say) by the fields they always have;
/// anything deeper by its type alone.
pub fn output_schema<T: JsonSchema>() -> JsonObject {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
    });
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut value = schema.to_value();
    compact(&mut value);
    shallow(&mut value, 0);
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// Cuts a schema to what [`output_schema`] publishes at `depth` (0: the answer itself).
fn shallow(v: &mut Value, depth: usize) {
    let Value::Object(map) = v else { return };
    if depth >= 2 {
        map.retain(|k, _| k == "type");
        return;
    }
    if let Some(items) = map.get_mut("items") {
        shallow(items, depth);
    }
    let required: Vec<String> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        if depth >= 1 {
            props.retain(|name, _| required.contains(name));
        }
        for (_, schema) in props.iter_mut() {
            shallow(schema, depth + 1);
        }
    }
}

fn compact(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for key in ["$schema", "title", "format", "description", "default"] {
                map.remove(key);
            }
            if map.get("minimum") == Some(&Value::from(0)) {
                map.remove("minimum");
            }
            // `Option<T>` fields are skipped when empty, never sent as null.
            if let Some(Value::Array(types)) = map.get("type") {
                let kept: Vec<Value> = types
                    .iter()
                    .filter(|t| t.as_str() != Some("null"))
                    .cloned()
                    .collect();
                if kept.len() == 1 {
                    map.insert("type".into(), kept[0].clone());
                }
            }
            if let Some(Value::Array(any)) = map.get("anyOf") {
                let kept: Vec<Value> = any
                    .iter()
                    .filter(|s| s.get("type").and_then(Value::as_str) != Some("null"))
                    .cloned()
                    .collect();
                if kept.len() == 1
                    && let Some(Value::Object(inner)) = kept.first()
                {
                    let inner = inner.clone();
                    map.remove("anyOf");
                    for (k, val) in inner {
                        map.entry(k).or_insert(val);
                    }
                }
            }
            for (key, child) in map.iter_mut() {
                match child {
                    // The answer's fields by name: a field called `format` or `title` stays.
                    Value::Object(fields) if key == "properties" => {
                        fields.values_mut().for_each(compact);
                    }
                    _ => compact(child),
                }
            }
        }
        Value::Array(list) => list.iter_mut().for_each(compact),
        _ => {}
    }
}

/// Builds the [`Code`] of a tool that answers one object: `one!(run => Answer)`, where
/// `async fn run(cx: &Ctx, input: Input<Args>) -> Result<Answer, E>` and `E: Into<Stop>`.
#[macro_export]
macro_rules! one {
    ($run:path => $out:ty) => {
        $crate::tool::Code {
            run: |cx, raw| {
                Box::pin(async move {
                    let (input, binding) = raw.typed()?;
                    let out: $out = $run(cx, input).await.map_err($crate::tool::Stop::from)?;
                    $crate::tool::answer(binding.tool, &out)
                })
            },
            output: $crate::tool::output_schema::<$out>,
            plan: None,
        }
    };
}

/// Builds the [`Code`] of a list tool: `list!(run => Item, Extra)`, where
/// `async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<Item, Extra>, E>`; the answer is the
/// [`Envelope`] of the page.
#[macro_export]
macro_rules! list {
    ($run:path => $item:ty, $extra:ty) => {
        $crate::tool::Code {
            run: |cx, raw| {
                Box::pin(async move {
                    let (input, binding) = raw.typed()?;
                    let page: $crate::paging::envelope::Page<$item, $extra> =
                        $run(cx, input).await.map_err($crate::tool::Stop::from)?;
                    $crate::tool::envelope(page, &binding)
                })
            },
            output: $crate::tool::output_schema::<$crate::paging::envelope::Envelope<$item, $extra>>,
            plan: None,
        }
    };
    ($run:path => $item:ty) => {
        $crate::list!($run => $item, $crate::paging::envelope::NoExtra)
    };
}
