//! `call_operation`: sends one operation of the catalog through the generated client and the transport
//! every tool uses (the person's token, retries of reads, error mapping, request counting), in a call
//! scope that declares exactly that operation (its [`plan`]).
//!
//! Before any request the parameters are checked against the operation: unknown names are refused with
//! the accepted ones, missing required ones named, types and enums checked, the paging parameters the
//! gateway walks itself refused, and a path value may hold only the characters of Mattermost's ids,
//! names and emails (the generated client percent-encodes it besides, so no value changes the path).
//!
//! A read is always callable and never asks. A write is refused without `MATTERMOST_ALLOW_WRITES=true`
//! (by the server, from the plan) and asks the person first as the writing tools do
//! (`crate::confirm`, both protocol forms), showing the method, the path with its values, the query
//! and the body; declined, nothing is sent; confirmed, it is sent once, never retried.
//!
//! The answer is paged like every list (`crate::paging::by_operation`): a `page`/`per_page` list is walked by
//! offset, one or two Mattermost pages per call, saying that offset paging can skip or repeat items
//! while the list changes; a `before`/`after` list by the id of the last item shown; anything else is
//! read once and cut into pages (a list by item, an object between its fields, bytes by offset), kept
//! for the cursor chain so that later pages cost no request (a read is read again when it is no
//! longer kept; a write's answer is never sent for again).

use super::OPERATION;
use super::params::check;
use super::walks::Called;
use super::walks::{by_key, by_offset, whole, write};
use crate::args::{Arg, Kind, Limit};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::operations::{Access, Entry, PagingKind};
use crate::paging::by_operation::Position;
use crate::paging::{Page, Strategy};
use crate::tool::{Answer, Asks, Code, Hints, Input, Plan, Stop, Tool, Toolset};
use serde::Deserialize;
use serde_json::{Map, Value};

/// The parameters of the operation.
pub(crate) const PARAMS: Arg = Arg {
    name: "params",
    kind: Kind::Object { max: 65_536 },
    required: false,
    about: "Path and query parameters by name; the request body under `body`.",
    shapes: Some("the operation's parameters, checked against it before anything is sent"),
};

pub(crate) const TOOL: Tool = Tool {
    name: "call_operation",
    title: "Call a Mattermost API operation",
    description: "Sends one operation (from find_operations) as you, its params checked first; lists and large \
                  answers come paged. Reads never ask. A write needs writes allowed and asks you first, \
                  showing the request.",
    toolset: Toolset::Api,
    args: &[OPERATION, PARAMS],
    answer: Answer::List {
        // The gateway pages by the operation's kind (`crate::paging::by_operation`).
        strategy: Strategy::ByOperation,
        limit: Limit::new(30, 200),
    },
    // With writes allowed it can send any operation, outside ones included (those that make Mattermost
    // reach an address given in the call): open world. Without, it is published as reading only within
    // Mattermost (`Offer::published`), since every write and every outside operation is then refused.
    hints: Hints {
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
    },
    asks: Asks::First("a write through the gateway may change what others see"),
    calls: &[],
    code: Code {
        plan: Some(plan),
        ..crate::list!(run => Value, Called)
    },
};

#[derive(Deserialize)]
pub(super) struct Args {
    operation: String,
    #[serde(default)]
    params: Map<String, Value>,
}

/// The call's plan: exactly the operation it names, writing when that operation writes. An unknown or
/// uncallable operation is refused here, before anything is sent.
pub(crate) fn plan(args: &Map<String, Value>) -> Result<Plan, ToolError> {
    let name = args.get("operation").and_then(Value::as_str).unwrap_or("");
    let e = callable(name)?;
    Ok(Plan {
        operations: vec![e.id.as_str()],
        writes: e.access == Access::Write,
    })
}

fn callable(name: &str) -> Result<&'static Entry, ToolError> {
    let e = super::entry(name)?;
    match &e.not_callable {
        Some(why) => Err(ToolError::bad_argument(format!(
            "{} cannot be sent through call_operation: {why}. Nothing was sent.{}",
            e.id,
            if e.id == "UploadFile" {
                " create_post and send_direct_message attach files."
            } else {
                ""
            }
        ))),
        None => Ok(e),
    }
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<Value, Called>, Stop> {
    let e = callable(&input.args.operation)?;
    let params = input.args.params.clone();
    check(e, &params)?;
    let position = input.position::<Position>()?;
    if e.access == Access::Write {
        return write(cx, &input, e, &params, position).await;
    }
    Ok(match e.paging.kind {
        PagingKind::PagePerPage | PagingKind::Offset => {
            by_offset(cx, &input, e, &params, position).await?
        }
        PagingKind::BeforeAfter => by_key(cx, &input, e, &params, position).await?,
        _ => whole(cx, &input, e, &params, position).await?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mattermost::operations::Params;
    use serde_json::json;

    fn params(v: Value) -> Params {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn the_plan_declares_exactly_the_named_operation_and_says_whether_it_writes() {
        let p = plan(&params(json!({"operation": "get_bots"}))).expect("a plan");
        assert_eq!(
            p,
            Plan {
                operations: vec!["GetBots"],
                writes: false
            }
        );
        let p = plan(&params(json!({"operation": "CreateIncomingWebhook"}))).expect("a plan");
        assert!(p.writes);
        let e = plan(&params(json!({"operation": "GetBotz"}))).expect_err("unknown");
        assert!(e.message.contains("GetBot"), "{}", e.message);
        let e = plan(&params(json!({"operation": "UploadFile"}))).expect_err("multipart");
        assert!(
            e.message.contains("multipart") && e.message.contains("Nothing was sent"),
            "{}",
            e.message
        );
    }
}
