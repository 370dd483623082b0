//! Reactions to posts (`SqlReactionStore.Save` / `Delete`): each one moves its post's UpdateAt and
//! `has_reactions`.

use super::Happened;
use super::{Reaction, World};

impl World {
    /// A reaction; like `SqlReactionStore.Save` it sets the post's `has_reactions` and UpdateAt.
    pub fn react(&mut self, user_id: &str, post_id: &str, emoji: &str, at_ms: i64) {
        let Some(p) = self.post_mut(post_id) else {
            return;
        };
        p.has_reactions = true;
        p.update_at = p.update_at.max(at_ms);
        let channel_id = p.channel_id.clone();
        if self
            .reactions
            .iter()
            .any(|r| r.user_id == user_id && r.post_id == post_id && r.emoji_name == emoji)
        {
            return;
        }
        self.reactions.push(Reaction {
            user_id: user_id.to_string(),
            post_id: post_id.to_string(),
            channel_id,
            emoji_name: emoji.to_string(),
            create_at: at_ms,
        });
        self.happened(Happened::Reaction {
            added: true,
            user_id: user_id.to_string(),
            post_id: post_id.to_string(),
            emoji: emoji.to_string(),
            at: at_ms,
        });
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
        self.happened(Happened::Reaction {
            added: true,
            user_id: user_id.to_string(),
            post_id: post_id.to_string(),
            emoji: emoji.to_string(),
            at: create_at,
        });
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
        self.happened(Happened::Reaction {
            added: false,
            user_id: user_id.to_string(),
            post_id: post_id.to_string(),
            emoji: emoji.to_string(),
            at: now,
        });
    }
}
