//! `World::demo()`: a small realistic workspace for the `demo` command and for trying tools by
//! hand, served as user `demo` (`Sim::token("demo")`): two teams, ten users (a bot, a deactivated
//! user), channels of every kind (a public channel demo has not joined; two of demo's channels
//! called "Random", in different teams; an archived one), a few thousand posts over the last 60
//! days with threads, same-millisecond posts, edits, deletions, reactions (several emoji and
//! people, demo's own among them), pins, attachments of many kinds (text, PDF, a large PNG, Word,
//! Excel, PowerPoint, zip, tar), posts and replies that mention `@demo`, 230 saved posts, followed
//! threads with unread replies, drafts, custom emoji and statuses.
//!
//! The posts are written in time order, as the real server's clock would have them, so each
//! channel's counts are the ones the server keeps: `total_msg_count - msg_count` is the number of
//! posts written since demo last viewed the channel and `mention_count` the mentions among them;
//! demo writes nothing after viewing a channel, so demo's own posts are never unread.

use std::sync::OnceLock;

mod inbox;
mod search_history;

use crate::clock::now_ms;
use crate::rng::Rng;
use crate::samples;
use crate::world::{ChannelKind, World};

const DAY: i64 = 86_400_000;
const HOUR: i64 = 3_600_000;

const SUBJECTS: &[&str] = &[
    "the release branch",
    "the login page",
    "our CI pipeline",
    "the search index",
    "the new onboarding flow",
    "the billing service",
    "the mobile build",
    "the staging cluster",
    "the API docs",
    "the Q3 roadmap",
    "the design review",
    "the database migration",
    "the flaky test",
    "the incident report",
    "the customer demo",
];
const VERBS: &[&str] = &[
    "is ready for review",
    "needs another look",
    "is blocked on",
    "just shipped",
    "broke again after",
    "looks good to me",
    "should be split up",
    "was rolled back",
    "is waiting for QA",
    "got a lot faster",
];
const TAILS: &[&str] = &[
    "",
    " today",
    " — can someone help?",
    " :tada:",
    " before Friday",
    " after the last deploy",
    " (see the doc)",
    ", thanks everyone",
    " #release",
    " #bug",
    " #design",
    " #oncall",
];
const REPLIES: &[&str] = &[
    "On it.",
    "Thanks, looking now.",
    "+1",
    "I can take this one.",
    "Should be fixed in the next build.",
    "Can you share the logs?",
    "Done, please re-check.",
    "Let's discuss in standup.",
    "Agreed.",
    "Not sure, maybe ask in #engineering?",
    "Merged!",
    "Works for me now.",
];
const EMOJI: &[&str] = &[
    "+1",
    "tada",
    "eyes",
    "heart",
    "white_check_mark",
    "rocket",
    "party_parrot",
];

fn sentence(rng: &mut Rng) -> String {
    format!(
        "{} {}{}",
        rng.pick(SUBJECTS),
        rng.pick(VERBS),
        rng.pick(TAILS)
    )
}

/// The demo's large image, made once per process (2400×1600, so a reader has to scale it).
fn dashboard_png() -> &'static [u8] {
    static PNG: OnceLock<Vec<u8>> = OnceLock::new();
    PNG.get_or_init(|| samples::png(2400, 1600))
}

/// One step of the demo's timeline.
enum Step {
    /// A root post: channel, author, message, the key its id is kept under, attachments.
    Root(String, String, String, usize, Vec<(String, Vec<u8>)>),
    /// A reply: the root's key, author, message.
    Reply(usize, String, String),
    /// demo views a channel.
    View(String),
}

/// Add a root post to the timeline; returns its key.
fn special(
    timeline: &mut Vec<(i64, Step)>,
    roots: &mut Vec<(String, i64)>,
    t: i64,
    cid: &str,
    author: &str,
    msg: &str,
    files: Vec<(String, Vec<u8>)>,
) -> usize {
    let key = roots.len();
    roots.push((cid.to_string(), t));
    timeline.push((
        t,
        Step::Root(
            cid.to_string(),
            author.to_string(),
            msg.to_string(),
            key,
            files,
        ),
    ));
    key
}

impl World {
    /// The demo workspace; the user to log in as is `demo`.
    pub fn demo() -> World {
        let mut w = World::new(42);
        let mut rng = Rng::new(4242);
        let now = now_ms();
        let start = now - 60 * DAY;

        let names = [
            "demo", "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi",
        ];
        let ids: Vec<String> = names.iter().map(|n| w.user(n)).collect();
        let bot = w.bot("ci-bot");
        let (demo, alice, bob, carol) = (
            ids[0].clone(),
            ids[1].clone(),
            ids[2].clone(),
            ids[3].clone(),
        );
        let (dave, erin, frank, grace, heidi) = (
            ids[4].clone(),
            ids[5].clone(),
            ids[6].clone(),
            ids[7].clone(),
            ids[8].clone(),
        );

        let acme = w.team("acme", "Acme Corp", true);
        let skunk = w.team("skunkworks", "Skunkworks", false);
        let town = w.channel(&acme, "town-square", "Town Square", ChannelKind::Public);
        let offtopic = w.channel(&acme, "off-topic", "Off-Topic", ChannelKind::Public);
        let eng = w.channel(&acme, "engineering", "Engineering", ChannelKind::Public);
        let releases = w.channel(&acme, "releases", "Releases", ChannelKind::Public);
        let random_a = w.channel(&acme, "random", "Random", ChannelKind::Public);
        let design = w.channel(&acme, "design", "Design", ChannelKind::Private);
        let incidents = w.channel(
            &acme,
            "incidents-2023",
            "Incidents 2023",
            ChannelKind::Public,
        );
        let water = w.channel(&acme, "watercooler", "Watercooler", ChannelKind::Public);
        let proto = w.channel(&skunk, "prototypes", "Prototypes", ChannelKind::Private);
        let random_b = w.channel(&skunk, "random", "Random", ChannelKind::Public);
        w.set_purpose(
            &eng,
            "Engineering discussions, reviews and on-call handovers",
        );
        w.set_purpose(&releases, "Release announcements");
        w.set_purpose(&water, "Coffee, lunch plans and weekend photos");

        for id in ids.iter().chain(std::iter::once(&bot)) {
            w.add_to_team(&acme, id);
            for c in [&town, &offtopic, &random_a] {
                w.join(c, id);
            }
        }
        for id in &ids[..7] {
            w.join(&eng, id);
            w.join(&releases, id);
        }
        w.join(&releases, &bot);
        w.join(&eng, &bot);
        for id in [&demo, &alice, &carol, &erin] {
            w.join(&design, id);
        }
        for id in [&demo, &bob, &dave, &heidi] {
            w.join(&incidents, id);
        }
        for id in [&alice, &bob, &carol, &frank] {
            w.join(&water, id);
        }
        for id in [&demo, &alice, &bob, &grace] {
            w.add_to_team(&skunk, id);
            w.join(&proto, id);
            w.join(&random_b, id);
        }
        let dm_alice = w.direct(&demo, &alice);
        let dm_bob = w.direct(&demo, &bob);
        let group = w.group(&[demo.as_str(), alice.as_str(), carol.as_str()]);

        // when demo last viewed each channel: a few hours to two days ago
        let demo_channels = [
            &town, &eng, &offtopic, &releases, &random_a, &design, &dm_alice, &dm_bob, &group,
            &proto, &random_b,
        ];
        let mut viewed: Vec<(String, i64)> = demo_channels
            .iter()
            .enumerate()
            .map(|(i, c)| ((*c).clone(), now - (i as i64 % 4) * DAY / 2 - DAY / 3))
            .collect();
        viewed.push((incidents.clone(), now - 30 * DAY));
        let view_of = |c: &str| {
            viewed
                .iter()
                .find(|(id, _)| id == c)
                .map(|(_, t)| *t)
                .unwrap_or(i64::MAX)
        };

        // weights: (channel, share of the posts, who may write there)
        let plan: Vec<(String, u64, Vec<String>)> = vec![
            (town.clone(), 20, ids[..8].to_vec()),
            (
                eng.clone(),
                25,
                ids[..7].iter().cloned().chain([bot.clone()]).collect(),
            ),
            (offtopic.clone(), 10, ids[..8].to_vec()),
            (
                releases.clone(),
                5,
                vec![bot.clone(), alice.clone(), bob.clone()],
            ),
            (random_a.clone(), 4, ids[..8].to_vec()),
            (
                random_b.clone(),
                3,
                vec![demo.clone(), alice.clone(), bob.clone(), grace.clone()],
            ),
            (
                design.clone(),
                8,
                vec![demo.clone(), alice.clone(), carol.clone(), erin.clone()],
            ),
            (
                incidents.clone(),
                4,
                vec![demo.clone(), bob.clone(), dave.clone(), heidi.clone()],
            ),
            (
                water.clone(),
                3,
                vec![alice.clone(), bob.clone(), carol.clone(), frank.clone()],
            ),
            (
                proto.clone(),
                6,
                vec![demo.clone(), alice.clone(), bob.clone(), grace.clone()],
            ),
            (dm_alice.clone(), 6, vec![demo.clone(), alice.clone()]),
            (dm_bob.clone(), 4, vec![demo.clone(), bob.clone()]),
            (
                group.clone(),
                5,
                vec![demo.clone(), alice.clone(), carol.clone()],
            ),
        ];
        // demo writes nothing in a channel after last viewing it: someone else does
        let author_for = |rng: &mut Rng, writers: &[String], cid: &str, at: i64| -> String {
            let a = rng.pick(writers).clone();
            if a == demo && at > view_of(cid) {
                writers.iter().find(|x| **x != demo).cloned().unwrap_or(a)
            } else {
                a
            }
        };
        let total_weight: u64 = plan.iter().map(|p| p.1).sum();
        let n_roots = 2200u64;
        let mut timeline: Vec<(i64, Step)> = Vec::new();
        let mut roots: Vec<(String, i64)> = Vec::new(); // by key: (channel, create_at)
        for (cid, weight, writers) in &plan {
            let count = n_roots * weight / total_weight;
            let (from, span) = if *cid == incidents {
                (start, 20 * DAY)
            } else {
                (start, 60 * DAY - DAY / 2)
            };
            let mut times: Vec<i64> = (0..count)
                .map(|_| from + rng.below(span as u64) as i64)
                .collect();
            times.sort();
            // same-millisecond posts: every 20th post shares the previous one's millisecond
            for i in 1..times.len() {
                if i % 20 == 0 {
                    times[i] = times[i - 1];
                }
            }
            for t in times {
                let author = author_for(&mut rng, writers, cid, t);
                let msg = sentence(&mut rng);
                let key = roots.len();
                roots.push((cid.clone(), t));
                timeline.push((t, Step::Root(cid.clone(), author, msg, key, Vec::new())));
                // about a fifth of the roots get replies
                if rng.chance(20) {
                    let n = 1 + rng.below(8);
                    let mut at = t;
                    for _ in 0..n {
                        at += 1 + rng.below(6 * HOUR as u64) as i64;
                        if at >= now - 60_000 {
                            break;
                        }
                        let author = author_for(&mut rng, writers, cid, at);
                        let msg = rng.pick(REPLIES).to_string();
                        timeline.push((at, Step::Reply(key, author, msg)));
                    }
                }
            }
        }
        for (cid, at) in &viewed {
            timeline.push((*at, Step::View(cid.clone())));
        }

        // posts that mention demo: some read, some written after demo last looked
        let after = |c: &str, minutes: i64| view_of(c) + minutes * 60_000;
        let file = |name: &str, bytes: Vec<u8>| (name.to_string(), bytes);
        special(
            &mut timeline,
            &mut roots,
            view_of(&eng) - 3 * DAY,
            &eng,
            &bob,
            "@demo thanks for fixing the flaky test",
            Vec::new(),
        );
        let review = special(
            &mut timeline,
            &mut roots,
            after(&town, 25),
            &town,
            &alice,
            "@demo can you review the release notes before Friday?",
            Vec::new(),
        );
        special(
            &mut timeline,
            &mut roots,
            after(&eng, 40),
            &eng,
            &bob,
            "The deploy is blocked on your approval, @demo.",
            Vec::new(),
        );
        special(
            &mut timeline,
            &mut roots,
            after(&proto, 15),
            &proto,
            &grace,
            "@demo the prototype build is ready to try",
            Vec::new(),
        );
        let design_thread = special(
            &mut timeline,
            &mut roots,
            view_of(&design) - 2 * HOUR,
            &design,
            &carol,
            "New mockups for the onboarding flow",
            vec![file(
                "onboarding-mockups.pdf",
                samples::pdf(&[
                    "Onboarding flow, mockups v2\nStep 1: sign in with SSO.\nStep 2: pick your teams.",
                    "Open questions\nShould the tour be skippable?\nWho owns the copy?",
                    "Next steps\nUsability test with five people on Thursday.",
                ]),
            )],
        );
        timeline.push((
            after(&design, 30),
            Step::Reply(
                design_thread,
                carol.clone(),
                "@demo what do you think of page two?".to_string(),
            ),
        ));
        let eng_thread = special(
            &mut timeline,
            &mut roots,
            view_of(&eng) - HOUR,
            &eng,
            &alice,
            "Dashboard for the search latency work",
            vec![file("latency-dashboard.png", dashboard_png().to_vec())],
        );
        timeline.push((
            after(&eng, 10),
            Step::Reply(
                eng_thread,
                bob.clone(),
                "p99 is down by a third, nice! cc @demo".to_string(),
            ),
        ));
        special(
            &mut timeline,
            &mut roots,
            view_of(&releases) - 5 * HOUR,
            &releases,
            &alice,
            "Release 4.2 is out: notes, build artifacts and logs attached",
            vec![
                file(
                    "release-notes-4.2.docx",
                    samples::docx(&[
                        "Release 4.2",
                        "Search is faster: p99 latency down by a third.",
                        "The onboarding flow has a new welcome tour.",
                        "Known issue: exports over 1 GB time out.",
                    ]),
                ),
                file(
                    "build-artifacts.zip",
                    samples::zip(&[
                        (
                            "bin/server-linux-amd64.txt",
                            b"placeholder for the server binary\n".as_slice(),
                        ),
                        (
                            "checksums.txt",
                            b"sha256  server-linux-amd64  0f1e2d3c\n".as_slice(),
                        ),
                    ]),
                ),
                file(
                    "deploy-logs.tar",
                    samples::tar(&[
                        (
                            "logs/deploy.log",
                            b"12:00 deploy started\n12:04 deploy finished\n".as_slice(),
                        ),
                        (
                            "logs/migrations.log",
                            b"12:01 migration 42 applied\n".as_slice(),
                        ),
                    ]),
                ),
            ],
        );
        special(
            &mut timeline,
            &mut roots,
            view_of(&eng) - 6 * HOUR,
            &eng,
            &carol,
            "Slides for Thursday's roadmap review",
            vec![file(
                "roadmap-q3.pptx",
                samples::pptx(&[
                    "Q3 roadmap\nSearch latency\nOnboarding tour\nBilling migration",
                    "Risks\nThe billing migration needs a freeze window",
                    "Asks\nTwo more reviewers for the search work",
                ]),
            )],
        );
        special(
            &mut timeline,
            &mut roots,
            view_of(&dm_alice) - 4 * HOUR,
            &dm_alice,
            &alice,
            "Here is the budget sheet we talked about",
            vec![file(
                "budget-2026.xlsx",
                samples::xlsx(&[
                    (
                        "Budget",
                        vec![
                            vec!["Item".into(), "Q1".into(), "Q2".into()],
                            vec!["Laptops".into(), "12000".into(), "8000".into()],
                            vec!["Cloud".into(), "30500.5".into(), "31250".into()],
                        ],
                    ),
                    (
                        "Notes",
                        vec![
                            vec!["Owner".into(), "alice".into()],
                            vec!["Status".into(), "draft".into()],
                        ],
                    ),
                ]),
            )],
        );
        special(
            &mut timeline,
            &mut roots,
            view_of(&town) - 8 * HOUR,
            &town,
            &dave,
            "Meeting notes from the all-hands",
            vec![file(
                "all-hands-notes.txt",
                b"All-hands notes\n- hiring update\n- office move in May\n- Q&A\n".to_vec(),
            )],
        );
        for (i, (t, m)) in [
            (after(&dm_alice, 5), "are you around?"),
            (
                after(&dm_alice, 9),
                "need a second pair of eyes on the budget",
            ),
            (after(&group, 20), "lunch at noon?"),
        ]
        .iter()
        .enumerate()
        {
            let (cid, author) = if i < 2 {
                (&dm_alice, &alice)
            } else {
                (&group, &carol)
            };
            special(&mut timeline, &mut roots, *t, cid, author, m, Vec::new());
        }
        special(
            &mut timeline,
            &mut roots,
            view_of(&random_b) + HOUR,
            &random_b,
            &grace,
            "who is up for the skunkworks hack day?",
            Vec::new(),
        );

        // apply the timeline in time order (views last within a millisecond)
        timeline.retain(|(t, _)| *t < now - 1000);
        timeline.sort_by_key(|(t, s)| (*t, matches!(s, Step::View(_))));
        let mut root_ids: Vec<String> = vec![String::new(); roots.len()];
        let mut all_posts: Vec<(String, String, i64)> = Vec::new(); // (post id, channel id, create_at)
        let mut root_list: Vec<(String, String, i64)> = Vec::new();
        for (t, step) in timeline {
            match step {
                Step::Root(cid, author, msg, key, files) => {
                    let id = w.post(&cid, &author, t, &msg);
                    for (name, bytes) in files {
                        w.attach(&id, &name, &bytes);
                    }
                    root_ids[key] = id.clone();
                    all_posts.push((id.clone(), cid.clone(), t));
                    root_list.push((id, cid, t));
                }
                Step::Reply(key, author, msg) => {
                    let root = root_ids[key].clone();
                    if root.is_empty() {
                        continue;
                    }
                    let id = w.reply(&root, &author, t, &msg);
                    all_posts.push((id, roots[key].0.clone(), t));
                }
                Step::View(cid) => w.view(&demo, &cid, t),
            }
        }

        // edits, deletions (only of posts from before anyone's read state), reactions, pins
        for (i, (id, _, t)) in all_posts.clone().iter().enumerate() {
            if i % 33 == 5 {
                let edit_at = (t + 60_000 + rng.below(DAY as u64) as i64).min(now - 1000);
                let msg = format!("{} (edited)", sentence(&mut rng));
                w.edit(id, edit_at, &msg);
            } else if i % 97 == 11 && *t < now - 6 * DAY {
                let del_at = (t + 120_000).min(now - 1000);
                w.delete(id, del_at);
            } else if i % 9 == 2 {
                let at = (t + 30_000).min(now - 1000);
                for k in 0..(1 + rng.below(3)) {
                    let user = ids[(k as usize + i) % 8].clone();
                    let e = rng.pick(EMOJI).to_string();
                    w.react(&user, id, &e, at + k as i64);
                }
            }
            if i % 150 == 7 {
                w.pin_at(id, (t + 45 * 60_000).min(now - 1000));
            }
        }
        // one post everyone reacts to, demo too
        let review_post = root_ids[review].clone();
        let at = (view_of(&town) + 30 * 60_000).min(now - 1000);
        for (user, emoji) in [
            (&alice, "+1"),
            (&bob, "tada"),
            (&carol, "+1"),
            (&demo, "eyes"),
            (&erin, "white_check_mark"),
        ] {
            w.react(user, &review_post, emoji, at);
        }

        // text files
        let file_names = [
            "notes.txt",
            "release-plan.md",
            "error.log",
            "metrics.csv",
            "config.yaml",
            "standup.txt",
        ];
        for (k, (id, _, t)) in all_posts
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 80 == 3)
            .map(|(_, p)| p)
            .enumerate()
        {
            let name = file_names[k % file_names.len()];
            let body = format!(
                "# {name}\nWritten at {t}.\n{}\n{}\n",
                sentence(&mut rng),
                sentence(&mut rng)
            );
            w.attach(id, name, body.as_bytes());
        }

        // saved posts: 230 for demo, from channels demo can read
        let readable = [
            &town, &eng, &offtopic, &releases, &design, &dm_alice, &group, &proto,
        ];
        let mut saved = 0;
        for (id, cid, _) in all_posts.iter().rev() {
            if saved >= 230 {
                break;
            }
            if readable.contains(&cid)
                && w.post_by_id(id).is_some_and(|p| p.delete_at == 0)
                && rng.chance(40)
            {
                w.save(&demo, id);
                saved += 1;
            }
        }

        // followed threads with unread replies: demo follows threads of engineering, town and a DM
        let mut followed = 0;
        for (root, cid, _) in root_list.iter().rev() {
            if followed >= 40 {
                break;
            }
            if (*cid == eng || *cid == town || *cid == dm_alice) && w.thread_info(root).is_some() {
                w.follow(&demo, root);
                if followed % 3 == 0
                    && let Some(i) = w.thread_info(root)
                {
                    w.view_thread(&demo, root, i.last_reply_at);
                }
                followed += 1;
            }
        }

        w.draft(
            &demo,
            &eng,
            None,
            "Draft: proposal for the new on-call rotation",
            now - 3 * HOUR,
        );
        w.draft(
            &demo,
            &dm_alice,
            None,
            "let's sync tomorrow about",
            now - 2 * HOUR,
        );
        if let Some((root, _, _)) = root_list.iter().rev().find(|r| r.1 == town) {
            w.draft(&demo, &town, Some(root), "I think we should", now - HOUR);
        }
        for name in [
            "party_parrot",
            "shipit",
            "lgtm",
            "facepalm",
            "coffee",
            "acme-logo",
        ] {
            let creator = ids[(name.len()) % 8].clone();
            w.emoji(&creator, name);
        }
        let statuses = [
            "online", "away", "online", "dnd", "offline", "online", "away", "offline", "offline",
        ];
        for (id, s) in ids.iter().zip(statuses.iter()) {
            w.set_status(id, s);
        }
        w.set_status(&bot, "online");
        w.archive(&incidents);
        w.deactivate(&heidi);
        let _ = frank;
        // What only the operation gateway reaches: demo is a team admin of acme (so manages its
        // webhooks), the server is licensed (channel bookmarks), ci-bot is demo's.
        w.license();
        w.make_team_admin(&acme, &demo);
        w.incoming_webhook(&releases, &demo, "Release notes");
        w.incoming_webhook(&eng, &alice, "CI failures");
        w.outgoing_webhook(&town, &demo, "Standup bot", "standup");
        w.bookmark(
            &town,
            &demo,
            "Team handbook",
            "https://example.com/handbook",
        );
        w.bookmark(&town, &alice, "On-call rota", "https://example.com/oncall");
        w.bot_owned_by("ci-bot", &demo);
        w.demo_search_history(now);
        inbox::add(&mut w, now);
        w
    }
}
