//! Files attached to posts: a seeded attachment, and what the create and edit routes do with
//! uploaded files (`App.attachFilesToPost`, `SqlFileInfoStore.AttachToPost`, `DeleteForPostByIds`).

use super::{FileInfo, World};

/// The MIME type the server gives a file of this extension.
fn mime_for(extension: &str) -> &'static str {
    match extension {
        "txt" | "log" => "text/plain",
        "md" => "text/markdown",
        "csv" => "text/csv",
        "json" => "application/json",
        "html" | "htm" => "text/html",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "pdf" => "application/pdf",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx" => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "zip" => "application/zip",
        "tar" => "application/x-tar",
        "yaml" | "yml" => "application/x-yaml",
        _ => "application/octet-stream",
    }
}

impl World {
    /// Attach a file (its bytes are served by `GET /files/{id}`) to a post; returns the file id.
    pub fn attach(&mut self, post_id: &str, name: &str, content: &[u8]) -> String {
        let Some(p) = self.post_by_id(post_id).cloned() else {
            return String::new();
        };
        let id = self.new_id();
        let extension = name
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        self.files.push(FileInfo {
            id: id.clone(),
            creator_id: p.user_id.clone(),
            post_id: p.id.clone(),
            channel_id: p.channel_id.clone(),
            create_at: p.create_at,
            update_at: p.create_at,
            delete_at: 0,
            name: name.to_string(),
            mime_type: mime_for(&extension).to_string(),
            extension,
            content: content.to_vec(),
        });
        if let Some(q) = self.post_mut(post_id) {
            q.file_ids.push(id.clone());
        }
        id
    }

    /// `SqlFileInfoStore.AttachToPost` for each id: a file not attached yet (`PostId = ''`) whose
    /// creator is the poster (or `nouser`) gets the post and the post's channel; others are
    /// skipped. Returns the ids attached.
    pub(crate) fn attach_files(
        &mut self,
        post_id: &str,
        channel_id: &str,
        user_id: &str,
        file_ids: &[String],
    ) -> Vec<String> {
        let mut attached = Vec::new();
        for fid in file_ids {
            if let Some(f) = self.files.iter_mut().find(|f| {
                f.id == *fid
                    && f.post_id.is_empty()
                    && (f.creator_id == user_id || f.creator_id == "nouser")
            }) {
                f.post_id = post_id.to_string();
                f.channel_id = channel_id.to_string();
                attached.push(fid.clone());
            }
        }
        attached
    }

    /// `SqlFileInfoStore.DeleteForPostByIds`: files taken off a post by an edit are deleted.
    pub(crate) fn delete_files_of_post(&mut self, post_id: &str, file_ids: &[String], at: i64) {
        for f in self
            .files
            .iter_mut()
            .filter(|f| f.post_id == post_id && file_ids.contains(&f.id))
        {
            f.delete_at = at;
            f.update_at = at;
        }
    }
}
