//! One person's context: the shared Mattermost connection, the person's token, and what is kept for
//! them alone — their own user, channels and teams (reused for a few seconds), the usernames their
//! pages showed, and the whole lists their cursor chains page through. Over stdio there is one; over
//! HTTP there is one per token, so nothing kept for one person ever reaches another. Every cache here
//! is bounded in entries, bytes and age.

use crate::config::Secret;
use crate::error::About;
use crate::error::{ErrorKind, ToolError};
use crate::mattermost::facts::UserFacts;
use crate::mattermost::{Mattermost, MmError, send, types};
use crate::show::Author;
use progenitor_client::ResponseValue;
use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most usernames kept for one person's pages.
pub(crate) const USERNAMES_KEPT: usize = 5_000;
/// How long the person's own channels and teams are reused for name lookups before they are read again.
pub(crate) const OWN_LISTS_FOR: Duration = Duration::from_secs(30);
/// How many whole lists one person's cursor chains keep.
pub const LISTS_KEPT: usize = 8;
/// The most bytes of kept lists one person holds.
pub(crate) const LIST_BYTES_KEPT: usize = 8 * 1024 * 1024;
/// How long a kept list serves its cursor chain.
pub(crate) const LIST_KEPT_FOR: Duration = Duration::from_secs(600);

type Timed<T> = Mutex<Option<(Instant, Arc<T>)>>;

/// A person a page showed: their username, and their facts when their user was read whole.
struct Known {
    username: String,
    author: Option<Author>,
}
/// Per-person values by name, each with when it was kept.
type Notes = HashMap<&'static str, (Instant, Arc<dyn Any + Send + Sync>)>;

fn fresh<T>(slot: &Timed<T>) -> Option<Arc<T>> {
    let guard = slot.lock().ok()?;
    guard
        .as_ref()
        .filter(|(at, _)| at.elapsed() < OWN_LISTS_FOR)
        .map(|(_, v)| v.clone())
}

fn keep<T>(slot: &Timed<T>, value: T) -> Arc<T> {
    let value = Arc::new(value);
    if let Ok(mut guard) = slot.lock() {
        *guard = Some((Instant::now(), value.clone()));
    }
    value
}

struct KeptList {
    key: String,
    at: Instant,
    bytes: usize,
    items: Arc<dyn Any + Send + Sync>,
}

/// Whole lists kept for their cursor chains (see `paging::pages_with_ties`), by the tool and the
/// fingerprint of the arguments that chose them.
#[derive(Default)]
pub(crate) struct KeptLists {
    kept: Mutex<Vec<KeptList>>,
}

impl KeptLists {
    /// The list kept under `key`, if it is still fresh and of this type.
    pub(crate) fn get<T: Any + Send + Sync>(&self, key: &str) -> Option<Arc<T>> {
        let mut kept = self.kept.lock().ok()?;
        kept.retain(|k| k.at.elapsed() < LIST_KEPT_FOR);
        let found = kept.iter().find(|k| k.key == key)?;
        found.items.clone().downcast::<T>().ok()
    }

    /// Keeps `items` (about `bytes` large) under `key`, dropping the oldest lists past the bounds. A
    /// list larger than the byte bound is not kept.
    pub(crate) fn put<T: Any + Send + Sync>(&self, key: String, items: Arc<T>, bytes: usize) {
        let Ok(mut kept) = self.kept.lock() else {
            return;
        };
        kept.retain(|k| k.key != key && k.at.elapsed() < LIST_KEPT_FOR);
        if bytes > LIST_BYTES_KEPT {
            return;
        }
        kept.push(KeptList {
            key,
            at: Instant::now(),
            bytes,
            items,
        });
        while kept.len() > LISTS_KEPT
            || kept.iter().map(|k| k.bytes).sum::<usize>() > LIST_BYTES_KEPT
        {
            kept.remove(0);
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.kept.lock().map(|k| k.len()).unwrap_or(0)
    }

    /// The bytes the kept lists hold.
    pub(crate) fn bytes(&self) -> usize {
        self.kept
            .lock()
            .map(|k| k.iter().map(|l| l.bytes).sum())
            .unwrap_or(0)
    }
}

/// One person's context.
pub(crate) struct Ctx {
    mm: Arc<Mattermost>,
    token: Secret,
    me: tokio::sync::OnceCell<types::User>,
    /// The person's user id when it is known without their whole user (from a token check another
    /// instance of a team's deployment made, see `serve::team_state`).
    my_id: std::sync::OnceLock<String>,
    /// The people pages showed: their usernames, and what Mattermost said of them (bot, guest, remote)
    /// when they were read whole.
    usernames: Mutex<HashMap<String, Known>>,
    my_channels: Timed<Vec<types::Channel>>,
    my_teams: Timed<Vec<types::Team>>,
    /// Whole lists kept for their cursor chains.
    pub(crate) lists: KeptLists,
    /// Per-person values a tool keeps between calls (mention keys, say), by name.
    notes: Mutex<Notes>,
}

impl Ctx {
    pub(crate) fn new(mm: Arc<Mattermost>, token: Secret) -> Ctx {
        Ctx {
            mm,
            token,
            me: tokio::sync::OnceCell::new(),
            my_id: std::sync::OnceLock::new(),
            usernames: Mutex::new(HashMap::new()),
            my_channels: Mutex::new(None),
            my_teams: Mutex::new(None),
            lists: KeptLists::default(),
            notes: Mutex::new(HashMap::new()),
        }
    }

    /// The person's token (for the call scope; never shown).
    pub(crate) fn token(&self) -> &Secret {
        &self.token
    }

    /// The generated client, to build a request with: `cx.call(cx.api().get_user().user_id("me").send(),
    /// "user", "me")` reads the answer as a tool error about the user `me`, and `cx.send(...)` as
    /// Mattermost's own error ([`MmError`]) for code that tells its failures apart. This is the one
    /// way tool code reaches Mattermost.
    pub(crate) fn api(&self) -> &crate::mattermost::Client {
        self.mm.api()
    }

    /// Awaits a generated request, reading its failure as Mattermost's error (the request's future
    /// boxed at once: [`send`]).
    pub(crate) fn send<T>(
        &self,
        request: impl Future<
            Output = Result<ResponseValue<T>, progenitor_client::Error<types::AppError>>,
        >,
    ) -> impl Future<Output = Result<ResponseValue<T>, MmError>> {
        send(request)
    }

    /// The Mattermost server's root, as configured.
    pub(crate) fn url(&self) -> &str {
        &self.mm.url
    }

    /// Sets the person's own user, when it is already known (read at start, or when their token was
    /// checked), so the first call does not read it again.
    pub(crate) fn know_me(&self, me: types::User) {
        let _ = self.me.set(me);
    }

    /// Sets the person's user id alone, when another instance confirmed their token: `my_id` then
    /// needs no request, and the whole user is read when something asks for it.
    pub(crate) fn know_my_id(&self, id: String) {
        let _ = self.my_id.set(id);
    }

    /// Whether the person's own user is already known.
    pub(crate) fn knows_me(&self) -> bool {
        self.me.initialized()
    }

    /// The person's own user (read once).
    pub(crate) async fn me(&self) -> Result<&types::User, ToolError> {
        self.me
            .get_or_try_init(|| async {
                self.call(self.mm.api().get_user().user_id("me").send(), "user", "me")
                    .await
            })
            .await
    }

    /// The person's own user id.
    pub(crate) async fn my_id(&self) -> Result<String, ToolError> {
        if let Some(id) = self.my_id.get() {
            return Ok(id.clone());
        }
        Ok(self.me().await?.id().to_string())
    }

    /// Awaits a generated request, reading its error as a tool error about `what` named `value` (the
    /// request's future boxed at once: [`send`]).
    pub(crate) fn call<T>(
        &self,
        request: impl Future<
            Output = Result<ResponseValue<T>, progenitor_client::Error<types::AppError>>,
        >,
        what: &str,
        value: &str,
    ) -> impl Future<Output = Result<T, ToolError>> {
        let sent = send(request);
        async move {
            sent.await
                .map(ResponseValue::into_inner)
                .map_err(|e| self.fail(e, what, value))
        }
    }

    /// The tool error for a failed request about `what` named `value`.
    pub(crate) fn fail(&self, e: MmError, what: &str, value: &str) -> ToolError {
        e.about(what, value, &self.mm.url)
    }

    /// The person's own channels in every team, direct and group messages and archived channels
    /// included (GetChannelsForUser, one request), reused for a few seconds.
    pub(crate) async fn my_channels(&self) -> Result<Arc<Vec<types::Channel>>, ToolError> {
        if let Some(v) = fresh(&self.my_channels) {
            return Ok(v);
        }
        let list = self.read_my_channels(Some(true)).await?;
        Ok(keep(&self.my_channels, list))
    }

    /// The person's own channels read afresh (GetChannelsForUser, one request; archived ones with
    /// `include_deleted`), not the list kept for name lookups.
    pub(crate) async fn read_my_channels(
        &self,
        include_deleted: Option<bool>,
    ) -> Result<Vec<types::Channel>, ToolError> {
        crate::mattermost::channels_for_user(self.mm.api(), include_deleted)
            .await
            .map_err(|e| self.fail(e, "channels of the user", "me"))
    }

    /// The person's teams (GetTeamsForUser, one request), reused for a few seconds.
    pub(crate) async fn my_teams(&self) -> Result<Arc<Vec<types::Team>>, ToolError> {
        if let Some(v) = fresh(&self.my_teams) {
            return Ok(v);
        }
        let list = self
            .call(
                self.mm.api().get_teams_for_user().user_id("me").send(),
                "teams of the user",
                "me",
            )
            .await?;
        Ok(keep(&self.my_teams, list))
    }

    /// About how many bytes this person's caches hold, so a server of many persons can bound them all
    /// together (an estimate: kept lists as they were measured, a fixed size per other entry).
    pub(crate) fn kept_bytes(&self) -> usize {
        const ENTRY: usize = 1024;
        let names = self
            .usernames
            .lock()
            .map(|m| m.iter().map(|(k, v)| k.len() + v.username.len() + 96).sum())
            .unwrap_or(0);
        let own = |n: Option<usize>| n.unwrap_or(0) * ENTRY;
        let channels = own(self
            .my_channels
            .lock()
            .ok()
            .and_then(|g| g.as_ref().map(|(_, v)| v.len())));
        let teams = own(self
            .my_teams
            .lock()
            .ok()
            .and_then(|g| g.as_ref().map(|(_, v)| v.len())));
        let notes = self.notes.lock().map(|n| n.len() * ENTRY).unwrap_or(0);
        names + channels + teams + notes + self.lists.bytes()
    }

    /// Forgets the person's own channels and teams, so the next lookup reads them again (a name that
    /// matched nothing in a reused list may be new). True when something was forgotten.
    pub(crate) fn forget_own_lists(&self) -> bool {
        let mut forgot = false;
        if let Ok(mut g) = self.my_channels.lock() {
            forgot |= g.take().is_some();
        }
        if let Ok(mut g) = self.my_teams.lock() {
            forgot |= g.take().is_some();
        }
        forgot
    }

    /// Usernames for user ids, from what is kept or with one GetUsersByIds request for those not kept.
    /// An id Mattermost does not know stays out of the map (the item then shows the id).
    pub(crate) async fn usernames(
        &self,
        ids: impl IntoIterator<Item = String>,
    ) -> Result<HashMap<String, String>, ToolError> {
        Ok(self
            .people(ids, false)
            .await?
            .into_iter()
            .map(|(id, a)| (id, a.username))
            .collect())
    }

    /// What Mattermost says of the authors with these ids (username, bot, guest, remote), from what is
    /// kept or with one GetUsersByIds request (the same call as [`Ctx::usernames`]) for those not read
    /// whole yet.
    pub(crate) async fn authors(
        &self,
        ids: impl IntoIterator<Item = String>,
    ) -> Result<HashMap<String, Author>, ToolError> {
        self.people(ids, true).await
    }

    async fn people(
        &self,
        ids: impl IntoIterator<Item = String>,
        whole: bool,
    ) -> Result<HashMap<String, Author>, ToolError> {
        let mut wanted: Vec<String> = ids.into_iter().filter(|id| !id.is_empty()).collect();
        wanted.sort();
        wanted.dedup();
        let mut found = HashMap::new();
        let missing: Vec<String> = {
            let kept = self.usernames.lock().map_err(|_| poisoned())?;
            wanted
                .into_iter()
                .filter(|id| match kept.get(id) {
                    Some(k) if !whole || k.author.is_some() => {
                        let author = k.author.clone().unwrap_or_else(|| Author {
                            username: k.username.clone(),
                            ..Author::default()
                        });
                        found.insert(id.clone(), author);
                        false
                    }
                    _ => true,
                })
                .collect()
        };
        if missing.is_empty() {
            return Ok(found);
        }
        let users: Vec<types::User> = self
            .call(
                self.mm
                    .api()
                    .get_users_by_ids()
                    .body(missing.clone())
                    .send(),
                "users",
                &missing.join(","),
            )
            .await?;
        let mut kept = self.usernames.lock().map_err(|_| poisoned())?;
        if kept.len() + users.len() > USERNAMES_KEPT {
            kept.clear();
        }
        for u in users {
            if !u.id().is_empty() && !u.username().is_empty() {
                let author = Author::of(&u);
                kept.insert(
                    u.id().to_string(),
                    Known {
                        username: author.username.clone(),
                        author: Some(author.clone()),
                    },
                );
                found.insert(u.id().to_string(), author);
            }
        }
        Ok(found)
    }

    /// Remembers usernames learnt from another answer (a user list, say).
    pub(crate) fn learn_username(&self, id: &str, username: &str) {
        if let Ok(mut kept) = self.usernames.lock()
            && kept.len() < USERNAMES_KEPT
            && !kept.contains_key(id)
        {
            kept.insert(
                id.to_string(),
                Known {
                    username: username.to_string(),
                    author: None,
                },
            );
        }
    }

    /// Remembers a user read whole from another answer: their username and what Mattermost says of
    /// them.
    pub(crate) fn learn_user(&self, u: &types::User) {
        if u.id().is_empty() || u.username().is_empty() {
            return;
        }
        if let Ok(mut kept) = self.usernames.lock()
            && kept.len() < USERNAMES_KEPT
        {
            let author = Author::of(u);
            kept.insert(
                u.id().to_string(),
                Known {
                    username: author.username.clone(),
                    author: Some(author),
                },
            );
        }
    }

    /// A value a tool keeps for this person under `name`, if it is younger than `age`.
    pub(crate) fn note<T: Any + Send + Sync>(
        &self,
        name: &'static str,
        age: Duration,
    ) -> Option<Arc<T>> {
        let notes = self.notes.lock().ok()?;
        let (at, v) = notes.get(name)?;
        if at.elapsed() >= age {
            return None;
        }
        v.clone().downcast::<T>().ok()
    }

    /// Keeps a value for this person under `name` (a handful of names at most: one per tool that keeps
    /// something).
    pub(crate) fn set_note<T: Any + Send + Sync>(&self, name: &'static str, value: T) -> Arc<T> {
        let value = Arc::new(value);
        if let Ok(mut notes) = self.notes.lock() {
            notes.insert(name, (Instant::now(), value.clone()));
        }
        value
    }

    /// Sends a request outside any tool, as this person (the check at start, say), declaring its one
    /// operation.
    pub(crate) async fn request_as_me<F: Future>(
        &self,
        operation: &'static str,
        budget: Duration,
        f: F,
    ) -> F::Output {
        let scope = Arc::new(crate::mattermost::call::CallScope::new(
            "start-up",
            self.token.clone(),
            [operation],
            budget,
        ));
        scope.run(f).await
    }
}

fn poisoned() -> ToolError {
    ToolError::new(
        ErrorKind::Internal,
        "a per-person cache was poisoned by an earlier panic",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_lists_are_bounded_and_typed() {
        let lists = KeptLists::default();
        for i in 0..(LISTS_KEPT + 3) {
            lists.put(format!("k{i}"), Arc::new(vec![i]), 10);
        }
        assert_eq!(lists.len(), LISTS_KEPT);
        assert!(
            lists.get::<Vec<usize>>("k0").is_none(),
            "the oldest went first"
        );
        assert_eq!(
            lists
                .get::<Vec<usize>>(&format!("k{}", LISTS_KEPT + 2))
                .map(|v| v[0]),
            Some(LISTS_KEPT + 2)
        );
        assert!(
            lists
                .get::<Vec<String>>(&format!("k{}", LISTS_KEPT + 2))
                .is_none(),
            "another type is not it"
        );
        lists.put("big".into(), Arc::new(vec![0u8]), LIST_BYTES_KEPT + 1);
        assert!(
            lists.get::<Vec<u8>>("big").is_none(),
            "a list over the byte bound is not kept"
        );
    }
}
