//! Preferences (`Preferences` rows, `SqlPreferenceStore.Save` / `Delete`), saved posts among them:
//! a `flagged_post` preference is kept as the world's list of saved posts.

use super::{Preference, World};

impl World {
    /// Save (flag) a post for a user: a `flagged_post` preference.
    pub fn save(&mut self, user_id: &str, post_id: &str) {
        if !self
            .flagged
            .iter()
            .any(|(u, p)| u == user_id && p == post_id)
        {
            self.flagged
                .push((user_id.to_string(), post_id.to_string()));
        }
    }

    /// Remove a saved post.
    pub fn unsave(&mut self, user_id: &str, post_id: &str) {
        self.flagged
            .retain(|(u, p)| !(u == user_id && p == post_id));
    }

    /// The value of a user's preference, if set (`flagged_post` ones are the saved posts).
    pub fn preference(&self, user_id: &str, category: &str, name: &str) -> Option<String> {
        if category == "flagged_post" {
            return self
                .flagged
                .iter()
                .any(|(u, p)| u == user_id && p == name)
                .then(|| "true".to_string());
        }
        self.writes
            .preferences
            .iter()
            .find(|p| p.user_id == user_id && p.category == category && p.name == name)
            .map(|p| p.value.clone())
    }

    /// A preference of a user (`Preferences` row), as `PUT /users/{user_id}/preferences` stores it.
    pub fn set_preference(&mut self, user_id: &str, category: &str, name: &str, value: &str) {
        self.writes
            .preferences
            .retain(|p| !(p.user_id == user_id && p.category == category && p.name == name));
        self.writes.preferences.push(super::Preference {
            user_id: user_id.to_string(),
            category: category.to_string(),
            name: name.to_string(),
            value: value.to_string(),
        });
    }

    /// `SqlPreferenceStore.Save`: an upsert per (user, category, name); `flagged_post` ones are the
    /// world's saved posts.
    pub(crate) fn save_preference(&mut self, p: Preference) {
        if p.category == "flagged_post" {
            self.save(&p.user_id, &p.name);
            return;
        }
        match self
            .writes
            .preferences
            .iter_mut()
            .find(|q| q.user_id == p.user_id && q.category == p.category && q.name == p.name)
        {
            Some(q) => q.value = p.value,
            None => self.writes.preferences.push(p),
        }
    }

    /// `SqlPreferenceStore.Delete(userID, category, name)`.
    pub(crate) fn delete_preference(&mut self, user_id: &str, category: &str, name: &str) {
        if category == "flagged_post" {
            self.unsave(user_id, name);
            return;
        }
        self.writes
            .preferences
            .retain(|q| !(q.user_id == user_id && q.category == category && q.name == name));
    }
}
