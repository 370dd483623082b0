//! What a member has read of a channel (`ChannelMembers.LastViewedAt`, `MsgCount`, `MentionCount`):
//! a view as the seeding API sets it, the poster's own view after a post (`CreatePostAsUser`), and
//! the view route's `MarkChannelsAsViewed`.

use super::Happened;
use super::World;

impl World {
    /// Mark a channel viewed by a user at `at_ms`: LastViewedAt is set to it, MsgCount covers the
    /// posts created up to then and the mentions left are those of later posts (so a world seeded
    /// out of time order still agrees with its posts).
    pub fn view(&mut self, user_id: &str, channel_id: &str, at_ms: i64) {
        if self.member(channel_id, user_id).is_none() {
            return;
        }
        let (all, roots) = self.counted_upto(channel_id, at_ms);
        let (mentions, root_mentions) = self.mentions_after(channel_id, user_id, at_ms);
        if let Some(m) = self.member_mut(channel_id, user_id) {
            m.last_viewed_at = at_ms;
            m.last_update_at = at_ms;
            m.msg_count = all;
            m.msg_count_root = roots;
            m.mention_count = mentions;
            m.mention_count_root = root_mentions;
        }
        self.happened(Happened::Viewed {
            user_id: user_id.to_string(),
            times: vec![(channel_id.to_string(), at_ms)],
        });
    }

    /// The channel's counted posts created at or before `t`: (all, roots).
    fn counted_upto(&self, channel_id: &str, t: i64) -> (i64, i64) {
        let mut all = 0;
        let mut roots = 0;
        for p in self.posts.iter().filter(|p| p.channel_id == channel_id) {
            if p.create_at <= t && Self::counts_as_message(p) {
                all += 1;
                if p.root_id.is_empty() {
                    roots += 1;
                }
            }
        }
        (all, roots)
    }

    /// Mentions of a user in the channel's posts created after `t`: (all, roots).
    fn mentions_after(&self, channel_id: &str, user_id: &str, t: i64) -> (i64, i64) {
        let mut all = 0;
        let mut roots = 0;
        for p in self.posts.iter().filter(|p| p.channel_id == channel_id) {
            if p.create_at > t
                && p.original_id.is_empty()
                && p.mentions.iter().any(|m| m == user_id)
            {
                all += 1;
                if p.root_id.is_empty() {
                    roots += 1;
                }
            }
        }
        (all, roots)
    }
}

// ----- marking read as the server does -----------------------------------------------------------

impl World {
    /// `CreatePostAsUser` after the post is saved: MarkChannelsAsViewed for the poster, except for
    /// a bot's post (`from_bot`) and a reply when collapsed threads are on for them.
    pub(super) fn poster_views_channel(
        &mut self,
        channel_id: &str,
        user_id: &str,
        is_reply: bool,
        at: i64,
    ) {
        let from_bot = self.user_by_id(user_id).is_some_and(|u| u.is_bot);
        let crt = self.is_crt_enabled_for(user_id);
        if from_bot || (is_reply && crt) {
            return;
        }
        let unread = match (
            self.member(channel_id, user_id),
            self.channel_by_id(channel_id),
        ) {
            (Some(m), Some(c)) => c.total_msg_count - m.msg_count > 0 || m.mention_count > 0,
            _ => false,
        };
        if !unread {
            return;
        }
        // collapsed_threads_supported is true here, so threads are marked read only without CRT
        if self.settings.thread_auto_follow && !crt {
            self.mark_threads_read_by_channels(user_id, &[channel_id.to_string()], at);
        }
        self.mark_viewed_as_of(user_id, channel_id, at);
    }

    /// `UpdateLastViewedAt` as of time `t` for one member: LastViewedAt = greatest(LastViewedAt,
    /// t), MsgCount covers every post up to then, the mentions left are those of later posts (none
    /// when the world is seeded in time order, as the real server's clock is).
    fn mark_viewed_as_of(&mut self, user_id: &str, channel_id: &str, t: i64) {
        let Some(lv) = self.member(channel_id, user_id).map(|m| m.last_viewed_at) else {
            return;
        };
        let lv = lv.max(t);
        let latest = self
            .channel_by_id(channel_id)
            .filter(|c| lv >= c.last_post_at)
            .map(|c| (c.total_msg_count, c.total_msg_count_root));
        // seeded in time order, the view covers every post: no scan needed
        let ((all, roots), (mentions, root_mentions)) = match latest {
            Some(totals) => (totals, (0, 0)),
            None => (
                self.counted_upto(channel_id, lv),
                self.mentions_after(channel_id, user_id, lv),
            ),
        };
        if let Some(m) = self.member_mut(channel_id, user_id) {
            m.last_viewed_at = lv;
            m.last_update_at = lv;
            m.msg_count = m.msg_count.max(all);
            m.msg_count_root = m.msg_count_root.max(roots);
            m.mention_count = mentions;
            m.mention_count_root = root_mentions;
        }
    }

    /// `app/channel.go` MarkChannelsAsViewed for the view route: the read time of each channel the
    /// user is a member of (`max(LastPostAt, LastViewedAt)`); when none has unread posts or
    /// mentions nothing changes, otherwise their threads (when `update_threads`) and the members
    /// are marked read (`UpdateLastViewedAt` uses `greatest`, so nothing moves back).
    pub(crate) fn mark_channels_as_viewed(
        &mut self,
        user_id: &str,
        channel_ids: &[String],
        update_threads: bool,
        now: i64,
    ) -> Vec<(String, i64)> {
        let mut times = Vec::new();
        let mut to_view = Vec::new();
        for cid in channel_ids {
            let (Some(c), Some(m)) = (self.channel_by_id(cid), self.member(cid, user_id)) else {
                continue;
            };
            if c.total_msg_count - m.msg_count > 0 || m.mention_count > 0 {
                to_view.push(cid.clone());
            }
            if !times.iter().any(|(id, _): &(String, i64)| id == cid) {
                times.push((cid.clone(), c.last_post_at.max(m.last_viewed_at)));
            }
        }
        if to_view.is_empty() {
            return times;
        }
        if update_threads {
            self.mark_threads_read_by_channels(user_id, &to_view, now);
        }
        for cid in &to_view {
            let Some(c) = self.channel_by_id(cid).cloned() else {
                continue;
            };
            if let Some(m) = self.member_mut(cid, user_id) {
                m.mention_count = 0;
                m.mention_count_root = 0;
                m.msg_count = m.msg_count.max(c.total_msg_count);
                m.msg_count_root = m.msg_count_root.max(c.total_msg_count_root);
                m.last_viewed_at = m.last_viewed_at.max(c.last_post_at);
                m.last_update_at = m.last_viewed_at;
            }
        }
        self.happened(Happened::Viewed {
            user_id: user_id.to_string(),
            times: times.clone(),
        });
        times
    }
}
