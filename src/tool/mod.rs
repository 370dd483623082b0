//! What a tool is: its declaration (name, title, description, toolset, arguments, every Mattermost call
//! it may make with each parameter accounted for, annotation hints, whether it asks the person first,
//! how it is paged: [`declaration`]) and its code with its output type ([`code`]), built by
//! [`one!`](crate::one) or [`list!`](crate::list) so that the published output schema ([`schema`])
//! and the code's answer cannot drift. Each tool lives in one file under `crate::tools`, which holds
//! its declaration, its body and its output type; [`crate::inventory`] lists them all. What one call's
//! code works with ([`Input`]: its typed arguments, limit, cursor position and the [`CallContext`] it
//! came in with) is in [`call`].

pub(crate) mod call;
pub(crate) mod code;
mod declaration;
pub(crate) mod extra;
pub(crate) mod schema;

pub(crate) use call::{CallContext, Input, Raw};
pub(crate) use code::Stop;
pub use code::{Code, Plan};
pub(crate) use declaration::READS;
pub use declaration::{Answer, Asks, Hints, Tool, Toolset};
