//! The scope of one tool call, as the transport sees it: whose token the requests carry, which tool is
//! running, which Mattermost operations its declaration allows, how many requests it has made, its
//! deadline, whether the client cancelled it, and where its progress messages go.
//!
//! The scope travels as a tokio task-local, so the generated client's hooks read it without any
//! argument threading. A request outside any scope is refused: every request carries a person's token,
//! and the token only ever comes from a scope.

use crate::Secret;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

tokio::task_local! {
    static SCOPE: Arc<CallScope>;
}

/// An operation's name as both the spec (`GetPostsForChannel`) and the generated client's hooks
/// (`get_posts_for_channel`) spell it, folded to one form.
pub fn operation_key(name: &str) -> String {
    if name.is_ascii() {
        // Every operation id is ASCII: folded a byte at a time (each request a call sends is keyed,
        // for the null-array and server-version tables).
        let mut key = String::with_capacity(name.len());
        key.extend(
            name.bytes()
                .filter(|b| *b != b'_')
                .map(|b| char::from(b.to_ascii_lowercase())),
        );
        return key;
    }
    name.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `a` and `b` name the same operation, in either spelling: their [`operation_key`]s
/// compared, without making either (a scope checks every request it sends against each operation it
/// declares).
pub fn same_operation(a: &str, b: &str) -> bool {
    if !(a.is_ascii() && b.is_ascii()) {
        return operation_key(a) == operation_key(b);
    }
    let mut a = a.bytes().filter(|c| *c != b'_');
    let mut b = b.bytes().filter(|c| *c != b'_');
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x.eq_ignore_ascii_case(&y) => {}
            _ => return false,
        }
    }
}

/// Where a call's progress messages go (a client's progress notifications), when the client asked:
/// the step, the total when known, and what is happening.
pub type Progress = Box<dyn Fn(u32, Option<u32>, String) + Send + Sync>;

/// Whether the client has cancelled the call.
pub type Cancelled = Box<dyn Fn() -> bool + Send + Sync>;

/// One tool call's scope: made by the server for each call, made current with [`CallScope::run`],
/// and read by the transport's hooks on every request the call sends.
pub struct CallScope {
    /// The tool's name, which the transport's refusals name.
    pub(crate) tool: &'static str,
    /// The operations the scope may send (a tool's declaration, or the one operation the gateway was
    /// asked for), in the spelling they were given.
    declared: Vec<&'static str>,
    token: Secret,
    requests: AtomicU32,
    deadline: Instant,
    progress: Option<Progress>,
    cancelled: Option<Cancelled>,
    steps: AtomicU32,
    budget_bound: AtomicBool,
    /// Whether a write is refused until the person cleared it (a tool that asks first).
    guards_writes: bool,
    /// Whether the person cleared this call's writes (or the configuration clears them).
    writes_cleared: AtomicBool,
    /// The status and content type of the last answer Mattermost sent in this call.
    last_answer: std::sync::Mutex<Option<(u16, String)>>,
}

impl std::fmt::Debug for CallScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallScope")
            .field("tool", &self.tool)
            .field("requests", &self.requests())
            .finish()
    }
}

impl CallScope {
    /// A scope for `tool`, sending as the person whose token this is, only the `declared` operations.
    pub fn new(
        tool: &'static str,
        token: Secret,
        declared: impl IntoIterator<Item = &'static str>,
        budget: Duration,
    ) -> CallScope {
        CallScope {
            tool,
            declared: declared.into_iter().collect(),
            token,
            requests: AtomicU32::new(0),
            deadline: Instant::now() + budget,
            progress: None,
            cancelled: None,
            steps: AtomicU32::new(0),
            budget_bound: AtomicBool::new(false),
            guards_writes: false,
            writes_cleared: AtomicBool::new(false),
            last_answer: std::sync::Mutex::new(None),
        }
    }

    /// A scope that refuses to send a write until [`CallScope::clear_writes`] (the scope of a tool
    /// that asks the person before a write others will see). The server's confirmation clears it
    /// when it hands out its proof; a write sent before that is a bug, refused before it leaves.
    pub fn guarding_writes(mut self) -> CallScope {
        self.guards_writes = true;
        self
    }

    /// Lets this call's writes go out: the person confirmed them (or the configuration needs no
    /// confirmation).
    pub fn clear_writes(&self) {
        self.writes_cleared.store(true, Ordering::Relaxed);
    }

    /// Whether a write of this call would be refused for want of the person's confirmation.
    pub fn write_refused(&self) -> bool {
        self.guards_writes && !self.writes_cleared.load(Ordering::Relaxed)
    }

    /// Sends the call's progress messages to `progress` (`None` when the client asked for none).
    pub fn with_progress(mut self, progress: Option<Progress>) -> CallScope {
        self.progress = progress;
        self
    }

    /// Asks `cancelled` whether the client has cancelled the call ([`CallScope::is_cancelled`]);
    /// `None` when it cannot.
    pub fn with_cancellation(mut self, cancelled: Option<Cancelled>) -> CallScope {
        self.cancelled = cancelled;
        self
    }

    /// Tells the client what the call is doing, when it asked for progress.
    pub fn report(&self, message: String) {
        self.report_step(None, message);
    }

    /// Tells the client how far the call is (`total` when known), when it asked for progress.
    pub fn report_step(&self, total: Option<u32>, message: String) {
        if let Some(progress) = &self.progress {
            let step = self.steps.fetch_add(1, Ordering::Relaxed) + 1;
            progress(step, total, message);
        }
    }

    /// Whether the client asked for progress.
    pub fn wants_progress(&self) -> bool {
        self.progress.is_some()
    }

    /// Whether the client cancelled the call.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.as_ref().is_some_and(|c| c())
    }

    /// Runs `f` with this scope current.
    pub async fn run<F: Future>(self: &Arc<Self>, f: F) -> F::Output {
        SCOPE.scope(self.clone(), f).await
    }

    /// Whether the scope may send `operation`, in either spelling ([`same_operation`]).
    pub(crate) fn declares(&self, operation: &str) -> bool {
        self.declared.iter().any(|d| same_operation(d, operation))
    }

    /// The token the scope's requests carry.
    pub fn token(&self) -> &Secret {
        &self.token
    }

    /// Counts one more request sent in this call (the transport counts each attempt, retries
    /// included); returns the new count.
    pub fn count_request(&self) -> u32 {
        self.requests.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// How many requests the call has sent so far, retries included.
    pub fn requests(&self) -> u32 {
        self.requests.load(Ordering::Relaxed)
    }

    /// Marks that a request's timeout was cut to what is left of the budget, so that its timing out is
    /// the budget's doing.
    pub fn bound_by_budget(&self) {
        self.budget_bound.store(true, Ordering::Relaxed);
    }

    /// Whether a request's timeout was cut to what was left of the budget.
    pub fn was_bound_by_budget(&self) -> bool {
        self.budget_bound.load(Ordering::Relaxed)
    }

    /// Notes the status and content type of an answer, so that an answer the client cannot read is
    /// described as it was received.
    pub fn saw_answer(&self, status: u16, content_type: &str) {
        if let Ok(mut last) = self.last_answer.lock() {
            *last = Some((status, content_type.to_string()));
        }
    }

    /// The status and content type of the last answer of this call.
    pub fn last_answer(&self) -> Option<(u16, String)> {
        self.last_answer.lock().ok().and_then(|l| l.clone())
    }

    /// Time left before the call's budget runs out.
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}

/// The scope of the call running on this task, if any.
pub fn current() -> Option<Arc<CallScope>> {
    SCOPE.try_with(Arc::clone).ok()
}

/// Tells the client of the running call what it is doing, when it asked for progress (the message is
/// made only then): code that reads many pages or many channels says so after each.
pub fn step(message: impl FnOnce() -> String) {
    if let Some(scope) = current()
        && scope.wants_progress()
    {
        scope.report(message());
    }
}

#[cfg(test)]
mod tests {
    use super::{operation_key, same_operation};

    #[test]
    fn both_spellings_of_an_operation_fold_to_one_key() {
        assert_eq!(operation_key("GetPostsForChannel"), "getpostsforchannel");
        assert_eq!(
            operation_key("get_posts_for_channel"),
            operation_key("GetPostsForChannel")
        );
        assert_eq!(operation_key("ÉtatDu_Canal"), "étatducanal");
    }

    #[test]
    fn two_names_are_the_same_operation_exactly_when_their_keys_are() {
        let names = [
            "GetPostsForChannel",
            "get_posts_for_channel",
            "getpostsforchannel",
            "GetPosts",
            "GetPostsForChannels",
            "get_posts_for_channel_",
            "GetPostsAroundLastUnread",
            "",
            "_",
            "ÉtatDu_Canal",
            "état_du_canal",
            "EtatDuCanal",
        ];
        for a in names {
            for b in names {
                assert_eq!(
                    same_operation(a, b),
                    operation_key(a) == operation_key(b),
                    "{a:?} and {b:?}"
                );
            }
        }
        assert!(same_operation(
            "get_posts_for_channel",
            "GetPostsForChannel"
        ));
        assert!(!same_operation("GetPosts", "GetPostsForChannel"));
    }
}
