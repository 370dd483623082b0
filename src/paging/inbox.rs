//! Inbox: everything unread for a person as one list of posts, source after source (a channel, a
//! direct or group message, a followed thread), each source's unread posts oldest first.
//!
//! Mattermost has no such list: each source is read on its own, and how much is unread comes from
//! counts it keeps (a channel's totals less the member's, a thread's unread replies). So the walk is
//! planned once, when its first page is asked for (`t0`): the sources in their order — a section
//! (direct messages, channels that mention the person, other channels, followed threads, muted
//! channels), then the most recent activity first, then the id — with their counts. Each source is
//! read when a page first reaches it (about one request: see the tool), and what was read is kept
//! with the plan for the cursor's chain, as [`super::pages_with_ties`] keeps its lists, so no
//! source is read twice and later pages of a source cost nothing.
//!
//! Within a source, posts are in (time, id) order and a page that more follow ends on a whole
//! millisecond ([`take`]): the cursor holds the time of the last post shown, and the next page
//! continues with the posts written strictly after it, which loses none (the one way a page exceeds
//! its limit is a millisecond with more posts than the page). A source's header is shown on the page
//! where its first post is.
//!
//! The cursor holds the plan's start time, the source's place in it (its index, and its section,
//! activity time and the first characters of its id) and the time of its last post shown. A cursor
//! that outlives the kept plan (another instance, or more than ten minutes) reads the plan again and
//! goes on after the source's place ([`resume`]): sources that had nothing new since `t0` keep their
//! place exactly, so nothing is skipped or repeated; a source active since then has moved, and when
//! it now sorts before the position its place at `t0` is unknown: the page names it as one whose
//! unread posts this walk may not all have shown, with how to read it.

use super::cursor::{self, Fields, Reader};
use std::cmp::{Ordering, Reverse};

/// How many characters of a source's id the cursor carries: enough to tell a person's sources apart.
pub const ID_PREFIX: usize = 8;

/// The parts of the inbox, in the order the walk reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// Direct and group messages.
    Direct,
    /// Channels where the person is mentioned.
    Mentions,
    /// The other unread channels.
    Channels,
    /// Followed threads with unread replies.
    Threads,
    /// Channels the person muted (with no mention).
    Muted,
}

impl Section {
    pub const ALL: [Section; 5] = [
        Section::Direct,
        Section::Mentions,
        Section::Channels,
        Section::Threads,
        Section::Muted,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Section::Direct => "direct",
            Section::Mentions => "mentions",
            Section::Channels => "channels",
            Section::Threads => "threads",
            Section::Muted => "muted",
        }
    }

    fn tag(self) -> char {
        match self {
            Section::Direct => 'd',
            Section::Mentions => 'm',
            Section::Channels => 'c',
            Section::Threads => 't',
            Section::Muted => 'u',
        }
    }

    fn of_tag(c: char) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.tag() == c)
    }
}

/// A source's place in the walk: its section, its most recent activity (newest first), its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub section: Section,
    pub activity: i64,
    pub id: String,
}

impl Place {
    fn prefix(&self) -> &str {
        let end = self
            .id
            .char_indices()
            .nth(ID_PREFIX)
            .map_or(self.id.len(), |(i, _)| i);
        &self.id[..end]
    }

    /// The walk's order: section, then newest activity first, then the id (its first characters,
    /// which the cursor carries, then the rest).
    pub fn walk_order(&self, other: &Place) -> Ordering {
        (
            self.section,
            Reverse(self.activity),
            self.prefix(),
            &self.id,
        )
            .cmp(&(
                other.section,
                Reverse(other.activity),
                other.prefix(),
                &other.id,
            ))
    }
}

/// Puts sources in the walk's order.
pub fn order<T>(items: &mut [T], place: impl Fn(&T) -> &Place) {
    items.sort_by(|a, b| place(a).walk_order(place(b)));
}

/// Where the next page starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// When the walk was planned.
    pub t0: i64,
    /// The source's index in the plan.
    pub i: usize,
    /// The source's place in the plan (its id cut to [`ID_PREFIX`] characters).
    pub place: Place,
    /// The time of the source's last post shown; `None` when none was (the source begins).
    pub after: Option<i64>,
}

impl Position {
    /// The position at the start of source `i`, at `place`.
    pub fn start(t0: i64, i: usize, place: &Place) -> Position {
        Position {
            t0,
            i,
            place: Place {
                id: place.prefix().to_string(),
                ..place.clone()
            },
            after: None,
        }
    }

    /// Whether `place` (a source of a plan) is the source this position is in.
    pub fn is_at(&self, place: &Place) -> bool {
        place.section == self.place.section
            && place.activity == self.place.activity
            && place.prefix() == self.place.id
    }
}

impl cursor::Position for Position {
    fn write(&self, f: &mut Fields) {
        f.num(self.t0)
            .num(self.i as i64)
            .tag(self.place.section.tag())
            .num(self.place.activity)
            .id(&self.place.id)
            .num(self.after.unwrap_or(-1));
    }

    fn read(r: &mut Reader<'_>) -> Option<Position> {
        let t0 = r.num()?;
        let i = usize::try_from(r.num()?).ok()?;
        let section = Section::of_tag(r.tag()?)?;
        let activity = r.num()?;
        let id = r.id()?;
        if id.chars().count() > ID_PREFIX {
            return None;
        }
        let after = r.num()?;
        Some(Position {
            t0,
            i,
            place: Place {
                section,
                activity,
                id,
            },
            after: (after >= 0).then_some(after),
        })
    }
}

/// What of one source's posts a page takes: `posts[from..to]`, and whether that ends the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Take {
    pub from: usize,
    pub to: usize,
    pub complete: bool,
}

/// Which of a source's posts (their times, in (time, id) order) go on a page: those after `after`,
/// at most `room` of them, ending on a whole millisecond when more follow. When the room ends inside
/// a millisecond it is left to the next page, unless the page would otherwise hold nothing
/// (`page_empty`): then that millisecond is taken whole, beyond the room.
pub fn take(times: &[i64], after: Option<i64>, room: usize, page_empty: bool) -> Take {
    let from = after.map_or(0, |a| times.partition_point(|t| *t <= a));
    let left = times.len() - from;
    if left <= room {
        return Take {
            from,
            to: times.len(),
            complete: true,
        };
    }
    let mut to = from + room;
    if to > from && times[to - 1] == times[to] {
        let ms = times[to];
        to = times[..to].partition_point(|t| *t < ms).max(from);
        if to == from && page_empty {
            to = times.partition_point(|t| *t <= ms);
        }
    }
    Take {
        from,
        to,
        complete: to == times.len(),
    }
}

/// Where a cursor resumes in a plan read again (its sources in the walk's order, each with whether it
/// was active after `t0`): the index of the first source not yet shown, whether the position is
/// inside that very source (its posts after `after` come next), and the sources before it that were
/// active since `t0`, whose place at `t0` is unknown (they may not all have been shown).
pub fn resume(places: &[(Place, bool)], at: &Position) -> (usize, bool, Vec<usize>) {
    let here = |p: &Place| {
        (p.section, Reverse(p.activity), p.prefix()).cmp(&(
            at.place.section,
            Reverse(at.place.activity),
            at.place.id.as_str(),
        ))
    };
    let next = places.partition_point(|(p, _)| here(p) == Ordering::Less);
    let inside = places
        .get(next)
        .is_some_and(|(p, active)| !active && at.is_at(p));
    let moved = places[..next]
        .iter()
        .enumerate()
        .filter(|(_, (_, active))| *active)
        .map(|(i, _)| i)
        .collect();
    (next, inside, moved)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paging::cursor::{fields_of, position};

    fn place(section: Section, activity: i64, id: &str) -> Place {
        Place {
            section,
            activity,
            id: id.into(),
        }
    }

    #[test]
    fn a_page_ends_on_a_whole_millisecond_or_takes_one_whole() {
        let times = [1, 2, 2, 3, 4];
        assert_eq!(
            take(&times, None, 2, true),
            Take {
                from: 0,
                to: 1,
                complete: false
            }
        );
        assert_eq!(
            take(&times, Some(1), 1, true),
            Take {
                from: 1,
                to: 3,
                complete: false
            },
            "a millisecond larger than the room, on an empty page, whole"
        );
        assert_eq!(
            take(&times, Some(1), 1, false),
            Take {
                from: 1,
                to: 1,
                complete: false
            },
            "on a page that holds posts already, left for the next"
        );
        assert_eq!(
            take(&times, Some(2), 5, false),
            Take {
                from: 3,
                to: 5,
                complete: true
            }
        );
        assert_eq!(
            take(&times, Some(4), 5, false),
            Take {
                from: 5,
                to: 5,
                complete: true
            }
        );
    }

    #[test]
    fn sources_go_by_section_then_newest_activity_then_id() {
        let mut v = vec![
            place(Section::Channels, 5, "b"),
            place(Section::Threads, 9, "a"),
            place(Section::Channels, 7, "c"),
            place(Section::Direct, 1, "z"),
            place(Section::Channels, 5, "a"),
        ];
        order(&mut v, |p| p);
        let ids: Vec<&str> = v.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["z", "c", "a", "b", "a"]);
    }

    #[test]
    fn the_cursor_is_short_and_round_trips() {
        let p = Position {
            t0: 1_765_000_000_123,
            i: 73,
            place: place(Section::Threads, 1_765_000_000_999, "abcdefgh"),
            after: Some(1_765_000_001_000),
        };
        let b = cursor::Binding::new(
            "read_inbox",
            &serde_json::Map::new(),
            "abcdefghijklmnopqrstuvwxyz",
        );
        let c = cursor::encode(&b, &fields_of(&p));
        assert!(c.len() <= 80, "{c}");
        let back: Position =
            position(&cursor::decode(&c, &b, &[]).expect("decodes")).expect("fits");
        assert_eq!(back, p);
        let begin = Position::start(
            5,
            0,
            &place(Section::Direct, 4, "abcdefghijklmnopqrstuvwxyz"),
        );
        assert_eq!(begin.place.id, "abcdefgh");
        let back: Position = position(&fields_of(&begin)).expect("fits");
        assert_eq!(back.after, None);
    }

    #[test]
    fn a_plan_read_again_resumes_after_the_cursors_source_and_names_what_moved() {
        let plan = vec![
            (place(Section::Direct, 9, "dddddddd1"), false),
            (place(Section::Channels, 8, "cccccccc1"), true),
            (place(Section::Channels, 5, "aaaaaaaa1"), false),
            (place(Section::Channels, 3, "bbbbbbbb1"), false),
        ];
        let at = Position {
            t0: 1,
            i: 7,
            place: place(Section::Channels, 5, "aaaaaaaa"),
            after: Some(4),
        };
        let (next, inside, moved) = resume(&plan, &at);
        assert_eq!((next, inside), (2, true));
        assert_eq!(moved, [1], "the source active since t0 is named");
        // The cursor's source is gone (read meanwhile): the walk goes on with the next.
        let plan = vec![
            (place(Section::Channels, 8, "cccccccc1"), false),
            (place(Section::Channels, 3, "bbbbbbbb1"), false),
        ];
        assert_eq!(resume(&plan, &at), (1, false, vec![]));
    }
}
