//! search_files and read_file: file search walked past its cap as post search is, and a text file read by lines
//! like any list (a line in pieces, pages bounded in bytes), a file it cannot read described.

use crate::harness;
use crate::reading::{T0, base, every_item_once, kept_exactly_once, page_while, set};
use serde_json::{Value, json};

fn lines_of(pages: &[Value]) -> Vec<(u64, String, bool)> {
    pages
        .iter()
        .flat_map(|p| p["items"].as_array().cloned().unwrap_or_default())
        .map(|i| {
            (
                i["line"].as_u64().unwrap_or(0),
                i["text"].as_str().unwrap_or_default().to_string(),
                i["continues"] == json!(true),
            )
        })
        .collect()
}

/// The text the items of every page spell, pieces of a line joined.
fn text_of(pages: &[Value]) -> String {
    let mut out = String::new();
    for (_, text, continues) in lines_of(pages) {
        out.push_str(&text);
        if !continues {
            out.push('\n');
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn read_file_pages_a_text_file_by_lines_at_limits_1_50_200_and_describes_what_it_cannot_read()
{
    let mut b = base(127);
    let post = b.w.post(&b.channel, &b.bob, T0, "the logs");
    let mut text = String::new();
    for i in 0..450 {
        if i == 100 {
            text.push_str(&"é".repeat(12_000));
        } else {
            text.push_str(&format!("line {i}: ünïcode ok"));
        }
        text.push_str(if i % 2 == 0 { "\n" } else { "\r\n" });
    }
    let log = b.w.attach(&post, "service.log", text.as_bytes());
    let png =
        b.w.attach(&post, "shot.png", &[0x89, b'P', b'N', b'G', 0, 1, 2]);
    let latin1 =
        b.w.attach(&post, "old.txt", &[b'c', b'a', b'f', 0xe9, b'\n']);
    let (sim, mcp) = harness::start(b.w, "alice").await;
    let expected = text.replace("\r\n", "\n");
    for limit in [1u32, 50, 200] {
        sim.clear_log();
        let pages = mcp
            .pages("read_file", json!({"file": log, "limit": limit}))
            .await;
        assert_eq!(
            text_of(&pages),
            expected,
            "limit {limit}: the pages spell the file"
        );
        assert_eq!(pages[0]["total"], json!(450));
        assert_eq!(pages[0]["file"]["name"], json!("service.log"));
        for p in &pages {
            let bytes: usize = lines_of(std::slice::from_ref(p))
                .iter()
                .map(|l| l.1.len())
                .sum();
            assert!(
                bytes <= 32 * 1024,
                "limit {limit}: a page holds at most 32 KiB"
            );
            assert!(p["returned"].as_u64().unwrap_or(0) <= u64::from(limit));
        }
        let numbers: Vec<u64> = lines_of(&pages).iter().map(|l| l.0).collect();
        assert!(
            numbers.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1),
            "lines in order"
        );
        let info = sim
            .log()
            .iter()
            .filter(|r| r.path.ends_with("/info"))
            .count();
        assert_eq!(
            info, 1,
            "limit {limit}: the file is described once, on the first page"
        );
        if limit == 200 {
            eprintln!(
                "read_file 450 lines (one of 24 KB) at limit 200: {} pages, {} requests",
                pages.len(),
                sim.log().len()
            );
        }
    }
    let again: Vec<Value> = mcp
        .pages("read_file", json!({"file": log, "limit": 50}))
        .await;
    let once: Vec<Value> = mcp
        .pages("read_file", json!({"file": log, "limit": 50}))
        .await;
    assert_eq!(
        lines_of(&again),
        lines_of(&once),
        "the same arguments give the same pages"
    );
    let link = format!("{}/api/v4/files/{log}/preview", sim.url());
    let first = mcp.ok("read_file", json!({"file": link, "limit": 3})).await;
    assert_eq!(first["items"][0]["text"], json!("line 0: ünïcode ok"));

    // A PNG whose header is cut short is described, not refused: who shared it, and why not read.
    let d = mcp.ok("read_file", json!({"file": png})).await;
    assert_eq!(d["items"], json!([]));
    assert_eq!(d["file"]["name"], json!("shot.png"));
    assert_eq!(d["file"]["size"], json!(7));
    assert_eq!(d["file"]["by"], json!("bob"));
    let why = d["not_read"].as_str().unwrap_or_default();
    assert!(why.contains("header"), "{d}");
    // Text in another encoding is read, with a note saying which.
    let l = mcp.ok("read_file", json!({"file": latin1})).await;
    assert_eq!(l["items"][0]["text"], json!("café"), "{l}");
    assert!(l["notes"].to_string().contains("Windows-1252"), "{l}");
    let e = mcp.refused("read_file", json!({"file": "notes.txt"})).await;
    assert_eq!(e["kind"], json!("bad_argument"));
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("`notes.txt`")
    );
}

/// `n` posts by bob, two to a millisecond an hour apart, each with a file named `<stem>-<i>.txt`: the
/// posts' and the files' ids.
fn attach_files(
    b: &mut crate::reading::Base,
    n: usize,
    stem: &str,
    start: i64,
) -> Vec<(String, String)> {
    (0..n)
        .map(|i| {
            let t = start + (i / 2) as i64 * 3_600_000;
            let post = b.w.post(&b.channel, &b.bob, t, "a file");
            let file = b.w.attach(
                &post,
                &format!("{stem}-{i}.txt"),
                format!("report {stem} {i}").as_bytes(),
            );
            (post, file)
        })
        .collect()
}

fn file_ids(pairs: &[(String, String)]) -> std::collections::BTreeSet<String> {
    set(pairs.iter().map(|p| p.1.clone()))
}

#[tokio::test(flavor = "multi_thread")]
async fn search_files_reads_every_match_once_past_mattermosts_cap() {
    let mut b = base(131);
    let few = file_ids(&attach_files(&mut b, 70, "budget", T0));
    let many = file_ids(&attach_files(&mut b, 130, "minutes", T0));
    let team = b.team.clone();
    let (_sim, mcp) = harness::start(b.w, "alice").await;
    every_item_once(
        &mcp,
        "search_files",
        json!({"terms": "budget"}),
        [1, 9, 200],
        &few,
    )
    .await;
    every_item_once(
        &mcp,
        "search_files",
        json!({"terms": "budget", "team": team}),
        [1, 9, 200],
        &few,
    )
    .await;
    let first = mcp
        .ok("search_files", json!({"terms": "budget", "limit": 5}))
        .await;
    assert!(first.get("capped").is_none());
    assert_eq!(first["items"][0]["channel"], json!("~town-square"));
    assert_eq!(first["items"][0]["by"], json!("bob"));
    // 130 matches over three days: past the cap of 100, walked back by a date window, not capped.
    let page = mcp
        .ok("search_files", json!({"terms": "minutes", "limit": 200}))
        .await;
    assert!(page.get("capped").is_none(), "no day holds 100");
    every_item_once(
        &mcp,
        "search_files",
        json!({"terms": "minutes"}),
        [1, 9, 200],
        &many,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn search_files_while_files_come_and_go_lists_each_remaining_file_once() {
    let mut b = base(137);
    let files = attach_files(&mut b, 60, "plan", T0);
    let channel = b.channel.clone();
    let (sim, mcp) = harness::start(b.w, "alice").await;
    let doomed: Vec<(String, String)> = files.iter().skip(3).step_by(8).cloned().collect();
    let seen = page_while(&mcp, "search_files", json!({"terms": "plan"}), 7, |round| {
        sim.with_world(|w| {
            let bob = w.user_id("bob").unwrap_or_default();
            let post = w.post(&channel, &bob, T0 + 900_000_000 + round as i64, "late");
            w.attach(
                &post,
                &format!("plan-late-{round}.txt"),
                b"report plan late",
            );
            if let Some((post, _)) = doomed.get(round) {
                w.delete(post, T0 + 950_000_000);
            }
        })
    })
    .await;
    let kept: Vec<(String, String)> = files.into_iter().filter(|f| !doomed.contains(f)).collect();
    kept_exactly_once(
        &seen,
        &file_ids(&kept),
        "search_files while files come and go",
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn read_file_reads_the_file_of_the_permalink_search_answers_and_names_who_shared_it() {
    let mut b = base(139);
    let post = b.w.post(&b.channel, &b.bob, T0, "the agenda");
    let agenda =
        b.w.attach(&post, "agenda.md", b"# Agenda\n\n- budget\n- hiring\n");
    let two = b.w.post(&b.channel, &b.bob, T0 + 5, "two files");
    let a = b.w.attach(&two, "a.txt", b"first file\n");
    let c = b.w.attach(&two, "c.txt", b"second file\n");
    let plain = b.w.post(&b.channel, &b.bob, T0 + 9, "no file here");
    let (sim, mcp) = harness::start(b.w, "alice").await;
    let found = mcp
        .ok("search_files", json!({"terms": "agenda", "limit": 5}))
        .await;
    assert_eq!(found["items"][0]["id"], json!(agenda));
    let permalink = found["items"][0]["permalink"]
        .as_str()
        .expect("a file item's permalink")
        .to_string();
    sim.clear_log();
    let pages = mcp
        .pages("read_file", json!({"file": permalink, "limit": 2}))
        .await;
    let post_reads = sim
        .log()
        .iter()
        .filter(|r| r.path.contains("/posts/"))
        .count();
    assert_eq!(
        post_reads, 1,
        "the post is read once, on the first page; the cursor keeps the file"
    );
    assert_eq!(text_of(&pages), "# Agenda\n\n- budget\n- hiring\n");
    assert_eq!(pages[0]["file_id"], json!(agenda));
    assert_eq!(pages[0]["file"]["name"], json!("agenda.md"));
    assert_eq!(
        pages[0]["file"]["by"],
        json!("bob"),
        "who shared it, by username"
    );
    assert!(pages[0]["file"].get("author_id").is_none());
    assert!(pages.len() > 1, "more than one page");
    sim.clear_log();
    let by_id = mcp
        .pages("read_file", json!({"file": agenda, "limit": 2}))
        .await;
    assert_eq!(lines_of(&by_id), lines_of(&pages));
    assert_eq!(by_id[0]["file"]["by"], json!("bob"));
    assert!(
        sim.log().iter().all(|r| !r.path.contains("/posts/")),
        "a file named by id needs no post"
    );
    // A post with two files: which one to read.
    let e = mcp
        .refused(
            "read_file",
            json!({"file": format!("{}/_redirect/pl/{two}", sim.url())}),
        )
        .await;
    assert_eq!(e["kind"], json!("ambiguous"), "{e}");
    let listed: std::collections::BTreeSet<String> = e["files"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| f["id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(listed, set([a, c]));
    // A post with no file says so.
    let e = mcp
        .refused(
            "read_file",
            json!({"file": format!("{}/eng/pl/{plain}", sim.url())}),
        )
        .await;
    assert_eq!(e["kind"], json!("not_found"), "{e}");
    let e = mcp.refused("read_file", json!({"file": two})).await;
    assert_eq!(e["kind"], json!("not_found"));
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("permalink"),
        "a post's id given as a file's says what to pass: {e}"
    );
}
