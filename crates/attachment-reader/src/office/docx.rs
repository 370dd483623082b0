//! Word (docx): the body's paragraphs as items, headings marked with their level, list items led by
//! `- `, each table row one item with its cells joined by ` | `.
//!
//! Headings are known by the paragraph's style (its name in `styles.xml`, "heading N" or "Title", or
//! its outline level). Text boxes are read into the paragraph that anchors them; an alternate
//! content's fallback is skipped, so such text is not read twice. Headers, footers, footnotes and
//! comments are not read.

use super::{Package, main_part, xml_error};
use crate::xml;
use crate::{Collector, Location, Read};
use quick_xml::Reader;
use quick_xml::events::Event;
use std::collections::HashMap;

pub(crate) fn read(bytes: &[u8]) -> Read {
    let mut pkg = Package::open(bytes)?;
    let main = main_part(&mut pkg, "word/document.xml")?;
    let body = pkg
        .part(&main)?
        .ok_or_else(|| "it has no document part (word/document.xml)".to_string())?;
    let styles = match pkg.part("word/styles.xml") {
        Ok(Some(s)) => heading_styles(&s),
        _ => HashMap::new(),
    };
    let mut walk = Walk::new(styles);
    let mut reader = Reader::from_str(&body);
    loop {
        let event = reader.read_event().map_err(|e| xml_error(&main, e))?;
        if matches!(event, Event::Eof) || walk.out.is_full() {
            break;
        }
        walk.event(event);
    }
    let mut notes = Vec::new();
    notes.extend(walk.out.note("the rest of the document"));
    if walk.out.items.is_empty() {
        notes.push("The document's body has no text.".to_string());
    }
    let detail = format!(
        "{} paragraphs{}",
        walk.number,
        match walk.tables {
            0 => String::new(),
            1 => ", 1 table".to_string(),
            n => format!(", {n} tables"),
        }
    );
    Ok((walk.out.items, notes, Some(detail)))
}

/// Heading levels by style id, from `styles.xml`.
fn heading_styles(xml_text: &str) -> HashMap<String, u8> {
    let mut out = HashMap::new();
    let mut reader = Reader::from_str(xml_text);
    let mut id: Option<String> = None;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) => match e.local_name().as_ref() {
                "style" => id = xml::attr(&e, "styleId"),
                "name" => {
                    if let (Some(i), Some(level)) =
                        (&id, xml::attr(&e, "val").and_then(|n| level_of_name(&n)))
                    {
                        out.insert(i.clone(), level);
                    }
                }
                "outlineLvl" => {
                    if let (Some(i), Some(v)) = (&id, xml::attr(&e, "val"))
                        && let Ok(v) = v.parse::<u8>()
                        && v < 9
                    {
                        out.entry(i.clone()).or_insert(v + 1);
                    }
                }
                _ => {}
            },
            Ok(Event::End(e)) if e.local_name().as_ref() == "style" => id = None,
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    out
}

/// The heading level a style's name or id says: "heading 2" or "Heading2" is 2, "Title" is 1.
fn level_of_name(name: &str) -> Option<u8> {
    let lower = name.to_ascii_lowercase();
    if lower == "title" {
        return Some(1);
    }
    let rest = lower.strip_prefix("heading")?.trim();
    rest.parse::<u8>().ok().filter(|n| (1..=9).contains(n))
}

struct Walk {
    out: Collector,
    styles: HashMap<String, u8>,
    /// Paragraphs and table rows given so far.
    number: u32,
    tables: u32,
    /// How deep in `w:p`, `w:r`, `w:tbl`, `mc:Fallback` and `w:t` we are.
    p_depth: u32,
    r_depth: u32,
    tbl_depth: u32,
    skip_depth: u32,
    in_t: bool,
    para: String,
    heading: Option<u8>,
    list_level: Option<u8>,
    row: u32,
    cells: Vec<String>,
    cell: String,
}

impl Walk {
    fn new(styles: HashMap<String, u8>) -> Self {
        Walk {
            out: Collector::new(),
            styles,
            number: 0,
            tables: 0,
            p_depth: 0,
            r_depth: 0,
            tbl_depth: 0,
            skip_depth: 0,
            in_t: false,
            para: String::new(),
            heading: None,
            list_level: None,
            row: 0,
            cells: Vec::new(),
            cell: String::new(),
        }
    }

    fn event(&mut self, event: Event<'_>) {
        if self.skip_depth > 0 {
            match event {
                Event::Start(e) if e.local_name().as_ref() == "Fallback" => self.skip_depth += 1,
                Event::End(e) if e.local_name().as_ref() == "Fallback" => self.skip_depth -= 1,
                _ => {}
            }
            return;
        }
        match event {
            Event::Start(e) => match e.local_name().as_ref() {
                "Fallback" => self.skip_depth = 1,
                "p" => self.start_paragraph(),
                "r" => self.r_depth += 1,
                "t" => self.in_t = true,
                "tbl" => self.start_table(),
                "tr" if self.tbl_depth == 1 => {
                    self.row += 1;
                    self.cells.clear();
                }
                "tc" if self.tbl_depth == 1 => self.cell.clear(),
                _ => self.leaf(&e),
            },
            Event::Empty(e) => match e.local_name().as_ref() {
                "p" | "r" | "t" | "tbl" | "tr" | "tc" | "Fallback" => {}
                _ => self.leaf(&e),
            },
            Event::End(e) => match e.local_name().as_ref() {
                "p" => self.end_paragraph(),
                "r" => self.r_depth = self.r_depth.saturating_sub(1),
                "t" => self.in_t = false,
                "tc" if self.tbl_depth == 1 => {
                    let cell = std::mem::take(&mut self.cell);
                    self.cells.push(cell.trim().to_string());
                }
                "tr" if self.tbl_depth == 1 => self.end_row(),
                "tbl" => self.tbl_depth = self.tbl_depth.saturating_sub(1),
                _ => {}
            },
            Event::Text(t) if self.in_t && self.p_depth > 0 => self.para.push_str(&xml::text(&t)),
            Event::GeneralRef(r) if self.in_t && self.p_depth > 0 => {
                self.para.push_str(&xml::reference(&r))
            }
            _ => {}
        }
    }

    /// An element that adds to the paragraph or sets its properties.
    fn leaf(&mut self, e: &quick_xml::events::BytesStart<'_>) {
        if self.p_depth == 0 {
            return;
        }
        match e.local_name().as_ref() {
            "tab" if self.r_depth > 0 => self.para.push('\t'),
            "br" | "cr" if self.r_depth > 0 => self.para.push('\n'),
            "noBreakHyphen" if self.r_depth > 0 => self.para.push('-'),
            "pStyle" if self.p_depth == 1 => {
                if let Some(id) = xml::attr(e, "val") {
                    self.heading = self.styles.get(&id).copied().or_else(|| level_of_name(&id));
                }
            }
            "outlineLvl" if self.p_depth == 1 && self.heading.is_none() => {
                self.heading = xml::attr(e, "val")
                    .and_then(|v| v.parse::<u8>().ok())
                    .filter(|v| *v < 9)
                    .map(|v| v + 1);
            }
            "numPr" if self.p_depth == 1 => {
                self.list_level.get_or_insert(0);
            }
            "ilvl" if self.p_depth == 1 => {
                self.list_level = xml::attr(e, "val")
                    .and_then(|v| v.parse::<u8>().ok())
                    .map(|v| v.min(8));
            }
            _ => {}
        }
    }

    fn start_paragraph(&mut self) {
        self.p_depth += 1;
        if self.p_depth == 1 {
            self.para.clear();
            self.heading = None;
            self.list_level = None;
        } else if !self.para.is_empty() && !self.para.ends_with([' ', '\n']) {
            // A paragraph inside a paragraph (a text box): keep it apart from the text around it.
            self.para.push(' ');
        }
    }

    fn end_paragraph(&mut self) {
        self.p_depth = self.p_depth.saturating_sub(1);
        if self.p_depth > 0 {
            return;
        }
        let text = self.para.trim();
        if text.is_empty() {
            return;
        }
        if self.tbl_depth > 0 {
            if !self.cell.is_empty() {
                self.cell.push(' ');
            }
            self.cell.push_str(text);
            return;
        }
        let text = match (self.heading, self.list_level) {
            (None, Some(level)) => format!("{}- {text}", "  ".repeat(level as usize)),
            _ => text.to_string(),
        };
        self.number += 1;
        self.out.push(
            Location::Paragraph {
                paragraph: self.number,
                heading: self.heading,
            },
            text,
        );
    }

    fn start_table(&mut self) {
        self.tbl_depth += 1;
        if self.tbl_depth == 1 {
            self.tables += 1;
            self.row = 0;
        }
    }

    fn end_row(&mut self) {
        let cells = std::mem::take(&mut self.cells);
        if cells.iter().all(|c| c.is_empty()) {
            return;
        }
        self.number += 1;
        self.out.push(
            Location::TableRow {
                paragraph: self.number,
                table: self.tables,
                row: self.row,
            },
            cells.join(" | "),
        );
    }
}
