//! `World::demo()`: a small realistic workspace for the `demo` command and for trying tools by
//! hand: two teams, ten users (a bot, a deactivated user), nine channels of every kind, a few
//! thousand posts over the last 60 days with threads, same-millisecond posts, edits, deletions,
//! reactions, pins, text files, 230 saved posts, followed threads with unread replies, drafts,
//! custom emoji and statuses. The user to log in as is `demo` (`Sim::token("demo")`).

use crate::http::now_ms;
use crate::rng::Rng;
use crate::world::{ChannelKind, World};

const DAY: i64 = 86_400_000;

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

        let acme = w.team("acme", "Acme Corp", true);
        let skunk = w.team("skunkworks", "Skunkworks", false);
        let town = w.channel(&acme, "town-square", "Town Square", ChannelKind::Public);
        let offtopic = w.channel(&acme, "off-topic", "Off-Topic", ChannelKind::Public);
        let eng = w.channel(&acme, "engineering", "Engineering", ChannelKind::Public);
        let releases = w.channel(&acme, "releases", "Releases", ChannelKind::Public);
        let random_a = w.channel(&acme, "random", "Random", ChannelKind::Public);
        let random_b = w.channel(&acme, "random-2", "Random", ChannelKind::Public);
        let design = w.channel(&acme, "design", "Design", ChannelKind::Private);
        let incidents = w.channel(
            &acme,
            "incidents-2023",
            "Incidents 2023",
            ChannelKind::Public,
        );
        let proto = w.channel(&skunk, "prototypes", "Prototypes", ChannelKind::Private);
        w.set_purpose(
            &eng,
            "Engineering discussions, reviews and on-call handovers",
        );
        w.set_purpose(&releases, "Release announcements");

        for id in ids.iter().chain(std::iter::once(&bot)) {
            w.add_to_team(&acme, id);
            for c in [&town, &offtopic, &random_a] {
                w.join(c, id);
            }
        }
        for id in &ids[..7] {
            w.join(&eng, id);
            w.join(&releases, id);
            w.join(&random_b, id);
        }
        w.join(&releases, &bot);
        w.join(&eng, &bot);
        for id in [&demo, &alice, &carol, &ids[5]] {
            w.join(&design, id);
        }
        for id in [&demo, &bob, &ids[4], &ids[8]] {
            w.join(&incidents, id);
        }
        for id in [&demo, &alice, &bob, &ids[6]] {
            w.add_to_team(&skunk, id);
            w.join(&proto, id);
        }
        let dm_alice = w.direct(&demo, &alice);
        let dm_bob = w.direct(&demo, &bob);
        let group = w.group(&[demo.as_str(), alice.as_str(), carol.as_str()]);

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
            (random_b.clone(), 3, ids[..6].to_vec()),
            (
                design.clone(),
                8,
                vec![demo.clone(), alice.clone(), carol.clone(), ids[5].clone()],
            ),
            (
                incidents.clone(),
                4,
                vec![demo.clone(), bob.clone(), ids[4].clone(), ids[8].clone()],
            ),
            (
                proto.clone(),
                6,
                vec![demo.clone(), alice.clone(), bob.clone(), ids[6].clone()],
            ),
            (dm_alice.clone(), 6, vec![demo.clone(), alice.clone()]),
            (dm_bob.clone(), 4, vec![demo.clone(), bob.clone()]),
            (
                group.clone(),
                5,
                vec![demo.clone(), alice.clone(), carol.clone()],
            ),
        ];
        let total_weight: u64 = plan.iter().map(|p| p.1).sum();
        let n_roots = 2200u64;
        let mut all_posts: Vec<(String, String, i64)> = Vec::new(); // (post id, channel id, create_at)
        let mut roots: Vec<(String, String, i64)> = Vec::new();
        for (cid, weight, writers) in &plan {
            let count = n_roots * weight / total_weight;
            let span = if *cid == incidents {
                20 * DAY
            } else {
                60 * DAY - DAY / 2
            };
            let mut times: Vec<i64> = (0..count)
                .map(|_| start + rng.below(span as u64) as i64)
                .collect();
            times.sort();
            // same-millisecond posts: every 20th post shares the previous one's millisecond
            for i in 1..times.len() {
                if i % 20 == 0 {
                    times[i] = times[i - 1];
                }
            }
            for t in times {
                let author = rng.pick(writers).clone();
                let msg = sentence(&mut rng);
                let id = w.post(cid, &author, t, &msg);
                all_posts.push((id.clone(), cid.clone(), t));
                roots.push((id, cid.clone(), t));
            }
        }
        // threads: about a fifth of the roots get replies
        for (root, cid, t) in roots.clone() {
            if !rng.chance(20) {
                continue;
            }
            let writers = plan
                .iter()
                .find(|p| p.0 == cid)
                .map(|p| p.2.clone())
                .unwrap_or_default();
            let n = 1 + rng.below(8);
            let mut at = t;
            for _ in 0..n {
                at += 1 + rng.below(6 * 3_600_000) as i64;
                if at >= now - 60_000 {
                    break;
                }
                let author = rng.pick(&writers).clone();
                let msg = rng.pick(REPLIES).to_string();
                let id = w.reply(&root, &author, at, &msg);
                all_posts.push((id, cid.clone(), at));
            }
        }
        all_posts.sort_by_key(|p| p.2);

        // edits, deletions, reactions, pins
        for (i, (id, _, t)) in all_posts.clone().iter().enumerate() {
            if i % 33 == 5 {
                let edit_at = (t + 60_000 + rng.below(DAY as u64) as i64).min(now - 1000);
                let msg = format!("{} (edited)", sentence(&mut rng));
                w.edit(id, edit_at, &msg);
            } else if i % 97 == 11 {
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
                w.pin(id);
            }
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
        let demo_channels = [
            &town, &eng, &offtopic, &releases, &design, &dm_alice, &group, &proto,
        ];
        let mut saved = 0;
        for (id, cid, _) in all_posts.iter().rev() {
            if saved >= 230 {
                break;
            }
            if demo_channels.contains(&cid)
                && w.post_by_id(id).is_some_and(|p| p.delete_at == 0)
                && rng.chance(40)
            {
                w.save(&demo, id);
                saved += 1;
            }
        }

        // followed threads with unread replies: demo follows the threads of engineering and town
        let mut followed = 0;
        for (root, cid, _) in roots.iter().rev() {
            if followed >= 40 {
                break;
            }
            if (*cid == eng || *cid == town || *cid == dm_alice) && w.thread_info(root).is_some() {
                w.follow(&demo, root);
                let info = w.thread_info(root);
                if followed % 3 == 0
                    && let Some(i) = info
                {
                    w.view_thread(&demo, root, i.last_reply_at);
                }
                if followed % 7 == 1 {
                    w.mention_in_thread(&demo, root);
                }
                followed += 1;
            }
        }

        // read state: most channels read up to a day or two ago
        for (i, c) in [
            &town, &eng, &offtopic, &releases, &random_a, &design, &dm_alice, &dm_bob, &group,
            &proto,
        ]
        .iter()
        .enumerate()
        {
            let at = now - (i as i64 % 4) * DAY / 2 - DAY / 3;
            w.view(&demo, c, at);
        }

        w.draft(
            &demo,
            &eng,
            None,
            "Draft: proposal for the new on-call rotation",
            now - 3 * 3_600_000,
        );
        w.draft(
            &demo,
            &dm_alice,
            None,
            "let's sync tomorrow about",
            now - 2 * 3_600_000,
        );
        if let Some((root, _, _)) = roots.iter().rev().find(|r| r.1 == town) {
            w.draft(
                &demo,
                &town,
                Some(root),
                "I think we should",
                now - 3_600_000,
            );
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
        w.deactivate(&ids[8]);
        let _ = (w.channel_by_id(&random_b), &alice, &bob);
        w
    }
}
