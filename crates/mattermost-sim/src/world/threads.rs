//! Threads: their data derived from the posts (the real server's Threads table) and who follows
//! them (`ThreadMemberships`): following, reading and mentions as the seeding API sets them, and as
//! the thread and channel routes do (`SqlThreadStore.MaintainMembership`, `MarkAllAsReadByChannels`,
//! `DeleteMembershipsForChannel`, `App.UpdateThreadFollowForUserFromChannelAdd`).

use std::collections::{HashMap, HashSet};

use super::{Post, ThreadInfo, ThreadMembership, World};

impl World {
    /// Thread data of a root post, or None if it never had a reply (no Threads row).
    pub(crate) fn thread_info(&self, root_id: &str) -> Option<ThreadInfo> {
        let root = self.post_by_id(root_id)?;
        if root.delete_at != 0
            && let Some(snapshot) = self.thread_snapshots.get(root_id)
        {
            return Some(snapshot.clone());
        }
        let mut replies: Vec<&Post> = self
            .posts
            .iter()
            .filter(|p| p.root_id == root_id && p.original_id.is_empty())
            .collect();
        if replies.is_empty() {
            return None;
        }
        replies.sort_by_key(|p| p.create_at);
        let live: Vec<&&Post> = replies.iter().filter(|p| p.delete_at == 0).collect();
        // updateThreadAfterReplyDeletion: COALESCE(MAX(live CreateAt), 0)
        let last_reply_at = live.last().map(|p| p.create_at).unwrap_or(0);
        let mut participants: Vec<String> = Vec::new();
        for p in &live {
            participants.retain(|u| *u != p.user_id);
            participants.push(p.user_id.clone());
        }
        Some(ThreadInfo {
            reply_count: live.len() as i64,
            last_reply_at,
            participants,
            delete_at: root.delete_at,
        })
    }

    pub(crate) fn thread_membership(
        &self,
        user_id: &str,
        root_id: &str,
    ) -> Option<&ThreadMembership> {
        self.thread_memberships
            .iter()
            .find(|m| m.user_id == user_id && m.post_id == root_id)
    }

    pub(super) fn membership_mut(&mut self, user_id: &str, root_id: &str) -> &mut ThreadMembership {
        let pos = self
            .thread_memberships
            .iter()
            .position(|m| m.user_id == user_id && m.post_id == root_id);
        let i = match pos {
            Some(i) => i,
            None => {
                self.thread_memberships.push(ThreadMembership {
                    user_id: user_id.to_string(),
                    post_id: root_id.to_string(),
                    following: false,
                    last_viewed: 0,
                    last_updated: 0,
                    unread_mentions: 0,
                });
                self.thread_memberships.len() - 1
            }
        };
        &mut self.thread_memberships[i]
    }

    /// Follow a thread (a new membership has never been viewed, so its replies are unread).
    pub fn follow(&mut self, user_id: &str, root_id: &str) {
        let at = self.post_by_id(root_id).map(|p| p.update_at).unwrap_or(0);
        let m = self.membership_mut(user_id, root_id);
        m.following = true;
        m.last_updated = m.last_updated.max(at);
    }

    /// Stop following a thread.
    pub fn unfollow(&mut self, user_id: &str, root_id: &str) {
        let m = self.membership_mut(user_id, root_id);
        m.following = false;
    }

    /// Mark a followed thread read up to `at_ms`.
    pub fn view_thread(&mut self, user_id: &str, root_id: &str, at_ms: i64) {
        let m = self.membership_mut(user_id, root_id);
        m.last_viewed = at_ms;
        m.last_updated = m.last_updated.max(at_ms);
        m.unread_mentions = 0;
    }

    /// Marks read every thread of a channel the user has a membership of, as viewing a channel does for
    /// a client without collapsed reply threads (`app/channel.go` `MarkChannelsAsViewed`: updateThreads
    /// when ThreadAutoFollow and not collapsed_threads_supported).
    pub fn view_threads_of_channel(&mut self, user_id: &str, channel_id: &str, at_ms: i64) {
        let roots: std::collections::HashSet<String> = self
            .posts
            .iter()
            .filter(|p| p.channel_id == channel_id && p.root_id.is_empty())
            .map(|p| p.id.clone())
            .collect();
        for m in self
            .thread_memberships
            .iter_mut()
            .filter(|m| m.user_id == user_id && roots.contains(&m.post_id))
        {
            m.last_viewed = at_ms;
            m.last_updated = m.last_updated.max(at_ms);
            m.unread_mentions = 0;
        }
    }

    /// Count unread mentions on a followed thread (shown as `unread_mentions`).
    pub fn mention_in_thread(&mut self, user_id: &str, root_id: &str) {
        let m = self.membership_mut(user_id, root_id);
        m.unread_mentions += 1;
    }
}

// ----- what the thread routes and the channel routes do ------------------------------------------

impl World {
    /// `SqlThreadStore.MaintainMembership`: follow or unfollow; `view` also marks it read now
    /// (`UpdateViewedTimestamp`). Nothing changes when the state is already right and `view` is
    /// false.
    pub(crate) fn maintain_thread_membership(
        &mut self,
        user_id: &str,
        root_id: &str,
        following: bool,
        view: bool,
        now: i64,
    ) {
        let exists = self.thread_membership(user_id, root_id).is_some();
        let m = self.membership_mut(user_id, root_id);
        if exists {
            let changes = m.following != following;
            if changes || view {
                m.following = following;
                if view {
                    m.last_viewed = now;
                    m.unread_mentions = 0;
                }
                m.last_updated = now;
            }
        } else {
            m.following = following;
            m.last_updated = now;
            if view {
                m.last_viewed = now;
            }
        }
    }

    /// `App.UpdateThreadFollowForUserFromChannelAdd`: the added user follows the thread, which
    /// counts as read up to just before its root (`LastViewed = root.CreateAt - 1`).
    pub(crate) fn follow_from_channel_add(&mut self, user_id: &str, root_id: &str, now: i64) {
        self.maintain_thread_membership(user_id, root_id, true, false, now);
        let root_at = self.post_by_id(root_id).map(|p| p.create_at).unwrap_or(0);
        let m = self.membership_mut(user_id, root_id);
        m.last_viewed = root_at - 1;
    }

    /// `SqlThreadStore.MarkAllAsReadByChannels`: the user's thread memberships in those channels
    /// whose thread has a reply after LastViewed become read at `now`.
    pub(crate) fn mark_threads_read_by_channels(
        &mut self,
        user_id: &str,
        channel_ids: &[String],
        now: i64,
    ) {
        let roots: HashMap<String, i64> = self
            .posts
            .iter()
            .filter(|p| channel_ids.contains(&p.channel_id) && p.root_id.is_empty())
            .filter_map(|p| {
                self.thread_info(&p.id)
                    .map(|i| (p.id.clone(), i.last_reply_at))
            })
            .collect();
        for m in self
            .thread_memberships
            .iter_mut()
            .filter(|m| m.user_id == user_id)
        {
            if let Some(&last_reply_at) = roots.get(&m.post_id)
                && last_reply_at > m.last_viewed
            {
                m.last_viewed = now;
                m.unread_mentions = 0;
                m.last_updated = now;
            }
        }
    }

    /// `SqlThreadStore.DeleteMembershipsForChannel`: the user's memberships of threads (roots that
    /// have a Threads row, i.e. ever had a reply) in the channel.
    pub(crate) fn delete_thread_memberships_for_channel(
        &mut self,
        user_id: &str,
        channel_id: &str,
    ) {
        let threads: HashSet<String> = self
            .posts
            .iter()
            .filter(|p| {
                p.channel_id == channel_id && p.root_id.is_empty() && p.original_id.is_empty()
            })
            .filter(|p| self.thread_info(&p.id).is_some())
            .map(|p| p.id.clone())
            .collect();
        self.thread_memberships
            .retain(|m| !(m.user_id == user_id && threads.contains(&m.post_id)));
    }
}
