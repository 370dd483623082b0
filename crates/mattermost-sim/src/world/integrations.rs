//! Integrations the operation gateway reaches without a dedicated tool: incoming and outgoing webhooks
//! (`model.IncomingWebhook`, `model.OutgoingWebhook`), bots' owners (`model.Bot.OwnerId`), channel
//! bookmarks (`model.ChannelBookmark`) and whether the server is licensed (bookmarks answer 501
//! without a licence, `api4/channel_bookmark.go`).

use super::{Bookmark, IncomingHook, OutgoingHook, World};

// ----- seeding API -------------------------------------------------------------------------------

impl World {
    /// Install a licence: the licensed features (channel bookmarks) answer instead of 501.
    pub fn license(&mut self) {
        self.integrations.licensed = true;
    }

    /// A bot account owned by `owner` (`model.Bot.OwnerId`).
    pub fn bot_owned_by(&mut self, username: &str, owner_id: &str) -> String {
        let id = self.bot(username);
        self.integrations.bot_owners.retain(|(b, _)| *b != id);
        self.integrations
            .bot_owners
            .push((id.clone(), owner_id.to_string()));
        id
    }

    /// An incoming webhook posting to `channel_id`, made by `user_id`.
    pub fn incoming_webhook(&mut self, channel_id: &str, user_id: &str, name: &str) -> String {
        let id = self.new_id();
        let at = self.tick();
        let team_id = self
            .channel_by_id(channel_id)
            .map(|c| c.team_id.clone())
            .unwrap_or_default();
        self.integrations.incoming.push(IncomingHook {
            id: id.clone(),
            create_at: at,
            update_at: at,
            delete_at: 0,
            user_id: user_id.to_string(),
            channel_id: channel_id.to_string(),
            team_id,
            display_name: name.to_string(),
            description: String::new(),
            channel_locked: false,
        });
        id
    }

    /// An outgoing webhook of `channel_id`'s team, fired by `trigger` in that channel.
    pub fn outgoing_webhook(
        &mut self,
        channel_id: &str,
        creator_id: &str,
        name: &str,
        trigger: &str,
    ) -> String {
        let id = self.new_id();
        let at = self.tick();
        let team_id = self
            .channel_by_id(channel_id)
            .map(|c| c.team_id.clone())
            .unwrap_or_default();
        self.integrations.outgoing.push(OutgoingHook {
            id: id.clone(),
            create_at: at,
            update_at: at,
            delete_at: 0,
            creator_id: creator_id.to_string(),
            channel_id: channel_id.to_string(),
            team_id,
            display_name: name.to_string(),
            trigger_words: vec![trigger.to_string()],
            callback_urls: vec!["https://hooks.example.com/outgoing".to_string()],
        });
        id
    }

    /// A link bookmark in `channel_id`, last in the channel's order.
    pub fn bookmark(&mut self, channel_id: &str, owner_id: &str, name: &str, url: &str) -> String {
        let id = self.new_id();
        let at = self.tick();
        let sort_order = self
            .integrations
            .bookmarks
            .iter()
            .filter(|b| b.channel_id == channel_id && b.delete_at == 0)
            .count() as i64;
        self.integrations.bookmarks.push(Bookmark {
            id: id.clone(),
            create_at: at,
            update_at: at,
            delete_at: 0,
            channel_id: channel_id.to_string(),
            owner_id: owner_id.to_string(),
            display_name: name.to_string(),
            sort_order,
            link_url: url.to_string(),
        });
        id
    }

    /// The owner of a bot ("" when none was named).
    pub(crate) fn bot_owner(&self, bot_id: &str) -> String {
        self.integrations
            .bot_owners
            .iter()
            .find(|(b, _)| b == bot_id)
            .map(|(_, o)| o.clone())
            .unwrap_or_default()
    }
}
