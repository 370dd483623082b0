//! File uploads (`api4/file.go` `uploadFileStream`) and attaching them to posts
//! (`App.attachFilesToPost`), plus the client config the product reads its limits from.

use mattermost_sim::ChannelKind;
use serde_json::json;

use crate::common::*;
use crate::write_client::{FormPart, multipart};

async fn upload(c: &Client, query: &str, parts: &[FormPart<'_>]) -> Resp {
    let (ct, body) = multipart(parts);
    c.post_bytes(&format!("/files{query}"), &ct, body).await
}

fn file_ids(r: &Resp) -> Vec<String> {
    ids(&r.json()["file_infos"])
}

#[tokio::test]
async fn a_multipart_upload_answers_the_file_infos_and_echoes_the_client_ids() {
    let f = fixture();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = upload(
        &c,
        &format!("?channel_id={town}"),
        &[
            ("client_ids", None, b"c1"),
            ("client_ids", None, b"c2"),
            ("files", Some("notes.txt"), b"hello"),
            ("anything", Some("dir/report.pdf"), b"%PDF-1.4"),
        ],
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let v = r.json();
    assert_eq!(v["client_ids"], json!(["c1", "c2"]));
    let infos = v["file_infos"].as_array().unwrap();
    assert_eq!(infos.len(), 2);
    assert_eq!(infos[0]["name"], "notes.txt");
    assert_eq!(infos[0]["extension"], "txt");
    assert_eq!(infos[0]["size"], 5);
    assert_eq!(infos[0]["mime_type"], "text/plain; charset=utf-8");
    assert_eq!(infos[0]["channel_id"], json!(town));
    assert!(
        infos[0].get("post_id").is_none(),
        "not attached: no post_id"
    );
    assert_eq!(infos[1]["name"], "report.pdf", "the base name");
    let id = infos[0]["id"].as_str().unwrap();
    let info = c.get(&format!("/files/{id}/info")).await;
    assert_eq!(info.status, 200, "{}", info.text);
    assert_eq!(c.get(&format!("/files/{id}")).await.text, "hello");
}

#[tokio::test]
async fn the_channel_may_be_a_form_field_and_client_ids_may_be_left_out() {
    let f = fixture();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let r = upload(
        &c,
        "",
        &[
            ("channel_id", None, town.as_bytes()),
            ("files", Some("a.md"), b"# hi"),
        ],
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json()["client_ids"], json!([]));
    assert_eq!(
        r.json()["file_infos"][0]["mime_type"],
        "text/markdown; charset=utf-8"
    );
    let r = upload(
        &c,
        "",
        &[
            ("files", Some("late.txt"), b"x"),
            ("other", Some("skipped.txt"), b"y"),
            ("channel_id", None, town.as_bytes()),
        ],
    )
    .await;
    assert_eq!(
        r.status, 201,
        "a file before the channel: the whole form is read (legacy)"
    );
    let v = r.json();
    let names: Vec<&str> = v["file_infos"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["name"].as_str())
        .collect();
    assert_eq!(names, vec!["late.txt"], "only `files` parts count there");
}

#[tokio::test]
async fn uploads_the_server_refuses() {
    let mut f = fixture();
    f.world.set_max_file_size(10);
    let (town, private) = (f.town.clone(), f.private.clone());
    let (sim, c) = start(f.world, "carol").await;
    let cases: Vec<(String, Vec<FormPart>, u16, &str)> = vec![
        (
            String::new(),
            vec![("files", Some("a.txt"), b"x")],
            400,
            "api.context.invalid_body_param.app_error",
        ),
        (
            format!("?channel_id={town}"),
            vec![
                ("channel_id", None, private.as_bytes()),
                ("files", Some("a.txt"), b"x"),
            ],
            400,
            "api.file.upload_file.multiple_channel_ids.app_error",
        ),
        (
            format!("?channel_id={town}"),
            vec![
                ("client_ids", None, b"1"),
                ("files", Some("a.txt"), b"x"),
                ("files", Some("b.txt"), b"y"),
            ],
            400,
            "api.context.invalid_body_param.app_error",
        ),
        (
            format!("?channel_id={town}"),
            vec![
                ("client_ids", None, b"1"),
                ("client_ids", None, b"2"),
                ("files", Some("a.txt"), b"x"),
            ],
            400,
            "api.file.upload_file.incorrect_number_of_client_ids.app_error",
        ),
        (
            format!("?channel_id={town}"),
            vec![("surprise", None, b"1"), ("files", Some("a.txt"), b"x")],
            400,
            "api.context.invalid_body_param.app_error",
        ),
        (
            format!("?channel_id={private}"),
            vec![("files", Some("a.txt"), b"x")],
            403,
            "api.context.permissions.app_error",
        ),
        (
            "?channel_id=short".to_string(),
            vec![("files", Some("a.txt"), b"x")],
            400,
            "api.context.invalid_url_param.app_error",
        ),
        (
            format!("?channel_id={town}"),
            vec![("files", Some("big.bin"), b"01234567890")],
            413,
            "api.file.upload_file.too_large_detailed.app_error",
        ),
    ];
    for (query, parts, status, id) in cases {
        let r = upload(&c, &query, &parts).await;
        assert_eq!(
            (r.status, r.error_id()),
            (status, id.to_string()),
            "{query} {parts:?}"
        );
    }
    for (ct, body) in [
        (
            "multipart/form-data; boundary=zz",
            b"this is not multipart".to_vec(),
        ),
        (
            "multipart/form-data; boundary=zz",
            b"--zz\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a\"\r\n\r\nno end"
                .to_vec(),
        ),
        ("multipart/form-data", b"--zz--".to_vec()),
        ("multipart/form-data; boundary=zz", Vec::new()),
        (
            "multipart/form-data; boundary=zz",
            vec![0xff, 0xfe, 0x00, 0x2d, 0x2d],
        ),
    ] {
        let r = c
            .post_bytes(&format!("/files?channel_id={town}"), ct, body)
            .await;
        assert_eq!(r.status, 400, "{ct}: {}", r.text);
        assert_eq!(r.error_id(), "api.file.upload_file.read_request.app_error");
    }
    let r = c
        .post_bytes(
            &format!("/files?channel_id={town}"),
            "application/octet-stream",
            b"raw".to_vec(),
        )
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (400, "api.context.invalid_url_param.app_error"),
        "simple upload without filename"
    );
    let r = c
        .post_bytes(
            &format!("/files?channel_id={town}&filename=raw.txt&client_id=k"),
            "application/octet-stream",
            b"raw".to_vec(),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json()["client_ids"], json!(["k"]));
    sim.with_world(|w| w.set_file_attachments_enabled(false));
    let r = upload(
        &c,
        &format!("?channel_id={town}"),
        &[("files", Some("a.txt"), b"x")],
    )
    .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (403, "api.file.attachments.disabled.app_error")
    );
}

#[tokio::test]
async fn a_post_attaches_only_the_posters_unattached_uploads_and_moves_them_to_its_channel() {
    let mut f = fixture();
    let dev = f.world.channel(&f.team, "dev", "Dev", ChannelKind::Public);
    f.world.join(&dev, &f.alice);
    let town = f.town.clone();
    let (sim, alice) = start(f.world, "alice").await;
    let mine = file_ids(
        &upload(
            &alice,
            &format!("?channel_id={dev}"),
            &[
                ("files", Some("a.txt"), b"a"),
                ("files", Some("b.txt"), b"b"),
            ],
        )
        .await,
    );
    let bob = Client::new(&sim, "bob");
    let theirs = file_ids(
        &upload(
            &bob,
            &format!("?channel_id={town}"),
            &[("files", Some("c.txt"), b"c")],
        )
        .await,
    );
    let asked = vec![
        mine[0].clone(),
        mine[1].clone(),
        theirs[0].clone(),
        mine[0].clone(),
    ];
    let r = alice
        .create_post(json!({"channel_id": town, "message": "files", "file_ids": asked}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let post = r.json();
    assert_eq!(
        strings(&post["file_ids"]),
        mine,
        "duplicates and bob's upload are dropped"
    );
    assert!(
        post["update_at"].as_i64() >= post["create_at"].as_i64(),
        "overwritten after the partial attach"
    );
    let pid = post["id"].as_str().unwrap().to_string();
    let info = alice.get(&format!("/files/{}/info", mine[0])).await.json();
    assert_eq!(info["post_id"], json!(pid));
    assert_eq!(
        info["channel_id"],
        json!(town),
        "the file moved to the post's channel"
    );
    let on_post = alice.get(&format!("/posts/{pid}/files/info")).await.json();
    assert_eq!(on_post.as_array().map(Vec::len), Some(2));
    let again = alice
        .create_post(json!({"channel_id": town, "message": "again", "file_ids": [mine[0]]}))
        .await
        .json();
    assert!(
        strings(&again["file_ids"]).is_empty(),
        "an attached file is not attached twice"
    );
}

#[tokio::test]
async fn at_most_10_file_ids_fit_a_post() {
    let f = fixture();
    let town = f.town.clone();
    let (_sim, c) = start(f.world, "alice").await;
    let eleven: Vec<String> = (0..11).map(|i| format!("{i:026}")).collect();
    let r = c
        .create_post(json!({"channel_id": town, "message": "x", "file_ids": eleven}))
        .await;
    assert_eq!(
        (r.status, r.error_id().as_str()),
        (400, "model.post.is_valid.file_ids.app_error")
    );
}

#[tokio::test]
async fn the_client_config_reports_the_post_and_file_limits() {
    let mut f = fixture();
    f.world.set_max_file_size(5 * 1024 * 1024);
    let (sim, c) = start(f.world, "alice").await;
    let cfg = c.get("/config/client?format=old").await.json();
    assert_eq!(cfg["MaxPostSize"], "16383");
    assert_eq!(cfg["MaxFileSize"], "5242880");
    assert_eq!(cfg["EnableFileAttachments"], "true");
    assert_eq!(cfg["AllowSyncedDrafts"], "true");
    let anonymous = Client::anonymous(&sim)
        .get("/config/client?format=old")
        .await
        .json();
    assert!(
        anonymous.get("MaxFileSize").is_none(),
        "the limited config has no limits"
    );
}
