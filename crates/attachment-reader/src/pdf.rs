//! PDF: the text of each page, one item a page, its lines joined by `\n`.
//!
//! lopdf parses the file (decrypting it when the empty user password opens it, and bounding every
//! stream's inflation); this module walks each page's content stream, decodes the strings shown by
//! each font's encoding, and lays them out: a move to another baseline starts a line, a gap wider than
//! a fraction of the font size becomes a space. Glyph widths come from a simple font's `/Widths`,
//! else half the font size is assumed. Text in form XObjects is read where the page draws them (four
//! deep at most); text in images is not: a page with no text says so.

use crate::caps::MAX_PDF_STREAM_BYTES;
use crate::{Collector, Location, Read};
use lopdf::Encoding;
use lopdf::content::Content;
use lopdf::{Dictionary, Document, LoadOptions, Object, ObjectId, Stream};
use std::collections::BTreeMap;

pub(crate) fn read(bytes: &[u8]) -> Read {
    let options = LoadOptions {
        max_decompressed_size: Some(MAX_PDF_STREAM_BYTES),
        ..LoadOptions::default()
    };
    let doc = Document::load_mem_with_options(bytes, options)
        .map_err(|e| format!("it is not a PDF lopdf can parse ({e})"))?;
    if doc.is_encrypted() {
        return Err(
            "it is encrypted with a password, so its text cannot be read without it".to_string(),
        );
    }
    let pages = doc.get_pages();
    if pages.is_empty() {
        return Err("it has no pages that can be found".to_string());
    }
    let mut out = Collector::new();
    let mut notes = Vec::new();
    let mut empty = Vec::new();
    let mut failed = Vec::new();
    for (&number, &id) in &pages {
        let text = match page_text(&doc, id) {
            Ok(t) => t,
            Err(e) => {
                failed.push(number);
                if failed.len() == 1 {
                    notes.push(format!("Page {number}'s content could not be read: {e}."));
                }
                String::new()
            }
        };
        let text = if text.trim().is_empty() {
            empty.push(number);
            format!("[page {number} has no text layer: it may be a scanned image]")
        } else {
            text
        };
        if !out.push(Location::Page { page: number }, text) {
            break;
        }
    }
    if doc.was_encrypted() {
        notes.push("The PDF is encrypted but opens without a password; it was decrypted.".into());
    }
    if failed.len() > 1 {
        notes.push(format!(
            "{} pages' content could not be read: {}.",
            failed.len(),
            ranges(&failed)
        ));
    }
    if empty.len() == pages.len() {
        notes.push(
            "No page has a text layer: the PDF is probably scanned images, whose text cannot be read \
             here."
                .to_string(),
        );
    } else if !empty.is_empty() {
        notes.push(format!(
            "Pages with no text layer (scanned images, or drawings only): {}.",
            ranges(&empty)
        ));
    }
    notes.extend(out.note("the rest of the PDF"));
    let mut detail = format!(
        "{} page{}",
        pages.len(),
        if pages.len() == 1 { "" } else { "s" }
    );
    if let Some(title) = title(&doc) {
        detail.push_str(&format!(", titled \"{title}\""));
    }
    Ok((out.items, notes, Some(detail)))
}

/// Page numbers as ranges: `3, 5–7`.
fn ranges(pages: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < pages.len() {
        let start = pages[i];
        let mut end = start;
        while i + 1 < pages.len() && pages[i + 1] == end + 1 {
            i += 1;
            end = pages[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}–{end}")
        });
        i += 1;
    }
    parts.join(", ")
}

/// The document's title from its information dictionary, if it has a readable one.
fn title(doc: &Document) -> Option<String> {
    let info = doc.trailer.get_deref(b"Info", doc).ok()?.as_dict().ok()?;
    let raw = info.get_deref(b"Title", doc).ok()?;
    let t = lopdf::decode_text_string(raw).ok()?;
    let t = t.trim();
    (!t.is_empty() && t.len() < 300).then(|| t.to_string())
}

/// How a font's strings decode and how wide its glyphs are.
struct Font<'a> {
    encoding: Option<Encoding<'a>>,
    /// Two bytes a glyph (a Type0 font), else one.
    two_byte: bool,
    /// `/FirstChar` and `/Widths` (in thousandths of the font size), for a simple font.
    widths: Option<(i64, Vec<f32>)>,
}

impl Font<'_> {
    /// The advance of a string in font-size units (an em), estimated.
    fn advance(&self, bytes: &[u8]) -> f32 {
        if self.two_byte {
            return bytes.len() as f32 / 2.0 * 0.5;
        }
        match &self.widths {
            Some((first, widths)) => bytes
                .iter()
                .map(|b| {
                    let w = usize::try_from(i64::from(*b) - first)
                        .ok()
                        .and_then(|i| widths.get(i).copied())
                        .filter(|w| *w > 0.0 && *w < 5000.0)
                        .unwrap_or(500.0);
                    w / 1000.0
                })
                .sum(),
            None => bytes.len() as f32 * 0.5,
        }
    }

    fn decode(&self, bytes: &[u8]) -> String {
        match &self.encoding {
            Some(e) => e.bytes_to_string(bytes).unwrap_or_default(),
            // Without an encoding, printable ASCII is the best guess.
            None => bytes
                .iter()
                .filter(|b| b.is_ascii_graphic() || **b == b' ')
                .map(|b| *b as char)
                .collect(),
        }
    }
}

fn font<'a>(doc: &'a Document, dict: &'a Dictionary) -> Font<'a> {
    let encoding = dict
        .get_font_encoding_with_limit(doc, MAX_PDF_STREAM_BYTES)
        .ok();
    let two_byte = dict
        .get(b"Subtype")
        .and_then(Object::as_name)
        .is_ok_and(|s| s == b"Type0");
    let first = dict.get_deref(b"FirstChar", doc).and_then(Object::as_i64);
    let widths = dict
        .get_deref(b"Widths", doc)
        .and_then(Object::as_array)
        .map(|a| {
            a.iter()
                .map(|w| {
                    doc.dereference(w)
                        .map_or(500.0, |(_, o)| o.as_float().unwrap_or(500.0))
                })
                .collect::<Vec<f32>>()
        });
    Font {
        encoding,
        two_byte,
        widths: match (first, widths) {
            (Ok(f), Ok(w)) => Some((f, w)),
            _ => None,
        },
    }
}

/// What separates the next string shown from the text before it.
#[derive(Clone, Copy, PartialEq)]
enum Gap {
    None,
    Space,
    Line,
}

/// The layout state of a page's text, in user-space units, ignoring rotation and skew.
struct Layout {
    out: String,
    /// The text line matrix: horizontal and vertical scale, and the line's start.
    a: f32,
    d: f32,
    e: f32,
    f: f32,
    /// Where the text shown so far ends, estimated.
    x: f32,
    /// The baseline of the text shown last.
    last_y: Option<f32>,
    size: f32,
    leading: f32,
    gap: Gap,
}

impl Layout {
    fn new() -> Self {
        Layout {
            out: String::new(),
            a: 1.0,
            d: 1.0,
            e: 0.0,
            f: 0.0,
            x: 0.0,
            last_y: None,
            size: 1.0,
            leading: 0.0,
            gap: Gap::None,
        }
    }

    fn em(&self) -> f32 {
        (self.size * self.a.abs()).max(0.01)
    }

    /// The line's start moved to (e, f): on another baseline a new line, else perhaps a space.
    fn moved(&mut self, e: f32, f: f32) {
        self.e = e;
        self.f = f;
        let Some(last) = self.last_y else {
            self.x = e;
            return;
        };
        let line_height = (self.size * self.d.abs()).max(0.01);
        let gap = if (f - last).abs() > 0.4 * line_height {
            Gap::Line
        } else if (e - self.x).abs() > 0.2 * self.em() {
            Gap::Space
        } else {
            Gap::None
        };
        self.gap = self.gap.max_with(gap);
        self.x = e;
    }

    fn show(&mut self, font: Option<&Font<'_>>, bytes: &[u8]) {
        let text = font.map(|f| f.decode(bytes)).unwrap_or_default();
        let advance = font.map_or(bytes.len() as f32 * 0.5, |f| f.advance(bytes));
        self.x += advance * self.em();
        if text.is_empty() {
            return;
        }
        match self.gap {
            Gap::Line if !self.out.is_empty() => {
                trim_end_spaces(&mut self.out);
                self.out.push('\n');
            }
            Gap::Space
                if !self.out.is_empty()
                    && !self.out.ends_with([' ', '\n'])
                    && !text.starts_with(' ') =>
            {
                self.out.push(' ');
            }
            _ => {}
        }
        self.gap = Gap::None;
        self.out.extend(text.chars().filter(|c| *c != '\0'));
        self.last_y = Some(self.f);
    }

    /// A `TJ` adjustment, in thousandths of an em (negative moves right).
    fn adjust(&mut self, k: f32) {
        self.x -= k / 1000.0 * self.em();
        if k < -200.0 {
            self.gap = self.gap.max_with(Gap::Space);
        }
    }
}

impl Gap {
    fn max_with(self, other: Gap) -> Gap {
        match (self, other) {
            (Gap::Line, _) | (_, Gap::Line) => Gap::Line,
            (Gap::Space, _) | (_, Gap::Space) => Gap::Space,
            _ => Gap::None,
        }
    }
}

fn trim_end_spaces(s: &mut String) {
    let keep = s.trim_end_matches([' ', '\t']).len();
    s.truncate(keep);
}

fn num(o: Option<&Object>) -> f32 {
    o.and_then(|o| o.as_float().ok())
        .filter(|v| v.is_finite())
        .unwrap_or(0.0)
}

/// The fonts and form XObjects a content stream may name.
struct Resources<'a> {
    fonts: BTreeMap<Vec<u8>, Font<'a>>,
    forms: BTreeMap<Vec<u8>, &'a Stream>,
}

/// The dictionary at `key` of `dict`, through a reference if need be.
fn dict_at<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Dictionary> {
    dict.get_deref(key, doc).ok()?.as_dict().ok()
}

/// Adds the form XObjects of a resource dictionary (those already named win).
fn add_forms<'a>(
    doc: &'a Document,
    res: &'a Dictionary,
    forms: &mut BTreeMap<Vec<u8>, &'a Stream>,
) {
    let Some(xobjects) = dict_at(doc, res, b"XObject") else {
        return;
    };
    for (name, value) in xobjects.iter() {
        if let Ok((_, Object::Stream(stream))) = doc.dereference(value) {
            let form = stream
                .dict
                .get(b"Subtype")
                .and_then(Object::as_name)
                .is_ok_and(|n| n == b"Form");
            if form {
                forms.entry(name.clone()).or_insert(stream);
            }
        }
    }
}

/// A form XObject's own resources.
fn form_resources<'a>(doc: &'a Document, res: &'a Dictionary) -> Resources<'a> {
    let mut fonts = BTreeMap::new();
    if let Some(dict) = dict_at(doc, res, b"Font") {
        for (name, value) in dict.iter() {
            if let Ok(f) = doc.dereference(value).and_then(|(_, o)| o.as_dict()) {
                fonts.insert(name.clone(), font(doc, f));
            }
        }
    }
    let mut forms = BTreeMap::new();
    add_forms(doc, res, &mut forms);
    Resources { fonts, forms }
}

/// How deep form XObjects are followed into one another, and how many a page may draw.
const MAX_FORM_DEPTH: u32 = 4;
const MAX_FORMS_PER_PAGE: u32 = 200;

/// A page's text, laid out by line.
fn page_text(doc: &Document, page: ObjectId) -> Result<String, String> {
    let fonts: BTreeMap<Vec<u8>, Font<'_>> = doc
        .get_page_fonts(page)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|(name, dict)| (name, font(doc, dict)))
        .collect();
    let mut forms = BTreeMap::new();
    if let Ok((direct, ids)) = doc.get_page_resources(page) {
        if let Some(res) = direct {
            add_forms(doc, res, &mut forms);
        }
        for id in ids {
            if let Ok(res) = doc.get_dictionary(id) {
                add_forms(doc, res, &mut forms);
            }
        }
    }
    let data = doc
        .get_page_content_with_limit(page, MAX_PDF_STREAM_BYTES)
        .map_err(|e| e.to_string())?;
    let mut layout = Layout::new();
    let mut forms_left = MAX_FORMS_PER_PAGE;
    walk(
        doc,
        &data,
        &Resources { fonts, forms },
        &mut layout,
        0,
        &mut forms_left,
    )?;
    trim_end_spaces(&mut layout.out);
    Ok(layout.out)
}

/// Lays out the text a content stream shows, following the forms it draws.
fn walk<'a>(
    doc: &'a Document,
    data: &[u8],
    res: &Resources<'a>,
    layout: &mut Layout,
    depth: u32,
    forms_left: &mut u32,
) -> Result<(), String> {
    let content = Content::decode(data).map_err(|e| e.to_string())?;
    let mut current: Option<&Font<'_>> = None;
    for op in &content.operations {
        let o = &op.operands;
        match op.operator.as_str() {
            "BT" => {
                layout.a = 1.0;
                layout.d = 1.0;
                layout.moved(0.0, 0.0);
            }
            "Tf" => {
                current = o
                    .first()
                    .and_then(|n| n.as_name().ok())
                    .and_then(|n| res.fonts.get(n));
                let size = num(o.get(1)).abs();
                layout.size = if size > 0.0 { size } else { 1.0 };
            }
            "Tm" if o.len() == 6 => {
                layout.a = num(o.first());
                layout.d = num(o.get(3));
                if layout.a == 0.0 {
                    // Rotated text: take the scale from the other diagonal.
                    layout.a = num(o.get(1)).abs().max(0.01);
                }
                if layout.d == 0.0 {
                    layout.d = num(o.get(2)).abs().max(0.01);
                }
                layout.moved(num(o.get(4)), num(o.get(5)));
            }
            "Td" | "TD" => {
                let (tx, ty) = (num(o.first()), num(o.get(1)));
                if op.operator == "TD" {
                    layout.leading = -ty;
                }
                layout.moved(layout.e + tx * layout.a, layout.f + ty * layout.d);
            }
            "TL" => layout.leading = num(o.first()),
            "T*" => next_line(layout),
            "Tj" => {
                if let Some(Object::String(s, _)) = o.first() {
                    layout.show(current, s);
                }
            }
            "'" => {
                next_line(layout);
                if let Some(Object::String(s, _)) = o.first() {
                    layout.show(current, s);
                }
            }
            "\"" => {
                next_line(layout);
                if let Some(Object::String(s, _)) = o.get(2) {
                    layout.show(current, s);
                }
            }
            "TJ" => {
                if let Some(Object::Array(parts)) = o.first() {
                    for part in parts {
                        match part {
                            Object::String(s, _) => layout.show(current, s),
                            other => layout.adjust(num(Some(other))),
                        }
                    }
                }
            }
            "Do" if depth < MAX_FORM_DEPTH && *forms_left > 0 => {
                let form = o
                    .first()
                    .and_then(|n| n.as_name().ok())
                    .and_then(|n| res.forms.get(n));
                if let Some(form) = form {
                    *forms_left -= 1;
                    let own =
                        dict_at(doc, &form.dict, b"Resources").map(|r| form_resources(doc, r));
                    if let Ok(data) = form.decompressed_content_with_limit(MAX_PDF_STREAM_BYTES) {
                        // A form that cannot be read leaves the page's other text as it is.
                        let _ = walk(
                            doc,
                            &data,
                            own.as_ref().unwrap_or(res),
                            layout,
                            depth + 1,
                            forms_left,
                        );
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn next_line(layout: &mut Layout) {
    let leading = if layout.leading != 0.0 {
        layout.leading
    } else {
        layout.size
    };
    layout.moved(layout.e, layout.f - leading * layout.d);
    layout.gap = Gap::Line;
}
