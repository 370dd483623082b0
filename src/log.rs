//! Logging, on stderr (stdout carries the MCP protocol). Lines are short and never carry the token:
//! nothing here is ever given the configuration's secret, and request URLs are not logged.

use std::sync::atomic::{AtomicU8, Ordering};

static LEVEL: AtomicU8 = AtomicU8::new(2);

/// `MATTERMOST_MCP_LOG`: error, warn, info (default) or debug.
pub fn init(level: Option<&str>) {
    let n = match level.map(str::trim) {
        Some("error") => 0,
        Some("warn") => 1,
        Some("debug") => 3,
        _ => 2,
    };
    LEVEL.store(n, Ordering::Relaxed);
}

fn emit(n: u8, tag: &str, message: &str) {
    if LEVEL.load(Ordering::Relaxed) >= n {
        let now = crate::time::rfc3339(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() as i64)
                .unwrap_or(0),
        );
        eprintln!("{now} {tag} mattermost-mcp: {message}");
    }
}

/// Whether info lines are written: for a line whose making costs something (the access log's, once a
/// request), made only when it will be written.
pub(crate) fn info_enabled() -> bool {
    LEVEL.load(Ordering::Relaxed) >= 2
}

pub fn error(message: &str) {
    emit(0, "ERROR", message);
}
pub(crate) fn warn(message: &str) {
    emit(1, "WARN", message);
}
pub fn info(message: &str) {
    emit(2, "INFO", message);
}
pub(crate) fn debug(message: &str) {
    emit(3, "DEBUG", message);
}
