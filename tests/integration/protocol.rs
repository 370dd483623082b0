//! The MCP surface: tools/list paging, cursors refused as they should be, and the token kept secret.

use crate::harness;
use crate::read_channel::tied_channel;
use mattermost_mcp::paging::cursor;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn tools_list_at_page_size_1_reaches_every_tool_and_refuses_a_bad_cursor() {
    let (world, _, _) = tied_channel(3, 1, 1);
    let sim = mattermost_sim::Sim::start(world).await.expect("sim");
    let mcp = harness::spawn(&sim.url(), &sim.token("alice"), &[], &["--page-size", "1"]).await;
    let mut names = Vec::new();
    let mut cursor = None;
    loop {
        let page = mcp.list_tools_page(cursor.clone()).await.expect("a page");
        assert!(page.tools.len() <= 1);
        names.extend(page.tools.iter().map(|t| t.name.to_string()));
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    let table: Vec<String> = mattermost_mcp::inventory::Offer::new(None, false)
        .expect("default")
        .tools()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, table, "every tool, once, in table order");
    let err = mcp
        .list_tools_page(Some("bogus".into()))
        .await
        .expect_err("a bad cursor is refused");
    let text = format!("{err:?}");
    assert!(
        text.contains("-32602")
            || text.contains("InvalidParams")
            || text.contains("INVALID_PARAMS"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn foreign_other_argument_altered_and_garbled_cursors_are_refused() {
    let (mut world, channel, _) = tied_channel(50, 3, 2);
    let team = world.team_id("eng").unwrap_or_default();
    let other = world.channel(&team, "other", "Other", mattermost_sim::ChannelKind::Public);
    let alice = world.user_id("alice").unwrap_or_default();
    world.join(&other, &alice);
    world.post(&other, &alice, 1_700_000_000_000, "hello");
    let (_sim, mcp) = harness::start(world, "alice").await;
    let first = mcp
        .ok("read_channel", json!({"channel": channel, "limit": 5}))
        .await;
    let good = first["next_cursor"].as_str().expect("a cursor").to_string();

    // The same cursor continues with another limit.
    mcp.ok(
        "read_channel",
        json!({"channel": channel, "limit": 9, "cursor": good}),
    )
    .await;

    let other_args = mcp
        .refused("read_channel", json!({"channel": other, "cursor": good}))
        .await;
    assert_eq!(other_args["kind"], json!("bad_cursor"));
    assert!(
        other_args["message"]
            .as_str()
            .unwrap_or_default()
            .contains("other arguments")
    );

    let binding = cursor::Binding::new(
        "list_saved",
        &harness::obj(json!({"channel": channel})),
        &alice,
    );
    let mut fields = cursor::Fields::default();
    fields.num(5);
    let foreign = cursor::encode(&binding, &fields);
    let e = mcp
        .refused(
            "read_channel",
            json!({"channel": channel, "cursor": foreign}),
        )
        .await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("made by the tool `list_saved`"),
        "{e}"
    );

    // Change one character of the position inside the cursor, keeping its form.
    let mut chars: Vec<char> = good.chars().collect();
    let at = (0..chars.len().saturating_sub(10))
        .rev()
        .find(|i| chars[*i].is_ascii_alphanumeric())
        .expect("a letter or digit in the position");
    chars[at] = if chars[at] == 'a' { 'b' } else { 'a' };
    let altered: String = chars.into_iter().collect();
    let e = mcp
        .refused(
            "read_channel",
            json!({"channel": channel, "cursor": altered}),
        )
        .await;
    let m = e["message"].as_str().unwrap_or_default();
    assert!(
        m.contains("was changed after this server made it"),
        "an altered cursor is named as such: {m}"
    );

    for garbled in ["hello", "", "%%%", "eyJ0IjoxfQ", "a1b2c3d4.e5f6"] {
        let e = mcp
            .refused(
                "read_channel",
                json!({"channel": channel, "cursor": garbled}),
            )
            .await;
        assert_eq!(e["kind"], json!("bad_cursor"), "{garbled}: {e}");
        let m = e["message"].as_str().unwrap_or_default();
        assert!(
            m.contains("without `cursor`")
                || (garbled.is_empty() && m.contains("Leave `cursor` out")),
            "names the next step: {m}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_limit_out_of_range_is_refused_with_the_range() {
    let (world, channel, _) = tied_channel(5, 1, 4);
    let (sim, mcp) = harness::start(world, "alice").await;
    for bad in [json!(0), json!(201), json!(-3), json!("ten"), json!(2.5)] {
        let e = mcp
            .refused("read_channel", json!({"channel": channel, "limit": bad}))
            .await;
        assert_eq!(e["kind"], json!("bad_argument"), "{bad}");
    }
    let e = mcp
        .refused("read_channel", json!({"channel": channel, "limit": 500}))
        .await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("1 to 200"),
        "{e}"
    );
    assert!(sim.log().is_empty(), "nothing was sent for a bad argument");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_token_never_appears_in_stderr_or_any_result() {
    let (world, channel, _) = tied_channel(40, 3, 6);
    let (sim, mcp) = harness::start(world, "alice").await;
    let token = sim.token("alice");
    let mut answers = Vec::new();
    answers.push(mcp.call("get_me", json!({})).await);
    answers.push(
        mcp.call("read_channel", json!({"channel": channel, "limit": 7}))
            .await,
    );
    answers.push(
        mcp.call(
            "read_channel",
            json!({"channel": "zzzzzzzzzzzzzzzzzzzzzzzzzz"}),
        )
        .await,
    );
    answers.push(
        mcp.call(
            "read_channel",
            json!({"channel": channel, "cursor": "garbage"}),
        )
        .await,
    );
    sim.expire_token("alice");
    answers.push(mcp.call("get_me", json!({})).await);
    for a in &answers {
        let text = serde_json::to_string(a).unwrap_or_default();
        assert!(!text.contains(&token), "a result carries the token: {text}");
    }
    let expired = harness::error_of(answers.last().expect("the last answer"));
    assert_eq!(expired["kind"], json!("unauthorized"), "{expired}");
    assert!(
        expired["message"]
            .as_str()
            .unwrap_or_default()
            .contains("MATTERMOST_TOKEN")
    );
    let stderr = mcp.stderr();
    assert!(
        stderr.contains("connected to"),
        "the server logs on stderr: {stderr}"
    );
    assert!(!stderr.contains(&token), "stderr carries the token");
}

#[tokio::test(flavor = "multi_thread")]
async fn get_me_says_who_the_server_acts_as() {
    let (world, _, _) = tied_channel(1, 1, 8);
    let (_sim, mcp) = harness::start(world, "alice").await;
    let me = mcp.ok("get_me", json!({})).await;
    assert_eq!(me["username"], json!("alice"));
    assert_eq!(me["is_bot"], json!(false));
    assert!(
        me["mattermost_version"]
            .as_str()
            .unwrap_or_default()
            .starts_with("11."),
        "{me}"
    );
}
