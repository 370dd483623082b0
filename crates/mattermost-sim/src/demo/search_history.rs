//! The demo's long search history: a `~builds` channel in acme where ci-bot has reported every nightly
//! build for two years, so that the word `nightly` matches 1,000 posts — 880 spread over the two years
//! and 120 on one day when the build flapped (more than Mattermost's cap of 100 on a single day) — and
//! 176 of the reports carry a `nightly-report-NNNN.txt` file. demo, alice and bob are members; demo is
//! in the Europe/Berlin time zone (a manual zone, as the web app's display settings save it), and the
//! flapping day's posts fall between 08:00 and 16:00 UTC, inside one Berlin day. demo has read the
//! channel to its last post, so it adds nothing unread.

use crate::rng::Rng;
use crate::world::{ChannelKind, World};

const DAY: i64 = 86_400_000;
const MINUTE: i64 = 60_000;
/// Posts spread over the two years.
const SPREAD: i64 = 880;
/// Posts of the day the build flapped.
const FLAPPING: i64 = 120;
/// How many days before now the build flapped.
const FLAPPING_DAYS_AGO: i64 = 200;

impl World {
    /// Adds the two years of nightly build reports to the demo (see the module's description).
    pub(crate) fn demo_search_history(&mut self, now: i64) {
        let mut rng = Rng::new(2026);
        let acme = self.team_id("acme").unwrap_or_default();
        let (demo, alice, bob, bot) = (
            self.user_id("demo").unwrap_or_default(),
            self.user_id("alice").unwrap_or_default(),
            self.user_id("bob").unwrap_or_default(),
            self.user_id("ci-bot").unwrap_or_default(),
        );
        let builds = self.channel(&acme, "builds", "Builds", ChannelKind::Public);
        self.set_purpose(&builds, "Nightly build reports from ci-bot");
        for u in [&demo, &alice, &bob, &bot] {
            self.join(&builds, u);
        }
        self.set_timezone(&demo, "Europe/Berlin");
        let start = now - 730 * DAY;
        let flapping_day = (now - FLAPPING_DAYS_AGO * DAY).div_euclid(DAY);
        let mut times: Vec<(i64, bool)> = (0..SPREAD)
            .map(|i| {
                let mut t = start + i * (730 * DAY / SPREAD) + rng.below(10 * 3_600_000) as i64;
                // the flapping day and its neighbours hold only the flapping posts
                if (t.div_euclid(DAY) - flapping_day).abs() <= 1 {
                    t += 3 * DAY;
                }
                (t.min(now - 2 * DAY), false)
            })
            .collect();
        times.extend((0..FLAPPING).map(|i| {
            (
                flapping_day * DAY + 8 * 60 * MINUTE + i * 4 * MINUTE + i,
                true,
            )
        }));
        times.sort();
        let mut last = start;
        for (n, (t, flapping)) in times.into_iter().enumerate() {
            let number = 4000 + n;
            let message = if flapping {
                format!("Nightly build #{number} failed again on the flaky search test, retrying")
            } else if rng.chance(15) {
                format!(
                    "Nightly build #{number} failed: {} tests red",
                    1 + rng.below(9)
                )
            } else {
                format!("Nightly build #{number} passed on main")
            };
            let id = self.post(&builds, &bot, t, &message);
            if !flapping && n % 5 == 0 {
                let body = format!("nightly build #{number}\nstarted {t}\nall stages done\n");
                self.attach(
                    &id,
                    &format!("nightly-report-{number}.txt"),
                    body.as_bytes(),
                );
            }
            last = last.max(t);
        }
        self.view(&demo, &builds, last + 1);
    }

    /// The posts the demo's long search history answers `nightly` with: (id, create_at).
    pub fn demo_search_history_posts(&self) -> Vec<(String, i64)> {
        let Some(builds) = self.channel_id("acme", "builds") else {
            return Vec::new();
        };
        self.posts
            .iter()
            .filter(|p| p.channel_id == builds && p.delete_at == 0 && p.message.contains("Nightly"))
            .map(|p| (p.id.clone(), p.create_at))
            .collect()
    }

    /// The files of the demo's long search history (`nightly-report-NNNN.txt`): (id, create_at).
    pub fn demo_search_history_files(&self) -> Vec<(String, i64)> {
        let Some(builds) = self.channel_id("acme", "builds") else {
            return Vec::new();
        };
        self.files
            .iter()
            .filter(|f| f.channel_id == builds && f.delete_at == 0)
            .map(|f| (f.id.clone(), f.create_at))
            .collect()
    }
}
