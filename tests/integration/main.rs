//! Integration tests: the built server over stdio, through a real MCP client, against the simulator.

mod channels;
mod faults;
mod governance;

mod files;
mod harness;
mod people;

mod protocol;
mod read_channel;
mod safety;

mod reading;
mod undocumented_parameters;
mod writes;
mod writes_fixture;
mod writes_governance;
mod writes_safety;
mod writes_spec;
