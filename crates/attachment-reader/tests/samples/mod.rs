//! Sample files of each kind, made here: OOXML and OpenDocument parts written by hand into zips,
//! PDFs built with lopdf, images encoded with image, tarballs with tar and flate2.

#![allow(dead_code)]

use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, Stream, dictionary};
use std::io::{Cursor, Write};
use zip::write::SimpleFileOptions;

/// A zip of the given parts, deflated.
pub fn zip(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in parts {
        w.start_file(*name, options).expect("start part");
        w.write_all(data).expect("write part");
    }
    w.finish().expect("finish zip").into_inner()
}

const XML: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#;
const W: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;
const RELS_NS: &str = r#"xmlns="http://schemas.openxmlformats.org/package/2006/relationships""#;
const OFFICE_DOC: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument";

fn content_types() -> String {
    format!(
        r#"{XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>"#
    )
}

fn root_rels(target: &str) -> String {
    format!(
        r#"{XML}<Relationships {RELS_NS}><Relationship Id="rId1" Type="{OFFICE_DOC}" Target="{target}"/></Relationships>"#
    )
}

/// A paragraph of `text` in a style (or none).
pub fn w_p(style: Option<&str>, text: &str) -> String {
    let ppr = style
        .map(|s| format!(r#"<w:pPr><w:pStyle w:val="{s}"/></w:pPr>"#))
        .unwrap_or_default();
    format!(r#"<w:p>{ppr}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>"#)
}

/// A Word document whose body is `body` (paragraphs and tables as WordprocessingML).
pub fn docx_with_body(body: &str) -> Vec<u8> {
    let document =
        format!(r#"{XML}<w:document {W}><w:body>{body}<w:sectPr/></w:body></w:document>"#);
    let styles = format!(
        r#"{XML}<w:styles {W}><w:style w:type="paragraph" w:styleId="Berschrift1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="H2"><w:name w:val="heading 2"/></w:style></w:styles>"#
    );
    zip(&[
        ("[Content_Types].xml", content_types().as_bytes()),
        ("_rels/.rels", root_rels("word/document.xml").as_bytes()),
        ("word/document.xml", document.as_bytes()),
        ("word/styles.xml", styles.as_bytes()),
    ])
}

/// A Word document: a title, a localized heading, paragraphs, a list item, a table, a text box.
pub fn docx() -> Vec<u8> {
    let table = r#"<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Name</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Qty</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:tc><w:p><w:r><w:t>Apples &amp; pears</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>3</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"#;
    let list = r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>a nested point</w:t></w:r></w:p>"#;
    let tabbed = r#"<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:t>left</w:t><w:tab/><w:t>right</w:t></w:r></w:p>"#;
    let fallback = r#"<w:p><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing><w:txbxContent><w:p><w:r><w:t>boxed</w:t></w:r></w:p></w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>boxed</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>"#;
    let body = [
        w_p(Some("Title"), "Quarterly report"),
        w_p(Some("Berschrift1"), "Sales"),
        w_p(None, "Sales rose in every region."),
        w_p(None, ""),
        list.to_string(),
        table.to_string(),
        w_p(Some("H2"), "Notes"),
        tabbed.to_string(),
        fallback.to_string(),
    ]
    .concat();
    docx_with_body(&body)
}

const WB_NS: &str = r#"xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships""#;

/// An xlsx of sheets given as (name, sheetData XML), with shared strings `strings`; style 1 is a
/// date format.
pub fn xlsx_with(sheets: &[(&str, String)], strings: &[&str], sst_count: Option<u64>) -> Vec<u8> {
    let sheet_list: String = sheets
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            format!(
                r#"<sheet name="{name}" sheetId="{}" r:id="rId{}"/>"#,
                i + 1,
                i + 1
            )
        })
        .collect();
    let workbook = format!(r#"{XML}<workbook {WB_NS}><sheets>{sheet_list}</sheets></workbook>"#);
    let rels: String = sheets
        .iter()
        .enumerate()
        .map(|(i, _)| {
            format!(
                r#"<Relationship Id="rId{}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet{}.xml"/>"#,
                i + 1,
                i + 1
            )
        })
        .collect();
    let n = sheets.len();
    let wb_rels = format!(
        r#"{XML}<Relationships {RELS_NS}>{rels}<Relationship Id="rId{}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId{}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#,
        n + 1,
        n + 2
    );
    let si: String = strings
        .iter()
        .map(|s| format!("<si><t>{s}</t></si>"))
        .collect();
    let count = sst_count.unwrap_or(strings.len() as u64);
    let sst = format!(
        r#"{XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{count}" uniqueCount="{count}">{si}</sst>"#
    );
    let styles = format!(
        r#"{XML}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>"#
    );
    let sheet_xml: Vec<(String, String)> = sheets
        .iter()
        .enumerate()
        .map(|(i, (_, data))| {
            (
                format!("xl/worksheets/sheet{}.xml", i + 1),
                format!(r#"{XML}<worksheet {WB_NS}><sheetData>{data}</sheetData></worksheet>"#),
            )
        })
        .collect();
    let ct = content_types();
    let root = root_rels("xl/workbook.xml");
    let mut parts: Vec<(&str, &[u8])> = vec![
        ("[Content_Types].xml", ct.as_bytes()),
        ("_rels/.rels", root.as_bytes()),
        ("xl/workbook.xml", workbook.as_bytes()),
        ("xl/_rels/workbook.xml.rels", wb_rels.as_bytes()),
        ("xl/sharedStrings.xml", sst.as_bytes()),
        ("xl/styles.xml", styles.as_bytes()),
    ];
    for (name, data) in &sheet_xml {
        parts.push((name.as_str(), data.as_bytes()));
    }
    zip(&parts)
}

/// An xlsx: "Sales" with a header row, numbers, a date and a formula's value; "Empty"; a sheet whose
/// cells sit at A1 and far away at XFD1048576.
pub fn xlsx() -> Vec<u8> {
    let sales = r#"<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row><row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2"><v>0.30000000000000004</v></c><c r="C2" s="1"><v>45356</v></c></row><row r="4"><c r="A4" t="inlineStr"><is><t>Total</t></is></c><c r="B4"><f>SUM(B2:B3)</f><v>1234.5</v></c><c r="D4" t="b"><v>1</v></c></row>"#;
    let far = r#"<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>2</v></c></row>"#;
    xlsx_with(
        &[
            ("Sales", sales.to_string()),
            ("Empty", String::new()),
            ("Far", far.to_string()),
        ],
        &["Region", "Amount", "Date", "North"],
        None,
    )
}

const P_NS: &str = r#"xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main""#;

fn sp(ph: Option<&str>, paragraphs: &[&str]) -> String {
    let ph = ph
        .map(|t| format!(r#"<p:nvPr><p:ph type="{t}"/></p:nvPr>"#))
        .unwrap_or_else(|| "<p:nvPr/>".to_string());
    let ps: String = paragraphs
        .iter()
        .map(|t| format!("<a:p><a:r><a:t>{t}</a:t></a:r></a:p>"))
        .collect();
    format!(
        r#"<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/>{ph}</p:nvSpPr><p:txBody><a:bodyPr/>{ps}</p:txBody></p:sp>"#
    )
}

/// A deck of slides given as their shapes' XML, with speaker notes for some; slides listed in the
/// order given though their parts are numbered backwards.
pub fn pptx_with(slides: &[(String, Option<&str>)]) -> Vec<u8> {
    let n = slides.len();
    let ids: String = (0..n)
        .map(|i| format!(r#"<p:sldId id="{}" r:id="rId{}"/>"#, 256 + i, i + 1))
        .collect();
    let presentation =
        format!(r#"{XML}<p:presentation {P_NS}><p:sldIdLst>{ids}</p:sldIdLst></p:presentation>"#);
    // Slide i is stored as part n - i, so that order comes from the list, not the names.
    let rels: String = (0..n)
        .map(|i| {
            format!(
                r#"<Relationship Id="rId{}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide{}.xml"/>"#,
                i + 1,
                n - i
            )
        })
        .collect();
    let pres_rels = format!(r#"{XML}<Relationships {RELS_NS}>{rels}</Relationships>"#);
    let mut owned: Vec<(String, String)> = vec![
        ("[Content_Types].xml".into(), content_types()),
        ("_rels/.rels".into(), root_rels("ppt/presentation.xml")),
        ("ppt/presentation.xml".into(), presentation),
        ("ppt/_rels/presentation.xml.rels".into(), pres_rels),
    ];
    for (i, (shapes, notes)) in slides.iter().enumerate() {
        let part = n - i;
        owned.push((
            format!("ppt/slides/slide{part}.xml"),
            format!(r#"{XML}<p:sld {P_NS}><p:cSld><p:spTree>{shapes}</p:spTree></p:cSld></p:sld>"#),
        ));
        if let Some(notes) = notes {
            owned.push((
                format!("ppt/slides/_rels/slide{part}.xml.rels"),
                format!(
                    r#"{XML}<Relationships {RELS_NS}><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide" Target="../notesSlides/notesSlide{part}.xml"/></Relationships>"#
                ),
            ));
            let body = format!("{}{}", sp(Some("sldImg"), &[]), sp(Some("body"), &[notes]));
            owned.push((
                format!("ppt/notesSlides/notesSlide{part}.xml"),
                format!(r#"{XML}<p:notes {P_NS}><p:cSld><p:spTree>{body}{}</p:spTree></p:cSld></p:notes>"#, sp(Some("sldNum"), &["7"])),
            ));
        }
    }
    let parts: Vec<(&str, &[u8])> = owned
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_bytes()))
        .collect();
    zip(&parts)
}

/// A deck: a title slide with notes, a slide with a bullet list and a table, a picture-only slide.
pub fn pptx() -> Vec<u8> {
    let table = r#"<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody><a:p><a:r><a:t>Q1</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>10</a:t></a:r></a:p></a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>"#;
    pptx_with(&[
        (
            format!(
                "{}{}",
                sp(Some("ctrTitle"), &["Roadmap 2025"]),
                sp(Some("subTitle"), &["Platform team"])
            ),
            Some("Welcome everyone &amp; thank them"),
        ),
        (
            format!(
                "{}{}{}{}",
                sp(Some("title"), &["Goals"]),
                sp(None, &["Ship search", "Cut latency"]),
                table,
                sp(Some("sldNum"), &["2"])
            ),
            None,
        ),
        (String::new(), None),
    ])
}

/// An OpenDocument spreadsheet whose `content.xml` body is `tables`.
pub fn ods_with(tables: &str) -> Vec<u8> {
    let content = format!(
        r#"{XML}<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body></office:document-content>"#
    );
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    w.start_file("mimetype", stored).expect("mimetype");
    w.write_all(b"application/vnd.oasis.opendocument.spreadsheet")
        .expect("mimetype");
    let deflated =
        SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    w.start_file("content.xml", deflated).expect("content");
    w.write_all(content.as_bytes()).expect("content");
    w.finish().expect("zip").into_inner()
}

pub fn ods() -> Vec<u8> {
    ods_with(
        r#"<table:table table:name="Budget"><table:table-row><table:table-cell office:value-type="string"><text:p>Item</text:p></table:table-cell><table:table-cell/><table:table-cell office:value-type="string"><text:p>Cost</text:p></table:table-cell></table:table-row><table:table-row table:number-rows-repeated="3"><table:table-cell table:number-columns-repeated="5"/></table:table-row><table:table-row><table:table-cell office:value-type="string"><text:p>Rent</text:p><office:annotation><text:p>a comment</text:p></office:annotation></table:table-cell><table:table-cell/><table:table-cell office:value-type="float" office:value="1200"><text:p>1,200.00</text:p></table:table-cell></table:table-row><table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table><table:table table:name="Second"><table:table-row><table:table-cell><text:p>x<text:s text:c="2"/>y</text:p></table:table-cell></table:table-row></table:table>"#,
    )
}

/// A PDF of pages, each given as lines of text (an empty page has no text, only a drawn box).
pub fn pdf(pages: &[Vec<String>]) -> Vec<u8> {
    let ops = pages
        .iter()
        .map(|lines| {
            let mut ops = Vec::new();
            if lines.is_empty() {
                ops.push(Operation::new(
                    "re",
                    vec![10.into(), 10.into(), 100.into(), 100.into()],
                ));
                ops.push(Operation::new("f", vec![]));
                return ops;
            }
            ops.push(Operation::new("BT", vec![]));
            ops.push(Operation::new("Tf", vec!["F1".into(), 11.into()]));
            ops.push(Operation::new("Td", vec![72.into(), 770.into()]));
            for (i, line) in lines.iter().enumerate() {
                if i > 0 {
                    ops.push(Operation::new("Td", vec![0.into(), (-14).into()]));
                }
                // Show the line's words as a TJ whose gaps are kerning, as many writers do.
                let mut parts = Vec::new();
                for (j, word) in line.split(' ').enumerate() {
                    if j > 0 {
                        parts.push(Object::Integer(-280));
                    }
                    parts.push(Object::string_literal(word));
                }
                ops.push(Operation::new("TJ", vec![Object::Array(parts)]));
            }
            ops.push(Operation::new("ET", vec![]));
            ops
        })
        .collect();
    pdf_of_operations(ops)
}

/// A PDF whose pages show the given operations, with Helvetica as font `F1`.
pub fn pdf_of_operations(pages: Vec<Vec<Operation>>) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type1",
        "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let resources_id = doc.add_object(dictionary! {
        "Font" => dictionary! { "F1" => font_id },
    });
    let mut kids = Vec::new();
    for ops in pages {
        let content = Content { operations: ops };
        let stream = Stream::new(dictionary! {}, content.encode().expect("encode content"));
        let content_id = doc.add_object(stream);
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "Contents" => content_id,
        });
        kids.push(Object::Reference(page_id));
    }
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => kids,
            "Count" => count,
            "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! {
        "Type" => "Catalog",
        "Pages" => pages_id,
    });
    let info_id = doc.add_object(dictionary! {
        "Title" => Object::string_literal("Sample report"),
    });
    doc.trailer.set("Root", catalog_id);
    doc.trailer.set("Info", info_id);
    doc.compress();
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("save pdf");
    out
}

/// A line of prose about `n` characters long.
pub fn prose(seed: usize, n: usize) -> String {
    const WORDS: &[&str] = &[
        "the",
        "quarterly",
        "revenue",
        "grew",
        "in",
        "every",
        "region",
        "while",
        "costs",
        "held",
        "steady",
        "and",
        "the",
        "team",
        "shipped",
        "search",
        "latency",
        "fell",
        "by",
        "half",
    ];
    let mut s = String::new();
    let mut i = seed;
    while s.len() < n {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(WORDS[i % WORDS.len()]);
        i = i.wrapping_mul(7).wrapping_add(3);
    }
    s
}

/// A tar of (path, data) files and one folder, gzipped if asked.
pub fn tar(files: &[(&str, &[u8])], gzip: bool) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    let mut dir = tar::Header::new_gnu();
    dir.set_entry_type(tar::EntryType::Directory);
    dir.set_size(0);
    dir.set_mode(0o755);
    dir.set_mtime(1_700_000_000);
    dir.set_cksum();
    b.append_data(&mut dir, "docs/", std::io::empty())
        .expect("tar dir");
    for (path, data) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(1_700_000_000);
        h.set_cksum();
        b.append_data(&mut h, path, *data).expect("tar file");
    }
    let raw = b.into_inner().expect("tar");
    if !gzip {
        return raw;
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&raw).expect("gzip");
    gz.finish().expect("gzip")
}

/// A noisy RGB image (noise defeats compression, so it needs real work to fit).
pub fn noisy(width: u32, height: u32) -> image::RgbImage {
    let mut state: u32 = 0x1234_5678;
    image::RgbImage::from_fn(width, height, |x, y| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = (state & 0x3F) as u8;
        image::Rgb([
            (x * 255 / width) as u8 ^ n,
            (y * 255 / height) as u8 ^ n,
            128u8.wrapping_add(n),
        ])
    })
}

pub fn encode(img: &image::DynamicImage, format: image::ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, format).expect("encode image");
    out.into_inner()
}

/// A one-page PDF whose page shows "Body text" itself and draws a form XObject that shows "Stamped
/// in a form" (uncompressed, with its own font resources).
pub fn pdf_with_form() -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let form = Content {
        operations: vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["FF".into(), 10.into()]),
            Operation::new("Td", vec![72.into(), 100.into()]),
            Operation::new("Tj", vec![Object::string_literal("Stamped in a form")]),
            Operation::new("ET", vec![]),
        ],
    };
    let form_id = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
            "Resources" => dictionary! { "Font" => dictionary! { "FF" => font_id } },
        },
        form.encode().expect("form"),
    ));
    let body = Content {
        operations: vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 12.into()]),
            Operation::new("Td", vec![72.into(), 700.into()]),
            Operation::new("Tj", vec![Object::string_literal("Body text")]),
            Operation::new("ET", vec![]),
            Operation::new("Do", vec!["Fm1".into()]),
        ],
    };
    let content_id = doc.add_object(Stream::new(dictionary! {}, body.encode().expect("body")));
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        "Resources" => dictionary! {
            "Font" => dictionary! { "F1" => font_id },
            "XObject" => dictionary! { "Fm1" => form_id },
        },
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![Object::Reference(page_id)], "Count" => 1,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("save pdf");
    out
}
