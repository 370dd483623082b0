//! The client progenitor generates from the repaired spec (see `build.rs`), never edited by hand:
//! regenerating changes only this module. The crate exports its `Client` and `types`; the server above
//! reaches the client only through its call context.
#![allow(
    clippy::all,
    clippy::pedantic,
    clippy::unwrap_used,
    clippy::expect_used,
    unused_imports,
    unused_variables,
    dead_code,
    irrefutable_let_patterns,
    rustdoc::all,
    missing_docs
)]

include!(concat!(env!("OUT_DIR"), "/mattermost_client.rs"));
