//! Governance of the writing tools: the hints and the asking each declares follow from the
//! operations it may send; no request reaches Mattermost after the person declined, cancelled or left
//! the box unticked, in either protocol form; a client that cannot ask gets every visible write
//! refused, naming `MATTERMOST_CONFIRM_WRITES=never`; writes are neither listed nor callable without
//! `MATTERMOST_ALLOW_WRITES=true`.

use crate::harness::{self, Answer, Protocol};
use crate::writes_fixture::{Ids, start, writes_in};
use mattermost_mcp::inventory::Offer;
use mattermost_mcp::tool::{Asks, Tool, Toolset};
use serde_json::{Value, json};

/// Writes everyone who can read the channel, the post or the person sees.
const VISIBLE: &[&str] = &[
    "CreatePost",
    "UploadFile",
    "PatchPost",
    "UpdatePost",
    "DeletePost",
    "SaveReaction",
    "DeleteReaction",
    "PinPost",
    "UnpinPost",
    "AddChannelMember",
    "RemoveUserFromChannel",
    "CreateChannel",
    "CreateDirectChannel",
    "CreateGroupChannel",
    "UpdateUserStatus",
    "UpdateUserCustomStatus",
    "UnsetUserCustomStatus",
];

/// Writes only the person sees.
const PRIVATE: &[&str] = &[
    "UpdatePreferences",
    "DeletePreferences",
    "StartFollowingThread",
    "StopFollowingThread",
    "UpsertDraft",
    "DeleteDraft",
    "DeleteDraftForThread",
    "SetPostReminder",
    "ViewChannel",
];

/// Writes that remove or replace something (destructive in MCP's sense: not only additive).
const REMOVING: &[&str] = &[
    "PatchPost",
    "UpdatePost",
    "DeletePost",
    "DeleteReaction",
    "UnpinPost",
    "RemoveUserFromChannel",
    "UpdateUserStatus",
    "UpdateUserCustomStatus",
    "UnsetUserCustomStatus",
    "DeletePreferences",
    "StopFollowingThread",
    "DeleteDraft",
    "DeleteDraftForThread",
    "SetPostReminder",
];

/// Writes that make something new each time (not idempotent).
const MAKING: &[&str] = &["CreatePost", "CreateChannel"];

/// The tools that write. The operation gateway's `call_operation`, which writes only when the
/// operation a call names does, is held by tests/integration/gateway.rs: published read-only and
/// refusing every write without writes allowed, asking before each one with them.
fn writing_tools() -> Vec<&'static Tool> {
    let tools: Vec<&'static Tool> = Offer::everything()
        .tools()
        .into_iter()
        .filter(|t| !t.hints.read_only && !t.planned_per_call())
        .collect();
    assert!(tools.len() >= 17, "only {} writing tools", tools.len());
    tools
}

/// The operations a tool may send that change something: by the method and path the pinned spec gives
/// them, as the transport tells reads from writes (an operation the spec lacks, the hand-written
/// multipart UploadFile, counts as a write).
fn writes_of(tool: &Tool) -> Vec<&'static str> {
    let surface = mattermost_mcp::spec_check::pinned_surface();
    tool.operations()
        .into_iter()
        .filter(|op| match surface.get(op) {
            Some(o) => {
                let method = o
                    .method
                    .to_ascii_uppercase()
                    .parse()
                    .unwrap_or(reqwest::Method::POST);
                !mattermost_mcp::mattermost::transport::reads(op, &method)
            }
            None => true,
        })
        .collect()
}

#[test]
fn every_writing_tool_declares_its_hints_and_whether_it_asks_from_what_it_sends() {
    for tool in writing_tools() {
        let name = tool.name;
        assert_eq!(
            tool.toolset,
            Toolset::Writes,
            "{name} writes, so it is in toolset writes"
        );
        assert!(
            !tool.hints.open_world,
            "{name}: one Mattermost is a closed world"
        );
        let writes = writes_of(tool);
        assert!(!writes.is_empty(), "{name} declares no write");
        for op in &writes {
            assert!(
                VISIBLE.contains(op) || PRIVATE.contains(op),
                "{name} sends {op}: classify it as visible to others or private to the person"
            );
        }
        let visible: Vec<&&str> = writes.iter().filter(|op| VISIBLE.contains(op)).collect();
        match tool.asks {
            Asks::First(why) => {
                assert!(
                    !visible.is_empty(),
                    "{name} asks ({why}) but writes nothing others see"
                );
                assert!(!why.trim().is_empty(), "{name} says why it asks");
            }
            Asks::Never => assert!(
                visible.is_empty(),
                "{name} writes what others see ({visible:?}) and must ask first"
            ),
        }
        let removes = writes.iter().any(|op| REMOVING.contains(op));
        assert_eq!(
            tool.hints.destructive, removes,
            "{name}: destructive must be {removes} ({writes:?})"
        );
        let makes = writes.iter().any(|op| MAKING.contains(op));
        assert_eq!(
            tool.hints.idempotent, !makes,
            "{name}: idempotent must be {} ({writes:?})",
            !makes
        );
    }
    for tool in Offer::everything().tools() {
        if tool.hints.read_only {
            assert_eq!(
                tool.asks,
                Asks::Never,
                "{}: a reading tool never asks",
                tool.name
            );
            assert!(writes_of(tool).is_empty(), "{} reads only", tool.name);
        }
    }
}

/// Arguments to call each asking tool with in the write world.
fn asking_args(tool: &str, ids: &Ids) -> Value {
    match tool {
        "create_post" => json!({"channel": "town-square", "message": "hello all"}),
        "send_direct_message" => json!({"to": ["bob"], "message": "hello bob"}),
        "update_post" => json!({"post": ids.alice_post, "message": "changed"}),
        "delete_post" => json!({"post": ids.alice_post}),
        "add_reaction" => json!({"post": ids.bob_root, "emoji": "tada"}),
        "remove_reaction" => json!({"post": ids.bob_root, "emoji": "smile"}),
        "pin_post" => json!({"post": ids.bob_root}),
        "join_channel" => json!({"channel": "off-topic"}),
        "leave_channel" => json!({"channel": "secret"}),
        "add_channel_members" => json!({"channel": "secret", "users": ["carol"]}),
        "create_channel" => json!({"team": "eng", "display_name": "New Room"}),
        "set_status" => json!({"status": "away"}),
        other => panic!("no sample arguments for the asking tool {other}: add them here"),
    }
}

fn asking_tools() -> Vec<&'static Tool> {
    writing_tools()
        .into_iter()
        .filter(|t| matches!(t.asks, Asks::First(_)))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn no_request_reaches_mattermost_after_the_person_declines_cancels_or_leaves_it_unticked() {
    for protocol in [Protocol::Legacy, Protocol::Stateless] {
        for answer in [Answer::Decline, Answer::Cancel, Answer::Untick] {
            let env = start(protocol, answer, &[]).await;
            let mut asked = 0;
            for tool in asking_tools() {
                env.sim.clear_log();
                let e = env
                    .mcp
                    .refused(tool.name, asking_args(tool.name, &env.ids))
                    .await;
                asked += 1;
                assert_eq!(
                    e["kind"], "declined",
                    "{} {protocol:?} {answer:?}: {e}",
                    tool.name
                );
                assert!(
                    e["message"].as_str().unwrap_or("").contains("sent nothing"),
                    "{}: the result says nothing was sent: {e}",
                    tool.name
                );
                let after = env.after_answer();
                assert!(
                    after.is_empty(),
                    "{} {protocol:?} {answer:?}: requests after the person's answer: {after:?}",
                    tool.name
                );
                let writes = writes_in(&env.log());
                assert!(
                    writes.is_empty(),
                    "{} {protocol:?} {answer:?} wrote {writes:?}",
                    tool.name
                );
                assert_eq!(env.mcp.questions().len(), asked, "{} asked once", tool.name);
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_that_cannot_ask_gets_every_visible_write_refused_naming_the_setting_and_private_writes_go_through()
 {
    for protocol in [Protocol::Legacy, Protocol::Stateless] {
        let env = start(protocol, Answer::CannotAsk, &[]).await;
        for tool in asking_tools() {
            env.sim.clear_log();
            let e = env
                .mcp
                .refused(tool.name, asking_args(tool.name, &env.ids))
                .await;
            assert_eq!(e["kind"], "cannot_ask", "{} {protocol:?}: {e}", tool.name);
            assert!(
                e["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("MATTERMOST_CONFIRM_WRITES=never"),
                "{}: {e}",
                tool.name
            );
            assert!(writes_in(&env.log()).is_empty(), "{} wrote", tool.name);
        }
        let ids = env.ids.clone();
        env.mcp.ok("save_post", json!({"post": ids.bob_root})).await;
        env.mcp
            .ok("follow_thread", json!({"post": ids.bob_root}))
            .await;
        env.mcp
            .ok(
                "save_draft",
                json!({"channel": "town-square", "message": "later"}),
            )
            .await;
        env.mcp
            .ok("delete_draft", json!({"channel": "town-square"}))
            .await;
        assert!(env.mcp.questions().is_empty(), "nothing asked");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn with_confirm_writes_never_nothing_asks_and_the_answer_says_so() {
    for tool in asking_tools() {
        let env = start(
            Protocol::Legacy,
            Answer::CannotAsk,
            &[("MATTERMOST_CONFIRM_WRITES", "never")],
        )
        .await;
        let v = env
            .mcp
            .ok(tool.name, asking_args(tool.name, &env.ids))
            .await;
        assert_eq!(v["confirmed"], "not_asked", "{}: {v}", tool.name);
        assert!(!writes_in(&env.log()).is_empty(), "{} wrote", tool.name);
        assert!(env.mcp.questions().is_empty());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn writes_are_neither_listed_nor_callable_without_allow_writes_whatever_the_toolsets() {
    let (world, _) = crate::writes_fixture::world();
    let sim = mattermost_sim::Sim::start(world).await.expect("sim");
    for env in [
        vec![],
        vec![("MATTERMOST_TOOLSETS", "writes,posts")],
        vec![("MATTERMOST_TOOLSETS", "all")],
    ] {
        let mcp = harness::spawn(&sim.url(), &sim.token("alice"), &env, &[]).await;
        let listed = mcp.client.list_all_tools().await.expect("tools/list");
        let names: Vec<String> = listed.iter().map(|t| t.name.to_string()).collect();
        for tool in writing_tools() {
            assert!(
                !names.contains(&tool.name.to_string()),
                "{} listed without writes ({env:?})",
                tool.name
            );
        }
        sim.clear_log();
        let e = mcp
            .refused(
                "create_post",
                json!({"channel": "town-square", "message": "x"}),
            )
            .await;
        assert_eq!(e["kind"], "writes_not_allowed", "{e}");
        assert!(
            e["message"]
                .as_str()
                .unwrap_or("")
                .contains("MATTERMOST_ALLOW_WRITES=true")
        );
        assert!(sim.log().is_empty(), "nothing was sent");
    }
}
