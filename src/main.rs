//! `mattermost-mcp`: an MCP server for Mattermost, over stdio or Streamable HTTP.
//!
//! `serve` (the default) reads `MATTERMOST_URL` and `MATTERMOST_TOKEN` from the environment and serves
//! MCP on stdin/stdout; `serve --http ADDR` serves Streamable HTTP for a whole team instead, each
//! request with its person's token (see `mattermost_mcp::serve`); `demo` does either against a
//! built-in simulated Mattermost; `overrides` prints the spec overrides the client was generated
//! with. Logs go to stderr.

/// mimalloc, not the system's malloc: glibc's per-thread arenas keep what a burst of sessions freed
/// (2,000 sessions left about 215 MB resident after they ended), where mimalloc gives freed pages back
/// to the system (SECURITY.md's Sessions says what was measured). It replaced jemalloc, whose C build
/// (a configure script and make) was the largest build-script cost of a release build; mimalloc's is
/// one C file.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    mattermost_mcp::cli::main()
}
