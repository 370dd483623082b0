//! Integration tests: the built server over stdio, through a real MCP client, against the simulator.

// Tests and their helpers say what must hold with unwrap and expect; outside tests both are denied.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod architecture;
mod bundle;
mod card;
mod channels;
mod contract;
mod demo_truth;
mod faults;
mod files;
mod gateway;
mod governance;
mod hardening;
mod harness;
mod http;
mod http_hardening;
mod http_harness;
mod http_isolation;
mod http_nginx;
mod http_redis;
mod inbox;
mod live;
mod operations;
mod people;
mod protocol;
mod read_channel;
mod reading;
mod safety;
mod schemas;
mod search_walk;
mod share;
mod undocumented_parameters;
mod writes;
mod writes_fixture;
mod writes_governance;
mod writes_safety;
mod writes_spec;
