//! Integration tests: the built server over stdio, through a real MCP client, against the simulator.

mod harness;
mod protocol;
mod read_channel;
