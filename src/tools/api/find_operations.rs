//! `find_operations`: searches the catalog of every Mattermost operation by the words of its id, path
//! and tags, best matches first, and says for each how it is called and which offered tool already
//! covers it. The catalog is compiled in, so a page costs no Mattermost request; pages continue after
//! the last match's rank and id (`paging::whole_list`).

use crate::args::{Arg, Kind, Limit};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::operations::{self, Entry};
use crate::paging::whole_list::{self, After, Keyed, Order, SortKey};
use crate::paging::{Page, Strategy};
use crate::tool::call::Covering;
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) const TOOL: Tool = Tool {
    name: "find_operations",
    title: "Find Mattermost API operations",
    description: "Searches every Mattermost REST operation by words of its id, path or tag (\"incoming webhooks\", \
                  \"bots\", \"sidebar categories\"), best first. When covered_by names a tool, use that tool \
                  instead; otherwise describe_operation, then call_operation.",
    toolset: Toolset::Api,
    args: &[Arg {
        name: "query",
        kind: Kind::Text { max: 200 },
        required: true,
        about: "Words to look for.",
        shapes: Some("matches words of the operation's id, path and tags"),
    }],
    answer: Answer::List {
        strategy: Strategy::WholeList,
        limit: Limit::new(20, 100),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[],
    code: crate::list!(run => FoundOperation),
};

#[derive(Deserialize)]
struct Args {
    query: String,
}

/// One operation found.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct FoundOperation {
    pub(crate) operation: String,
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) tag: String,
    /// `read`, `write`, or `outside` (a write that makes Mattermost reach an address given in the call).
    pub(crate) access: String,
    /// How Mattermost pages it (`none`, `page_per_page`, `whole_list`, ...).
    pub(crate) paging: String,
    /// It needs a system administrator.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) admin_only: bool,
    /// Tools of this server that already do it: prefer them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) covered_by: Vec<String>,
    /// Why call_operation cannot send it (a multipart upload).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) not_callable: Option<String>,
}

/// The words of a name: split at anything not a letter or digit and where a lowercase letter or digit
/// meets an uppercase one (`GetOAuthApps` → get, o, auth, apps), lowercased.
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let chars: Vec<char> = part.chars().collect();
        let mut word = String::new();
        for (i, c) in chars.iter().enumerate() {
            let boundary = c.is_ascii_uppercase()
                && i > 0
                && (chars[i - 1].is_ascii_lowercase()
                    || chars[i - 1].is_ascii_digit()
                    || (chars[i - 1].is_ascii_uppercase()
                        && chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase())));
            if boundary && !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            word.push(c.to_ascii_lowercase());
        }
        if !word.is_empty() {
            out.push(word);
        }
    }
    out
}

/// A word without a plural ending, to match `webhook` with `webhooks` and `category` with `categories`.
fn stem(word: &str) -> &str {
    for suffix in ["ies", "es", "s"] {
        if let Some(s) = word.strip_suffix(suffix)
            && s.len() >= 3
        {
            return s;
        }
    }
    word
}

/// The words an operation is found by: its id's, its path's (without `api`, `v4` and the template
/// variables' braces) and its tags'.
fn searchable(e: &Entry) -> (Vec<String>, Vec<String>) {
    let id = words(&e.id);
    let mut other: Vec<String> = e
        .path
        .split('/')
        .filter(|s| !matches!(*s, "" | "api" | "v4"))
        .flat_map(words)
        .collect();
    other.extend(e.tags.iter().flat_map(|t| words(t)));
    (id, other)
}

/// A query as the ranking reads it: its words, and the operation it spells whole, if any.
pub(crate) struct Query {
    words: Vec<String>,
    spelled: Option<&'static str>,
}

impl Query {
    pub(crate) fn new(text: &str) -> Query {
        Query {
            words: words(text),
            spelled: operations::catalog()
                .resolve(text.trim())
                .map(|e| e.id.as_str()),
        }
    }
}

/// How well an operation matches the query's words: how many of them it has, then how many exactly
/// anywhere, then exactly in its id, then by stem; the query spelling the id wins outright. Zero: no
/// word matches.
pub(crate) fn rank(e: &Entry, query: &Query) -> i64 {
    let wanted = &query.words;
    if wanted.is_empty() {
        return 0;
    }
    let (id, other) = searchable(e);
    let (mut matched, mut in_id, mut exact, mut stemmed) = (0i64, 0i64, 0i64, 0i64);
    for w in wanted {
        let exact_id = id.contains(w);
        let exact_other = other.contains(w);
        let by_stem = id.iter().chain(other.iter()).any(|x| stem(x) == stem(w));
        if exact_id || exact_other || by_stem {
            matched += 1;
        }
        in_id += i64::from(exact_id);
        exact += i64::from(exact_id || exact_other);
        stemmed += i64::from(by_stem);
    }
    if matched == 0 {
        return 0;
    }
    let whole = i64::from(query.spelled == Some(e.id.as_str()));
    whole * 1_000_000_000 + matched * 1_000_000 + exact * 10_000 + in_id * 100 + stemmed
}

/// An operation as `find_operations` lists it.
pub(crate) fn found(e: &Entry, covering: &Covering) -> FoundOperation {
    FoundOperation {
        operation: e.id.clone(),
        method: e.method.clone(),
        path: e.path.clone(),
        tag: e.tags.first().cloned().unwrap_or_default(),
        access: super::access_word(e).into(),
        paging: e.paging.kind.as_str().into(),
        admin_only: super::admin_only(e),
        covered_by: covering.of(&e.id).into_iter().map(str::to_string).collect(),
        not_callable: e.not_callable.clone(),
    }
}

async fn run(_cx: &Ctx, input: Input<Args>) -> Result<Page<FoundOperation>, ToolError> {
    let after = input.position::<After>()?;
    let covering = input.call.covering.clone();
    let query = Query::new(&input.args.query);
    let matches: Vec<Keyed<FoundOperation>> = operations::catalog()
        .operations
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let r = rank(e, &query);
            (r > 0).then(|| Keyed::new(SortKey::Int(-r), format!("{i:04}"), found(e, &covering)))
        })
        .collect();
    let sorted = whole_list::sort(matches, Order::Ascending);
    let (items, next) = whole_list::page(
        &sorted,
        Order::Ascending,
        after.as_ref(),
        input.limit as usize,
    );
    Ok(Page::new(items)
        .continue_at(next)
        .with_total(sorted.len() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_words_at_case_and_punctuation() {
        assert_eq!(words("GetOAuthApps"), ["get", "o", "auth", "apps"]);
        assert_eq!(
            words("/api/v4/hooks/incoming/{hook_id}"),
            ["api", "v4", "hooks", "incoming", "hook", "id"]
        );
        assert_eq!(words("channel bookmarks"), ["channel", "bookmarks"]);
    }

    #[test]
    fn exact_words_rank_before_stems_and_the_whole_id_first() {
        let c = operations::catalog();
        let of = |id: &str| c.get(id).expect("in the catalog");
        let q = &Query::new("incoming webhooks");
        assert!(rank(of("GetIncomingWebhooks"), q) > rank(of("GetOutgoingWebhooks"), q));
        assert!(rank(of("GetIncomingWebhooks"), q) > 0);
        assert_eq!(rank(of("GetBots"), &Query::new("sidebar")), 0);
        let bots = &Query::new("GetBots");
        assert!(rank(of("GetBots"), bots) > rank(of("GetBot"), bots));
        assert!(
            rank(
                of("GetSidebarCategoriesForTeamForUser"),
                &Query::new("sidebar category")
            ) > 0
        );
    }
}
