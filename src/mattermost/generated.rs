//! The client progenitor generates from the repaired spec (see `build.rs`). Sealed: nothing outside
//! `crate::mattermost` uses it directly except through the types it exports, and it is never edited by
//! hand. Regenerating changes only this module.
#![allow(
    clippy::all,
    clippy::pedantic,
    unused_imports,
    unused_variables,
    dead_code,
    irrefutable_let_patterns,
    rustdoc::all,
    missing_docs
)]

include!(concat!(env!("OUT_DIR"), "/mattermost_client.rs"));
