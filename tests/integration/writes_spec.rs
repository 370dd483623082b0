//! The undocumented parameters the writing tools send (`overrides/parameters/`), each shown being read
//! by the server: the answer differs with and without it.

use crate::writes_fixture::{Direct, world};
use mattermost_mcp::mattermost::types;
use mattermost_sim::Sim;

fn body(channel: &str, message: &str, pending: Option<&str>) -> types::CreatePostBody {
    types::CreatePostBody {
        channel_id: channel.to_string(),
        message: message.to_string(),
        root_id: None,
        file_ids: None,
        props: None,
        metadata: None,
        pending_post_id: pending.map(str::to_string),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn create_post_reads_pending_post_id() {
    let (w, ids) = world();
    let sim = Sim::start(w).await.expect("sim");
    let alice = Direct::new(&sim, "alice");
    let pending = format!("{}:0123456789abcdef0123456789abcdef", ids.alice);
    let mut made = Vec::new();
    for _ in 0..2 {
        let p = alice
            .send(
                "CreatePost",
                alice
                    .mm
                    .api()
                    .create_post()
                    .body(body(&ids.town, "with an id", Some(&pending)))
                    .send(),
            )
            .await
            .expect("posted");
        made.push(p.id.unwrap_or_default());
    }
    assert_eq!(
        made[0], made[1],
        "the same pending_post_id answers the post already made"
    );
    let mut plain = Vec::new();
    for _ in 0..2 {
        let p = alice
            .send(
                "CreatePost",
                alice
                    .mm
                    .api()
                    .create_post()
                    .body(body(&ids.town, "without", None))
                    .send(),
            )
            .await
            .expect("posted");
        plain.push(p.id.unwrap_or_default());
    }
    assert_ne!(plain[0], plain[1], "without it, two posts");
}

#[tokio::test(flavor = "multi_thread")]
async fn get_client_config_reads_format() {
    let (w, _) = world();
    let sim = Sim::start(w).await.expect("sim");
    let alice = Direct::new(&sim, "alice");
    let config = mattermost_mcp::mattermost::as_person(
        &mattermost_mcp::config::Secret::new(sim.token("alice")),
        &["GetClientConfig"],
        alice.mm.api().get_client_config().format("old").send(),
    )
    .await
    .expect("format=old is served")
    .into_inner();
    assert_eq!(config.get("MaxPostSize").map(String::as_str), Some("16383"));
    let without = mattermost_mcp::mattermost::as_person(
        &mattermost_mcp::config::Secret::new(sim.token("alice")),
        &["GetClientConfig"],
        alice.mm.api().get_client_config().send(),
    )
    .await;
    assert!(
        matches!(&without, Err(progenitor_client::Error::UnexpectedResponse(r)) if r.status().as_u16() == 501),
        "without format the server answers 501"
    );
}
