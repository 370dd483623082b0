//! Content a tool's answer carries beside its JSON: an image `read_file` read, given as an MCP image
//! block. A call's code adds it while it runs ([`add`]); the server collects it around the call
//! ([`collect`]) and puts it after the answer's text copy, so the structured answer and its text copy
//! stay small and equal.

use rmcp::model::ContentBlock;
use std::future::Future;
use std::sync::{Arc, Mutex};

tokio::task_local! {
    static EXTRA: Arc<Mutex<Vec<ContentBlock>>>;
}

/// Adds a content block to the running call's answer; outside a collecting call it is dropped.
pub(crate) fn add(block: ContentBlock) {
    let _ = EXTRA.try_with(|extra| {
        if let Ok(mut blocks) = extra.lock() {
            blocks.push(block);
        }
    });
}

/// Runs `f`, collecting the content blocks its code adds.
pub(crate) async fn collect<F: Future>(f: F) -> (F::Output, Vec<ContentBlock>) {
    let extra = Arc::new(Mutex::new(Vec::new()));
    let out = EXTRA.scope(extra.clone(), f).await;
    let blocks = extra
        .lock()
        .map(|mut b| std::mem::take(&mut *b))
        .unwrap_or_default();
    (out, blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn blocks_added_inside_a_call_are_collected_and_others_dropped() {
        add(ContentBlock::text("outside"));
        let (n, blocks) = collect(async {
            add(ContentBlock::text("inside"));
            7
        })
        .await;
        assert_eq!(n, 7);
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].as_text().map(|t| t.text.as_str()), Some("inside"));
    }
}
