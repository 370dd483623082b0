//! The undocumented parameters of `overrides/parameters/`, each shown being read by the server: the
//! generated client sends it as an ordinary typed parameter, and the answer differs with and without it.
//! Each test is named in its override file's `test:` (a governance test keeps the two in step).

use mattermost_mcp::config::{Config, Secret};
use mattermost_mcp::mattermost::{Mattermost, Maybe, MmError, as_person, types};
use mattermost_sim::{ChannelKind, Sim, World};
use progenitor_client::ResponseValue;

const T0: i64 = 1_700_000_000_000;

struct Fixture {
    world: World,
    team: String,
    channel: String,
    alice: String,
    bob: String,
}

fn fixture() -> Fixture {
    let mut w = World::new(31);
    let alice = w.user("alice");
    let bob = w.user("bob");
    let team = w.team("eng", "Engineering", true);
    w.add_to_team(&team, &alice);
    w.add_to_team(&team, &bob);
    let channel = w.channel(&team, "general", "General", ChannelKind::Public);
    w.join(&channel, &alice);
    w.join(&channel, &bob);
    Fixture {
        world: w,
        team,
        channel,
        alice,
        bob,
    }
}

/// A connection to the simulator as one person, outside any tool.
struct Direct {
    mm: Mattermost,
    token: Secret,
}

impl std::ops::Deref for Direct {
    type Target = Mattermost;
    fn deref(&self) -> &Mattermost {
        &self.mm
    }
}

async fn client(sim: &Sim, user: &str) -> Direct {
    let config = Config::from(|k| match k {
        "MATTERMOST_URL" => Some(sim.url()),
        "MATTERMOST_TOKEN" => Some(sim.token(user)),
        _ => None,
    })
    .expect("config");
    Direct {
        mm: config.connect().expect("client"),
        token: config.token,
    }
}

/// Sends a generated request of `operation` as the connection's person.
async fn send<T>(
    mm: &Direct,
    operation: &'static str,
    request: impl Future<Output = Result<ResponseValue<T>, progenitor_client::Error<types::AppError>>>,
) -> Result<ResponseValue<T>, MmError> {
    as_person(
        &mm.token,
        &[operation],
        mattermost_mcp::mattermost::send(request),
    )
    .await
}

fn sent(sim: &Sim, name: &str, value: &str) -> bool {
    sim.log().iter().any(|r| {
        r.param(name) == Some(value)
            || r.body
                .as_deref()
                .is_some_and(|b| b.contains(&format!("\"{name}\":{value}")))
    })
}

async fn posts(
    mm: &Direct,
    channel: &str,
    per_page: i64,
    collapsed: Option<bool>,
    extended: Option<bool>,
    skip: Option<bool>,
) -> types::PostList {
    send(
        mm,
        "GetPostsForChannel",
        mm.api()
            .get_posts_for_channel()
            .channel_id(channel)
            .maybe(collapsed, |b, v| b.collapsed_threads(v))
            .maybe(extended, |b, v| b.collapsed_threads_extended(v))
            .page(0)
            .per_page(per_page)
            .maybe(skip, |b, v| b.skip_fetch_threads(v))
            .send(),
    )
    .await
    .expect("posts")
    .into_inner()
}

#[tokio::test(flavor = "multi_thread")]
async fn get_posts_for_channel_reads_collapsed_threads() {
    let mut f = fixture();
    let root = f.world.post(&f.channel, &f.alice, T0, "a root");
    f.world.reply(&root, &f.bob, T0 + 1, "a reply");
    f.world.reply(&root, &f.bob, T0 + 2, "another reply");
    f.world.post(&f.channel, &f.bob, T0 + 3, "another root");
    let sim = Sim::start(f.world).await.expect("sim");
    let mm = client(&sim, "alice").await;
    let all = posts(&mm, &f.channel, 60, None, None, None).await;
    let roots = posts(&mm, &f.channel, 60, Some(true), None, None).await;
    assert_eq!(all.order.unwrap_or_default().len(), 4);
    assert_eq!(
        roots.order.unwrap_or_default().len(),
        2,
        "collapsedThreads=true answers thread roots only"
    );
    assert!(sent(&sim, "collapsedThreads", "true"));
}

#[tokio::test(flavor = "multi_thread")]
async fn get_posts_for_channel_reads_collapsed_threads_extended() {
    let mut f = fixture();
    let root = f.world.post(&f.channel, &f.alice, T0, "a root");
    f.world.reply(&root, &f.bob, T0 + 1, "a reply");
    let sim = Sim::start(f.world).await.expect("sim");
    let mm = client(&sim, "alice").await;
    let participants = |list: types::PostList| -> Vec<Option<String>> {
        list.posts
            .unwrap_or_default()
            .remove(&root)
            .and_then(|p| p.participants)
            .unwrap_or_default()
            .into_iter()
            .map(|u| u.username.filter(|n| !n.is_empty()))
            .collect()
    };
    let plain = participants(posts(&mm, &f.channel, 60, Some(true), None, None).await);
    let extended = participants(posts(&mm, &f.channel, 60, Some(true), Some(true), None).await);
    assert!(
        !plain.is_empty() && plain.iter().all(Option::is_none),
        "without it participants carry only ids: {plain:?}"
    );
    assert!(
        extended.contains(&Some("bob".into())),
        "collapsedThreadsExtended=true expands participants: {extended:?}"
    );
    assert!(sent(&sim, "collapsedThreadsExtended", "true"));
}

#[tokio::test(flavor = "multi_thread")]
async fn get_posts_for_channel_reads_skip_fetch_threads() {
    let mut f = fixture();
    let root = f.world.post(&f.channel, &f.alice, T0, "a root");
    for k in 1..=5 {
        f.world.reply(&root, &f.bob, T0 + k, "a reply");
    }
    let sim = Sim::start(f.world).await.expect("sim");
    let mm = client(&sim, "alice").await;
    // A page of the newest reply alone: without skipFetchThreads the whole thread comes along in `posts`.
    let fetched = posts(&mm, &f.channel, 1, None, None, None)
        .await
        .posts
        .unwrap_or_default()
        .len();
    let skipped = posts(&mm, &f.channel, 1, None, None, Some(true))
        .await
        .posts
        .unwrap_or_default()
        .len();
    assert_eq!(
        fetched, 6,
        "the thread's root and other replies are added to posts"
    );
    assert!(
        skipped < fetched,
        "skipFetchThreads=true leaves the thread out ({skipped} posts)"
    );
    assert!(sent(&sim, "skipFetchThreads", "true"));
}

/// Three followed threads of alice's, replied to at T0+10, T0+20 and T0+30, the middle one read.
async fn threads_fixture() -> (Sim, Direct, String, [String; 3]) {
    let mut f = fixture();
    let mut roots = Vec::new();
    for k in 1..=3i64 {
        let root = f.world.post(&f.channel, &f.alice, T0 + k, "a thread");
        f.world.follow(&f.alice, &root);
        f.world.reply(&root, &f.bob, T0 + 10 * k, "a reply");
        roots.push(root);
    }
    f.world.view_thread(&f.alice, &roots[1], T0 + 100);
    let sim = Sim::start(f.world).await.expect("sim");
    let mm = client(&sim, "alice").await;
    let roots = [roots[0].clone(), roots[1].clone(), roots[2].clone()];
    (sim, mm, f.team, roots)
}

async fn threads(
    mm: &Direct,
    team: &str,
    after: Option<&str>,
    before: Option<&str>,
    exclude_direct: Option<bool>,
    unread: Option<bool>,
) -> Vec<String> {
    send(
        mm,
        "GetUserThreads",
        mm.api()
            .get_user_threads()
            .user_id("me")
            .team_id(team)
            .maybe(after, |b, v| b.after(v))
            .maybe(before, |b, v| b.before(v))
            .maybe(exclude_direct, |b, v| b.exclude_direct(v))
            .per_page(200)
            .maybe(unread, |b, v| b.unread(v))
            .send(),
    )
    .await
    .expect("threads")
    .into_inner()
    .threads
    .unwrap_or_default()
    .into_iter()
    .filter_map(|t| t.id)
    .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn get_user_threads_reads_before() {
    let (sim, mm, team, roots) = threads_fixture().await;
    assert_eq!(
        threads(&mm, &team, None, None, None, None).await,
        [roots[2].clone(), roots[1].clone(), roots[0].clone()]
    );
    assert_eq!(
        threads(&mm, &team, None, Some(&roots[2]), None, None).await,
        [roots[1].clone(), roots[0].clone()],
        "before= pages back by last reply"
    );
    assert!(sent(&sim, "before", &roots[2]));
}

#[tokio::test(flavor = "multi_thread")]
async fn get_user_threads_reads_after() {
    let (sim, mm, team, roots) = threads_fixture().await;
    assert_eq!(
        threads(&mm, &team, Some(&roots[0]), None, None, None).await,
        [roots[1].clone(), roots[2].clone()],
        "after= reads newer threads, oldest first"
    );
    assert!(sent(&sim, "after", &roots[0]));
}

#[tokio::test(flavor = "multi_thread")]
async fn get_user_threads_reads_unread() {
    let (sim, mm, team, roots) = threads_fixture().await;
    assert_eq!(
        threads(&mm, &team, None, None, None, Some(true)).await,
        [roots[2].clone(), roots[0].clone()],
        "unread=true leaves out the thread read"
    );
    assert!(sent(&sim, "unread", "true"));
}

#[tokio::test(flavor = "multi_thread")]
async fn get_user_threads_reads_exclude_direct() {
    let mut f = fixture();
    let dm = f.world.direct(&f.alice, &f.bob);
    let direct_root = f.world.post(&dm, &f.bob, T0, "a DM thread");
    f.world.follow(&f.alice, &direct_root);
    f.world.reply(&direct_root, &f.bob, T0 + 5, "a reply");
    let team_root = f.world.post(&f.channel, &f.bob, T0 + 1, "a team thread");
    f.world.follow(&f.alice, &team_root);
    f.world.reply(&team_root, &f.bob, T0 + 6, "a reply");
    let sim = Sim::start(f.world).await.expect("sim");
    let mm = client(&sim, "alice").await;
    assert_eq!(
        threads(&mm, &f.team, None, None, None, None).await.len(),
        2,
        "DM threads appear under the team"
    );
    assert_eq!(
        threads(&mm, &f.team, None, None, Some(true), None).await,
        [team_root],
        "excludeDirect=true leaves them out"
    );
    assert!(sent(&sim, "excludeDirect", "true"));
}

#[tokio::test(flavor = "multi_thread")]
async fn view_channel_reads_collapsed_threads_supported() {
    let mut f = fixture();
    let root = f.world.post(&f.channel, &f.alice, T0, "a root");
    f.world.follow(&f.alice, &root);
    f.world.reply(&root, &f.bob, T0 + 1, "unread by alice");
    let sim = Sim::start(f.world).await.expect("sim");
    let mm = client(&sim, "alice").await;
    let view = |supported: Option<bool>| types::ViewChannelBody {
        channel_id: f.channel.clone(),
        prev_channel_id: None,
        collapsed_threads_supported: supported,
    };
    send(
        &mm,
        "ViewChannel",
        mm.api()
            .view_channel()
            .user_id("me")
            .body(view(Some(true)))
            .send(),
    )
    .await
    .expect("view");
    assert_eq!(
        threads(&mm, &f.team, None, None, None, Some(true))
            .await
            .len(),
        1,
        "true keeps the thread unread"
    );
    // Mattermost marks threads read only along with a channel that has something unread
    // (MarkChannelsAsViewed), and the first view read it all: a new post makes the second view count.
    sim.with_world(|w| w.post(&f.channel, &f.bob, T0 + 2, "news"));
    send(
        &mm,
        "ViewChannel",
        mm.api()
            .view_channel()
            .user_id("me")
            .body(view(Some(false)))
            .send(),
    )
    .await
    .expect("view");
    assert!(
        threads(&mm, &f.team, None, None, None, Some(true))
            .await
            .is_empty(),
        "false marks the channel's threads read too"
    );
    assert!(sent(&sim, "collapsed_threads_supported", "true"));
}
