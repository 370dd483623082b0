//! The scope of one tool call, as the transport sees it: which tool is running, which Mattermost
//! operations its table row declares, how many requests it has made, and its deadline.
//!
//! The scope travels as a tokio task-local, so the generated client's hooks can read it without any
//! argument threading; a request outside any scope (start-up checks) is simply not counted.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

tokio::task_local! {
    static SCOPE: Arc<CallScope>;
}

/// An operation's name as both the spec (`GetPostsForChannel`) and the generated client's hooks
/// (`get_posts_for_channel`) spell it, folded to one form.
pub fn operation_key(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Where a call's progress messages go (a client's progress notifications), when the client asked.
pub type Progress = Box<dyn Fn(u32, String) + Send + Sync>;

pub struct CallScope {
    pub tool: &'static str,
    declared: BTreeSet<String>,
    requests: AtomicU32,
    deadline: Instant,
    progress: Option<Progress>,
    steps: AtomicU32,
    budget_bound: std::sync::atomic::AtomicBool,
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
    pub fn new(
        tool: &'static str,
        declared: impl IntoIterator<Item = &'static str>,
        budget: Duration,
        progress: Option<Progress>,
    ) -> Arc<Self> {
        Arc::new(CallScope {
            tool,
            declared: declared.into_iter().map(operation_key).collect(),
            requests: AtomicU32::new(0),
            deadline: Instant::now() + budget,
            progress,
            steps: AtomicU32::new(0),
            budget_bound: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Tells the client what the call is waiting for, when it asked for progress.
    pub fn report(&self, message: String) {
        if let Some(progress) = &self.progress {
            let step = self.steps.fetch_add(1, Ordering::Relaxed) + 1;
            progress(step, message);
        }
    }

    /// Runs `f` with this scope current.
    pub async fn run<F: Future>(self: &Arc<Self>, f: F) -> F::Output {
        SCOPE.scope(self.clone(), f).await
    }

    pub fn declares(&self, operation: &str) -> bool {
        self.declared.contains(&operation_key(operation))
    }

    pub fn count_request(&self) -> u32 {
        self.requests.fetch_add(1, Ordering::Relaxed) + 1
    }

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

    /// Time left before the call's budget runs out.
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}

/// The scope of the call running on this task, if any.
pub fn current() -> Option<Arc<CallScope>> {
    SCOPE.try_with(Arc::clone).ok()
}
