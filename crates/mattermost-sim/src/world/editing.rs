//! Changing a post after it was made: an edit (`SqlPostStore.Update` and its history row), pinning
//! (`api4/post.go` `saveIsPinnedPost`) and deleting (`App.DeletePost`, `SqlPostStore.Delete`,
//! `App.CleanUpAfterPostDeletion`).

use serde_json::Value;

use super::Happened;
use super::posting::parse_hashtags;
use super::{Post, ThreadInfo, World};

impl World {
    /// Edit a post at `at_ms`, the way `SqlPostStore.Update` does: the old version is inserted as a
    /// history row (new id, `original_id` = the post, `delete_at` = `update_at` = edit time), the post
    /// gets the new message with `edit_at` = `update_at` = edit time, its thread root's UpdateAt and
    /// the channel's LastPostAt move up.
    pub fn edit(&mut self, post_id: &str, at_ms: i64, new_message: &str) {
        let Some(old) = self.post_by_id(post_id).cloned() else {
            return;
        };
        let mut history = old.clone();
        history.id = self.new_id();
        history.original_id = old.id.clone();
        history.delete_at = at_ms;
        history.update_at = at_ms;
        self.insert_post(history);
        if let Some(p) = self.post_mut(post_id) {
            p.message = new_message.to_string();
            p.hashtags = parse_hashtags(new_message);
            p.edit_at = at_ms;
            p.update_at = at_ms;
        }
        if !old.root_id.is_empty()
            && let Some(r) = self.post_mut(&old.root_id)
        {
            r.update_at = r.update_at.max(at_ms);
        }
        if let Some(c) = self.channel_mut(&old.channel_id) {
            c.last_post_at = c.last_post_at.max(at_ms);
        }
        self.happened(Happened::PostEdited {
            post_id: post_id.to_string(),
        });
    }

    /// Soft-delete a post at `at_ms`. Deleting a root deletes its replies too (the store's
    /// `WHERE Id = ? OR RootId = ?`); its files are deleted; a reply's root gets UpdateAt bumped.
    pub fn delete(&mut self, post_id: &str, at_ms: i64) {
        let Some(p) = self.post_by_id(post_id).cloned() else {
            return;
        };
        let mut affected: Vec<String> = vec![p.id.clone()];
        if p.root_id.is_empty() {
            if let Some(info) = self.thread_info(&p.id) {
                self.thread_snapshots.insert(
                    p.id.clone(),
                    ThreadInfo {
                        delete_at: at_ms,
                        ..info
                    },
                );
            }
            // every row whose RootId is the post: replies (deleted ones too) and their
            // edit-history rows
            affected.extend(
                self.posts
                    .iter()
                    .filter(|q| q.root_id == p.id)
                    .map(|q| q.id.clone()),
            );
        }
        for id in &affected {
            if let Some(q) = self.post_mut(id) {
                q.delete_at = at_ms;
                q.update_at = at_ms;
                q.props
                    .insert("deleteBy".to_string(), Value::String(p.user_id.clone()));
            }
        }
        for f in self.files.iter_mut() {
            if affected.contains(&f.post_id) && f.delete_at == 0 {
                f.delete_at = at_ms;
                f.update_at = at_ms;
            }
        }
        if !p.root_id.is_empty()
            && let Some(r) = self.post_mut(&p.root_id)
        {
            r.update_at = r.update_at.max(at_ms);
        }
        self.happened(Happened::PostDeleted {
            post_id: p.id.clone(),
            by: p.user_id.clone(),
        });
    }

    /// Pin a post now (the server's clock), with the side effects of [`World::pin_at`].
    pub fn pin(&mut self, post_id: &str) {
        self.pin_at(post_id, crate::clock::now_ms());
    }

    /// Pin a post at `at_ms`, as `api4/post.go` `saveIsPinnedPost` does through `App.PatchPost`:
    /// `SqlPostStore.Update` gives the post that UpdateAt, inserts an edit-history row (the old
    /// version) and moves the channel's LastPostAt (and a reply's root UpdateAt) up to it.
    pub fn pin_at(&mut self, post_id: &str, at_ms: i64) {
        self.update_post_row(post_id, at_ms, |p| p.is_pinned = true);
    }

    /// Unpin a post at `at_ms` (the same store update as [`World::pin_at`]).
    pub fn unpin_at(&mut self, post_id: &str, at_ms: i64) {
        self.update_post_row(post_id, at_ms, |p| p.is_pinned = false);
    }

    /// `SqlPostStore.Update`: the post changed by `change` gets UpdateAt `at`; its old version is
    /// inserted as a history row (new id, `original_id`, `delete_at` = `update_at` = `at`); the
    /// channel's LastPostAt becomes `at` if lower; a reply's root gets UpdateAt `at` if lower.
    pub(crate) fn update_post_row(
        &mut self,
        post_id: &str,
        at: i64,
        change: impl FnOnce(&mut Post),
    ) -> Option<()> {
        let old = self.post_by_id(post_id)?.clone();
        let mut history = old.clone();
        history.id = self.new_id();
        history.original_id = old.id.clone();
        history.delete_at = at;
        history.update_at = at;
        self.insert_post(history);
        let p = self.post_mut(post_id)?;
        change(p);
        p.update_at = at;
        if let Some(c) = self.channel_mut(&old.channel_id)
            && c.last_post_at < at
        {
            c.last_post_at = at;
        }
        if !old.root_id.is_empty()
            && let Some(r) = self.post_mut(&old.root_id)
            && r.update_at < at
        {
            r.update_at = at;
        }
        self.happened(Happened::PostEdited {
            post_id: post_id.to_string(),
        });
        Some(())
    }

    /// `App.DeletePost` by `deleter` at `at`: every row with `Id = post OR RootId = post` (a
    /// root takes its replies, their history rows and already deleted replies along) gets
    /// DeleteAt = UpdateAt = `at` and `props.deleteBy`; a reply's root gets UpdateAt `at`; the
    /// post's files are deleted; its `flagged_post` preferences and the drafts replying to it go.
    pub(crate) fn delete_post_by(&mut self, post_id: &str, at: i64, deleter: &str) {
        let Some(p) = self.post_by_id(post_id).cloned() else {
            return;
        };
        let affected: Vec<String> = self
            .posts
            .iter()
            .filter(|q| q.id == p.id || q.root_id == p.id)
            .map(|q| q.id.clone())
            .collect();
        for id in &affected {
            if let Some(q) = self.post_mut(id) {
                q.delete_at = at;
                q.update_at = at;
                q.props
                    .insert("deleteBy".to_string(), Value::String(deleter.to_string()));
            }
        }
        if !p.root_id.is_empty()
            && let Some(r) = self.post_mut(&p.root_id)
        {
            r.update_at = at;
        }
        if !p.file_ids.is_empty() {
            for f in self.files.iter_mut().filter(|f| f.post_id == p.id) {
                f.delete_at = at;
            }
        }
        self.flagged.retain(|(_, pid)| *pid != p.id);
        self.drafts
            .retain(|d| !(d.channel_id == p.channel_id && d.root_id == p.id));
        self.happened(Happened::PostDeleted {
            post_id: p.id.clone(),
            by: deleter.to_string(),
        });
    }
}
