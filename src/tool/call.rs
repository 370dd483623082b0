//! What one call of a tool works with: how the call came in ([`CallContext`]: the client's peer,
//! protocol and capabilities, its answers to earlier questions, the tools offered), its input as the
//! server checked it ([`Raw`]) and as the tool's code reads it ([`Input`]: typed arguments, limit,
//! cursor position), and the running call's progress, cancellation and request count.

use crate::error::{ErrorKind, ToolError};
use crate::paging::cursor::{self, Binding, Fields, Position};
use rmcp::model::InputResponses;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Which offered tools already cover an operation, by its id (the server knows what it offers; a
/// call asks).
#[derive(Clone)]
pub struct Covering(Arc<CoversFn>);

/// What names the tools covering an operation.
type CoversFn = dyn Fn(&str) -> Vec<&'static str> + Send + Sync;

impl Covering {
    /// The tools `covers` names for each operation.
    pub fn new(covers: impl Fn(&str) -> Vec<&'static str> + Send + Sync + 'static) -> Covering {
        Covering(Arc::new(covers))
    }

    /// The offered tools that cover `operation`.
    pub fn of(&self, operation: &str) -> Vec<&'static str> {
        (self.0)(operation)
    }
}

impl Default for Covering {
    /// No tool covers anything.
    fn default() -> Covering {
        Covering::new(|_| Vec::new())
    }
}

/// How the call came in: the client that sent it (to ask the person, to notify), and what it said
/// besides the arguments.
#[derive(Clone, Default)]
pub struct CallContext {
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
    /// Which of the tools this server offers already cover an operation (the operation gateway
    /// names them).
    pub covering: Covering,
    /// The person as watching sees them (`wait_for_activity`), when the server offers watching.
    pub live: Option<crate::live::Person>,
}

impl CallContext {
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
    /// Whether the tool asks the person before a write others will see (its declaration's).
    pub asks_first: bool,
    pub limit: u32,
    pub position: Option<Fields>,
    pub binding: Binding,
    pub call: Arc<CallContext>,
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
                asks_first: self.asks_first,
                fingerprint: self.binding.fingerprint.clone(),
                call: self.call,
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
    /// Whether the tool asks the person before a write others will see (its declaration's).
    pub asks_first: bool,
    /// The fingerprint of the arguments that chose the list.
    pub fingerprint: String,
    pub call: Arc<CallContext>,
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
