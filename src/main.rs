//! `mattermost-mcp`: an MCP server for Mattermost, over stdio or Streamable HTTP.
//!
//! `serve` (the default) reads `MATTERMOST_URL` and `MATTERMOST_TOKEN` from the environment and serves
//! MCP on stdin/stdout; `serve --http ADDR` serves Streamable HTTP for a whole team instead, each
//! request with its person's token (see `mattermost_mcp::serve`); `demo` does either against a
//! built-in simulated Mattermost; `overrides` prints the spec overrides the client was generated
//! with. Logs go to stderr.

/// jemalloc with its background threads, not the system's malloc: glibc's per-thread arenas keep
/// what a burst of sessions freed (2,000 sessions left about 215 MB resident after they ended), where
/// jemalloc's background threads give freed pages back to the system within seconds, the server busy
/// or not (SECURITY.md's Sessions says what was measured). mimalloc, whose build is cheaper, was
/// tried and measured: 2,000 sessions took 287 MB, and 18 s after they ended all of it was still
/// resident.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    mattermost_mcp::cli::main()
}
