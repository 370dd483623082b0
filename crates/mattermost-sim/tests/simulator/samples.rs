//! The sample file writers (`mattermost_sim::samples`), checked by reading their structure back:
//! zip central directories and CRCs, PNG chunk CRCs and the zlib stream (inflated here), the PDF
//! cross-reference offsets, tar header checksums, and the parts of the Office files.

use mattermost_sim::samples;

fn u16le(b: &[u8], at: usize) -> usize {
    u16::from_le_bytes([b[at], b[at + 1]]) as usize
}

fn u32le(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The entries of a stored zip archive, read from its central directory: (name, data).
fn unzip(z: &[u8]) -> Vec<(String, Vec<u8>)> {
    let eocd = z.len() - 22;
    assert_eq!(u32le(z, eocd), 0x0605_4b50, "end of central directory");
    let count = u16le(z, eocd + 10);
    let mut at = u32le(z, eocd + 16) as usize;
    let mut out = Vec::new();
    for _ in 0..count {
        assert_eq!(u32le(z, at), 0x0201_4b50, "central directory header");
        let crc = u32le(z, at + 16);
        let size = u32le(z, at + 20) as usize;
        let name_len = u16le(z, at + 28);
        let extra = u16le(z, at + 30);
        let comment = u16le(z, at + 32);
        let local = u32le(z, at + 42) as usize;
        let name = String::from_utf8(z[at + 46..at + 46 + name_len].to_vec()).unwrap();
        assert_eq!(u32le(z, local), 0x0403_4b50, "local header of {name}");
        assert_eq!(u16le(z, local + 8), 0, "stored");
        let data_at = local + 30 + u16le(z, local + 26) + u16le(z, local + 28);
        let data = z[data_at..data_at + size].to_vec();
        assert_eq!(samples::crc32(&data), crc, "crc of {name}");
        out.push((name, data));
        at += 46 + name_len + extra + comment;
    }
    out
}

/// A small inflater for stored and fixed-Huffman deflate blocks (what the writers emit).
fn inflate(data: &[u8]) -> Vec<u8> {
    struct Bits<'a> {
        d: &'a [u8],
        pos: usize,
    }
    impl Bits<'_> {
        fn bit(&mut self) -> u32 {
            let b = (self.d[self.pos / 8] >> (self.pos % 8)) & 1;
            self.pos += 1;
            b as u32
        }
        fn bits(&mut self, n: u32) -> u32 {
            (0..n).fold(0, |acc, i| acc | (self.bit() << i))
        }
        fn code(&mut self, n: u32) -> u32 {
            (0..n).fold(0, |acc, _| (acc << 1) | self.bit())
        }
    }
    let base = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
        131, 163, 195, 227, 258,
    ];
    let extra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ];
    let dbase = [1u32, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193];
    let dextra = [0u32, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6];
    let mut b = Bits { d: data, pos: 0 };
    let mut out: Vec<u8> = Vec::new();
    loop {
        let last = b.bit();
        match b.bits(2) {
            0 => {
                b.pos = b.pos.div_ceil(8) * 8;
                let at = b.pos / 8;
                let len = u16le(data, at);
                out.extend_from_slice(&data[at + 4..at + 4 + len]);
                b.pos = (at + 4 + len) * 8;
            }
            1 => loop {
                let mut c = b.code(7);
                let sym = if c <= 0b0010111 {
                    256 + c
                } else {
                    c = (c << 1) | b.bit();
                    if (0x30..=0xBF).contains(&c) {
                        c - 0x30
                    } else if (0xC0..=0xC7).contains(&c) {
                        280 + c - 0xC0
                    } else {
                        c = (c << 1) | b.bit();
                        144 + c - 0x190
                    }
                };
                if sym < 256 {
                    out.push(sym as u8);
                } else if sym == 256 {
                    break;
                } else {
                    let i = (sym - 257) as usize;
                    let len = base[i] + b.bits(extra[i]);
                    let dc = b.code(5) as usize;
                    assert!(dc < 16, "distance code {dc}");
                    let dist = (dbase[dc] + b.bits(dextra[dc])) as usize;
                    for _ in 0..len {
                        out.push(out[out.len() - dist]);
                    }
                }
            },
            t => panic!("block type {t}"),
        }
        if last == 1 {
            return out;
        }
    }
}

#[test]
fn zip_entries_read_back_from_the_central_directory_with_their_crcs() {
    let z = samples::zip(&[
        ("docs/readme.txt", b"hello zip".as_slice()),
        ("empty", b"".as_slice()),
        ("data.bin", &[0u8, 1, 2, 255][..]),
    ]);
    let entries = unzip(&z);
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, vec!["docs/readme.txt", "empty", "data.bin"]);
    assert_eq!(entries[0].1, b"hello zip");
    assert_eq!(entries[2].1, vec![0u8, 1, 2, 255]);
    assert_eq!(
        samples::crc32(b"123456789"),
        0xCBF4_3926,
        "the CRC-32 check value"
    );
}

#[test]
fn png_chunks_have_correct_crcs_and_the_image_data_inflates_to_every_row() {
    let (w, h) = (2400usize, 1600usize);
    let png = samples::png(w as u32, h as u32);
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let mut at = 8;
    let mut kinds = Vec::new();
    let mut idat = Vec::new();
    while at < png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        let kind = &png[at + 4..at + 8];
        let crc = u32::from_be_bytes(png[at + 8 + len..at + 12 + len].try_into().unwrap());
        assert_eq!(
            samples::crc32(&png[at + 4..at + 8 + len]),
            crc,
            "CRC of {kind:?}"
        );
        if kind == b"IHDR" {
            assert_eq!(&png[at + 8..at + 16], &[0, 0, 9, 96, 0, 0, 6, 64]);
        }
        if kind == b"IDAT" {
            idat.extend_from_slice(&png[at + 8..at + 8 + len]);
        }
        kinds.push(String::from_utf8_lossy(kind).to_string());
        at += 12 + len;
    }
    assert_eq!(kinds, vec!["IHDR", "IDAT", "IEND"]);
    assert_eq!(idat[0], 0x78);
    assert_eq!(
        ((idat[0] as u32) << 8 | idat[1] as u32) % 31,
        0,
        "zlib header check"
    );
    let raw = inflate(&idat[2..idat.len() - 4]);
    assert_eq!(
        raw.len(),
        h * (w * 3 + 1),
        "one filter byte and 3 bytes a pixel per row"
    );
    let adler = u32::from_be_bytes(idat[idat.len() - 4..].try_into().unwrap());
    assert_eq!(samples::adler32(&raw), adler);
    assert!(png.len() < 1_000_000, "compressed: {} bytes", png.len());
}

#[test]
fn pdf_cross_reference_offsets_point_at_their_objects_and_pages_carry_text() {
    let pdf = samples::pdf(&["First page (with parens)", "Second page\nwith two lines"]);
    let text = String::from_utf8_lossy(&pdf).to_string();
    assert!(text.starts_with("%PDF-1.4"));
    assert!(text.trim_end().ends_with("%%EOF"));
    let startxref: usize = text
        .rsplit("startxref\n")
        .next()
        .and_then(|t| t.lines().next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap();
    assert!(pdf[startxref..].starts_with(b"xref\n0 "));
    let table = String::from_utf8(pdf[startxref..].to_vec()).unwrap();
    let mut lines = table.lines().skip(1);
    let count: usize = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert_eq!(
        count, 8,
        "free entry + catalog, pages, font, 2 × (page, content)"
    );
    lines.next();
    for n in 1..count {
        let entry = lines.next().unwrap();
        assert_eq!(entry.len(), 19, "{entry:?}");
        let off: usize = entry[..10].parse().unwrap();
        assert!(
            pdf[off..].starts_with(format!("{n} 0 obj").as_bytes()),
            "object {n} at {off}"
        );
    }
    assert!(text.contains("/Count 2"));
    assert!(text.contains("(First page \\(with parens\\)) Tj"));
    assert!(text.contains("(with two lines) Tj"));
    // each stream's /Length is its byte length
    let find = |from: usize, what: &[u8]| {
        pdf[from..]
            .windows(what.len())
            .position(|w| w == what)
            .map(|p| p + from)
    };
    let mut from = 0;
    let mut streams = 0;
    while let Some(start) = find(from, b">>\nstream\n") {
        let data = start + b">>\nstream\n".len();
        let end = find(data, b"endstream").unwrap();
        let dict = String::from_utf8_lossy(&pdf[..start]).to_string();
        let len: usize = dict
            .rsplit("/Length ")
            .next()
            .and_then(|t| t.trim().parse().ok())
            .unwrap();
        assert_eq!(len, end - data);
        streams += 1;
        from = end;
    }
    assert_eq!(streams, 2, "one content stream per page");
}

#[test]
fn tar_headers_have_valid_checksums_sizes_and_padding() {
    let t = samples::tar(&[
        ("notes/a.txt", b"alpha".as_slice()),
        ("b.md", &[b'x'; 600][..]),
    ]);
    assert_eq!(t.len() % 512, 0);
    let mut at = 0;
    let mut seen = Vec::new();
    while t[at..at + 512].iter().any(|&b| b != 0) {
        let h = &t[at..at + 512];
        let name = String::from_utf8_lossy(&h[..100])
            .trim_end_matches('\0')
            .to_string();
        let size = usize::from_str_radix(
            std::str::from_utf8(&h[124..135])
                .unwrap()
                .trim_end_matches('\0'),
            8,
        )
        .unwrap();
        let stored = u32::from_str_radix(std::str::from_utf8(&h[148..154]).unwrap(), 8).unwrap();
        let sum: u32 = h
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                if (148..156).contains(&i) {
                    32
                } else {
                    b as u32
                }
            })
            .sum();
        assert_eq!(stored, sum, "checksum of {name}");
        assert_eq!(&h[257..262], b"ustar");
        seen.push((name, t[at + 512..at + 512 + size].to_vec()));
        at += 512 + size.div_ceil(512) * 512;
    }
    assert_eq!(&t[at..], &[0u8; 1024][..], "two zero blocks end it");
    assert_eq!(seen[0], ("notes/a.txt".to_string(), b"alpha".to_vec()));
    assert_eq!(seen[1].1.len(), 600);
}

fn part(entries: &[(String, Vec<u8>)], name: &str) -> String {
    entries
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, d)| String::from_utf8(d.clone()).unwrap())
        .unwrap_or_else(|| panic!("no part {name}"))
}

#[test]
fn office_files_hold_the_parts_readers_need() {
    let docx = unzip(&samples::docx(&["Hello & welcome", "Second <paragraph>"]));
    assert!(part(&docx, "[Content_Types].xml").contains("/word/document.xml"));
    assert!(part(&docx, "_rels/.rels").contains("Target=\"word/document.xml\""));
    let doc = part(&docx, "word/document.xml");
    assert!(doc.contains("Hello &amp; welcome") && doc.contains("Second &lt;paragraph&gt;"));
    part(&docx, "word/_rels/document.xml.rels");

    let xlsx = unzip(&samples::xlsx(&[
        (
            "Budget",
            vec![
                vec!["Item".into(), "Cost".into()],
                vec!["Laptops".into(), "1200.5".into()],
            ],
        ),
        ("Notes", vec![vec!["Item".into(), "approved".into()]]),
    ]));
    let wb = part(&xlsx, "xl/workbook.xml");
    assert!(wb.contains("name=\"Budget\"") && wb.contains("name=\"Notes\""));
    let wb_rels = part(&xlsx, "xl/_rels/workbook.xml.rels");
    assert!(wb_rels.contains("worksheets/sheet2.xml") && wb_rels.contains("sharedStrings.xml"));
    let sst = part(&xlsx, "xl/sharedStrings.xml");
    assert!(
        sst.contains("uniqueCount=\"4\""),
        "a repeated string is stored once: {sst}"
    );
    let sheet1 = part(&xlsx, "xl/worksheets/sheet1.xml");
    assert!(sheet1.contains("<c r=\"B2\"><v>1200.5</v></c>"), "{sheet1}");
    part(&xlsx, "xl/worksheets/sheet2.xml");

    let pptx = unzip(&samples::pptx(&[
        "Roadmap\nQ1: search",
        "Risks\nNone so far",
    ]));
    for name in [
        "ppt/presentation.xml",
        "ppt/_rels/presentation.xml.rels",
        "ppt/slides/slide1.xml",
        "ppt/slides/slide2.xml",
        "ppt/slides/_rels/slide1.xml.rels",
        "ppt/slideMasters/slideMaster1.xml",
        "ppt/slideLayouts/slideLayout1.xml",
        "ppt/theme/theme1.xml",
    ] {
        part(&pptx, name);
    }
    assert!(part(&pptx, "ppt/slides/slide2.xml").contains("<a:t>None so far</a:t>"));
    assert_eq!(
        part(&pptx, "ppt/presentation.xml")
            .matches("<p:sldId ")
            .count(),
        2
    );
}
