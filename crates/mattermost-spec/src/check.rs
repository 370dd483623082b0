//! `spec-check`: how another release's spec differs from the pinned one, for what the project uses.
//! Filled in by the regeneration work; the types are here so the build and the CLI share them.

pub use crate::surface::Surface;
