//! Malformed input of every kind: truncated, corrupted and random bytes give items, an
//! [`Unreadable`] or a description, quickly, and never a panic out of `read`. A panic inside a parser
//! is caught by `read`; this counts them, and fails on any raised in this crate's own code.

// Tests and their helpers say what must hold with unwrap and expect; outside tests both are denied.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod samples;

use attachment_reader::read;
use proptest::prelude::*;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Where caught panics were raised, by file.
static PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn count_panics() {
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        if let Ok(mut p) = PANICS.lock() {
            p.push(place);
        }
    }));
}

fn samples_of_each_kind() -> Vec<(&'static str, Vec<u8>)> {
    let small = image::DynamicImage::ImageRgb8(samples::noisy(64, 48));
    vec![
        ("notes.txt", b"one\ntwo\nthree\n".to_vec()),
        (
            "report.pdf",
            samples::pdf(&[
                vec!["First page".into(), "more".into()],
                vec![],
                vec!["Third".into()],
            ]),
        ),
        ("report.docx", samples::docx()),
        ("sales.xlsx", samples::xlsx()),
        ("budget.ods", samples::ods()),
        ("deck.pptx", samples::pptx()),
        ("a.png", samples::encode(&small, image::ImageFormat::Png)),
        ("a.jpg", samples::encode(&small, image::ImageFormat::Jpeg)),
        ("a.gif", samples::encode(&small, image::ImageFormat::Gif)),
        ("a.webp", samples::encode(&small, image::ImageFormat::WebP)),
        (
            "files.zip",
            samples::zip(&[("a.txt", b"hello"), ("b/c.txt", b"x")]),
        ),
        ("src.tar", samples::tar(&[("a.txt", b"hello")], false)),
        ("src.tar.gz", samples::tar(&[("a.txt", b"hello")], true)),
    ]
}

/// Reads `bytes` and checks it returned, quickly.
fn survives(bytes: &[u8], name: &str, what: &str) {
    let start = Instant::now();
    let _ = read(bytes, name, None);
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(10),
        "{name} {what}: took {took:?}"
    );
}

/// A small deterministic generator for corruptions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn truncated_and_corrupted_files_of_every_kind_never_panic_out_of_read() {
    count_panics();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut reads = 0;
    for (name, bytes) in samples_of_each_kind() {
        let n = bytes.len();
        // Truncations: every length for small files, 60 spread lengths for larger ones.
        let cuts: Vec<usize> = if n <= 300 {
            (0..n).collect()
        } else {
            (0..60).map(|i| i * n / 60).collect()
        };
        for cut in cuts {
            survives(&bytes[..cut], name, &format!("cut at {cut}"));
            reads += 1;
        }
        // Corruptions: a few bytes changed at random, 150 times.
        for round in 0..150 {
            let mut bad = bytes.clone();
            for _ in 0..1 + rng.next() % 4 {
                let at = (rng.next() as usize) % n.max(1);
                if let Some(b) = bad.get_mut(at) {
                    *b = rng.next() as u8;
                }
            }
            survives(&bad, name, &format!("corruption {round}"));
            reads += 1;
        }
    }
    let panics = PANICS.lock().map(|p| p.clone()).unwrap_or_default();
    let _ = std::panic::take_hook();
    let mut by_place: Vec<(String, usize)> = Vec::new();
    for p in &panics {
        let file = p
            .rsplit_once(':')
            .map_or(p.as_str(), |(f, _)| f)
            .to_string();
        match by_place.iter_mut().find(|(f, _)| *f == file) {
            Some((_, n)) => *n += 1,
            None => by_place.push((file, 1)),
        }
    }
    eprintln!(
        "{reads} malformed reads; {} panics caught inside read: {by_place:?}",
        panics.len()
    );
    let ours: Vec<&String> = panics
        .iter()
        .filter(|p| p.contains("attachment-reader/src"))
        .collect();
    assert!(ours.is_empty(), "panics in this crate: {ours:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes_under_any_name_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..2048),
        name in prop::sample::select(vec![
            "a.pdf", "a.docx", "a.xlsx", "a.xlsb", "a.ods", "a.pptx", "a.png", "a.jpg", "a.gif",
            "a.webp", "a.zip", "a.tar", "a.tgz", "a.txt", "a", "a.mp4",
        ]),
        magic in prop::sample::select(vec![
            &b""[..], b"%PDF-1.7\n", b"PK\x03\x04", b"\x89PNG\r\n\x1a\n", b"\xFF\xD8\xFF",
            b"GIF89a", b"RIFF\x00\x00\x00\x00WEBP", b"\x1F\x8B",
        ]),
    ) {
        let input = [magic, &bytes[..]].concat();
        survives(&input, name, "random");
    }
}
