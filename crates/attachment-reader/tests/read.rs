//! Reads sample files of each kind back and checks their items, images, listings and descriptions;
//! then the caps: a zip bomb, a decompression bomb, a crafted shared-strings count, huge repeats.

// Tests and their helpers say what must hold with unwrap and expect; outside tests both are denied.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod samples;

use attachment_reader::{
    Content, Image, Item, Items, Kind, Location, PAGE_BYTES, Plan, Position, caps, classify, page,
    read,
};

fn items(bytes: &[u8], name: &str, mime: Option<&str>) -> Items {
    match read(bytes, name, mime) {
        Ok(Content::Items(items)) => items,
        other => panic!("{name}: expected items, got {other:?}"),
    }
}

fn image(bytes: &[u8], name: &str) -> Image {
    match read(bytes, name, None) {
        Ok(Content::Image(img)) => img,
        Ok(other) => panic!("{name}: expected an image, got {other:?}"),
        Err(e) => panic!("{name}: {e}"),
    }
}

fn texts(items: &[Item]) -> Vec<&str> {
    items.iter().map(|i| i.text.as_str()).collect()
}

/// The JSON bytes of the items of the first page (as [`page`] cuts them), and their text bytes.
fn first_page_cost(items: &[Item]) -> (usize, usize, usize) {
    let (pieces, _) = page(items, Position::default(), PAGE_BYTES);
    let json = serde_json::to_string(&pieces).map_or(0, |s| s.len());
    let text: usize = pieces.iter().map(|p| p.text.len()).sum();
    (pieces.len(), text, json)
}

#[test]
fn text_is_read_by_line() {
    let got = items(
        b"first\r\nsecond\n\nfourth\n",
        "notes.txt",
        Some("text/plain"),
    );
    assert_eq!(got.kind, Kind::Text);
    assert_eq!(texts(&got.items), ["first", "second", "", "fourth"]);
    assert_eq!(got.items[3].at, Location::Line { line: 4 });
    let json = serde_json::to_value(&got.items[0]).expect("json");
    assert_eq!(json, serde_json::json!({"line": 1, "text": "first"}));
    // Text by content, whatever the name says.
    assert_eq!(items(b"a,b\n1,2\n", "data.bin", None).kind, Kind::Text);
    // Declared text in another encoding.
    let latin = items(b"caf\xe9\n", "menu.csv", Some("text/csv"));
    assert_eq!(texts(&latin.items), ["café"]);
    assert!(latin.notes.iter().any(|n| n.contains("Windows-1252")));
}

#[test]
fn pdf_pages_carry_their_numbers_and_say_when_they_have_no_text() {
    let pdf = samples::pdf(&[
        vec![
            "Quarterly report".into(),
            "Revenue grew in every region.".into(),
        ],
        vec![],
        vec!["Page three (the last).".into()],
    ]);
    let got = items(&pdf, "report.pdf", Some("application/pdf"));
    assert_eq!(got.kind, Kind::Pdf);
    assert!(got.format.contains("3 pages"), "{}", got.format);
    assert!(got.format.contains("Sample report"), "{}", got.format);
    assert_eq!(got.items.len(), 3);
    assert_eq!(got.items[0].at, Location::Page { page: 1 });
    assert_eq!(
        got.items[0].text,
        "Quarterly report\nRevenue grew in every region."
    );
    assert_eq!(got.items[1].at, Location::Page { page: 2 });
    assert!(got.items[1].text.contains("page 2 has no text layer"));
    assert_eq!(got.items[2].text, "Page three (the last).");
    assert!(
        got.notes
            .iter()
            .any(|n| n.contains("no text layer") && n.contains('2'))
    );
}

#[test]
fn pdf_words_placed_one_by_one_are_laid_out_in_lines() {
    use lopdf::Object;
    use lopdf::content::Operation;
    let tm = |x: i64, y: i64| {
        Operation::new(
            "Tm",
            vec![12.into(), 0.into(), 0.into(), 12.into(), x.into(), y.into()],
        )
    };
    let tj = |s: &str| Operation::new("Tj", vec![Object::string_literal(s)]);
    let ops = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 1.into()]),
        // Words at their own places on one baseline: spaces between; glyphs run on: none.
        tm(72, 700),
        tj("Hello"),
        tm(110, 700),
        tj("wor"),
        tm(128, 700),
        tj("ld"),
        // A lower baseline: a new line; T* another.
        tm(72, 680),
        tj("Second line"),
        Operation::new("TL", vec![14.into()]),
        Operation::new("T*", vec![]),
        tj("Third"),
        Operation::new("ET", vec![]),
    ];
    let got = items(&samples::pdf_of_operations(vec![ops]), "placed.pdf", None);
    assert_eq!(texts(&got.items), ["Hello world\nSecond line\nThird"]);
}

#[test]
fn pdf_text_drawn_in_a_form_is_read() {
    let got = items(&samples::pdf_with_form(), "stamped.pdf", None);
    assert_eq!(texts(&got.items), ["Body text\nStamped in a form"]);
}

#[test]
fn a_pdf_that_needs_a_password_says_so() {
    use lopdf::{EncryptionState, EncryptionVersion, Permissions};
    let bytes = samples::pdf(&[vec!["secret plans".into()]]);
    let mut doc = lopdf::Document::load_mem(&bytes).expect("load");
    let id = lopdf::Object::string_literal(b"0123456789abcdef".to_vec());
    doc.trailer
        .set("ID", lopdf::Object::Array(vec![id.clone(), id]));
    let version = EncryptionVersion::V2 {
        document: &doc,
        owner_password: "owner",
        user_password: "user",
        key_length: 128,
        permissions: Permissions::all(),
    };
    let state = EncryptionState::try_from(version).expect("state");
    doc.encrypt(&state).expect("encrypt");
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("save");
    let err = read(&out, "locked.pdf", None).expect_err("needs a password");
    assert_eq!(err.kind, Kind::Pdf);
    assert!(err.reason.contains("password"), "{err}");
}

#[test]
fn word_paragraphs_headings_lists_and_table_rows() {
    let got = items(&samples::docx(), "report.docx", None);
    assert_eq!(got.kind, Kind::Word);
    let t = texts(&got.items);
    assert_eq!(
        t,
        [
            "Quarterly report",
            "Sales",
            "Sales rose in every region.",
            "  - a nested point",
            "Name | Qty",
            "Apples & pears | 3",
            "Notes",
            "left\tright",
            "boxed",
        ]
    );
    assert_eq!(
        got.items[0].at,
        Location::Paragraph {
            paragraph: 1,
            heading: Some(1)
        }
    );
    assert_eq!(
        got.items[1].at,
        Location::Paragraph {
            paragraph: 2,
            heading: Some(1)
        }
    );
    assert_eq!(
        got.items[5].at,
        Location::TableRow {
            paragraph: 6,
            table: 1,
            row: 2
        }
    );
    assert_eq!(
        got.items[6].at,
        Location::Paragraph {
            paragraph: 7,
            heading: Some(2)
        }
    );
}

#[test]
fn spreadsheet_rows_carry_sheet_and_row_with_dates_and_numbers() {
    let got = items(&samples::xlsx(), "sales.xlsx", None);
    assert_eq!(got.kind, Kind::Spreadsheet);
    assert!(got.format.contains("3 sheets"), "{}", got.format);
    let t = texts(&got.items);
    assert_eq!(
        t[0],
        "Sheet 1 of 3, \"Sales\": 3 rows × 4 columns with text, A1:D4"
    );
    assert_eq!(t[1], "Region | Amount | Date");
    assert_eq!(t[2], "North | 0.3 | 2024-03-05");
    assert_eq!(t[3], "Total | 1234.5 |  | TRUE");
    assert_eq!(
        got.items[3].at,
        Location::Row {
            sheet: "Sales".into(),
            row: 4
        }
    );
    assert_eq!(t[4], "Sheet 2 of 3, \"Empty\": empty");
    assert_eq!(
        got.items[4].at,
        Location::Sheet {
            sheet: "Empty".into()
        }
    );
    // A sheet spanning the whole grid costs only its two cells.
    assert!(t[5].contains("A1:XFD1048576"), "{}", t[5]);
    assert_eq!(got.items.len(), 8);
    assert_eq!(
        got.items[7].at,
        Location::Row {
            sheet: "Far".into(),
            row: 1_048_576
        }
    );
    let json = serde_json::to_value(&got.items[2]).expect("json");
    assert_eq!(
        json,
        serde_json::json!({"sheet": "Sales", "row": 2, "text": "North | 0.3 | 2024-03-05"})
    );
}

#[test]
fn ods_rows_skip_empty_repeats_and_comments() {
    let got = items(&samples::ods(), "budget.ods", None);
    assert_eq!(got.kind, Kind::Spreadsheet);
    let t = texts(&got.items);
    assert_eq!(
        t,
        [
            "Sheet 1 of 2, \"Budget\": 2 rows × 3 columns with text, A1:C5",
            "Item |  | Cost",
            "Rent |  | 1,200.00",
            "Sheet 2 of 2, \"Second\": 1 rows × 1 columns with text, A1:A1",
            "x  y",
        ]
    );
    assert_eq!(
        got.items[2].at,
        Location::Row {
            sheet: "Budget".into(),
            row: 5
        }
    );
}

#[test]
fn slides_in_deck_order_with_titles_and_notes() {
    let got = items(&samples::pptx(), "roadmap.pptx", None);
    assert_eq!(got.kind, Kind::Slides);
    assert!(got.format.contains("3 slides"), "{}", got.format);
    let t = texts(&got.items);
    assert_eq!(
        t,
        [
            "Roadmap 2025",
            "Platform team",
            "Welcome everyone & thank them",
            "Goals",
            "Ship search\nCut latency",
            "Q1 | 10",
            "[slide 3 has no text]",
        ]
    );
    let slide = |slide, title, notes| Location::Slide {
        slide,
        title,
        notes,
    };
    assert_eq!(got.items[0].at, slide(1, true, false));
    assert_eq!(got.items[2].at, slide(1, false, true));
    assert_eq!(got.items[3].at, slide(2, true, false));
    assert_eq!(got.items[6].at, slide(3, false, false));
    let json = serde_json::to_value(&got.items[2]).expect("json");
    assert_eq!(
        json,
        serde_json::json!({"slide": 1, "notes": true, "text": "Welcome everyone & thank them"})
    );
}

#[test]
fn a_large_noisy_photo_is_scaled_and_fits_a_mebibyte() {
    let photo = image::DynamicImage::ImageRgb8(samples::noisy(4000, 3000));
    let jpeg = samples::encode(&photo, image::ImageFormat::Jpeg);
    // A noisy PNG must stay under the 10 MiB input cap: 2000×1500.
    let noisy_png = samples::encode(
        &image::DynamicImage::ImageRgb8(samples::noisy(2000, 1500)),
        image::ImageFormat::Png,
    );
    // A screenshot-like PNG: flat areas and stripes, 4000×3000.
    let screen = image::RgbImage::from_fn(4000, 3000, |x, y| {
        if (y / 20) % 7 == 0 && (x / 6) % 3 != 0 {
            image::Rgb([20, 20, 20])
        } else if x < 600 {
            image::Rgb([40, 44, 52])
        } else {
            image::Rgb([250, 250, 250])
        }
    });
    let screen_png = samples::encode(
        &image::DynamicImage::ImageRgb8(screen),
        image::ImageFormat::Png,
    );
    let cases = [
        (&jpeg, "photo.jpg", (4000, 3000), (1568, 1176), "image/jpeg"),
        (
            &noisy_png,
            "noise.png",
            (2000, 1500),
            (1568, 1176),
            "image/jpeg",
        ),
        (
            &screen_png,
            "screen.png",
            (4000, 3000),
            (1568, 1176),
            "image/png",
        ),
    ];
    for (bytes, name, original, scaled, mime) in cases {
        let start = std::time::Instant::now();
        let img = image(bytes, name);
        eprintln!(
            "{name}: {} bytes in; {}×{} {} in {} bytes, {:?} ({:?})",
            bytes.len(),
            img.width,
            img.height,
            img.mime,
            img.bytes.len(),
            start.elapsed(),
            img.notes
        );
        assert_eq!((img.original_width, img.original_height), original);
        assert_eq!((img.width, img.height), scaled);
        assert_eq!(img.mime, mime);
        assert!(img.bytes.len() <= caps::IMAGE_MAX_ENCODED_BYTES);
        let back = image::load_from_memory(&img.bytes).expect("decodes");
        assert_eq!((back.width(), back.height()), scaled);
    }
}

#[test]
fn small_images_pass_through_and_others_are_reencoded() {
    let small = image::DynamicImage::ImageRgba8(image::RgbaImage::from_pixel(
        40,
        30,
        image::Rgba([10, 20, 30, 128]),
    ));
    let png = samples::encode(&small, image::ImageFormat::Png);
    let got = image(&png, "icon.png");
    assert_eq!(got.bytes, png);
    assert_eq!(got.mime, "image/png");
    let gif = samples::encode(&small, image::ImageFormat::Gif);
    let got = image(&gif, "anim.gif");
    assert_eq!(got.mime, "image/png");
    assert_eq!((got.width, got.height), (40, 30));
    let webp = samples::encode(&small, image::ImageFormat::WebP);
    let got = image(&webp, "pic.webp");
    assert_eq!((got.width, got.height), (40, 30));
    assert_eq!(got.original_format, "WebP image");
}

#[test]
fn a_decompression_bomb_is_refused_before_decoding() {
    // A 1×1 PNG whose header then claims 100000×100000 pixels.
    let tiny = samples::encode(
        &image::DynamicImage::ImageRgb8(image::RgbImage::new(1, 1)),
        image::ImageFormat::Png,
    );
    let mut bomb = tiny.clone();
    bomb[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    bomb[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let mut crc = flate2::Crc::new();
    crc.update(&bomb[12..29]);
    bomb[29..33].copy_from_slice(&crc.sum().to_be_bytes());
    let err = read(&bomb, "bomb.png", None).expect_err("refused");
    assert_eq!(err.kind, Kind::Image);
    assert!(err.reason.contains("100000×100000"), "{err}");
}

#[test]
fn archives_are_listed_without_extracting() {
    let zip = samples::zip(&[("a.txt", b"hello"), ("dir/b.md", b"# b"), ("dir/", b"")]);
    let got = items(&zip, "files.zip", None);
    assert_eq!(got.kind, Kind::Archive);
    assert_eq!(texts(&got.items), ["a.txt", "dir/b.md", "dir/"]);
    match &got.items[0].at {
        Location::Entry {
            entry, size, dir, ..
        } => assert_eq!((*entry, *size, *dir), (1, 5, false)),
        other => panic!("{other:?}"),
    }
    assert!(matches!(got.items[2].at, Location::Entry { dir: true, .. }));
    for gzip in [false, true] {
        let tar = samples::tar(
            &[("docs/readme.md", b"read me"), ("x.bin", &[0u8; 700])],
            gzip,
        );
        let name = if gzip { "src.tar.gz" } else { "src.tar" };
        let got = items(&tar, name, None);
        assert_eq!(got.kind, Kind::Archive);
        assert_eq!(texts(&got.items), ["docs/", "docs/readme.md", "x.bin"]);
        assert_eq!(
            got.items[2].at,
            Location::Entry {
                entry: 3,
                size: 700,
                modified: Some("2023-11-14T22:13:20Z".into()),
                dir: false
            }
        );
    }
}

#[test]
fn an_archive_listing_stops_at_its_cap_and_says_how_many_are_left() {
    let names: Vec<String> = (0..caps::MAX_ARCHIVE_ENTRIES + 7)
        .map(|i| format!("f{i}.txt"))
        .collect();
    let parts: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b""[..])).collect();
    let got = items(&samples::zip(&parts), "many.zip", None);
    assert_eq!(got.items.len(), caps::MAX_ARCHIVE_ENTRIES);
    assert!(
        got.notes.iter().any(|n| n.contains("7 more")),
        "{:?}",
        got.notes
    );
}

#[test]
fn other_files_are_described() {
    let mp4 = [&[0, 0, 0, 0x18][..], b"ftypisom", &[0u8; 64]].concat();
    match read(&mp4, "clip.mp4", Some("video/mp4")) {
        Ok(Content::Described(d)) => {
            assert_eq!(d.format, "video");
            assert_eq!(d.size, mp4.len() as u64);
        }
        other => panic!("{other:?}"),
    }
    let cfb = [
        &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1][..],
        &[0u8; 100],
    ]
    .concat();
    match read(&cfb, "old.xls", None) {
        Ok(Content::Described(d)) => assert!(d.reason.contains(".xlsx"), "{}", d.reason),
        other => panic!("{other:?}"),
    }
    match read(&[0x00, 0x01, 0xFE, 0x80], "blob", None) {
        Ok(Content::Described(d)) => assert!(d.format.contains("unknown")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn classify_says_what_would_be_read_from_the_name_alone() {
    assert_eq!(
        classify("report.pdf", None, 1000),
        Plan::Read {
            kind: Kind::Pdf,
            format: "PDF document".into(),
            max_bytes: caps::MAX_DOCUMENT_BYTES
        }
    );
    assert!(matches!(
        classify("huge.png", Some("image/png"), caps::MAX_IMAGE_BYTES + 1),
        Plan::TooLarge {
            kind: Kind::Image,
            ..
        }
    ));
    assert!(matches!(
        classify("movie.mov", None, 5_000_000_000),
        Plan::Describe { .. }
    ));
    assert!(matches!(
        classify("blob", Some("application/octet-stream"), 100),
        Plan::Read {
            kind: Kind::Other,
            ..
        }
    ));
    assert!(matches!(
        classify(
            "x",
            Some("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            5
        ),
        Plan::Read {
            kind: Kind::Spreadsheet,
            ..
        }
    ));
    // A file read past its kind's cap is refused, not read.
    let big = vec![b'a'; caps::MAX_TEXT_BYTES as usize + 1];
    let err = read(&big, "big.txt", None).expect_err("too large");
    assert!(err.reason.contains("larger than 8 MiB"), "{err}");
}

#[test]
fn a_zip_bomb_in_a_document_is_refused() {
    // 80 MiB of one byte deflates to about 80 KiB, past the per-part cap.
    let filler = vec![b' '; 80 * 1024 * 1024];
    let body = [b"<w:document xmlns:w=\"w\"><w:body>".as_slice(), &filler].concat();
    let bomb = samples::zip(&[
        ("[Content_Types].xml", b"<Types/>"),
        ("word/document.xml", &body),
    ]);
    eprintln!(
        "zip bomb: {} bytes inflating to {} bytes",
        bomb.len(),
        body.len()
    );
    let err = read(&bomb, "bomb.docx", None).expect_err("refused");
    assert_eq!(err.kind, Kind::Word);
    assert!(err.reason.contains("zip bomb"), "{err}");
    // The same part in a workbook is refused before calamine reads it.
    let book = samples::zip(&[
        ("[Content_Types].xml", b"<Types/>"),
        ("xl/workbook.xml", b"<workbook/>"),
        ("xl/worksheets/sheet1.xml", &body),
    ]);
    let err = read(&book, "bomb.xlsx", None).expect_err("refused");
    assert!(err.reason.contains("zip bomb"), "{err}");
}

#[test]
fn a_crafted_shared_strings_count_is_refused_before_calamine_reserves_it() {
    let book = samples::xlsx_with(&[("S", String::new())], &["a"], Some(1_000_000_000_000));
    let err = read(&book, "crafted.xlsx", None).expect_err("refused");
    assert!(err.reason.contains("shared strings"), "{err}");
}

#[test]
fn xml_entities_of_a_document_own_are_not_expanded() {
    let laughs = r#"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><w:document xmlns:w="w"><w:body><w:p><w:r><w:t>&lol3; &amp; &#65;</w:t></w:r></w:p></w:body></w:document>"#;
    let doc = samples::zip(&[
        ("[Content_Types].xml", b"<Types/>"),
        ("word/document.xml", laughs.as_bytes()),
    ]);
    let got = items(&doc, "laughs.docx", None);
    assert_eq!(texts(&got.items), ["&lol3; & A"]);
}

#[test]
fn huge_repeats_of_text_in_ods_are_bounded() {
    let body = r#"<table:table table:name="R"><table:table-row table:number-rows-repeated="1048576"><table:table-cell table:number-columns-repeated="16384" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row></table:table>"#;
    let start = std::time::Instant::now();
    let got = items(&samples::ods_with(body), "r.ods", None);
    assert!(start.elapsed().as_secs() < 30);
    // At most 1000 repeats of a row or a cell with text.
    assert_eq!(got.items.len(), 1 + 1000);
    assert_eq!(got.items[1].text.matches('x').count(), 1000);
}

#[test]
fn pages_of_items_cover_a_long_pdf_page_by_lines() {
    let lines: Vec<String> = (0..400).map(|i| samples::prose(i, 90)).collect();
    let got = items(
        &samples::pdf(std::slice::from_ref(&lines)),
        "long.pdf",
        None,
    );
    let mut from = Position::default();
    let mut rebuilt = String::new();
    loop {
        let (pieces, next) = page(&got.items, from, PAGE_BYTES);
        for p in &pieces {
            assert_eq!(p.at, &Location::Page { page: 1 });
            rebuilt.push_str(p.text);
        }
        match next {
            Some(n) => from = n,
            None => break,
        }
    }
    assert_eq!(rebuilt, lines.join("\n"));
}

#[test]
fn the_output_types_have_a_json_schema() {
    let schema = schemars::schema_for!(Content);
    let text = serde_json::to_string(&schema).expect("schema");
    for word in ["sheet", "slide", "paragraph", "entry", "page", "line"] {
        assert!(text.contains(word), "{word} missing from {text}");
    }
    let _ = schemars::schema_for!(Plan);
    let _ = schemars::schema_for!(attachment_reader::Unreadable);
}

/// Prints what a page of items costs, in JSON bytes, for a typical file of each kind
/// (`cargo test -p attachment-reader --test read -- --nocapture page_costs`).
#[test]
fn page_costs() {
    let text: String = (0..2000)
        .map(|i| samples::prose(i, 20 + (i * 37) % 70) + "\n")
        .collect();
    let pdf_pages: Vec<Vec<String>> = (0..12)
        .map(|p| (0..45).map(|i| samples::prose(p * 50 + i, 85)).collect())
        .collect();
    let body: String = (0..300)
        .map(|i| {
            if i % 10 == 0 {
                samples::w_p(Some("Heading1"), &samples::prose(i, 30))
            } else {
                samples::w_p(None, &samples::prose(i, 400))
            }
        })
        .collect();
    let rows: String = (1..=2000)
        .map(|r| {
            let cells: String = (0..6)
                .map(|c| {
                    let col = (b'A' + c as u8) as char;
                    if c == 0 {
                        format!(r#"<c r="{col}{r}" t="inlineStr"><is><t>Item {r}</t></is></c>"#)
                    } else {
                        format!(r#"<c r="{col}{r}"><v>{}.{}</v></c>"#, r * 13 % 997, c * 7)
                    }
                })
                .collect();
            format!(r#"<row r="{r}">{cells}</row>"#)
        })
        .collect();
    let slides: Vec<(String, Option<&str>)> = (0..30)
        .map(|i| {
            (
                format!(
                    "<p:sp><p:nvSpPr><p:nvPr><p:ph type=\"title\"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>{}</a:t></a:r></a:p></p:txBody></p:sp><p:sp><p:nvSpPr><p:nvPr/></p:nvSpPr><p:txBody>{}</p:txBody></p:sp>",
                    samples::prose(i, 25),
                    (0..5)
                        .map(|j| format!("<a:p><a:r><a:t>{}</a:t></a:r></a:p>", samples::prose(i * 5 + j, 60)))
                        .collect::<String>()
                ),
                Some("Remember to mention the numbers and thank the team for the launch."),
            )
        })
        .collect();
    let names: Vec<String> = (0..3000)
        .map(|i| format!("project/src/module{}/file_{i}.rs", i % 40))
        .collect();
    let parts: Vec<(&str, &[u8])> = names
        .iter()
        .map(|n| (n.as_str(), &b"fn main() {}"[..]))
        .collect();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("text", text.into_bytes(), "notes.md"),
        ("pdf", samples::pdf(&pdf_pages), "report.pdf"),
        ("docx", samples::docx_with_body(&body), "report.docx"),
        (
            "xlsx",
            samples::xlsx_with(&[("Data", rows)], &[], None),
            "data.xlsx",
        ),
        ("pptx", samples::pptx_with(&slides), "deck.pptx"),
        ("zip", samples::zip(&parts), "src.zip"),
    ];
    for (label, bytes, name) in cases {
        let start = std::time::Instant::now();
        let got = items(&bytes, name, None);
        let took = start.elapsed();
        let all_json = serde_json::to_string(&got.items).map_or(0, |s| s.len());
        let all_text: usize = got.items.iter().map(|i| i.text.len()).sum();
        let (n, page_text, page_json) = first_page_cost(&got.items);
        eprintln!(
            "{label:5} {:>8} bytes in, {:>5} items, read in {took:?}; all items {all_text} text / \
             {all_json} JSON bytes; first {PAGE_BYTES}-byte page: {n} pieces, {page_text} text / \
             {page_json} JSON bytes ({:.0}% overhead)",
            bytes.len(),
            got.items.len(),
            (page_json as f64 / page_text.max(1) as f64 - 1.0) * 100.0
        );
        assert!(page_text <= PAGE_BYTES + 8 * 1024);
    }
}

#[test]
fn a_read_stops_at_its_text_cap_with_a_note() {
    let long = "word ".repeat(2 * 1024 * 1024);
    let body = [
        samples::w_p(None, "first"),
        samples::w_p(None, &long),
        samples::w_p(None, "never reached"),
    ]
    .concat();
    let got = items(&samples::docx_with_body(&body), "long.docx", None);
    let bytes: usize = got.items.iter().map(|i| i.text.len()).sum();
    assert!(bytes <= caps::MAX_OUTPUT_TEXT);
    assert_eq!(got.items.len(), 2);
    assert!(got.items[1].text.ends_with('…'));
    assert!(
        got.notes.iter().any(|n| n.contains("stop after")),
        "{:?}",
        got.notes
    );
}

#[test]
fn optional_fields_are_optional_in_the_schema() {
    let schema = serde_json::to_value(schemars::schema_for!(Item)).expect("schema");
    let text = schema.to_string();
    assert!(!text.contains(r#"["slide","title","notes"]"#), "{text}");
    assert!(text.contains(r#""required":["slide"]"#), "{text}");
    assert!(text.contains(r#""required":["entry","size"]"#), "{text}");
}
