//! 2025-11-25 sessions (`Mcp-Session-Id`) across requests and instances. Each session belongs to the
//! person who opened it: a request naming a session opened with another token is answered as if the
//! session did not exist, so nothing the server sends on a session (a question asked by elicitation,
//! say) can reach another person. With `MATTERMOST_MCP_SESSION_DIR`, a directory every instance
//! shares records each session's initialize parameters (rmcp's external [`SessionStore`]) and its
//! owner, so any instance continues any session; without it, a session lives in the instance that
//! opened it. Files are named by the SHA-256 of the session id and hold no token.

use crate::serve::people::Key;
use rmcp::transport::streamable_http_server::session::{
    SessionState, SessionStore, SessionStoreError,
};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most session owners one instance remembers.
const OWNERS_KEPT: usize = 100_000;
/// How long an owner is remembered after it was last seen.
const OWNER_KEPT_FOR: Duration = Duration::from_secs(24 * 3600);
/// How long a session's files serve after they were written: rmcp deletes them only when the client
/// ends the session, so sessions their clients forgot are cleared after this.
const FILES_KEPT_FOR: Duration = Duration::from_secs(24 * 3600);

fn name_of(session_id: &str) -> String {
    Sha256::digest(session_id.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// rmcp's external session store, on a shared directory.
pub struct DirStore {
    dir: PathBuf,
}

impl DirStore {
    pub fn new(dir: PathBuf) -> Result<DirStore, String> {
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
        self.dir.join(format!("{}.{ext}", name_of(session_id)))
    }

    /// Removes the files of sessions older than [`FILES_KEPT_FOR`].
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
                .is_some_and(|age| age > FILES_KEPT_FOR);
            let ours = entry.file_name().to_str().is_some_and(|n| {
                n.ends_with(".json") || n.ends_with(".owner") || n.ends_with(".partial")
            });
            if old && ours {
                let _ = tokio::fs::remove_file(entry.path()).await;
            }
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
            .is_some_and(|age| age > FILES_KEPT_FOR);
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

/// Who opened each session.
pub struct Owners {
    kept: Mutex<HashMap<String, (Key, Instant)>>,
    dir: Option<PathBuf>,
}

impl Owners {
    pub fn new(dir: Option<PathBuf>) -> Owners {
        Owners {
            kept: Mutex::new(HashMap::new()),
            dir,
        }
    }

    fn file(&self, session_id: &str) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{}.owner", name_of(session_id))))
    }

    /// Records that `owner` opened `session_id`; an error when the record could not be written to the
    /// shared directory (the session must then be ended: no instance could tell its owner).
    pub async fn bind(&self, session_id: &str, owner: Key) -> Result<(), String> {
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() >= OWNERS_KEPT {
                kept.retain(|_, (_, at)| at.elapsed() < OWNER_KEPT_FOR);
            }
            if kept.len() >= OWNERS_KEPT
                && let Some(oldest) = kept
                    .iter()
                    .min_by_key(|(_, (_, at))| *at)
                    .map(|(k, _)| k.clone())
            {
                kept.remove(&oldest);
            }
            kept.insert(name_of(session_id), (owner, Instant::now()));
        }
        if let Some(file) = self.file(session_id)
            && let Err(e) = tokio::fs::write(&file, owner.hex()).await
        {
            self.unbind(session_id);
            return Err(format!(
                "the owner of a session could not be recorded in {}: {e}",
                file.display()
            ));
        }
        Ok(())
    }

    /// Whether `person` may use `session_id`: only when they are known to have opened it. A session
    /// whose owner is not known (never recorded, or its record lost) is refused to everyone, its opener
    /// included: it is answered as a session that does not exist.
    pub async fn allows(&self, session_id: &str, person: Key) -> bool {
        let name = name_of(session_id);
        if let Ok(mut kept) = self.kept.lock()
            && let Some((owner, at)) = kept.get_mut(&name)
        {
            *at = Instant::now();
            return *owner == person;
        }
        if let Some(file) = self.file(session_id)
            && let Ok(owner) = tokio::fs::read_to_string(&file).await
        {
            let allowed = owner.trim() == person.hex();
            if allowed && let Ok(mut kept) = self.kept.lock() {
                kept.insert(name, (person, Instant::now()));
            }
            return allowed;
        }
        false
    }

    /// Forgets a session (the client ended it).
    pub fn unbind(&self, session_id: &str) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.remove(&name_of(session_id));
        }
    }
}
