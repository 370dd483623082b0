//! Sample files made in the simulator, for the demo's attachments and for tests that need real
//! files: a PDF with one text page per string, a PNG image, Word, Excel and PowerPoint documents,
//! and zip and tar archives. Each writer is hand-written and small, but the files are complete
//! enough for real readers: the PDF has a cross-reference table with exact offsets and a text
//! content stream per page; the PNG has correct chunk CRCs and a zlib stream (fixed-Huffman deflate
//! with run-length matches, Adler-32 checked); the Office files are zip archives with
//! `[Content_Types].xml`, `_rels/.rels` and the document, workbook (with shared strings) or slides
//! (with master, layout and theme) and their relationships.
//!
//! ```
//! use mattermost_sim::samples;
//! let pdf = samples::pdf(&["Page one", "Page two"]);
//! assert!(pdf.starts_with(b"%PDF-1.4"));
//! let zip = samples::zip(&[("hello.txt", b"hello".as_slice())]);
//! assert_eq!(&zip[..4], b"PK\x03\x04");
//! ```

// ----- checksums ----------------------------------------------------------------------------

/// CRC-32 (IEEE 802.3, as zip and PNG use it) of `data`.
pub fn crc32(data: &[u8]) -> u32 {
    crc32_update(0, data)
}

fn crc32_table() -> &'static [u32; 256] {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (n, slot) in t.iter_mut().enumerate() {
            let mut c = n as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
            *slot = c;
        }
        t
    })
}

fn crc32_update(crc: u32, data: &[u8]) -> u32 {
    let t = crc32_table();
    let mut c = !crc;
    for &b in data {
        c = t[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// Adler-32 (the zlib trailer) of `data`.
pub fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5552) {
        for &x in chunk {
            a += x as u32;
            b += a;
        }
        a %= 65521;
        b %= 65521;
    }
    (b << 16) | a
}

// ----- deflate (fixed Huffman, run-length matches) ------------------------------------------

struct BitWriter {
    out: Vec<u8>,
    bit: u32,
    nbits: u32,
}

impl BitWriter {
    fn put(&mut self, value: u32, n: u32) {
        self.bit |= value << self.nbits;
        self.nbits += n;
        while self.nbits >= 8 {
            self.out.push(self.bit as u8);
            self.bit >>= 8;
            self.nbits -= 8;
        }
    }

    /// A Huffman code, most significant bit first.
    fn put_code(&mut self, code: u32, len: u32) {
        let mut rev = 0;
        for i in 0..len {
            rev |= ((code >> i) & 1) << (len - 1 - i);
        }
        self.put(rev, len);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.nbits > 0 {
            self.out.push(self.bit as u8);
        }
        self.out
    }
}

fn put_literal(w: &mut BitWriter, sym: u32) {
    match sym {
        0..=143 => w.put_code(0x30 + sym, 8),
        144..=255 => w.put_code(0x190 + sym - 144, 9),
        256..=279 => w.put_code(sym - 256, 7),
        _ => w.put_code(0xC0 + sym - 280, 8),
    }
}

const LENGTH_BASE: [u32; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u32; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];

fn put_length(w: &mut BitWriter, len: u32) {
    let i = LENGTH_BASE.iter().rposition(|&b| b <= len).unwrap_or(0);
    put_literal(w, 257 + i as u32);
    if LENGTH_EXTRA[i] > 0 {
        w.put(len - LENGTH_BASE[i], LENGTH_EXTRA[i]);
    }
}

/// A raw deflate stream of one fixed-Huffman block: literals, and matches at distance 1 for runs
/// of a repeated byte.
pub fn deflate(data: &[u8]) -> Vec<u8> {
    let mut w = BitWriter {
        out: Vec::with_capacity(data.len() / 8 + 16),
        bit: 0,
        nbits: 0,
    };
    w.put(1, 1); // final block
    w.put(1, 2); // fixed Huffman
    let mut i = 0;
    while i < data.len() {
        if i > 0 {
            let prev = data[i - 1];
            let mut run = 0;
            while i + run < data.len() && data[i + run] == prev && run < 258 {
                run += 1;
            }
            if run >= 3 {
                put_length(&mut w, run as u32);
                w.put_code(0, 5); // distance code 0: distance 1
                i += run;
                continue;
            }
        }
        put_literal(&mut w, data[i] as u32);
        i += 1;
    }
    put_literal(&mut w, 256);
    w.finish()
}

/// A zlib stream (RFC 1950) of `data`: header, [`deflate`], Adler-32.
pub fn zlib(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x78, 0x01];
    out.extend(deflate(data));
    out.extend(adler32(data).to_be_bytes());
    out
}

// ----- PNG ------------------------------------------------------------------------------------

fn png_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend((data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend(kind);
    out.extend(data);
    let crc = crc32(&out[start..]);
    out.extend(crc.to_be_bytes());
}

/// An 8-bit RGB PNG of `width`×`height` pixels (each at least 1): a grid of coloured tiles with
/// dark grid lines, so that a scaled-down copy still shows the pattern.
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let (w, h) = (width.max(1) as usize, height.max(1) as usize);
    let tile = (w.min(h) / 8).max(1);
    let pixel = |x: usize, y: usize| -> [u8; 3] {
        if x % tile < 2 || y % tile < 2 {
            return [40, 44, 52];
        }
        let (tx, ty) = ((x / tile) as u32, (y / tile) as u32);
        let v = tx.wrapping_mul(67).wrapping_add(ty.wrapping_mul(131));
        [
            (60 + (v * 37) % 180) as u8,
            (80 + (v * 53) % 160) as u8,
            (100 + (v * 97) % 140) as u8,
        ]
    };
    let stride = w * 3;
    let mut raw = Vec::with_capacity((stride + 1) * h);
    let mut prev_row: Vec<u8> = vec![0; stride];
    let mut row = vec![0u8; stride];
    for y in 0..h {
        for x in 0..w {
            row[x * 3..x * 3 + 3].copy_from_slice(&pixel(x, y));
        }
        if y > 0 && row == prev_row {
            raw.push(2); // filter Up: a row like the previous one is all zeros
            raw.extend(std::iter::repeat_n(0u8, stride));
        } else {
            raw.push(0);
            raw.extend_from_slice(&row);
        }
        std::mem::swap(&mut prev_row, &mut row);
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend((w as u32).to_be_bytes());
    ihdr.extend((h as u32).to_be_bytes());
    ihdr.extend([8, 2, 0, 0, 0]); // 8-bit, RGB, deflate, no filter method, no interlace
    png_chunk(&mut out, b"IHDR", &ihdr);
    png_chunk(&mut out, b"IDAT", &zlib(&raw));
    png_chunk(&mut out, b"IEND", &[]);
    out
}

// ----- PDF ------------------------------------------------------------------------------------

/// A string as a PDF literal: parentheses and backslashes escaped, non-ASCII as `?`.
fn pdf_string(s: &str) -> String {
    let mut out = String::from("(");
    for c in s.chars() {
        match c {
            '(' | ')' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            _ => out.push('?'),
        }
    }
    out.push(')');
    out
}

/// Lines of at most `width` characters (words kept whole where they fit).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut cur = String::new();
        for word in para.split_whitespace() {
            if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
                lines.push(std::mem::take(&mut cur));
            }
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(word);
        }
        lines.push(cur);
    }
    lines
}

/// A PDF 1.4 document with one US-letter page per string, its text (lines split at `\n` and
/// wrapped at 90 characters) drawn in Helvetica, extractable by text readers.
pub fn pdf(pages: &[&str]) -> Vec<u8> {
    let pages: Vec<&str> = if pages.is_empty() {
        vec![""]
    } else {
        pages.to_vec()
    };
    let n = pages.len();
    // objects: 1 catalog, 2 pages, 3 font, then for page i: 4+2i page, 5+2i content
    let mut objects: Vec<Vec<u8>> = Vec::new();
    objects.push(b"<< /Type /Catalog /Pages 2 0 R >>".to_vec());
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 4 + 2 * i)).collect();
    objects
        .push(format!("<< /Type /Pages /Kids [{}] /Count {} >>", kids.join(" "), n).into_bytes());
    objects.push(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_vec(),
    );
    for (i, text) in pages.iter().enumerate() {
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {} 0 R >>",
                5 + 2 * i
            )
            .into_bytes(),
        );
        let mut content = String::from("BT\n/F1 12 Tf\n16 TL\n72 720 Td\n");
        for line in wrap(text, 90).iter().take(40) {
            content.push_str(&pdf_string(line));
            content.push_str(" Tj T*\n");
        }
        content.push_str("ET\n");
        let mut obj = format!("<< /Length {} >>\nstream\n", content.len()).into_bytes();
        obj.extend(content.as_bytes());
        obj.extend(b"endstream");
        objects.push(obj);
    }
    let mut out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, obj) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend(obj);
        out.extend(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for off in offsets {
        out.extend(format!("{off:010} 00000 n \n").as_bytes());
    }
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{}\n%%EOF\n",
            objects.len() + 1,
            xref
        )
        .as_bytes(),
    );
    out
}

// ----- archives -------------------------------------------------------------------------------

/// A zip archive of stored (uncompressed) entries with CRC-32s, a central directory and its end
/// record. Names are used as given (use `/` for folders).
pub fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    // 1980-01-01 00:00, the earliest DOS date
    let (time, date) = (0u16, (1u16 << 5) | 1);
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in entries {
        let offset = out.len() as u32;
        let crc = crc32(data);
        let size = data.len() as u32;
        let name_bytes = name.as_bytes();
        let flags: u16 = if name.is_ascii() { 0 } else { 1 << 11 };
        out.extend(0x0403_4b50u32.to_le_bytes());
        out.extend(20u16.to_le_bytes()); // version needed
        out.extend(flags.to_le_bytes());
        out.extend(0u16.to_le_bytes()); // stored
        out.extend(time.to_le_bytes());
        out.extend(date.to_le_bytes());
        out.extend(crc.to_le_bytes());
        out.extend(size.to_le_bytes());
        out.extend(size.to_le_bytes());
        out.extend((name_bytes.len() as u16).to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(name_bytes);
        out.extend(*data);

        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend(20u16.to_le_bytes()); // version made by
        central.extend(20u16.to_le_bytes());
        central.extend(flags.to_le_bytes());
        central.extend(0u16.to_le_bytes());
        central.extend(time.to_le_bytes());
        central.extend(date.to_le_bytes());
        central.extend(crc.to_le_bytes());
        central.extend(size.to_le_bytes());
        central.extend(size.to_le_bytes());
        central.extend((name_bytes.len() as u16).to_le_bytes());
        central.extend([0u8; 8]); // extra, comment, disk, internal attributes
        central.extend(0u32.to_le_bytes()); // external attributes
        central.extend(offset.to_le_bytes());
        central.extend(name_bytes);
    }
    let cd_offset = out.len() as u32;
    let cd_size = central.len() as u32;
    out.extend(central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]); // disk numbers
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend(cd_size.to_le_bytes());
    out.extend(cd_offset.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// A POSIX ustar archive of regular files (mode 0644, time 2024-01-01), ended by two zero blocks.
/// Names longer than 100 bytes are cut.
pub fn tar(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, data) in entries {
        let mut h = [0u8; 512];
        let nb = name.as_bytes();
        let n = nb.len().min(100);
        h[..n].copy_from_slice(&nb[..n]);
        let octal = |h: &mut [u8; 512], at: usize, width: usize, v: u64| {
            let s = format!("{:0w$o}", v, w = width - 1);
            h[at..at + width - 1].copy_from_slice(&s.as_bytes()[s.len() - (width - 1)..]);
        };
        octal(&mut h, 100, 8, 0o644);
        octal(&mut h, 108, 8, 0);
        octal(&mut h, 116, 8, 0);
        octal(&mut h, 124, 12, data.len() as u64);
        octal(&mut h, 136, 12, 1_704_067_200);
        h[148..156].copy_from_slice(b"        ");
        h[156] = b'0';
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        let sum: u32 = h.iter().map(|&b| b as u32).sum();
        let s = format!("{sum:06o}\0 ");
        h[148..156].copy_from_slice(s.as_bytes());
        out.extend(h);
        out.extend(*data);
        let pad = (512 - data.len() % 512) % 512;
        out.extend(std::iter::repeat_n(0u8, pad));
    }
    out.extend([0u8; 1024]);
    out
}

// ----- Office Open XML ------------------------------------------------------------------------

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}

const XML_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#;
const NS_REL: &str = "http://schemas.openxmlformats.org/package/2006/relationships";
const NS_R: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const REL_OFFICE_DOC: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument";

fn root_rels(target: &str) -> String {
    format!(
        r#"{XML_HEAD}<Relationships xmlns="{NS_REL}"><Relationship Id="rId1" Type="{REL_OFFICE_DOC}" Target="{target}"/></Relationships>"#
    )
}

fn rels(items: &[(String, &str, String)]) -> String {
    let mut s = format!(r#"{XML_HEAD}<Relationships xmlns="{NS_REL}">"#);
    for (id, kind, target) in items {
        s.push_str(&format!(
            r#"<Relationship Id="{id}" Type="{NS_R}/{kind}" Target="{target}"/>"#
        ));
    }
    s.push_str("</Relationships>");
    s
}

fn content_types(overrides: &[(String, &str)]) -> String {
    let mut s = format!(
        r#"{XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>"#
    );
    for (part, ct) in overrides {
        s.push_str(&format!(
            r#"<Override PartName="{part}" ContentType="{ct}"/>"#
        ));
    }
    s.push_str("</Types>");
    s
}

fn package(parts: Vec<(String, String)>) -> Vec<u8> {
    let entries: Vec<(&str, &[u8])> = parts
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_bytes()))
        .collect();
    zip(&entries)
}

/// A Word document (.docx) with one paragraph per string.
pub fn docx(paragraphs: &[&str]) -> Vec<u8> {
    let ns_w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
    let mut body = String::new();
    for p in paragraphs {
        body.push_str(&format!(
            r#"<w:p><w:r><w:t xml:space="preserve">{}</w:t></w:r></w:p>"#,
            xml_escape(p)
        ));
    }
    let document = format!(
        r#"{XML_HEAD}<w:document xmlns:w="{ns_w}" xmlns:r="{NS_R}"><w:body>{body}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>"#
    );
    package(vec![
        (
            "[Content_Types].xml".into(),
            content_types(&[(
                "/word/document.xml".into(),
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
            )]),
        ),
        ("_rels/.rels".into(), root_rels("word/document.xml")),
        ("word/document.xml".into(), document),
        ("word/_rels/document.xml.rels".into(), rels(&[])),
    ])
}

/// `A`, `B`, ..., `Z`, `AA`, ... for a 0-based column.
fn column_name(mut i: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    s.reverse();
    String::from_utf8_lossy(&s).to_string()
}

/// An Excel workbook (.xlsx): one worksheet per `(name, rows)`; cells that parse as numbers are
/// numbers, the others shared strings.
pub fn xlsx(sheets: &[(&str, Vec<Vec<String>>)]) -> Vec<u8> {
    let ns_main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
    let mut strings: Vec<String> = Vec::new();
    let mut parts: Vec<(String, String)> = Vec::new();
    let mut overrides: Vec<(String, &str)> = vec![(
        "/xl/workbook.xml".into(),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
    )];
    let mut sheet_entries = String::new();
    let mut wb_rels: Vec<(String, &str, String)> = Vec::new();
    let sheets: Vec<(&str, Vec<Vec<String>>)> = if sheets.is_empty() {
        vec![("Sheet1", Vec::new())]
    } else {
        sheets.to_vec()
    };
    for (i, (name, rows)) in sheets.iter().enumerate() {
        let n = i + 1;
        let mut data = String::new();
        for (r, row) in rows.iter().enumerate() {
            data.push_str(&format!(r#"<row r="{}">"#, r + 1));
            for (c, cell) in row.iter().enumerate() {
                let at = format!("{}{}", column_name(c), r + 1);
                if !cell.is_empty() && cell.trim().parse::<f64>().is_ok_and(|v| v.is_finite()) {
                    data.push_str(&format!(r#"<c r="{at}"><v>{}</v></c>"#, cell.trim()));
                } else {
                    let idx = match strings.iter().position(|s| s == cell) {
                        Some(i) => i,
                        None => {
                            strings.push(cell.clone());
                            strings.len() - 1
                        }
                    };
                    data.push_str(&format!(r#"<c r="{at}" t="s"><v>{idx}</v></c>"#));
                }
            }
            data.push_str("</row>");
        }
        parts.push((
            format!("xl/worksheets/sheet{n}.xml"),
            format!(
                r#"{XML_HEAD}<worksheet xmlns="{ns_main}" xmlns:r="{NS_R}"><sheetData>{data}</sheetData></worksheet>"#
            ),
        ));
        overrides.push((
            format!("/xl/worksheets/sheet{n}.xml"),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml",
        ));
        sheet_entries.push_str(&format!(
            r#"<sheet name="{}" sheetId="{n}" r:id="rId{n}"/>"#,
            xml_escape(name)
        ));
        wb_rels.push((
            format!("rId{n}"),
            "worksheet",
            format!("worksheets/sheet{n}.xml"),
        ));
    }
    let count = sheets.len();
    wb_rels.push((
        format!("rId{}", count + 1),
        "sharedStrings",
        "sharedStrings.xml".into(),
    ));
    overrides.push((
        "/xl/sharedStrings.xml".into(),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml",
    ));
    let sst: String = strings
        .iter()
        .map(|s| format!(r#"<si><t xml:space="preserve">{}</t></si>"#, xml_escape(s)))
        .collect();
    let mut all = vec![
        ("[Content_Types].xml".to_string(), content_types(&overrides)),
        ("_rels/.rels".to_string(), root_rels("xl/workbook.xml")),
        (
            "xl/workbook.xml".to_string(),
            format!(
                r#"{XML_HEAD}<workbook xmlns="{ns_main}" xmlns:r="{NS_R}"><sheets>{sheet_entries}</sheets></workbook>"#
            ),
        ),
        ("xl/_rels/workbook.xml.rels".to_string(), rels(&wb_rels)),
        (
            "xl/sharedStrings.xml".to_string(),
            format!(
                r#"{XML_HEAD}<sst xmlns="{ns_main}" count="{n}" uniqueCount="{n}">{sst}</sst>"#,
                n = strings.len()
            ),
        ),
    ];
    all.extend(parts);
    package(all)
}

const NS_A: &str = "http://schemas.openxmlformats.org/drawingml/2006/main";
const NS_P: &str = "http://schemas.openxmlformats.org/presentationml/2006/main";

fn pptx_theme() -> String {
    let colors = [
        ("dk1", "000000"),
        ("lt1", "FFFFFF"),
        ("dk2", "1F497D"),
        ("lt2", "EEECE1"),
        ("accent1", "4F81BD"),
        ("accent2", "C0504D"),
        ("accent3", "9BBB59"),
        ("accent4", "8064A2"),
        ("accent5", "4BACC6"),
        ("accent6", "F79646"),
        ("hlink", "0000FF"),
        ("folHlink", "800080"),
    ];
    let clr: String = colors
        .iter()
        .map(|(n, v)| format!(r#"<a:{n}><a:srgbClr val="{v}"/></a:{n}>"#))
        .collect();
    let fill = r#"<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>"#;
    let line = r#"<a:ln w="9525"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>"#;
    let effect = "<a:effectStyle><a:effectLst/></a:effectStyle>";
    format!(
        r#"{XML_HEAD}<a:theme xmlns:a="{NS_A}" name="Sample"><a:themeElements><a:clrScheme name="Sample">{clr}</a:clrScheme><a:fontScheme name="Sample"><a:majorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme><a:fmtScheme name="Sample"><a:fillStyleLst>{fill}{fill}{fill}</a:fillStyleLst><a:lnStyleLst>{line}{line}{line}</a:lnStyleLst><a:effectStyleLst>{effect}{effect}{effect}</a:effectStyleLst><a:bgFillStyleLst>{fill}{fill}{fill}</a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>"#
    )
}

fn sp_tree(shapes: &str) -> String {
    format!(
        r#"<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>{shapes}</p:spTree></p:cSld>"#
    )
}

/// A PowerPoint deck (.pptx) with one slide per string: its first line is the slide's title, the
/// other lines its body text.
pub fn pptx(slides: &[&str]) -> Vec<u8> {
    let slides: Vec<&str> = if slides.is_empty() {
        vec![""]
    } else {
        slides.to_vec()
    };
    let ns = format!(r#"xmlns:a="{NS_A}" xmlns:r="{NS_R}" xmlns:p="{NS_P}""#);
    let mut parts: Vec<(String, String)> = Vec::new();
    let mut overrides: Vec<(String, &str)> = vec![
        (
            "/ppt/presentation.xml".into(),
            "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
        ),
        (
            "/ppt/slideMasters/slideMaster1.xml".into(),
            "application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml",
        ),
        (
            "/ppt/slideLayouts/slideLayout1.xml".into(),
            "application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml",
        ),
        (
            "/ppt/theme/theme1.xml".into(),
            "application/vnd.openxmlformats-officedocument.theme+xml",
        ),
    ];
    let mut pres_rels: Vec<(String, &str, String)> = vec![(
        "rId1".into(),
        "slideMaster",
        "slideMasters/slideMaster1.xml".into(),
    )];
    let mut slide_ids = String::new();
    for (i, text) in slides.iter().enumerate() {
        let n = i + 1;
        let mut lines = text.lines();
        let title = lines.next().unwrap_or("");
        let body: Vec<&str> = lines.collect();
        let para = |t: &str| {
            format!(
                "<a:p><a:r><a:rPr lang=\"en-US\"/><a:t>{}</a:t></a:r></a:p>",
                xml_escape(t)
            )
        };
        let body_paras: String = if body.is_empty() {
            "<a:p/>".into()
        } else {
            body.iter().map(|t| para(t)).collect()
        };
        let shape = |id: u32, name: &str, y: u32, cy: u32, paras: &str| {
            format!(
                r#"<p:sp><p:nvSpPr><p:cNvPr id="{id}" name="{name}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="{y}"/><a:ext cx="8229600" cy="{cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/>{paras}</p:txBody></p:sp>"#
            )
        };
        let shapes = shape(2, "Title", 274638, 1143000, &para(title))
            + &shape(3, "Body", 1600200, 4525963, &body_paras);
        parts.push((
            format!("ppt/slides/slide{n}.xml"),
            format!(
                r#"{XML_HEAD}<p:sld {ns}>{}<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>"#,
                sp_tree(&shapes)
            ),
        ));
        parts.push((
            format!("ppt/slides/_rels/slide{n}.xml.rels"),
            rels(&[(
                "rId1".into(),
                "slideLayout",
                "../slideLayouts/slideLayout1.xml".into(),
            )]),
        ));
        overrides.push((
            format!("/ppt/slides/slide{n}.xml"),
            "application/vnd.openxmlformats-officedocument.presentationml.slide+xml",
        ));
        pres_rels.push((
            format!("rId{}", n + 1),
            "slide",
            format!("slides/slide{n}.xml"),
        ));
        slide_ids.push_str(&format!(
            r#"<p:sldId id="{}" r:id="rId{}"/>"#,
            255 + n,
            n + 1
        ));
    }
    pres_rels.push((
        format!("rId{}", slides.len() + 2),
        "theme",
        "theme/theme1.xml".into(),
    ));
    let clr_map = r#"<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>"#;
    let mut all = vec![
        ("[Content_Types].xml".to_string(), content_types(&overrides)),
        ("_rels/.rels".to_string(), root_rels("ppt/presentation.xml")),
        (
            "ppt/presentation.xml".to_string(),
            format!(
                r#"{XML_HEAD}<p:presentation {ns}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst>{slide_ids}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000" type="screen4x3"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>"#
            ),
        ),
        (
            "ppt/_rels/presentation.xml.rels".to_string(),
            rels(&pres_rels),
        ),
        (
            "ppt/slideMasters/slideMaster1.xml".to_string(),
            format!(
                r#"{XML_HEAD}<p:sldMaster {ns}>{}{clr_map}<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>"#,
                sp_tree("")
            ),
        ),
        (
            "ppt/slideMasters/_rels/slideMaster1.xml.rels".to_string(),
            rels(&[
                (
                    "rId1".into(),
                    "slideLayout",
                    "../slideLayouts/slideLayout1.xml".into(),
                ),
                ("rId2".into(), "theme", "../theme/theme1.xml".into()),
            ]),
        ),
        (
            "ppt/slideLayouts/slideLayout1.xml".to_string(),
            format!(
                r#"{XML_HEAD}<p:sldLayout {ns} type="blank" preserve="1">{}<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>"#,
                sp_tree("")
            ),
        ),
        (
            "ppt/slideLayouts/_rels/slideLayout1.xml.rels".to_string(),
            rels(&[(
                "rId1".into(),
                "slideMaster",
                "../slideMasters/slideMaster1.xml".into(),
            )]),
        ),
        ("ppt/theme/theme1.xml".to_string(), pptx_theme()),
    ];
    all.extend(parts);
    package(all)
}
