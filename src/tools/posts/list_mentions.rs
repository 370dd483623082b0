//! `list_mentions`: posts by others that mention the person, found by searching their mention keys,
//! walked back by date windows to the last one (`paging::search_windows`), and kept only where a key
//! stands as Mattermost reads a mention. The keys
//! come from the person's own user and notification settings and are kept for them alone
//! (`Ctx::note`), read again after [`KEYS_KEPT_FOR`].

use crate::args::{Arg, Kind, Limit};
use crate::calls::{Call, ME, MY_CHANNELS, Source, USERNAMES};
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::{PostFacts, UserFacts};
use crate::mattermost::types;
use crate::paging::search_windows::{self, Search, Walk};
use crate::paging::{Page, Strategy};
use crate::show::{self, PostItem};
use crate::tool::{Answer, Asks, Input, READS, Tool, Toolset};
use crate::tools::shared::search::{self, CappedOn, body, in_team};
use crate::tools::shared::time_zone;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// How long the person's mention keys are used before their user is read again (their notification
/// settings may change).
pub(crate) const KEYS_KEPT_FOR: Duration = Duration::from_secs(600);
const NOTE: &str = "mention_keys";

const MENTION_BODY: [(&str, Source); 6] = body(
    Source::Fixed(
        "@<username> <first name> <mention keys> [before:<day>] (and the walk's before:<day>)",
        "the person's own mention keys: @username, their first name and their custom keys when their notification settings make them mentions",
    ),
    Source::Fixed(
        "true",
        "a post that holds any one mention key mentions the person",
    ),
    Source::Omitted(
        "mentions in archived channels are old news; they are left out as Mattermost's own mentions view does",
    ),
);

pub(crate) const TOOL: Tool = Tool {
    name: "list_mentions",
    title: "List mentions of you",
    description: "Posts by others that mention you, newest first: @username, and your first name and mention \
                  keys when your notification settings make them mentions (not @channel, @all, @here). Read past \
                  Mattermost's cap of 100 by date windows, one request each; a day alone over 100 is cut to its \
                  newest (capped_on).",
    toolset: Toolset::Posts,
    args: &[
        super::TEAM,
        Arg {
            name: "before",
            kind: Kind::Time,
            required: false,
            about: "Only mentions before this day (your time zone).",
            shapes: Some("adds before:<day> to the search terms"),
        },
    ],
    answer: Answer::List {
        strategy: Strategy::SearchWindows,
        limit: Limit::new(20, 200),
    },
    hints: READS,
    asks: Asks::Never,
    calls: &[
        ME,
        Call {
            operation: "SearchPosts",
            params: &in_team(MENTION_BODY),
        },
        Call {
            operation: "SearchPostsInAllTeams",
            params: &MENTION_BODY,
        },
        USERNAMES,
        MY_CHANNELS,
    ],
    code: crate::list!(run => PostItem, Mentions),
};

#[derive(Deserialize)]
struct Args {
    team: Option<String>,
    before: Option<String>,
}

/// What a page of mentions carries besides its items.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Mentions {
    /// Any post's permalink: this with `{id}` replaced by the post's id.
    pub(crate) permalink: String,
    /// What counts as a mention of you.
    pub(crate) mention_keys: Vec<String>,
    /// When this page shows a day Mattermost's cap cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) capped_on: Option<CappedOn>,
}

async fn run(cx: &Ctx, input: Input<Args>) -> Result<Page<PostItem, Mentions>, ToolError> {
    let args = &input.args;
    let at = input.position::<Walk>()?;
    let team = search::team(cx, args.team.as_deref()).await?;
    let keys = mention_keys_of(cx).await?;
    let me = cx.my_id().await?;
    let zone = match &at {
        Some(w) => w.zone_secs,
        None => time_zone::person_offset(cx).await?,
    };
    let last_day = args
        .before
        .as_deref()
        .and_then(crate::time::parse)
        .map(|t| search_windows::day_of(t, zone) - 1);
    let s = Search {
        team_id: team,
        words: mention_terms(&keys),
        any: true,
        archived: false,
        last_day,
        first_day: None,
    };
    let mention = |p: &types::Post| {
        p.author() != me.as_str() && keys.iter().any(|k| mentions(p.message(), k))
    };
    let (page, capped_on) =
        search::walk_posts(cx, &input.list_key(), &s, at, input.limit, &mention).await?;
    Ok(page.with_extra(Mentions {
        permalink: show::permalink_pattern(cx.url()),
        mention_keys: keys.to_vec(),
        capped_on,
    }))
}

/// The person's mention keys, kept for them (each person's context has its own). Kept longer than
/// [`KEYS_KEPT_FOR`], they are read again from the person's user, whose settings may have changed.
async fn mention_keys_of(cx: &Ctx) -> Result<Arc<Vec<String>>, ToolError> {
    if let Some(keys) = cx.note::<Vec<String>>(NOTE, KEYS_KEPT_FOR) {
        return Ok(keys);
    }
    let kept_before = cx.note::<Vec<String>>(NOTE, Duration::MAX).is_some();
    let user = if kept_before {
        cx.call(cx.api().get_user().user_id("me").send(), "user", "me")
            .await?
    } else {
        cx.me().await?.clone()
    };
    Ok(cx.set_note(NOTE, mention_keys(&user)))
}

/// The person's mention keys: `@username`, their first name when their notification settings make it
/// a mention, and their own keys. Channel-wide mentions (@channel, @all, @here) are not personal.
fn mention_keys(me: &types::User) -> Vec<String> {
    let mut keys = vec![format!("@{}", me.username())];
    if let Some(np) = &me.notify_props {
        let first = me.first_name.as_deref().unwrap_or("").trim();
        if np.first_name.as_deref() == Some("true") && !first.is_empty() {
            keys.push(first.to_string());
        }
        for k in np.mention_keys.as_deref().unwrap_or("").split(',') {
            let k = k.trim();
            if !k.is_empty() && !keys.iter().any(|have| have.eq_ignore_ascii_case(k)) {
                keys.push(k.to_string());
            }
        }
    }
    keys
}

/// The search terms for mention keys: each key a term, quoted when it holds a space or a colon.
fn mention_terms(keys: &[String]) -> Vec<String> {
    keys.iter()
        .map(|k| {
            if k.contains(char::is_whitespace) || k.contains(':') {
                format!("\"{}\"", k.replace('"', ""))
            } else {
                k.clone()
            }
        })
        .collect()
}

fn word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// Whether `message` mentions `key` as Mattermost reads mentions: the key as a whole word (a username
/// goes on through `.` followed by more of it), case-insensitively.
pub(crate) fn mentions(message: &str, key: &str) -> bool {
    let m = message.to_lowercase();
    let k = key.to_lowercase();
    if k.is_empty() {
        return false;
    }
    m.match_indices(&k).any(|(i, _)| {
        let before = m[..i].chars().next_back();
        let mut after = m[i + k.len()..].chars();
        let free_before = before.is_none_or(|c| !word_char(c) && c != '@' && c != '.');
        let free_after = match after.next() {
            None => true,
            Some('.') => !after.next().is_some_and(word_char),
            Some(c) => !word_char(c),
        };
        free_before && free_after
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, Secret};

    #[test]
    fn a_mention_is_the_key_as_a_whole_word() {
        assert!(mentions("hi @alice, look", "@alice"));
        assert!(mentions("@Alice.", "@alice"));
        assert!(!mentions("hi @alicebob", "@alice"));
        assert!(!mentions("hi @alice.smith", "@alice"));
        assert!(!mentions("mail bob@alice", "@alice"));
        assert!(mentions("Alice: ping", "alice"));
        assert!(!mentions("Malice", "alice"));
        assert!(
            !mentions("ask alice", "@alice"),
            "the word alone is no @-mention"
        );
    }

    #[test]
    fn mention_keys_follow_the_notification_settings() {
        let mut me = types::User {
            username: Some("alice".into()),
            first_name: Some("Alice".into()),
            ..types::User::default()
        };
        assert_eq!(mention_keys(&me), ["@alice"]);
        me.notify_props = Some(types::UserNotifyProps {
            first_name: Some("true".into()),
            mention_keys: Some("oncall, release train,Alice".into()),
            ..types::UserNotifyProps::default()
        });
        assert_eq!(
            mention_keys(&me),
            ["@alice", "Alice", "oncall", "release train"]
        );
        assert_eq!(
            mention_terms(&mention_keys(&me)).join(" "),
            "@alice Alice oncall \"release train\""
        );
    }

    fn person(username: &str, keys: &str) -> Ctx {
        let config = Config {
            url: "http://127.0.0.1:9".into(),
            token: Secret::new(format!("token-of-{username}")),
            timeout: Duration::from_secs(1),
            budget: Duration::from_secs(1),
            ca_file: None,
            allow_writes: false,
            toolsets: None,
            confirm_writes: Default::default(),
            content: Default::default(),
        };
        let mm = Arc::new(config.connect().expect("a client"));
        let cx = Ctx::new(mm, config.token);
        cx.know_me(types::User {
            id: Some(format!("{username:a<26}")),
            username: Some(username.into()),
            notify_props: Some(types::UserNotifyProps {
                mention_keys: Some(keys.into()),
                ..types::UserNotifyProps::default()
            }),
            ..types::User::default()
        });
        cx
    }

    #[tokio::test]
    async fn each_person_keeps_their_own_mention_keys() {
        let (alice, bob) = (person("alice", "oncall"), person("bob", "release"));
        let a = mention_keys_of(&alice).await.expect("alice's keys");
        let b = mention_keys_of(&bob).await.expect("bob's keys");
        assert_eq!(a.as_slice(), ["@alice", "oncall"]);
        assert_eq!(b.as_slice(), ["@bob", "release"]);
        assert_eq!(
            alice
                .note::<Vec<String>>(NOTE, KEYS_KEPT_FOR)
                .map(|k| k.to_vec()),
            Some(a.to_vec()),
            "kept in alice's context"
        );
        let again = mention_keys_of(&alice).await.expect("alice's keys again");
        assert!(Arc::ptr_eq(&a, &again), "the kept keys are used again");
    }
}
