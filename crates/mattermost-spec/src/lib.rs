//! The Mattermost OpenAPI spec as this project uses it: the pinned release and where the build reads it
//! ([`pinned`]), its prose-free copy ([`strip`]), the document itself ([`document`]), the surface of its operations ([`surface`]), the
//! project's declared overrides ([`overrides`]) and the repairs the spec needs before a client can be
//! generated from it ([`repairs`]), and the report that compares another release with the one pinned
//! ([`check`], from the facts of [`changes`] and [`retire`], on the working tree of [`tree`]); a
//! release's spec assembled from Mattermost's source fragments ([`assemble`]).
//!
//! The crate is used twice: by the root package's `build.rs`, which normalizes the pinned spec and
//! generates the typed client from it, and at run time by `mattermost-mcp overrides` and
//! `mattermost-mcp spec-check`. Everything here is plain data and pure functions over
//! `serde_json::Value`, so that both uses see exactly the same rules.

#![warn(missing_docs)]

pub mod assemble;
pub mod catalog;
pub mod changes;
pub mod check;
pub mod document;
pub mod overrides;
pub mod patch;
pub mod pinned;
pub mod release_day;
pub mod releases;
pub mod repairs;
pub mod retire;
pub mod strip;
pub mod surface;
pub mod tree;

pub use overrides::{Overrides, Parameter, Repair};
pub use repairs::{Edit, Normalized};
pub use surface::{Location, Operation, Param, Surface};
