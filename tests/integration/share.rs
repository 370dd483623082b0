//! What people share, as a model reads it: `read_file` on a file of each kind the simulator holds
//! (made here with the simulator's own sample writers), images as image content, what it does not
//! read described; the resource templates read and completed as the person who asks; the prompts;
//! progress of a long call, and a cancelled call that stops sending Mattermost requests.

use crate::harness::{self, obj};
use crate::reading::{T0, base};
use mattermost_sim::{Fault, FaultRule, samples};
use rmcp::model::{
    CallToolResult, GetPromptRequestParams, ReadResourceRequestParams, ReadResourceResult,
};
use serde_json::{Value, json};
use std::time::Duration;

/// The answer's content blocks as JSON, and its structured answer.
fn blocks(r: &CallToolResult) -> Vec<Value> {
    r.content
        .iter()
        .filter_map(|c| serde_json::to_value(c).ok())
        .collect()
}

fn structured(r: &CallToolResult) -> Value {
    assert_ne!(r.is_error, Some(true), "refused: {:?}", r.content);
    r.structured_content.clone().unwrap_or(Value::Null)
}

fn texts(answer: &Value) -> Vec<String> {
    answer["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| i["text"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn links(r: &CallToolResult) -> Vec<String> {
    blocks(r)
        .into_iter()
        .filter(|b| b["type"] == json!("resource_link"))
        .map(|b| b["uri"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Every page's items, following the cursor.
async fn all_items(mcp: &harness::Mcp, file: &str) -> Vec<Value> {
    mcp.pages("read_file", json!({"file": file, "limit": 200}))
        .await
        .iter()
        .flat_map(|p| p["items"].as_array().cloned().unwrap_or_default())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn read_file_reads_pdf_word_sheets_slides_images_and_archives_and_describes_the_rest() {
    let mut b = base(141);
    let post =
        b.w.post(&b.channel, &b.bob, T0, "everything for the review");
    let pdf = b.w.attach(
        &post,
        "report.pdf",
        &samples::pdf(&["Quarterly report", "Revenue grew by a third", "Next steps"]),
    );
    let docx = b.w.attach(
        &post,
        "minutes.docx",
        &samples::docx(&["Minutes of the review", "We ship on Friday."]),
    );
    let row = |cells: &[&str]| cells.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let xlsx = b.w.attach(
        &post,
        "budget.xlsx",
        &samples::xlsx(&[
            (
                "Q1",
                vec![row(&["item", "cost"]), row(&["servers", "1200"])],
            ),
            ("Q2", vec![row(&["item", "cost"]), row(&["laptops", "900"])]),
        ]),
    );
    let pptx = b.w.attach(
        &post,
        "deck.pptx",
        &samples::pptx(&["Roadmap\nSearch first", "Hiring\nTwo engineers"]),
    );
    let png = b.w.attach(&post, "wide.png", &samples::png(3136, 800));
    let zip = b.w.attach(
        &post,
        "bundle.zip",
        &samples::zip(&[("readme.txt", b"hello"), ("src/main.rs", b"fn main() {}")]),
    );
    let tar = b.w.attach(
        &post,
        "logs.tar",
        &samples::tar(&[("app.log", b"started\n"), ("db.log", b"ready\n")]),
    );
    let video = b.w.attach(
        &post,
        "clip.mp4",
        b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom",
    );
    let huge_text = vec![b'a'; 9 * 1024 * 1024];
    let huge = b.w.attach(&post, "huge.txt", &huge_text);
    let (sim, mcp) = harness::start(b.w, "alice").await;

    // Reading a file says so, when the client asked for progress.
    let r = mcp
        .call_with_progress("read_file", json!({"file": pdf, "limit": 1}))
        .await;
    assert_eq!(structured(&r)["items"][0]["page"], json!(1));
    let told = |progress: &[String]| {
        progress
            .iter()
            .any(|p| p.contains("downloading `report.pdf`"))
            && progress
                .iter()
                .any(|p| p.contains("read `report.pdf`: 3 items"))
    };
    let progress = mcp.progress_until(told).await;
    assert!(told(&progress), "{progress:?}");
    // PDF: page by page, each item saying its page.
    let items = all_items(&mcp, &pdf).await;
    let pages: Vec<u64> = items.iter().filter_map(|i| i["page"].as_u64()).collect();
    assert_eq!(pages, [1, 2, 3], "{items:?}");
    assert!(
        items[1]["text"]
            .as_str()
            .unwrap_or_default()
            .contains("Revenue grew")
    );
    // Word: by paragraph.
    let first = mcp.ok("read_file", json!({"file": docx})).await;
    assert_eq!(
        texts(&first),
        ["Minutes of the review", "We ship on Friday."]
    );
    assert_eq!(first["items"][1]["paragraph"], json!(2), "{first}");
    assert!(
        first["format"]
            .as_str()
            .unwrap_or_default()
            .contains("Word"),
        "{first}"
    );
    // Spreadsheet: each sheet's rows, the sheet named on every row.
    let items = all_items(&mcp, &xlsx).await;
    let rows: Vec<(String, String)> = items
        .iter()
        .filter(|i| i.get("row").is_some())
        .map(|i| {
            (
                i["sheet"].as_str().unwrap_or_default().to_string(),
                i["text"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert!(
        rows.contains(&("Q1".into(), "servers | 1200".into())),
        "{items:?}"
    );
    assert!(
        rows.contains(&("Q2".into(), "laptops | 900".into())),
        "{items:?}"
    );
    // Slides: slide by slide, each item saying its slide.
    let items = all_items(&mcp, &pptx).await;
    let slides: Vec<(u64, String)> = items
        .iter()
        .map(|i| {
            (
                i["slide"].as_u64().unwrap_or(0),
                i["text"].as_str().unwrap_or_default().into(),
            )
        })
        .collect();
    let want: Vec<(u64, String)> = [
        (1, "Roadmap"),
        (1, "Search first"),
        (2, "Hiring"),
        (2, "Two engineers"),
    ]
    .iter()
    .map(|(n, t)| (*n, t.to_string()))
    .collect();
    assert_eq!(slides, want);
    // Archives: a listing, entry by entry, with sizes.
    for (file, entries) in [
        (&zip, [("readme.txt", 5), ("src/main.rs", 12)]),
        (&tar, [("app.log", 8), ("db.log", 6)]),
    ] {
        let items = all_items(&mcp, file).await;
        let listed: Vec<(String, u64)> = items
            .iter()
            .map(|i| {
                (
                    i["text"].as_str().unwrap_or_default().to_string(),
                    i["size"].as_u64().unwrap_or(0),
                )
            })
            .collect();
        let want: Vec<(String, u64)> = entries.iter().map(|(n, s)| (n.to_string(), *s)).collect();
        assert_eq!(listed, want, "{file}");
        assert_eq!(items[0]["entry"], json!(1));
    }
    // An image: image content scaled to 1568 px on its long side, its size in the answer, and a link.
    let r = mcp.call("read_file", json!({"file": png})).await;
    let answer = structured(&r);
    assert_eq!(answer["image"]["width"], json!(1568), "{answer}");
    assert_eq!(answer["image"]["height"], json!(400), "{answer}");
    assert_eq!(answer["image"]["original_width"], json!(3136));
    let images: Vec<Value> = blocks(&r)
        .into_iter()
        .filter(|b| b["type"] == json!("image"))
        .collect();
    assert_eq!(images.len(), 1, "one image block");
    let data = images[0]["data"].as_str().unwrap_or_default();
    assert!(!data.is_empty() && data.len() <= (1024 * 1024 * 4_usize).div_ceil(3) + 4);
    assert_eq!(images[0]["mimeType"], answer["image"]["mime"]);
    assert_eq!(links(&r), [format!("mattermost://files/{png}")]);
    // What it does not read is described, with who shared it, not refused.
    let d = mcp.ok("read_file", json!({"file": video})).await;
    assert_eq!(d["items"], json!([]));
    assert_eq!(d["file"]["by"], json!("bob"));
    assert!(
        d["not_read"]
            .as_str()
            .unwrap_or_default()
            .contains("does not read"),
        "{d}"
    );
    // A file over its kind's cap is described without being downloaded.
    sim.clear_log();
    let d = mcp.ok("read_file", json!({"file": huge})).await;
    let why = d["not_read"].as_str().unwrap_or_default();
    assert!(why.contains("9 MiB") && why.contains("8 MiB"), "{d}");
    assert!(
        sim.log()
            .iter()
            .all(|r| r.path != format!("/api/v4/files/{huge}")),
        "the content of a file over the cap is never asked for"
    );
    // The bytes a first page costs, per kind (for the note).
    for (kind, file) in [
        ("pdf", &pdf),
        ("docx", &docx),
        ("xlsx", &xlsx),
        ("pptx", &pptx),
        ("zip", &zip),
        ("tar", &tar),
        ("png", &png),
    ] {
        let r = mcp.call("read_file", json!({"file": file})).await;
        let json_bytes = structured(&r).to_string().len();
        let all: usize = blocks(&r).iter().map(|b| b.to_string().len()).sum();
        eprintln!(
            "read_file {kind}: first page {json_bytes} bytes of JSON, {all} bytes of content in all"
        );
    }
}

/// A read resource's text as JSON, and its blobs' MIME types.
fn resource_json(r: &ReadResourceResult) -> (Value, Vec<String>) {
    let contents: Vec<Value> = r
        .contents
        .iter()
        .filter_map(|c| serde_json::to_value(c).ok())
        .collect();
    let text = contents
        .iter()
        .find_map(|c| c["text"].as_str())
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(Value::Null);
    let blobs = contents
        .iter()
        .filter(|c| c.get("blob").is_some())
        .map(|c| c["mimeType"].as_str().unwrap_or_default().to_string())
        .collect();
    (text, blobs)
}

async fn read(mcp: &harness::Mcp, uri: &str) -> Result<ReadResourceResult, String> {
    mcp.client
        .read_resource(ReadResourceRequestParams::new(uri.to_string()))
        .await
        .map_err(|e| e.to_string())
}

#[tokio::test(flavor = "multi_thread")]
async fn resources_are_read_and_completed_as_the_person_who_asks() {
    let mut b = base(143);
    let root = b.w.post(&b.channel, &b.bob, T0, "the budget thread");
    b.w.reply(&root, &b.alice, T0 + 10, "first reply");
    b.w.reply(&root, &b.bob, T0 + 20, "second reply");
    let sheet = b.w.attach(
        &root,
        "budget-2027.xlsx",
        &samples::xlsx(&[("Plan", vec![vec!["servers".into(), "1200".into()]])]),
    );
    let pdf =
        b.w.attach(&root, "report.pdf", &samples::pdf(&["one", "two", "three"]));
    let png = b.w.attach(&root, "chart.png", &samples::png(40, 30));
    let secret = b.w.channel(
        &b.team,
        "secret-plans",
        "Secret Plans",
        mattermost_sim::ChannelKind::Private,
    );
    b.w.join(&secret, &b.bob);
    let hidden = b.w.post(&secret, &b.bob, T0, "not for alice");
    let (_sim, mcp) = harness::start(b.w, "alice").await;

    let templates = mcp
        .client
        .list_all_resource_templates()
        .await
        .expect("resources/templates/list");
    let mut uris: Vec<String> = templates.iter().map(|t| t.uri_template.clone()).collect();
    uris.sort();
    assert_eq!(
        uris,
        [
            "mattermost://channels/{channel_id}",
            "mattermost://files/{file_id}",
            "mattermost://posts/{post_id}"
        ]
    );

    // A file, paged like the tool: next_uri reads the next page.
    let (first, _) = resource_json(
        &read(&mcp, &format!("mattermost://files/{pdf}?limit=2"))
            .await
            .expect("pdf"),
    );
    assert_eq!(texts(&first).len(), 2, "{first}");
    let next = first["next_uri"].as_str().expect("a next_uri").to_string();
    assert!(
        next.starts_with(&format!("mattermost://files/{pdf}?")),
        "{next}"
    );
    let (second, _) = resource_json(&read(&mcp, &next).await.expect("the next page"));
    assert_eq!(second["items"][0]["page"], json!(3), "{second}");
    assert!(second.get("next_uri").is_none());
    // An image as a blob beside the JSON.
    let (img, blobs) = resource_json(
        &read(&mcp, &format!("mattermost://files/{png}"))
            .await
            .expect("png"),
    );
    assert_eq!(img["image"]["width"], json!(40));
    assert_eq!(
        blobs,
        [img["image"]["mime"]
            .as_str()
            .unwrap_or_default()
            .to_string()]
    );
    // A post with its thread, and a channel's recent posts.
    let (thread, _) = resource_json(
        &read(&mcp, &format!("mattermost://posts/{root}"))
            .await
            .expect("thread"),
    );
    assert_eq!(
        texts(&thread),
        ["the budget thread", "first reply", "second reply"]
    );
    let (channel, _) = resource_json(
        &read(&mcp, &format!("mattermost://channels/{}", b.channel))
            .await
            .expect("channel"),
    );
    assert!(
        texts(&channel).contains(&"the budget thread".to_string()),
        "{channel}"
    );
    // As alice: bob's private channel and its post are not hers to read.
    let e = read(&mcp, &format!("mattermost://channels/{secret}"))
        .await
        .expect_err("not alice's");
    assert!(!e.contains("not for alice"), "{e}");
    assert!(
        read(&mcp, &format!("mattermost://posts/{hidden}"))
            .await
            .is_err()
    );
    let e = read(&mcp, "mattermost://files/report.pdf")
        .await
        .expect_err("a name is not an id");
    assert!(e.contains("`report.pdf`") && e.contains("file_id"), "{e}");

    // Completion: channels among alice's own, files through her file search.
    let found = mcp
        .client
        .complete_resource_simple("mattermost://channels/{channel_id}", "channel_id", "town")
        .await
        .expect("complete a channel");
    assert_eq!(found, [b.channel.clone()]);
    let found = mcp
        .client
        .complete_resource_simple("mattermost://channels/{channel_id}", "channel_id", "secret")
        .await
        .expect("complete a channel");
    assert!(
        found.is_empty(),
        "bob's private channel is not completed for alice: {found:?}"
    );
    let found = mcp
        .client
        .complete_resource_simple("mattermost://files/{file_id}", "file_id", "budg")
        .await
        .expect("complete a file");
    assert_eq!(found, [sheet]);

    // Tool answers link the files and posts they name.
    let r = mcp.call("read_thread", json!({"post": root})).await;
    let l = links(&r);
    assert!(l.contains(&format!("mattermost://posts/{root}")), "{l:?}");
    assert!(l.contains(&format!("mattermost://files/{pdf}")), "{l:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn prompts_name_the_tools_and_arguments_to_use() {
    let mut b = base(145);
    let root = b.w.post(&b.channel, &b.bob, T0, "a question for alice");
    let (_sim, mcp) = harness::start(b.w, "alice").await;
    let prompts = mcp.client.list_all_prompts().await.expect("prompts/list");
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["catch_up", "summarize_thread", "draft_reply"]);
    let text = |r: rmcp::model::GetPromptResult| -> String {
        r.messages
            .iter()
            .filter_map(|m| serde_json::to_value(&m.content).ok())
            .map(|c| c["text"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let get = |name: &str, args: Value| {
        let mut p = GetPromptRequestParams::new(name.to_string());
        p.arguments = Some(obj(args));
        mcp.client.get_prompt(p)
    };
    let t = text(get("catch_up", json!({})).await.expect("catch_up"));
    assert!(
        t.contains("read_inbox with limit: 200") && !t.contains("read_thread"),
        "one list to its end, no call per thread: {t}"
    );
    let t = text(
        get("summarize_thread", json!({"post": root}))
            .await
            .expect("summarize"),
    );
    assert!(
        t.contains(&format!("read_thread with post: \"{root}\"")),
        "{t}"
    );
    let t = text(
        get("draft_reply", json!({"post": root, "about": "say yes"}))
            .await
            .expect("draft"),
    );
    assert!(
        t.contains("say yes") && t.contains("does not write"),
        "without writes: {t}"
    );
    let e = get("summarize_thread", json!({}))
        .await
        .expect_err("needs a post");
    assert!(e.to_string().contains("needs `post`"), "{e}");
    let e = get("tell_jokes", json!({}))
        .await
        .expect_err("no such prompt");
    assert!(e.to_string().contains("catch_up"), "{e}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_call_reports_progress_and_once_cancelled_sends_mattermost_nothing_more() {
    let mut b = base(147);
    let teams = 12;
    for i in 0..teams {
        let t = b.w.team(&format!("team{i}"), &format!("Team {i}"), true);
        b.w.add_to_team(&t, &b.alice);
    }
    let (sim, mcp) = harness::start(b.w, "alice").await;
    let route = "/api/v4/users/{user_id}/teams/{team_id}/channels/members";
    sim.inject(FaultRule::always(
        route,
        Fault::Delay(Duration::from_millis(400)),
    ));
    let per_team = || {
        sim.log()
            .iter()
            .filter(|r| r.path.contains("/teams/") && r.path.ends_with("/channels/members"))
            .count()
    };
    // Cancelled (the call's future dropped: the client sends notifications/cancelled) once the
    // progress says it is reading the second team, however slow the machine.
    let mut call = Box::pin(mcp.call_with_progress("list_channels", json!({})));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        tokio::select! {
            r = call.as_mut() => panic!("list_channels ended before it was cancelled: {r:?}"),
            () = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
        if mcp.progress().iter().any(|p| p.contains("team 2 of 13")) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no progress in 30 s: {:?}",
            mcp.progress()
        );
    }
    drop(call);
    let at_cancel = per_team();
    tokio::time::sleep(Duration::from_millis(2000)).await;
    let after = per_team();
    let progress = mcp.progress();
    eprintln!(
        "list_channels over {} teams: {at_cancel} team reads when cancelled, {after} after 2 s; progress {progress:?}",
        teams + 1
    );
    assert!(
        progress.iter().any(|p| p.contains("team 1 of 13")),
        "progress names the team being read: {progress:?}"
    );
    assert!(at_cancel >= 1, "the call had started reading teams");
    assert!(
        after <= at_cancel + 1,
        "at most the request in flight when cancelled completes: {at_cancel} then {after}"
    );
    assert!(after < teams, "the cancelled call did not read every team");
    // The server goes on answering.
    sim.clear_faults();
    let me = mcp.ok("get_me", json!({})).await;
    assert_eq!(me["username"], json!("alice"));
}
