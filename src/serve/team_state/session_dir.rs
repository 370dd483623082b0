//! The session directory (`MATTERMOST_MCP_SESSION_DIR`): a directory every instance shares, where
//! each 2025-11-25 session's `initialize` parameters (rmcp's external [`SessionStore`]) and its
//! owner are recorded, so any instance continues any session. Files are named by the SHA-256 of the
//! session id and hold no token (the owner is the SHA-256 of their token).

use crate::serve::people::Key;
use crate::serve::team_state::store::{SESSION_KEPT_FOR, session_name};
use rmcp::transport::streamable_http_server::session::{
    SessionState, SessionStore, SessionStoreError,
};
use std::path::PathBuf;

/// rmcp's external session store, on a shared directory, and the sessions' owners beside it.
pub(crate) struct DirStore {
    dir: PathBuf,
}

impl DirStore {
    pub(crate) fn new(dir: PathBuf) -> Result<DirStore, String> {
        std::fs::create_dir_all(&dir).map_err(|e| {
            format!(
                "{}={} cannot be made or used: {e}. Give a directory this server may write, shared by every \
                 instance.",
                crate::config::SESSION_DIR,
                dir.display()
            )
        })?;
        Ok(DirStore { dir })
    }

    fn path(&self, session_id: &str, ext: &str) -> PathBuf {
        self.dir.join(format!("{}.{ext}", session_name(session_id)))
    }

    /// Removes the files of sessions older than [`SESSION_KEPT_FOR`].
    async fn sweep(&self) {
        let Ok(mut entries) = tokio::fs::read_dir(&self.dir).await else {
            return;
        };
        while let Ok(Some(entry)) = entries.next_entry().await {
            let old = entry
                .metadata()
                .await
                .ok()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > SESSION_KEPT_FOR);
            let ours = entry.file_name().to_str().is_some_and(|n| {
                n.ends_with(".json") || n.ends_with(".owner") || n.ends_with(".partial")
            });
            if old && ours {
                let _ = tokio::fs::remove_file(entry.path()).await;
            }
        }
    }

    /// Records the owner of a session.
    pub(crate) async fn record_owner(&self, session_id: &str, owner: Key) -> Result<(), String> {
        let file = self.path(session_id, "owner");
        tokio::fs::write(&file, owner.hex())
            .await
            .map_err(|e| format!("{}: {e}", file.display()))
    }

    /// The owner of a session in hex, if recorded.
    pub(crate) async fn owner_of(&self, session_id: &str) -> Result<Option<String>, String> {
        let file = self.path(session_id, "owner");
        match tokio::fs::read_to_string(&file).await {
            Ok(owner) => Ok(Some(owner.trim().to_string())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", file.display())),
        }
    }
}

#[async_trait::async_trait]
impl SessionStore for DirStore {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let path = self.path(session_id, "json");
        let expired = tokio::fs::metadata(&path)
            .await
            .ok()
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > SESSION_KEPT_FOR);
        if expired {
            return Ok(None);
        }
        match tokio::fs::read(&path).await {
            Ok(bytes) => Ok(Some(serde_json::from_slice(&bytes)?)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Box::new(e)),
        }
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let path = self.path(session_id, "json");
        let partial = self.path(session_id, "partial");
        tokio::fs::write(&partial, serde_json::to_vec(state)?).await?;
        tokio::fs::rename(&partial, &path).await?;
        self.sweep().await;
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        for ext in ["json", "owner"] {
            match tokio::fs::remove_file(self.path(session_id, ext)).await {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Box::new(e)),
                _ => {}
            }
        }
        Ok(())
    }
}
