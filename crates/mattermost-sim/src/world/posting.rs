//! Saving what the post routes validated, as the store does it: a created post with its files
//! attached (`App.CreatePost`, `App.attachFilesToPost`, `SqlFileInfoStore.AttachToPost`), a
//! post deleted by a user (`App.DeletePost`, `SqlPostStore.Delete`, `App.CleanUpAfterPostDeletion`)
//! and reactions (`SqlReactionStore.Save` / `Delete`).

use serde_json::{Map, Value, json};

use super::{Reaction, World};

/// A post the create route has validated, ready to be saved.
#[derive(Clone, Debug)]
pub(crate) struct NewPost {
    pub channel_id: String,
    pub user_id: String,
    pub root_id: String,
    pub create_at: i64,
    pub message: String,
    pub kind: String,
    pub props: Map<String, Value>,
    /// Already without duplicates (`Post.PreCommit`).
    pub file_ids: Vec<String>,
    pub is_pinned: bool,
    pub edit_at: i64,
    pub has_reactions: bool,
    pub pending_post_id: String,
}

/// The props of a system message, from (key, text) pairs.
pub(super) fn props(pairs: &[(&str, &str)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect()
}

impl World {
    /// `SqlPostStore.Save` and what `App.CreatePost` does next: the post (a root with
    /// [`World::post`], a reply with [`World::reply`], so their side effects apply), its pending
    /// post id remembered, its files attached. When some file ids could not be attached, the post
    /// keeps the attached ones and is overwritten (UpdateAt `now`).
    pub(crate) fn save_new_post(&mut self, np: &NewPost, now: i64) -> String {
        let id = if np.root_id.is_empty() {
            self.post(&np.channel_id, &np.user_id, np.create_at, &np.message)
        } else {
            self.reply(&np.root_id, &np.user_id, np.create_at, &np.message)
        };
        if let Some(p) = self.post_mut(&id) {
            p.kind = np.kind.clone();
            p.props = np.props.clone();
            p.is_pinned = np.is_pinned;
            p.edit_at = np.edit_at;
            p.has_reactions = np.has_reactions;
        }
        if !np.pending_post_id.is_empty() {
            self.pending_set(&np.pending_post_id, &id, now);
        }
        if !np.file_ids.is_empty() {
            let attached = self.attach_files(&id, &np.channel_id, &np.user_id, &np.file_ids);
            let partial = attached.len() != np.file_ids.len();
            if let Some(p) = self.post_mut(&id) {
                p.file_ids = attached;
                if partial {
                    p.update_at = now;
                }
            }
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
    }

    /// `SqlReactionStore.Save`: an upsert on (user, post, emoji); the post gets `has_reactions`
    /// and UpdateAt `now`.
    pub(crate) fn save_reaction(
        &mut self,
        user_id: &str,
        post_id: &str,
        emoji: &str,
        create_at: i64,
        now: i64,
    ) {
        let Some(p) = self.post_mut(post_id) else {
            return;
        };
        p.has_reactions = true;
        p.update_at = now;
        let channel_id = p.channel_id.clone();
        if !self
            .reactions
            .iter()
            .any(|r| r.user_id == user_id && r.post_id == post_id && r.emoji_name == emoji)
        {
            self.reactions.push(Reaction {
                user_id: user_id.to_string(),
                post_id: post_id.to_string(),
                channel_id,
                emoji_name: emoji.to_string(),
                create_at,
            });
        }
    }

    /// `SqlReactionStore.Delete`: the reaction goes (if there was one); the post's
    /// `has_reactions` is recomputed and its UpdateAt becomes `now` either way.
    pub(crate) fn delete_reaction(&mut self, user_id: &str, post_id: &str, emoji: &str, now: i64) {
        self.reactions
            .retain(|r| !(r.user_id == user_id && r.post_id == post_id && r.emoji_name == emoji));
        let left = self.reactions.iter().any(|r| r.post_id == post_id);
        if let Some(p) = self.post_mut(post_id) {
            p.has_reactions = left;
            p.update_at = now;
        }
    }
}
