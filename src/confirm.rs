//! Asking the person before a write others will see, in both forms the protocol has:
//!
//! - **2025-11-25 and earlier**: an `elicitation/create` request to the client in the middle of the
//!   call (`Peer::create_elicitation`); the call goes on when the person answers.
//! - **2026-07-28**: the call ends with an input-required result whose `input_requests` holds the same
//!   form and whose `request_state` is sealed (HMAC-SHA256, a per-process key, 10 minutes, one use)
//!   over a digest of exactly what was shown: the tool, the person, the targets and their versions, and
//!   the content that will be sent. The client asks, then calls again with the answer; the call reads
//!   everything again and goes on only if the digest is the same, so an edit or deletion of a post that
//!   changed in between is refused.
//!
//! The form has one required checkbox with no default, labelled with the action. Declined, cancelled
//! or left unticked: nothing is sent and the call says so ([`preflight`] ends a retried call whose
//! answer is a decline before any request). A client that cannot ask gets the write refused, naming
//! `MATTERMOST_CONFIRM_WRITES=never`; with that setting nothing asks.

use crate::config::ConfirmWrites;
use crate::context::Ctx;
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Input, Stop};
use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema,
    InputRequest, InputRequests, InputRequiredResult, RequestStateCodec, RequestStateError,
    SealOptions,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The key of the confirmation among a call's input requests and responses.
pub(crate) const KEY: &str = "confirm";
/// The form's one property: the checkbox.
pub(crate) const FIELD: &str = "confirm";
/// How long a 2026-07-28 confirmation may take from the question to the answer.
pub(crate) const TTL: Duration = Duration::from_secs(600);
/// The most unexpired used answers remembered for one person (each answer is good for one use): more
/// than the default rate lets one person give in [`TTL`] (600 requests a minute, two a confirmation).
pub(crate) const USED_PER_PERSON: usize = 4_096;
/// The most unexpired used answers remembered in all, a bound on memory (about 100 bytes each).
pub(crate) const USED_IN_ALL: usize = 200_000;

/// What the person is asked to confirm.
pub(crate) struct Question {
    /// The checkbox's label: what will be done, in a few words ("Post in ~town-square").
    pub(crate) action: String,
    /// The whole question: exactly what will be sent, where, and whom it reaches.
    pub(crate) text: String,
    /// What the answer is bound to: the targets (ids and the versions shown) and the exact content.
    pub(crate) binding: Vec<String>,
}

/// How a write was cleared to go ahead, as the answers of writing tools report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Confirmed {
    /// The person was asked and confirmed.
    ByPerson,
    /// Nothing asked: `MATTERMOST_CONFIRM_WRITES=never`.
    NotAsked,
}

/// The proof that a write others will see may be sent: the person said yes, or the configuration
/// (`MATTERMOST_CONFIRM_WRITES=never`) needs no asking, or the tool changes only what the person alone
/// sees. Only this module makes one, and every function that sends a write takes one, so a write that
/// skips asking does not compile. Making it also lets the call's scope send writes (the transport
/// refuses a write of a tool that asks before that, should one reach it another way).
#[derive(Debug)]
#[must_use = "a write is cleared to be sent with this proof"]
pub(crate) struct Cleared {
    how: Confirmed,
}

impl Cleared {
    fn new(how: Confirmed) -> Cleared {
        if let Some(scope) = crate::mattermost::call::current() {
            scope.clear_writes();
        }
        Cleared { how }
    }

    /// How the write was cleared, as the answer reports it.
    pub(crate) fn how(&self) -> Confirmed {
        self.how
    }
}

/// The proof for a tool that changes only what the person alone sees (saving a post, following a
/// thread, a draft, a reminder), which asks nobody: refused to a tool that declares it asks.
pub(crate) fn private<A>(input: &Input<A>) -> Result<Cleared, ToolError> {
    if !input.asks_first {
        return Ok(Cleared {
            how: Confirmed::NotAsked,
        });
    }
    Err(ToolError::internal(format!(
        "internal error: `{}` asks before it writes, and tried to write without asking; nothing was sent. \
         Please report this.",
        input.tool
    )))
}

/// The state sealed into a 2026-07-28 question: a nonce, so each answer is used once.
#[derive(Serialize, Deserialize)]
struct Sealed {
    nonce: String,
}

/// Where the instances of a team's deployment share 2026-07-28 answers (`MATTERMOST_MCP_REDIS_URL`):
/// the key questions are sealed with, so any instance reads an answer to a question another asked,
/// and the answers used already, so each is used once whichever instance it reaches.
#[async_trait::async_trait]
pub(crate) trait SharedAnswers: Send + Sync {
    /// The key every instance seals questions with (made by the first instance that asks).
    async fn sealing_key(&self) -> Result<[u8; 32], String>;
    /// Marks `nonce` used for `ttl`: true the first time on any instance, false after; an error when
    /// it cannot be recorded (then the answer is not used).
    async fn use_once(&self, nonce: &str, ttl: Duration) -> Result<bool, String>;
}

static SHARED: OnceLock<std::sync::Arc<dyn SharedAnswers>> = OnceLock::new();
static SHARED_KEY: OnceLock<[u8; 32]> = OnceLock::new();

/// Shares answers through `shared` from now on, and seals with its key when it has one (called once
/// by the HTTP server at start, before any question is asked; false if it came too late).
pub(crate) async fn share_answers(shared: std::sync::Arc<dyn SharedAnswers>) -> Result<(), String> {
    let key = shared.sealing_key().await;
    let _ = SHARED.set(shared);
    let key = key?;
    SHARED_KEY
        .set(key)
        .map_err(|_| "a sealing key was set already".to_string())
}

fn codec() -> Option<&'static RequestStateCodec> {
    static CODEC: OnceLock<Option<RequestStateCodec>> = OnceLock::new();
    CODEC
        .get_or_init(|| {
            let key = match SHARED_KEY.get() {
                Some(k) => *k,
                None => {
                    let mut key = [0u8; 32];
                    getrandom::fill(&mut key).ok()?;
                    key
                }
            };
            RequestStateCodec::try_new(key.to_vec()).ok()
        })
        .as_ref()
}

/// The answers used within [`TTL`], by person: one person's answers never take another's room.
#[derive(Default)]
pub(crate) struct Used {
    by_person: HashMap<String, HashMap<String, Instant>>,
    total: usize,
}

/// Why an answer cannot be used.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum NotUsable {
    /// It was used already.
    Used,
    /// This person gave [`USED_PER_PERSON`] answers within [`TTL`], or the process holds
    /// [`USED_IN_ALL`]: wait.
    Busy,
    /// The store the instances share could not record it (why), so it is not used.
    Unrecorded(String),
}

impl Used {
    /// Marks `nonce` used by `person`; refused when used already, or when the person's (or the
    /// process's) room is full.
    pub(crate) fn use_once(
        &mut self,
        person: &str,
        nonce: &str,
        per_person: usize,
        in_all: usize,
    ) -> Result<(), NotUsable> {
        let mine = self.by_person.entry(person.to_string()).or_default();
        let before = mine.len();
        mine.retain(|_, at| at.elapsed() < TTL);
        self.total -= before - mine.len();
        if mine.contains_key(nonce) {
            return Err(NotUsable::Used);
        }
        if mine.len() >= per_person {
            return Err(NotUsable::Busy);
        }
        if self.total >= in_all {
            let mut total = 0;
            self.by_person.retain(|_, m| {
                m.retain(|_, at| at.elapsed() < TTL);
                total += m.len();
                !m.is_empty()
            });
            self.total = total;
            if self.total >= in_all {
                return Err(NotUsable::Busy);
            }
        }
        self.by_person
            .entry(person.to_string())
            .or_default()
            .insert(nonce.to_string(), Instant::now());
        self.total += 1;
        Ok(())
    }
}

fn used() -> &'static Mutex<Used> {
    static USED: OnceLock<Mutex<Used>> = OnceLock::new();
    USED.get_or_init(Default::default)
}

/// Random bytes as lowercase hex (`n` bytes).
pub fn random_hex(n: usize) -> Result<String, ToolError> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|e| {
        ToolError::internal(format!(
            "internal error: no randomness from the operating system ({e}); nothing was sent."
        ))
    })?;
    Ok(crate::hex::hex(&bytes))
}

/// Marks a nonce used by `person`: where the instances share answers (one answer sends once on any
/// instance; the store's keys expire after [`TTL`]), else in this process, within the person's room.
async fn use_once_anywhere(person: &str, nonce: &str) -> Result<(), NotUsable> {
    match SHARED.get() {
        Some(shared) => match shared.use_once(nonce, TTL).await {
            Ok(true) => Ok(()),
            Ok(false) => Err(NotUsable::Used),
            Err(why) => Err(NotUsable::Unrecorded(why)),
        },
        None => use_once(person, nonce),
    }
}

/// Marks a nonce used by `person` in this process.
fn use_once(person: &str, nonce: &str) -> Result<(), NotUsable> {
    let Ok(mut used) = used().lock() else {
        return Err(NotUsable::Busy);
    };
    used.use_once(person, nonce, USED_PER_PERSON, USED_IN_ALL)
}

/// The digest a question is bound to: the tool, the person, and everything the question binds.
fn digest(tool: &str, person: &str, binding: &[String]) -> String {
    let mut h = Sha256::new();
    for part in [tool, person]
        .into_iter()
        .chain(binding.iter().map(String::as_str))
    {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part.as_bytes());
    }
    crate::hex::hex(&h.finalize())
}

fn declined(tool: &str, action: &ElicitationAction) -> ToolError {
    let how = match action {
        ElicitationAction::Cancel => "cancelled the confirmation",
        _ => "declined",
    };
    ToolError::new(
        ErrorKind::Declined,
        format!(
            "The person {how}: `{tool}` sent nothing to Mattermost. Do not try again unless they ask you to; \
             ask them what to change instead."
        ),
    )
    .with("sent", serde_json::Value::Bool(false))
}

fn unticked(tool: &str) -> ToolError {
    ToolError::new(
        ErrorKind::Declined,
        format!(
            "The person answered without ticking the confirmation: `{tool}` sent nothing to Mattermost. Do not \
             try again unless they ask you to."
        ),
    )
    .with("sent", serde_json::Value::Bool(false))
}

/// The refusal for a client that cannot ask the person.
pub(crate) fn cannot_ask(tool: &str, why: &str) -> ToolError {
    ToolError::new(
        ErrorKind::CannotAsk,
        format!(
            "`{tool}` changes what other people see, so it asks the person first, and this MCP client cannot ask \
             ({why}). Nothing was sent. Use a client that supports elicitation, or, if your client shows its own \
             approval for every tool call, the person who runs this server can set MATTERMOST_CONFIRM_WRITES=never \
             (then nothing asks)."
        ),
    )
    .with("sent", serde_json::Value::Bool(false))
}

/// The person's answer, read from an elicitation result.
fn answer(tool: &str, result: &ElicitResult) -> Result<(), ToolError> {
    match result.action {
        ElicitationAction::Accept => {
            let ticked = result
                .content
                .as_ref()
                .and_then(|c| c.get(FIELD))
                .and_then(serde_json::Value::as_bool)
                == Some(true);
            if ticked { Ok(()) } else { Err(unticked(tool)) }
        }
        ref other => Err(declined(tool, other)),
    }
}

/// The answer to this call's question, when the client retried it with one (2026-07-28).
fn response<A>(input: &Input<A>) -> Option<Result<ElicitResult, ToolError>> {
    let raw = input.call.input_responses.as_ref()?.get(KEY)?;
    Some(serde_json::from_value::<ElicitResult>(raw.clone()).map_err(|e| {
        ToolError::new(
            ErrorKind::Refused,
            format!(
                "The client's answer to the confirmation is not an elicitation result ({e}); nothing was sent. \
                 Call the tool again to be asked again."
            ),
        )
    }))
}

/// Called first by every tool that asks: a retried call whose answer is a decline, a cancel or an
/// unticked box ends here, before any request reaches Mattermost.
pub(crate) fn preflight<A>(input: &Input<A>) -> Result<(), Stop> {
    if input.call.confirm_writes == ConfirmWrites::Never {
        return Ok(());
    }
    match response(input) {
        Some(Ok(r)) => answer(input.tool, &r).map_err(Stop::Error),
        Some(Err(e)) => Err(Stop::Error(e)),
        None => Ok(()),
    }
}

fn form(question: &Question) -> Result<ElicitRequestParams, ToolError> {
    let action = question.action.clone();
    let schema: ElicitationSchema = ElicitationSchema::builder()
        .required_bool_with(FIELD, |b| {
            b.title(action).description(
                "Tick to send exactly this. Leave it unticked, decline or cancel to send nothing.",
            )
        })
        .build()
        .map_err(|e| ToolError::internal(format!("internal error: the confirmation form ({e})")))?;
    Ok(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: question.text.clone(),
        requested_schema: schema,
    })
}

/// Asks the person to confirm `question` before the write, in the form the client speaks. `Ok` is
/// the proof to send it with; declined, cancelled, unticked, unable to ask, or (2026-07-28) asked now and to be answered
/// by a retried call: an error or the input-required result, and nothing must be sent.
pub(crate) async fn ask<A>(
    cx: &Ctx,
    input: &Input<A>,
    question: &Question,
) -> Result<Cleared, Stop> {
    asked(cx, input, question).await.map(Cleared::new)
}

async fn asked<A>(cx: &Ctx, input: &Input<A>, question: &Question) -> Result<Confirmed, Stop> {
    let client = &input.call;
    if client.confirm_writes == ConfirmWrites::Never {
        return Ok(Confirmed::NotAsked);
    }
    let tool = input.tool;
    if !client.can_elicit() {
        return Err(Stop::Error(cannot_ask(
            tool,
            "it did not declare the elicitation capability",
        )));
    }
    let person = cx.my_id().await?;
    let bound = digest(tool, &person, &question.binding);
    if client.stateless() {
        return stateless(input, question, &bound, &person).await;
    }
    let Some(peer) = client.peer.as_ref() else {
        return Err(Stop::Error(cannot_ask(
            tool,
            "there is no session to ask through",
        )));
    };
    let params = form(question)?;
    match peer.create_elicitation(params).await {
        Ok(result) => answer(tool, &result)
            .map(|()| Confirmed::ByPerson)
            .map_err(Stop::Error),
        Err(e) => Err(Stop::Error(
            ToolError::new(
                ErrorKind::CannotAsk,
                format!(
                    "The client could not ask the person ({e}); `{tool}` sent nothing to Mattermost. Call it again to be \
                     asked again."
                ),
            )
            .with("sent", serde_json::Value::Bool(false)),
        )),
    }
}

/// The 2026-07-28 form: ask with an input-required result, or read the answer of the retried call.
async fn stateless<A>(
    input: &Input<A>,
    question: &Question,
    bound: &str,
    person: &str,
) -> Result<Confirmed, Stop> {
    let tool = input.tool;
    let codec = codec().ok_or_else(|| {
        Stop::Error(cannot_ask(
            tool,
            "this server has no key to seal the question with",
        ))
    })?;
    match (response(input), input.call.request_state.as_deref()) {
        (Some(result), Some(state)) => {
            answer(tool, &result?)?;
            let sealed: Sealed = codec.open_json_with(state, bound.as_bytes()).map_err(|e| {
                Stop::Error(match e {
                    RequestStateError::Expired => ToolError::new(
                        ErrorKind::Changed,
                        format!(
                            "The confirmation was answered more than {} minutes after it was asked; `{tool}` sent nothing. \
                             Call it again to be asked again.",
                            TTL.as_secs() / 60
                        ),
                    ),
                    _ => ToolError::new(
                        ErrorKind::Changed,
                        format!(
                            "What the person confirmed is not what `{tool}` would send now: the post, channel or people \
                             it acts on changed since they were asked, or the call's arguments are not the ones they were \
                             asked about. Nothing was sent. Call it again to be asked about it as it is now."
                        ),
                    ),
                })
            })?;
            match use_once_anywhere(person, &sealed.nonce).await {
                Ok(()) => {}
                Err(NotUsable::Used) => {
                    return Err(Stop::Error(ToolError::new(
                        ErrorKind::Changed,
                        format!(
                            "This confirmation was used already; one answer sends once. `{tool}` sent nothing now. \
                             Call it again to be asked again."
                        ),
                    )));
                }
                Err(NotUsable::Unrecorded(why)) => {
                    return Err(Stop::Error(ToolError::new(
                        ErrorKind::Unreachable,
                        format!(
                            "This confirmation could not be recorded as used ({why}), so it was not used: \
                             `{tool}` sent nothing. Call it again in a few seconds to be asked again."
                        ),
                    )));
                }
                Err(NotUsable::Busy) => {
                    return Err(Stop::Error(ToolError::new(
                        ErrorKind::RateLimited,
                        format!(
                            "You confirmed more than {USED_PER_PERSON} writes in the last {} minutes, the most this \
                             server keeps track of for one person; `{tool}` sent nothing. Wait a few minutes, then call \
                             it again to be asked again.",
                            TTL.as_secs() / 60
                        ),
                    )));
                }
            }
            Ok(Confirmed::ByPerson)
        }
        (Some(_), None) => Err(Stop::Error(ToolError::new(
            ErrorKind::Refused,
            format!(
                "The call carries an answer to a confirmation but not the request state it was asked with; `{tool}` \
                 sent nothing. Call it again without an answer to be asked."
            ),
        ))),
        (None, _) => {
            let sealed = Sealed {
                nonce: random_hex(16)?,
            };
            let state = codec
                .seal_json_with(
                    &sealed,
                    &SealOptions::new()
                        .associated_data(bound.as_bytes())
                        .ttl(TTL),
                )
                .map_err(|e| {
                    ToolError::internal(format!("internal error: sealing the question ({e})"))
                })?;
            let mut requests = InputRequests::new();
            requests.insert(
                KEY.to_string(),
                InputRequest::Elicitation(ElicitRequest::new(form(question)?)),
            );
            Err(Stop::NeedsInput(Box::new(InputRequiredResult::new(
                Some(requests),
                Some(state),
            ))))
        }
    }
}

/// A message shown in a question exactly, between two rules.
pub(crate) fn shown(message: &str) -> String {
    format!("────────\n{message}\n────────")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_binds_every_part_and_their_boundaries() {
        let a = digest("t", "me", &["ab".into(), "c".into()]);
        assert_eq!(a, digest("t", "me", &["ab".into(), "c".into()]));
        assert_ne!(a, digest("t", "me", &["a".into(), "bc".into()]));
        assert_ne!(a, digest("t", "you", &["ab".into(), "c".into()]));
        assert_ne!(a, digest("u", "me", &["ab".into(), "c".into()]));
    }

    #[test]
    fn a_nonce_is_used_once() {
        let n = random_hex(16).expect("random");
        assert_eq!(n.len(), 32);
        assert_eq!(use_once("me", &n), Ok(()));
        assert_eq!(use_once("me", &n), Err(NotUsable::Used));
    }

    #[test]
    fn one_persons_answers_never_fill_anothers_room() {
        let mut used = Used::default();
        for i in 0..10 {
            assert_eq!(used.use_once("alice", &format!("n{i}"), 10, 1_000), Ok(()));
        }
        assert_eq!(
            used.use_once("alice", "n10", 10, 1_000),
            Err(NotUsable::Busy),
            "alice's room is full, and she is told to wait, not that it was used"
        );
        assert_eq!(
            used.use_once("demo", "d0", 10, 1_000),
            Ok(()),
            "demo is not"
        );
        assert_eq!(used.use_once("demo", "d0", 10, 1_000), Err(NotUsable::Used));
        assert_eq!(used.total, 11);
    }

    #[test]
    fn only_a_ticked_acceptance_goes_ahead() {
        let yes = ElicitResult::new(ElicitationAction::Accept)
            .with_content(serde_json::json!({ FIELD: true }));
        assert!(answer("t", &yes).is_ok());
        let unticked = ElicitResult::new(ElicitationAction::Accept)
            .with_content(serde_json::json!({ FIELD: false }));
        assert_eq!(
            answer("t", &unticked).map_err(|e| e.kind),
            Err(ErrorKind::Declined)
        );
        let empty = ElicitResult::new(ElicitationAction::Accept);
        assert!(answer("t", &empty).is_err());
        for action in [ElicitationAction::Decline, ElicitationAction::Cancel] {
            let e = answer("t", &ElicitResult::new(action)).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Declined);
            assert!(e.message.contains("sent nothing"), "{}", e.message);
        }
    }
}
