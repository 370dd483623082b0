//! The pending-post-id cache (`Server.seenPendingPostIdsCache`, `app/post.go`): a create sent again
//! with the same pending post id gets the post the first one made instead of a second post.

use super::{PENDING_POST_IDS_CACHE_SIZE, PendingEntry, World};

impl World {
    /// `seenPendingPostIdsCache.Get`: the post id stored for a pending post id ("" while the
    /// first request saves), or None when it is unknown or expired.
    pub(crate) fn pending_get(&mut self, pending_id: &str, now: i64) -> Option<String> {
        self.writes.pending_uses += 1;
        let uses = self.writes.pending_uses;
        match self.writes.pending.get_mut(pending_id) {
            Some(e) if e.expires_at > now => {
                e.last_used = uses;
                Some(e.post_id.clone())
            }
            Some(_) => {
                self.writes.pending.remove(pending_id);
                None
            }
            None => None,
        }
    }

    /// `seenPendingPostIdsCache.SetWithExpiry(pendingId, postId, pendingPostIDsCacheTTL)`; the
    /// least recently used entry goes when the cache is full.
    pub(crate) fn pending_set(&mut self, pending_id: &str, post_id: &str, now: i64) {
        self.writes.pending_uses += 1;
        let entry = PendingEntry {
            post_id: post_id.to_string(),
            expires_at: now.saturating_add(self.writes.pending_ttl_ms),
            last_used: self.writes.pending_uses,
        };
        self.writes.pending.insert(pending_id.to_string(), entry);
        if self.writes.pending.len() > PENDING_POST_IDS_CACHE_SIZE
            && let Some(oldest) = self
                .writes
                .pending
                .iter()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(k, _)| k.clone())
        {
            self.writes.pending.remove(&oldest);
        }
    }

    /// `seenPendingPostIdsCache.Remove` (a create that failed after registering its id).
    pub(crate) fn pending_remove(&mut self, pending_id: &str) {
        self.writes.pending.remove(pending_id);
    }
}
