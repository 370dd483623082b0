//! The demo's inbox: what `@demo` missed, at the size a busy person's Mattermost has it. Added to
//! [`World::demo`] after its own workspace: 35 more channels of demo's across both teams (each with
//! a month of history ending at a different time, and demo's last view somewhere in it), six more
//! direct and group messages, threads demo took part in that others went on replying to (followed,
//! with unread replies, some mentioning demo), root posts that mention demo, four channels demo
//! muted, and people who were active in the last hours. Messages are about 45 characters, as chat is.
//! demo keeps up with the threads of the rest of the demo: those quiet for two days were read.
//!
//! Everything is written in time order through the seeding API, so the counts Mattermost keeps
//! (`total_msg_count`, the member's `msg_count`, `mention_count` and their `_root` forms, the thread
//! memberships) are the ones the real server would hold; demo writes nothing after last viewing a
//! channel, so demo's own posts are never unread.

use crate::rng::Rng;
use crate::world::{ChannelKind, World};

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

const SUBJECTS: &[&str] = &[
    "The weekly build",
    "Yesterday's deploy",
    "The new login page",
    "Ticket ENG-4412",
    "The staging database",
    "Our on-call rotation",
    "The Android release",
    "The call with Initech",
    "The billing export",
    "The search reindex",
    "Sprint planning",
    "The incident review",
    "The laptop order",
    "The quarterly report",
    "The load test",
    "The pricing page copy",
    "The SSO migration",
    "The onboarding survey",
];
const PREDICATES: &[&str] = &[
    "finished without errors",
    "needs one more review",
    "is blocked on legal",
    "moved to Thursday",
    "is ready in staging",
    "failed twice this week",
    "looks much faster now",
    "needs an owner this week",
    "is done, notes in the doc",
    "slipped to next sprint",
    "passed QA this morning",
    "is waiting on design",
    "got approved by finance",
    "has a new draft to read",
];
const TAILS: &[&str] = &[
    "",
    "",
    "",
    ", any objections?",
    " :tada:",
    " (details in thread)",
    ", thanks all",
];
const REPLIES: &[&str] = &[
    "Thanks, I'll take a look after lunch.",
    "Agreed, let's ship it today.",
    "Can you share the logs from yesterday?",
    "I pinged the vendor again this morning.",
    "Fixed in the latest build, please retest.",
    "Nice work, that was quick!",
    "Let's pick this up in tomorrow's standup.",
    "I can pair on this if it helps.",
    "Do we have a ticket for the follow-up?",
    "Same here, it started after the upgrade.",
];
const MENTIONS: &[&str] = &[
    "@demo can you sign off on this today?",
    "@demo FYI, this touches your rollout plan.",
    "@demo could you review before the 3pm sync?",
    "Looping in @demo for the final decision.",
    "@demo your numbers are needed for the slide.",
];
const DIRECT: &[&str] = &[
    "Got a minute to talk about the roadmap?",
    "I sent you the contract, can you check it?",
    "Are we still on for coffee tomorrow?",
    "The customer asked for you by name again.",
    "Can you cover my on-call shift on Friday?",
    "I left comments on your design doc.",
    "Quick one: which branch has the hotfix?",
];
const EMOJI: &[&str] = &["+1", "eyes", "tada", "white_check_mark", "heart"];

/// One new channel of demo's: its team, name, display name, kind, who else is in it, how many
/// posts it holds, how many of the latest demo has not read, how many of its threads demo took part
/// in and others went on with, whether demo muted it, and whether a root post mentions demo.
struct Plan {
    team: &'static str,
    name: &'static str,
    display: &'static str,
    private: bool,
    people: &'static [&'static str],
    posts: usize,
    unread: usize,
    threads: usize,
    muted: bool,
    mention: bool,
}

const fn plan(
    team: &'static str,
    name: &'static str,
    display: &'static str,
    people: &'static [&'static str],
    posts: usize,
    unread: usize,
) -> Plan {
    Plan {
        team,
        name,
        display,
        private: false,
        people,
        posts,
        unread,
        threads: 0,
        muted: false,
        mention: false,
    }
}

impl Plan {
    const fn private(mut self) -> Plan {
        self.private = true;
        self
    }
    const fn threads(mut self, n: usize) -> Plan {
        self.threads = n;
        self
    }
    const fn muted(mut self) -> Plan {
        self.muted = true;
        self
    }
    const fn mention(mut self) -> Plan {
        self.mention = true;
        self
    }
}

const EVERYONE: &[&str] = &["alice", "bob", "carol", "dave", "erin", "frank", "grace"];
const ENG: &[&str] = &["alice", "bob", "dave", "erin"];
const BIZ: &[&str] = &["carol", "frank", "grace"];
const SKUNK: &[&str] = &["alice", "bob", "grace", "carol", "dave"];

const PLANS: &[Plan] = &[
    plan("acme", "backend", "Backend", ENG, 80, 42)
        .threads(3)
        .mention(),
    plan("acme", "frontend", "Frontend", ENG, 64, 28).threads(3),
    plan("acme", "mobile", "Mobile", ENG, 55, 22).threads(2),
    plan("acme", "qa", "QA", EVERYONE, 50, 30)
        .threads(2)
        .mention(),
    plan("acme", "devops", "DevOps", ENG, 90, 50).threads(3),
    plan("acme", "security", "Security", ENG, 40, 16)
        .private()
        .mention(),
    plan("acme", "data-platform", "Data Platform", ENG, 48, 25).threads(2),
    plan("acme", "support", "Support", EVERYONE, 110, 70).threads(2),
    plan("acme", "sales", "Sales", BIZ, 70, 45),
    plan("acme", "marketing", "Marketing", BIZ, 52, 27).mention(),
    plan("acme", "product", "Product", EVERYONE, 66, 33).threads(3),
    plan("acme", "hiring", "Hiring", BIZ, 30, 12).private(),
    plan("acme", "docs", "Docs", EVERYONE, 35, 19),
    plan("acme", "infra-alerts", "Infra Alerts", ENG, 150, 90).muted(),
    plan("acme", "standup", "Standup", EVERYONE, 90, 50).threads(2),
    plan("acme", "announcements", "Announcements", EVERYONE, 28, 9).mention(),
    plan(
        "acme",
        "customer-feedback",
        "Customer Feedback",
        BIZ,
        58,
        31,
    )
    .threads(2),
    plan("acme", "billing", "Billing", BIZ, 44, 20).private(),
    plan("acme", "search-team", "Search Team", ENG, 62, 29).threads(2),
    plan("acme", "perf", "Performance", ENG, 38, 17),
    plan("acme", "oncall", "On-call", ENG, 70, 40)
        .threads(3)
        .mention(),
    plan("acme", "kudos", "Kudos", EVERYONE, 45, 26).muted(),
    plan("acme", "book-club", "Book Club", EVERYONE, 30, 14)
        .muted()
        .mention(),
    plan("skunkworks", "hackday", "Hack Day", SKUNK, 58, 33).threads(2),
    plan(
        "skunkworks",
        "ml-experiments",
        "ML Experiments",
        SKUNK,
        52,
        30,
    )
    .mention(),
    plan("skunkworks", "hardware", "Hardware", SKUNK, 40, 22),
    plan("skunkworks", "robotics", "Robotics", SKUNK, 36, 18).private(),
    plan("skunkworks", "ideas", "Ideas", SKUNK, 48, 27).threads(2),
    plan("skunkworks", "demos", "Demos", SKUNK, 34, 15),
    plan("skunkworks", "lab-notes", "Lab Notes", SKUNK, 42, 24),
    plan("skunkworks", "3d-printing", "3D Printing", SKUNK, 33, 19).muted(),
    plan("skunkworks", "reading-list", "Reading List", SKUNK, 26, 12),
    plan("skunkworks", "rust-guild", "Rust Guild", SKUNK, 44, 26)
        .threads(2)
        .mention(),
    plan("skunkworks", "prototype-ui", "Prototype UI", SKUNK, 50, 28).private(),
    plan("skunkworks", "field-tests", "Field Tests", SKUNK, 38, 21),
];

/// Direct and group messages: the others in it, how many posts, how many unread.
const MESSAGES: &[(&[&str], usize, usize)] = &[
    (&["carol"], 20, 6),
    (&["dave"], 16, 4),
    (&["erin"], 12, 3),
    (&["grace"], 18, 5),
    (&["bob", "dave"], 24, 9),
    (&["erin", "frank", "grace"], 22, 7),
];

fn sentence(rng: &mut Rng) -> String {
    format!(
        "{} {}{}",
        rng.pick(SUBJECTS),
        rng.pick(PREDICATES),
        rng.pick(TAILS)
    )
}

/// One step of the inbox's timeline, applied in time order.
enum Step {
    Root {
        channel: String,
        author: String,
        text: String,
        /// The index of the thread this root starts, if any.
        thread: Option<usize>,
    },
    Reply {
        thread: usize,
        author: String,
        text: String,
    },
    View(String),
}

/// Adds the inbox to the demo world; `now` is the demo's clock.
pub(super) fn add(w: &mut World, now: i64) {
    let mut rng = Rng::new(1919);
    let id = |w: &World, name: &str| w.user_id(name).unwrap_or_default();
    let demo = id(w, "demo");
    let mut timeline: Vec<(i64, Step)> = Vec::new();
    let mut threads = 0usize;
    let mut muted = Vec::new();

    for p in PLANS {
        let Some(team) = w.team_id(p.team) else {
            continue;
        };
        let kind = if p.private {
            ChannelKind::Private
        } else {
            ChannelKind::Public
        };
        let channel = w.channel(&team, p.name, p.display, kind);
        w.join(&channel, &demo);
        let mut people: Vec<String> = p.people.iter().map(|n| id(w, n)).collect();
        for person in &people {
            w.join(&channel, person);
        }
        // alerts come from the CI bot
        let bot = id(w, "ci-bot");
        if p.name == "infra-alerts" && !bot.is_empty() {
            w.join(&channel, &bot);
            people = vec![bot];
        }
        if p.muted {
            muted.push(channel.clone());
        }
        // A month of history, ending minutes to four days ago.
        let end = now - 5 * MINUTE - rng.below((4 * DAY) as u64) as i64;
        let start = end - 30 * DAY;
        let mut times: Vec<i64> = (0..p.posts)
            .map(|_| start + rng.below((end - start) as u64) as i64)
            .collect();
        times.sort();
        times.dedup();
        let read = times.len().saturating_sub(p.unread);
        // demo last viewed the channel just after its last read post.
        let viewed = times
            .get(read.saturating_sub(1))
            .map_or(start, |t| t + 1 + rng.below(MINUTE as u64) as i64)
            .min(times.get(read).map_or(end, |t| t - 1));
        timeline.push((viewed, Step::View(channel.clone())));
        // the threads demo took part in: started before demo's view, demo replied before it, others
        // went on replying after it
        let thread_roots: Vec<usize> = (0..p.threads.min(read))
            .map(|k| read.saturating_sub(1 + k * 3).min(read - 1))
            .collect();
        for (i, t) in times.iter().enumerate() {
            let unread = i >= read;
            let author = if !unread && rng.chance(15) {
                demo.clone()
            } else {
                rng.pick(&people).clone()
            };
            let text = if unread && p.mention && i == read + p.unread / 2 {
                rng.pick(MENTIONS).to_string()
            } else {
                sentence(&mut rng)
            };
            let thread = thread_roots.contains(&i).then(|| {
                threads += 1;
                threads - 1
            });
            timeline.push((
                *t,
                Step::Root {
                    channel: channel.clone(),
                    author: author.clone(),
                    text,
                    thread,
                },
            ));
            let Some(k) = thread else {
                continue;
            };
            // demo replies before the view; others reply after it, a few of them mentioning demo
            let replied = (*t + (viewed - *t) / 2).min(viewed - 1);
            timeline.push((
                replied,
                Step::Reply {
                    thread: k,
                    author: demo.clone(),
                    text: rng.pick(REPLIES).to_string(),
                },
            ));
            let mut at = viewed;
            for r in 0..(2 + rng.below(6)) {
                at += 1 + rng.below((3 * HOUR) as u64) as i64;
                if at >= now - MINUTE {
                    break;
                }
                let text = if r == 1 && k % 4 == 0 {
                    format!("{} Over to you, @demo.", rng.pick(REPLIES))
                } else {
                    rng.pick(REPLIES).to_string()
                };
                let author = rng.pick(&people).clone();
                timeline.push((
                    at,
                    Step::Reply {
                        thread: k,
                        author,
                        text,
                    },
                ));
            }
        }
    }

    for (others, posts, unread) in MESSAGES {
        let others: Vec<String> = others.iter().map(|n| id(w, n)).collect();
        let channel = if others.len() == 1 {
            w.direct(&demo, &others[0])
        } else {
            let mut members: Vec<&str> = vec![demo.as_str()];
            members.extend(others.iter().map(String::as_str));
            w.group(&members)
        };
        let end = now - 2 * MINUTE - rng.below((2 * DAY) as u64) as i64;
        let start = end - 14 * DAY;
        let mut times: Vec<i64> = (0..*posts)
            .map(|_| start + rng.below((end - start) as u64) as i64)
            .collect();
        times.sort();
        times.dedup();
        let read = times.len().saturating_sub(*unread);
        let viewed = times
            .get(read.saturating_sub(1))
            .map_or(start, |t| t + 1)
            .min(times.get(read).map_or(end, |t| t - 1));
        timeline.push((viewed, Step::View(channel.clone())));
        for (i, t) in times.iter().enumerate() {
            let author = if i < read && rng.chance(40) {
                demo.clone()
            } else {
                rng.pick(&others).clone()
            };
            timeline.push((
                *t,
                Step::Root {
                    channel: channel.clone(),
                    author,
                    text: rng.pick(DIRECT).to_string(),
                    thread: None,
                },
            ));
        }
    }

    // apply in time order (a view after the posts of its millisecond)
    timeline.retain(|(t, _)| *t < now - 1000);
    timeline.sort_by_key(|(t, s)| (*t, matches!(s, Step::View(_))));
    let mut roots: Vec<String> = vec![String::new(); threads];
    let mut written: Vec<(String, i64)> = Vec::new();
    for (t, step) in timeline {
        match step {
            Step::Root {
                channel,
                author,
                text,
                thread,
            } => {
                let post = w.post(&channel, &author, t, &text);
                if let Some(k) = thread {
                    roots[k] = post.clone();
                }
                written.push((post, t));
            }
            Step::Reply {
                thread,
                author,
                text,
            } => {
                let root = &roots[thread];
                if !root.is_empty() {
                    let post = w.reply(root, &author, t, &text);
                    written.push((post, t));
                }
            }
            Step::View(channel) => w.view(&demo, &channel, t),
        }
    }

    // reactions on about one post in six, by one to three people
    let people: Vec<String> = EVERYONE.iter().map(|n| id(w, n)).collect();
    for (i, (post, t)) in written.iter().enumerate() {
        if i % 6 == 1 {
            for k in 0..(1 + rng.below(3)) as usize {
                let who = &people[(i + k) % people.len()];
                let emoji = *rng.pick(EMOJI);
                w.react(who, post, emoji, (*t + MINUTE).min(now - 1000));
            }
        }
    }
    for channel in &muted {
        w.mute(channel, &demo);
    }
    // demo keeps up with threads: those of the rest of the demo whose last reply is over two days
    // old were read in the threads view when it came, unless a reply since asks for @demo by name
    let mine: std::collections::HashSet<&str> = roots.iter().map(String::as_str).collect();
    let named = |w: &World, root: &str, since: i64| {
        w.posts
            .iter()
            .any(|p| p.root_id == root && p.create_at > since && p.message.contains("@demo"))
    };
    let stale: Vec<(String, i64)> = w
        .thread_memberships
        .iter()
        .filter(|m| m.user_id == demo && m.following)
        .filter(|m| !mine.contains(m.post_id.as_str()))
        .filter(|m| !named(w, &m.post_id, m.last_viewed))
        .filter_map(|m| {
            let last = w.thread_info(&m.post_id)?.last_reply_at;
            (last > m.last_viewed && last < now - 2 * DAY).then(|| (m.post_id.clone(), last))
        })
        .collect();
    for (root, last) in stale {
        w.view_thread(&demo, &root, last);
    }
    // people were active in the last hours (demo just now)
    for (i, name) in [
        "demo", "alice", "bob", "carol", "dave", "erin", "frank", "grace", "ci-bot",
    ]
    .iter()
    .enumerate()
    {
        let ago = if i == 0 {
            MINUTE
        } else {
            MINUTE * (3 + rng.below(8 * 60) as i64)
        };
        let user = id(w, name);
        w.active_at(&user, now - ago);
    }
}
