//! Completion of the resource templates' arguments (`completion/complete`).
//!
//! The templates take ids, so the values completed are ids, matched by the name a person types:
//!
//! - `file_id`: the files whose name or content match what is typed, through the person's file
//!   search (the `search_files` tool, run as a call of it; the last word is matched as a prefix),
//!   newest first;
//! - `channel_id`: the person's own channels whose name, display name or label (`~town-square`,
//!   `@alice`) holds what is typed, those it starts first, archived ones last.
//!
//! What is typed is an id already: that id. Nothing typed: nothing (a file search needs words). At
//! most 100 values, with `total` and `has_more` when there are more. The prompts' arguments are
//! not completed (a post is named by an id from a tool's answer).

use super::{Runner, TEMPLATES, Template};
use crate::error::quote;
use crate::ids::is_id;
use crate::mattermost::facts::ChannelFacts;
use crate::mattermost::types;
use rmcp::ErrorData;
use rmcp::model::{CompleteRequestParams, CompleteResult, CompletionInfo, Reference};
use serde_json::{Value, json};
use std::collections::HashMap;

/// The most values one completion answers (the protocol's bound).
pub(crate) const MAX_VALUES: usize = CompletionInfo::MAX_VALUES;

/// The operations completing a channel may send: the person's channels, their user, usernames of
/// direct messages.
pub(crate) const CHANNEL_OPERATIONS: &[&str] = &["GetChannelsForUser", "GetUser", "GetUsersByIds"];

fn answer(values: Vec<String>, total: usize) -> Result<CompleteResult, ErrorData> {
    let shown: Vec<String> = values.into_iter().take(MAX_VALUES).collect();
    let more = total > shown.len();
    CompletionInfo::with_pagination(shown, Some(total as u32), more)
        .map(CompleteResult::new)
        .map_err(|e| ErrorData::internal_error(e, None))
}

/// The template a completion's reference names, and its argument checked.
fn template_of(request: &CompleteRequestParams) -> Result<Option<&'static Template>, ErrorData> {
    let uri = match &request.r#ref {
        Reference::Resource(r) => r.uri.as_str(),
        // A prompt's arguments, or a reference a later protocol adds: nothing to complete.
        _ => return Ok(None),
    };
    let Some(t) = TEMPLATES.iter().find(|t| t.uri_template == uri) else {
        return Err(ErrorData::invalid_params(
            format!(
                "{} is not a resource template of this server; they are {}.",
                quote(uri),
                TEMPLATES
                    .iter()
                    .map(|t| t.uri_template)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None,
        ));
    };
    if request.argument.name != t.argument {
        return Err(ErrorData::invalid_params(
            format!(
                "{} takes one argument, {}, not {}.",
                t.uri_template,
                t.argument,
                quote(&request.argument.name)
            ),
            None,
        ));
    }
    Ok(Some(t))
}

/// Completes a template's argument for the person `runner` runs as.
pub(crate) async fn complete<R: Runner + ?Sized>(
    runner: &R,
    request: &CompleteRequestParams,
) -> Result<CompleteResult, ErrorData> {
    let Some(t) = template_of(request)? else {
        return answer(Vec::new(), 0);
    };
    let typed = request.argument.value.trim();
    if typed.is_empty() && t.kind == "files" {
        return answer(Vec::new(), 0);
    }
    if is_id(typed) {
        return answer(vec![typed.to_string()], 1);
    }
    match t.kind {
        "files" => files(runner, typed).await,
        "channels" => channels(runner, typed).await,
        _ => answer(Vec::new(), 0),
    }
}

/// Search terms for what is typed: its words, the last one as a prefix.
pub(crate) fn prefix_terms(typed: &str) -> String {
    let words: Vec<&str> = typed
        .split_whitespace()
        .map(|w| w.trim_matches('"'))
        .filter(|w| !w.is_empty())
        .collect();
    match words.split_last() {
        None => String::new(),
        Some((last, rest)) => {
            let last = if last.ends_with('*') {
                last.to_string()
            } else {
                format!("{last}*")
            };
            rest.iter()
                .map(|w| w.to_string())
                .chain([last])
                .collect::<Vec<_>>()
                .join(" ")
        }
    }
}

async fn files<R: Runner + ?Sized>(runner: &R, typed: &str) -> Result<CompleteResult, ErrorData> {
    let mut args = serde_json::Map::new();
    args.insert("terms".into(), json!(prefix_terms(typed)));
    args.insert("limit".into(), json!(MAX_VALUES));
    let (found, _) = runner
        .run_tool("search_files", args)
        .await
        .map_err(|e| super::error(&e))?;
    let values: Vec<String> = found
        .get("items")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|f| f.get("id").and_then(Value::as_str))
        .map(str::to_string)
        .collect();
    let total = found
        .get("total")
        .and_then(Value::as_u64)
        .map_or(values.len(), |t| t as usize)
        .max(values.len());
    answer(values, total)
}

async fn channels<R: Runner + ?Sized>(
    runner: &R,
    typed: &str,
) -> Result<CompleteResult, ErrorData> {
    let cx = runner.cx();
    let scope = runner.scope("completion/complete", CHANNEL_OPERATIONS);
    let lookup = async {
        let mine = cx.my_channels().await?;
        let me = cx.my_id().await?;
        let others: Vec<String> = mine
            .iter()
            .filter_map(|c| c.other_person(&me))
            .filter(|o| *o != me)
            .map(str::to_string)
            .collect();
        let names = cx.usernames(others).await?;
        Ok::<_, crate::error::ToolError>(matching(&mine, typed, &me, &names))
    };
    let left = scope.remaining();
    let values = match tokio::time::timeout(left, scope.run(lookup)).await {
        Ok(found) => found.map_err(|e| super::error(&e))?,
        Err(_) => {
            return Err(ErrorData::internal_error(
                "Completing a channel ran out of the call's time budget; try again.",
                None,
            ));
        }
    };
    let total = values.len();
    answer(values, total)
}

/// The ids of the channels whose name, display name or label holds `typed` (any case): those it
/// starts first, then by label; archived channels last.
pub(crate) fn matching(
    channels: &[types::Channel],
    typed: &str,
    me: &str,
    usernames: &HashMap<String, String>,
) -> Vec<String> {
    let want = typed.trim().trim_start_matches(['~', '@']).to_lowercase();
    let mut found: Vec<(bool, bool, String, String)> = channels
        .iter()
        .filter_map(|c| {
            let label = crate::show::channel_label(c, me, usernames);
            let names = [
                c.name().to_lowercase(),
                c.display_name().to_lowercase(),
                label.trim_start_matches(['~', '@']).to_lowercase(),
            ];
            let starts = names.iter().any(|n| n.starts_with(&want));
            let holds = starts || names.iter().any(|n| n.contains(&want));
            holds.then(|| (c.archived(), !starts, label, c.id().to_string()))
        })
        .collect();
    found.sort();
    found.dedup_by(|a, b| a.3 == b.3);
    found.into_iter().map(|(_, _, _, id)| id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(id: &str, name: &str, display: &str, deleted: bool) -> types::Channel {
        types::Channel {
            id: Some(id.into()),
            name: Some(name.into()),
            display_name: Some(display.into()),
            type_: Some("O".into()),
            delete_at: Some(if deleted { 5 } else { 0 }),
            ..types::Channel::default()
        }
    }

    #[test]
    fn channels_that_start_with_what_is_typed_come_first_and_archived_ones_last() {
        let all = vec![
            channel("c1", "dev-town", "Dev town", false),
            channel("c2", "town-square", "Town Square", false),
            channel("c3", "town-hall", "Town Hall", true),
            channel("c4", "random", "Random", false),
        ];
        let names = HashMap::new();
        assert_eq!(matching(&all, "~Town", "me", &names), ["c2", "c1", "c3"]);
        assert!(matching(&all, "nothing", "me", &names).is_empty());
    }

    #[test]
    fn the_last_word_typed_is_a_prefix() {
        assert_eq!(prefix_terms("budget 20"), "budget 20*");
        assert_eq!(prefix_terms(" roadmap* "), "roadmap*");
        assert_eq!(prefix_terms("  "), "");
    }
}
