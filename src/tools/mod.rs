//! Every tool, one file each, by toolset: its declaration, its body and its output type. The
//! inventory (`crate::inventory`) lists them. A toolset's folder holds its tools and the helpers only
//! they use; what several toolsets share lives in [`shared`]. No tool file imports another tool file,
//! and no toolset imports another's (`tests/integration/architecture.rs` holds both).

pub mod api;
pub(crate) mod channels;
pub(crate) mod files;
pub(crate) mod people;
pub(crate) mod posts;
pub mod shared;
pub(crate) mod teams;
pub(crate) mod writes;
