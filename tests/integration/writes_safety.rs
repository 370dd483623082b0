//! The write side's safety, shown against the simulator: a post is made once when the connection is
//! cut after Mattermost stored it, when the answer comes too late, and while the first request is
//! still saving; a confirmation is bound to what was shown (a post changed in between is not edited
//! or deleted; an answer is used once; a forged state is refused); and the checks that refuse before
//! anything is asked.

use crate::harness::{Answer, Protocol};
use crate::writes_fixture::{Env, start, writes_in};
use mattermost_sim::{Fault, FaultRule};
use rmcp::model::{CallToolRequestParams, CallToolResponse, InputResponses};
use serde_json::{Value, json};
use std::time::Duration;

fn posts_with(env: &Env, message: &str) -> usize {
    let town = env.ids.town.clone();
    env.sim.with_world(|w| {
        w.post_ids_in(&town)
            .iter()
            .filter(|id| w.post_message(id).as_deref() == Some(message))
            .count()
    })
}

fn post_rule(fault: Fault) -> FaultRule {
    FaultRule {
        method: Some("POST".into()),
        path: "/api/v4/posts".into(),
        fault,
        times: Some(1),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_post_cut_off_after_mattermost_stored_it_is_made_exactly_once() {
    let env = start(Protocol::Legacy, Answer::Accept, &[]).await;
    env.sim.inject(post_rule(Fault::CutAfterStore));
    let v = env
        .mcp
        .ok(
            "create_post",
            json!({"channel": "town-square", "message": "exactly once"}),
        )
        .await;
    assert_eq!(v["retries"], 1, "sent again once: {v}");
    assert_eq!(posts_with(&env, "exactly once"), 1, "one post, not two");
    let creates: Vec<Value> = env
        .log()
        .iter()
        .filter(|r| r.method == "POST" && r.path == "/api/v4/posts")
        .map(|r| serde_json::from_str(r.body.as_deref().unwrap_or("")).unwrap_or_default())
        .collect();
    assert_eq!(creates.len(), 2, "the post and its retry");
    assert_eq!(
        creates[0]["pending_post_id"], creates[1]["pending_post_id"],
        "the retry carries the same pending_post_id"
    );
    assert_eq!(v["post_id"].as_str().map(str::len), Some(26));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_post_answered_too_late_is_made_once_and_one_still_saving_is_waited_for() {
    let env = start(
        Protocol::Legacy,
        Answer::Accept,
        &[("MATTERMOST_TIMEOUT_SECS", "1")],
    )
    .await;
    env.sim
        .inject(post_rule(Fault::DelayAfterStore(Duration::from_millis(
            2500,
        ))));
    let v = env
        .mcp
        .ok(
            "create_post",
            json!({"channel": "town-square", "message": "late answer"}),
        )
        .await;
    assert!(v["retries"].as_u64().unwrap_or(0) >= 1, "{v}");
    assert_eq!(posts_with(&env, "late answer"), 1);

    env.sim
        .inject(post_rule(Fault::DelayBeforeStore(Duration::from_millis(
            2500,
        ))));
    env.sim.clear_log();
    let v = env
        .mcp
        .ok(
            "create_post",
            json!({"channel": "town-square", "message": "still saving"}),
        )
        .await;
    assert!(v["retries"].as_u64().unwrap_or(0) >= 1, "{v}");
    assert_eq!(posts_with(&env, "still saving"), 1);
    let pending = env
        .log()
        .iter()
        .filter(|r| r.path == "/api/v4/posts" && r.status == 500)
        .count();
    assert!(
        pending >= 1,
        "Mattermost answered the retry `pending` while the first saved"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn other_writes_are_never_sent_twice_after_a_cut() {
    let env = start(Protocol::Legacy, Answer::Accept, &[]).await;
    env.sim.inject(FaultRule {
        method: Some("POST".into()),
        path: "/api/v4/channels".into(),
        fault: Fault::CutAfterStore,
        times: Some(1),
    });
    let e = env
        .mcp
        .refused(
            "create_channel",
            json!({"team": "eng", "display_name": "Once Only"}),
        )
        .await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or("")
            .contains("may or may not"),
        "{e}"
    );
    let creates = env
        .log()
        .iter()
        .filter(|r| r.method == "POST" && r.path == "/api/v4/channels")
        .count();
    assert_eq!(creates, 1, "a channel is created at most once");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_post_changed_after_the_question_is_not_edited_or_deleted_in_the_2025_11_25_form() {
    // The client edits the post while the person is being asked: between question and write.
    let env = start_editing_on_answer().await;
    for tool in ["update_post", "delete_post"] {
        env.sim.clear_log();
        let args = if tool == "update_post" {
            json!({"post": env.ids.alice_post, "message": "mine again"})
        } else {
            json!({"post": env.ids.alice_post})
        };
        let e = env.mcp.refused(tool, args).await;
        assert_eq!(e["kind"], "changed", "{tool}: {e}");
        assert!(writes_in(&env.log()).is_empty(), "{tool} wrote");
    }
}

/// A server whose client edits alice's post whenever it answers a question (the post changes between
/// the question and the write).
async fn start_editing_on_answer() -> Env {
    use crate::harness::{self, Recorder};
    use std::sync::Arc;
    let (world, ids) = crate::writes_fixture::world();
    let sim = Arc::new(mattermost_sim::Sim::start(world).await.expect("sim"));
    let (s, post) = (sim.clone(), ids.alice_post.clone());
    let n = Arc::new(std::sync::atomic::AtomicI64::new(0));
    let recorder = Recorder {
        answer: Answer::Accept,
        on_answer: Some(Arc::new(move || {
            let k = n.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let now = s.now_ms();
            s.with_world(|w| w.edit(&post, now + k, &format!("edited meanwhile {k}")));
        })),
        ..Recorder::default()
    };
    let mcp = harness::spawn_as(
        &sim.url(),
        &sim.token("alice"),
        &[("MATTERMOST_ALLOW_WRITES", "true")],
        &[],
        Protocol::Legacy,
        recorder,
    )
    .await;
    Env {
        sim,
        mcp,
        ids,
        log_at_answer: Arc::new(std::sync::atomic::AtomicUsize::new(0)),
    }
}

/// One round of a 2026-07-28 call, driven by hand: the arguments, and the answer with the state of an
/// earlier round.
async fn round(
    env: &Env,
    tool: &str,
    args: &Value,
    answer: Option<(Value, String)>,
) -> CallToolResponse {
    let mut params = CallToolRequestParams::new(tool.to_string())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    if let Some((response, state)) = answer {
        let mut responses = InputResponses::new();
        responses.insert("confirm".into(), response);
        params.input_responses = Some(responses);
        params.request_state = Some(state);
    }
    env.mcp
        .client
        .call_tool_once(params)
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

fn state_of(r: &CallToolResponse) -> String {
    match r {
        CallToolResponse::InputRequired(ir) => {
            let q = ir
                .input_requests
                .as_ref()
                .and_then(|m| m.get("confirm"))
                .map(|q| serde_json::to_value(q).unwrap_or_default())
                .unwrap_or_default();
            assert_eq!(q["method"], "elicitation/create", "{q}");
            assert_eq!(
                q["params"]["requestedSchema"]["required"],
                json!(["confirm"]),
                "one required checkbox: {q}"
            );
            assert!(
                q["params"]["requestedSchema"]["properties"]["confirm"]
                    .get("default")
                    .is_none(),
                "with no default"
            );
            ir.request_state.clone().expect("a request state")
        }
        other => panic!("expected an input-required result, got {other:?}"),
    }
}

fn error_kind(r: &CallToolResponse) -> String {
    match r {
        CallToolResponse::Complete(c) if c.is_error == Some(true) => {
            crate::harness::error_of(c)["kind"]
                .as_str()
                .unwrap_or("")
                .to_string()
        }
        CallToolResponse::Complete(_) => String::new(),
        other => panic!("expected a result, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn in_the_2026_07_28_form_an_answer_is_bound_to_what_was_shown_and_used_once() {
    let env = start(Protocol::Stateless, Answer::Accept, &[]).await;
    let yes = json!({"action": "accept", "content": {"confirm": true}});
    let post = env.ids.alice_post.clone();

    // The post changes between the question and the answer: nothing is edited.
    let args = json!({"post": post, "message": "bound"});
    let state = state_of(&round(&env, "update_post", &args, None).await);
    let now = env.sim.now_ms();
    env.sim
        .with_world(|w| w.edit(&post, now, "edited meanwhile"));
    env.sim.clear_log();
    let r = round(&env, "update_post", &args, Some((yes.clone(), state))).await;
    assert_eq!(error_kind(&r), "changed");
    assert!(writes_in(&env.log()).is_empty());

    // Other arguments than those asked about: refused.
    let state = state_of(&round(&env, "update_post", &args, None).await);
    let other = json!({"post": post, "message": "something else"});
    let r = round(
        &env,
        "update_post",
        &other,
        Some((yes.clone(), state.clone())),
    )
    .await;
    assert_eq!(error_kind(&r), "changed");

    // A forged state: refused.
    let r = round(
        &env,
        "update_post",
        &args,
        Some((yes.clone(), format!("{state}x"))),
    )
    .await;
    assert_eq!(error_kind(&r), "changed");

    // The right answer goes through once; the same answer again sends nothing.
    let r = round(
        &env,
        "update_post",
        &args,
        Some((yes.clone(), state.clone())),
    )
    .await;
    assert!(
        matches!(r, CallToolResponse::Complete(ref c) if c.is_error != Some(true)),
        "{r:?}"
    );
    env.sim.clear_log();
    let post_args = json!({"channel": "town-square", "message": "once per answer"});
    let state = state_of(&round(&env, "create_post", &post_args, None).await);
    round(
        &env,
        "create_post",
        &post_args,
        Some((yes.clone(), state.clone())),
    )
    .await;
    let r = round(&env, "create_post", &post_args, Some((yes, state))).await;
    assert_eq!(error_kind(&r), "changed", "an answer is used once");
    let town = env.ids.town.clone();
    let made = env.sim.with_world(|w| {
        w.post_ids_in(&town)
            .iter()
            .filter(|id| w.post_message(id).as_deref() == Some("once per answer"))
            .count()
    });
    assert_eq!(made, 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn messages_and_files_are_checked_before_anything_is_asked() {
    let env = start(Protocol::Legacy, Answer::Accept, &[]).await;
    let long = "x".repeat(16_384);
    let cases: Vec<(&str, Value, &[&str])> = vec![
        (
            "create_post",
            json!({"channel": "town-square", "message": long}),
            &["16384", "16383", "MaxPostSize"],
        ),
        (
            "create_post",
            json!({"channel": "town-square", "message": "ask @bbo and @carol"}),
            &["@bbo", "@bob"],
        ),
        (
            "send_direct_message",
            json!({"to": ["bob"], "message": "key: -----BEGIN RSA PRIVATE KEY-----\nabc"}),
            &["private key"],
        ),
        (
            "create_post",
            json!({"channel": "town-square", "message": "config", "files": [{"name": "deploy.txt", "content": "AKIAABCDEFGHIJKLMNOP"}]}),
            &["deploy.txt", "AWS access key"],
        ),
        (
            "create_post",
            json!({"channel": "town-square", "message": "config", "files": [{"name": "id_rsa", "content": "nothing"}]}),
            &["id_rsa", "credentials"],
        ),
        (
            "create_post",
            json!({"channel": "town-square", "message": "many", "files": (0..11).map(|i| json!({"name": format!("f{i}.txt"), "content": "x"})).collect::<Vec<_>>()}),
            &["11 files", "1 to 10"],
        ),
        (
            "add_reaction",
            json!({"post": env.ids.bob_root, "emoji": "thumbs_upp"}),
            &["thumbsup"],
        ),
        (
            "create_post",
            json!({"channel": "secret", "message": "wrong thread", "root": env.ids.bob_root}),
            &["another channel"],
        ),
        (
            "update_post",
            json!({"post": env.ids.bob_root, "message": "not mine"}),
            &["only your own posts", "administrator"],
        ),
        (
            "delete_post",
            json!({"post": env.ids.bob_reply}),
            &["only your own posts"],
        ),
    ];
    for (tool, args, wanted) in cases {
        env.sim.clear_log();
        let e = env.mcp.refused(tool, args.clone()).await;
        let m = e["message"].as_str().unwrap_or("");
        for w in wanted {
            assert!(m.contains(w), "{tool} {args}: `{w}` not in {m}");
        }
        assert!(writes_in(&env.log()).is_empty(), "{tool} wrote");
    }
    assert!(env.mcp.questions().is_empty(), "nothing was asked");

    let (bob, post) = (env.ids.bob.clone(), env.ids.alice_post.clone());
    env.sim.with_world(|w| {
        for k in 0..50 {
            w.react(
                &bob,
                &post,
                &format!("emoji_{k}"),
                crate::writes_fixture::T0 + 100 + k,
            );
        }
    });
    let e = env
        .mcp
        .refused("add_reaction", json!({"post": post, "emoji": "tada"}))
        .await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or("")
            .contains("50 different emoji"),
        "Mattermost's limit of 50 different emoji a post: {e}"
    );

    env.sim.with_world(|w| w.set_max_file_size(10));
    env.sim.clear_log();
    let e = env
        .mcp
        .refused(
            "create_post",
            json!({"channel": "town-square", "message": "big", "files": [{"name": "big.txt", "content": "more than ten bytes"}]}),
        )
        .await;
    let m = e["message"].as_str().unwrap_or("");
    assert!(
        m.contains("big.txt") && m.contains("19 bytes") && m.contains("10 bytes"),
        "{m}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_still_edits_and_deletes_only_their_own_posts() {
    let (mut world, ids) = crate::writes_fixture::world();
    world.make_admin(&ids.alice);
    let env =
        crate::writes_fixture::start_with((world, ids), Protocol::Legacy, Answer::Accept, &[])
            .await;
    for (tool, args) in [
        (
            "update_post",
            json!({"post": env.ids.bob_root, "message": "admin edit"}),
        ),
        ("delete_post", json!({"post": env.ids.bob_root})),
    ] {
        env.sim.clear_log();
        let e = env.mcp.refused(tool, args).await;
        assert!(
            e["message"]
                .as_str()
                .unwrap_or("")
                .contains("only your own posts"),
            "{e}"
        );
        assert!(writes_in(&env.log()).is_empty());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn channel_wide_mentions_are_named_with_whom_they_notify() {
    let env = start(Protocol::Legacy, Answer::Accept, &[]).await;
    let bob = env.ids.bob.clone();
    env.sim.with_world(|w| w.set_status(&bob, "online"));
    let v = env
        .mcp
        .ok(
            "create_post",
            json!({"channel": "town-square", "message": "@channel and @here: release at 5"}),
        )
        .await;
    let q = env.mcp.questions().pop().unwrap_or_default();
    assert!(
        q.contains("@channel notifies every member of the channel: 2 people"),
        "{q}"
    );
    assert!(
        q.contains("@here notifies") && q.contains("1 of its 2 other members"),
        "{q}"
    );
    assert_eq!(v["notified"].as_array().map(Vec::len), Some(2), "{v}");
}
