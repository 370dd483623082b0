//! A tool's code: what it runs from the checked input to its answer as JSON, why it may stop without
//! one (a failure, or a question for the person), the plan of a tool whose arguments name what it
//! sends, and the macros that make the code and its output schema together.

use super::call::{Raw, requests_so_far};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::paging::cursor::Binding;
use crate::paging::envelope::{Envelope, Page};
use rmcp::model::{InputRequiredResult, JsonObject};
use serde::Serialize;
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;

/// Why a call's code stopped without an answer.
#[derive(Debug)]
pub(crate) enum Stop {
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
pub(crate) type Run =
    for<'a> fn(&'a Ctx, Raw) -> Pin<Box<dyn Future<Output = Result<Value, Stop>> + Send + 'a>>;

/// What one call of a tool whose operations depend on its arguments (the operation gateway) will
/// send, worked out from its checked arguments before anything is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The operations the call's scope declares: the transport refuses any other.
    pub operations: Vec<&'static str>,
    /// Whether the call writes: refused, naming `MATTERMOST_ALLOW_WRITES`, when writes are not allowed.
    pub(crate) writes: bool,
}

/// Works out a call's [`Plan`] from its checked arguments; an error is the call's answer, and nothing
/// is sent.
pub(crate) type Planner = fn(&Map<String, Value>) -> Result<Plan, ToolError>;

/// A tool's code and the schema of what it answers, made together by [`one!`](crate::one) or
/// [`list!`](crate::list).
#[derive(Clone, Copy)]
pub struct Code {
    pub(crate) run: Run,
    pub output: fn() -> JsonObject,
    /// `None` for a tool that declares its calls: every call's scope declares them, and the tool is
    /// offered only when writes are allowed if it writes. `Some` for a tool whose arguments name what it
    /// sends (the operation gateway): each call's scope declares only what its plan names, and the
    /// server refuses a plan that writes when writes are not allowed, so the tool itself is offered
    /// whether writes are allowed or not.
    pub(crate) plan: Option<Planner>,
}

/// A single object's answer as JSON, every string in it cleaned of invisible and direction-changing
/// characters ([`crate::show::text::clean_value`]): every tool's answer passes here.
pub(crate) fn answer<T: Serialize>(tool: &str, value: &T) -> Result<Value, Stop> {
    let mut json = serde_json::to_value(value).map_err(|e| {
        Stop::Error(ToolError::internal(format!(
            "internal error: the answer of `{tool}` could not be written as JSON ({e})"
        )))
    })?;
    crate::show::text::clean_value(&mut json);
    Ok(json)
}

/// A list's page as its envelope, as JSON.
pub(crate) fn envelope<I: Serialize, X: Serialize>(
    page: Page<I, X>,
    binding: &Binding,
) -> Result<Value, Stop> {
    let env = Envelope::of(page, binding, requests_so_far());
    answer(binding.tool, &env)
}

/// Builds the [`Code`] of a tool that answers one object: `one!(run => Answer)`, where
/// `async fn run(cx: &Ctx, input: Input<Args>) -> Result<Answer, E>` and `E: Into<Stop>`.
macro_rules! one {
    ($run:path => $out:ty) => {
        $crate::tool::code::Code {
            run: |cx, raw| {
                Box::pin(async move {
                    let (input, binding) = raw.typed()?;
                    let out: $out = $run(cx, input)
                        .await
                        .map_err($crate::tool::code::Stop::from)?;
                    $crate::tool::code::answer(binding.tool, &out)
                })
            },
            output: $crate::tool::schema::output_schema::<$out>,
            plan: None,
        }
    };
}

/// Builds the [`Code`] of a list tool: `list!(run => Item, Extra)`, where
/// `async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<Item, Extra>, E>`; the answer is the
/// [`Envelope`] of the page.
macro_rules! list {
    ($run:path => $item:ty, $extra:ty) => {
        $crate::tool::code::Code {
            run: |cx, raw| {
                Box::pin(async move {
                    let (input, binding) = raw.typed()?;
                    let page: $crate::paging::envelope::Page<$item, $extra> =
                        $run(cx, input).await.map_err($crate::tool::code::Stop::from)?;
                    $crate::tool::code::envelope(page, &binding)
                })
            },
            output: $crate::tool::schema::output_schema::<$crate::paging::envelope::Envelope<$item, $extra>>,
            plan: None,
        }
    };
    ($run:path => $item:ty) => {
        $crate::list!($run => $item, $crate::paging::envelope::NoExtra)
    };
}

// The two macros, for the tool files (as `crate::one!` and `crate::list!`, re-exported at the root).
pub(crate) use {list, one};
