//! Excel workbooks (xlsx, xlsm, xlsb) through calamine, cell by cell; and the sheet layout shared
//! with OpenDocument spreadsheets: a header item a sheet (its size and used range), then one item a
//! row holding any text, its cells from the sheet's first used column joined by ` | `.
//!
//! Numbers show as Excel would with a general format (at most 15 significant digits), dates as ISO
//! dates (`2024-03-05`, with the time when it has one), booleans as TRUE/FALSE, errors as Excel writes
//! them. Cells are streamed, never laid out as a dense grid, so a sheet claiming a huge range costs
//! only its cells. Before calamine reads a workbook every part is inflated once within the caps, and
//! the shared-strings count it pre-allocates by is checked against the part's size.

use super::{Package, xml_error};
use crate::xml;
use crate::{Collector, Location, Read, caps};
use calamine::{Cell, DataRef, Reader, SheetType, SheetVisible, Xlsb, Xlsx};
use std::collections::BTreeMap;
use std::io::Cursor;

/// The longest text one cell gives; longer is cut with `…`.
const MAX_CELL_TEXT: usize = 16 * 1024;

pub(crate) fn read(bytes: &[u8]) -> Read {
    let mut pkg = Package::open(bytes)?;
    pkg.check_all()?;
    let binary = pkg.has("xl/workbook.bin");
    if !binary {
        check_shared_strings(&mut pkg)?;
    }
    let mut book = Book::new();
    if binary {
        let mut wb = Xlsb::new(Cursor::new(bytes))
            .map_err(|e| format!("it is not a workbook calamine can read ({e})"))?;
        let sheets = wb.sheets_metadata().to_vec();
        for (i, sheet) in sheets.iter().enumerate() {
            let mut rows = SheetRows::new(&sheet.name);
            if sheet.typ == SheetType::WorkSheet {
                match wb.worksheet_cells_reader(&sheet.name) {
                    Ok(mut cells) => loop {
                        match cells.next_cell() {
                            Ok(Some(c)) => {
                                if !rows.cell(&c) {
                                    break;
                                }
                            }
                            Ok(None) => break,
                            Err(e) => {
                                rows.error = Some(e.to_string());
                                break;
                            }
                        }
                    },
                    Err(e) => rows.error = Some(e.to_string()),
                }
            }
            book.sheet(rows, i, sheets.len(), sheet.typ, sheet.visible);
        }
    } else {
        let mut wb = Xlsx::new(Cursor::new(bytes))
            .map_err(|e| format!("it is not a workbook calamine can read ({e})"))?;
        let sheets = wb.sheets_metadata().to_vec();
        for (i, sheet) in sheets.iter().enumerate() {
            let mut rows = SheetRows::new(&sheet.name);
            if sheet.typ == SheetType::WorkSheet {
                match wb.worksheet_cells_reader(&sheet.name) {
                    Ok(mut cells) => loop {
                        match cells.next_cell() {
                            Ok(Some(c)) => {
                                if !rows.cell(&c) {
                                    break;
                                }
                            }
                            Ok(None) => break,
                            Err(e) => {
                                rows.error = Some(e.to_string());
                                break;
                            }
                        }
                    },
                    Err(e) => rows.error = Some(e.to_string()),
                }
            }
            book.sheet(rows, i, sheets.len(), sheet.typ, sheet.visible);
        }
    }
    Ok(book.finish())
}

/// Refuses a shared-strings part that declares more strings than its size can hold: calamine
/// reserves room for the declared count before it reads one.
fn check_shared_strings(pkg: &mut Package<'_>) -> Result<(), String> {
    let part = "xl/sharedStrings.xml";
    let Some(text) = pkg.part(part)? else {
        return Ok(());
    };
    let mut reader = quick_xml::Reader::from_str(&text);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e))
                if e.local_name().as_ref() == "sst" =>
            {
                for key in ["uniqueCount", "count"] {
                    let declared = xml::attr(&e, key).and_then(|v| v.trim().parse::<u64>().ok());
                    // Each string takes at least `<si><t/></si>`, 13 bytes.
                    if declared.is_some_and(|n| n.saturating_mul(13) > text.len() as u64 + 13) {
                        return Err(format!(
                            "its shared strings declare more strings than the part holds (a \
                             malformed or crafted {part})"
                        ));
                    }
                }
                return Ok(());
            }
            Ok(quick_xml::events::Event::Eof) => return Ok(()),
            Err(e) => return Err(xml_error(part, e)),
            _ => {}
        }
    }
}

/// The rows of one sheet as its cells come, each cell's text kept with its column.
pub(crate) struct SheetRows {
    pub name: String,
    rows: BTreeMap<u32, Vec<(u32, String)>>,
    bytes: usize,
    pub cut: bool,
    pub error: Option<String>,
}

impl SheetRows {
    pub fn new(name: &str) -> Self {
        SheetRows {
            name: name.to_string(),
            rows: BTreeMap::new(),
            bytes: 0,
            cut: false,
            error: None,
        }
    }

    fn cell(&mut self, c: &Cell<DataRef<'_>>) -> bool {
        let (row, col) = c.get_position();
        self.text(row, col, render(c.get_value()))
    }

    /// Adds a cell's text at a 0-based row and column; false once the sheet holds as much text as a
    /// read gives.
    pub fn text(&mut self, row: u32, col: u32, mut text: String) -> bool {
        if text.trim().is_empty() {
            return true;
        }
        if text.len() > MAX_CELL_TEXT {
            let mut end = MAX_CELL_TEXT;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
            text.push('…');
        }
        if text.contains(['\n', '\r']) {
            text = text.replace("\r\n", " ").replace(['\n', '\r'], " ");
        }
        self.bytes += text.len() + 3;
        if self.bytes > caps::MAX_OUTPUT_TEXT {
            self.cut = true;
            return false;
        }
        self.rows.entry(row).or_default().push((col, text));
        true
    }
}

/// The items of a workbook's sheets, in order.
pub(crate) struct Book {
    out: Collector,
    notes: Vec<String>,
    sheets: usize,
}

impl Book {
    pub fn new() -> Self {
        Book {
            out: Collector::new(),
            notes: Vec::new(),
            sheets: 0,
        }
    }

    /// Adds a sheet (the `index`th of `count`, from 0): its header item and rows.
    pub fn sheet(
        &mut self,
        rows: SheetRows,
        index: usize,
        count: usize,
        typ: SheetType,
        visible: SheetVisible,
    ) {
        self.sheets += 1;
        if self.out.is_full() {
            return;
        }
        let mut header = format!("Sheet {} of {count}, \"{}\"", index + 1, rows.name);
        match visible {
            SheetVisible::Visible => {}
            _ => header.push_str(" (hidden)"),
        }
        let min_col = rows
            .rows
            .values()
            .flat_map(|r| r.iter().map(|(c, _)| *c))
            .min();
        let max_col = rows
            .rows
            .values()
            .flat_map(|r| r.iter().map(|(c, _)| *c))
            .max();
        let first_row = rows.rows.keys().next().copied();
        let last_row = rows.rows.keys().next_back().copied();
        match (typ, min_col, max_col, first_row, last_row) {
            (SheetType::ChartSheet, ..) => header.push_str(": a chart, no cells"),
            (SheetType::WorkSheet, Some(c0), Some(c1), Some(r0), Some(r1)) => {
                header.push_str(&format!(
                    ": {} rows × {} columns with text, {}{}:{}{}",
                    rows.rows.len(),
                    c1 - c0 + 1,
                    column_name(c0),
                    r0 + 1,
                    column_name(c1),
                    r1 + 1
                ));
            }
            (SheetType::WorkSheet, ..) => header.push_str(": empty"),
            _ => header.push_str(": not a worksheet, not read"),
        }
        if rows.cut {
            header.push_str("; its rows stop where a read's text runs out");
        }
        if let Some(e) = &rows.error {
            header.push_str(&format!("; its cells could not all be read ({e})"));
            self.notes.push(format!(
                "Sheet \"{}\" could not be read whole: {e}.",
                rows.name
            ));
        }
        let name = rows.name.clone();
        self.out.push(
            Location::Sheet {
                sheet: name.clone(),
            },
            header,
        );
        let c0 = min_col.unwrap_or(0);
        for (row, cells) in rows.rows {
            let mut text = String::new();
            let mut col = c0;
            for (c, cell) in cells {
                while col < c {
                    text.push_str(" | ");
                    col += 1;
                }
                if c < col && !text.is_empty() {
                    // A cell out of order: keep it, after the rest.
                    text.push_str(" | ");
                }
                text.push_str(&cell);
                col = c.max(col);
            }
            let at = Location::Row {
                sheet: name.clone(),
                row: row + 1,
            };
            if !self.out.push(at, text) {
                break;
            }
        }
    }

    pub fn finish(mut self) -> (Vec<crate::Item>, Vec<String>, Option<String>) {
        self.notes.extend(self.out.note("the rest of the workbook"));
        let detail = format!(
            "{} sheet{}",
            self.sheets,
            if self.sheets == 1 { "" } else { "s" }
        );
        (self.out.items, self.notes, Some(detail))
    }
}

/// A column's letters: 0 is A, 26 is AA.
pub(crate) fn column_name(col: u32) -> String {
    let mut n = col as u64 + 1;
    let mut out = Vec::new();
    while n > 0 {
        let r = ((n - 1) % 26) as u8;
        out.push(b'A' + r);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8_lossy(&out).into_owned()
}

/// A number as a general format shows it: at most 15 significant digits, no trailing zeros.
pub(crate) fn number(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let magnitude = v.abs().log10().floor() as i32;
    if !(-5..15).contains(&magnitude) {
        let s = format!("{v:.14e}");
        return match s.split_once('e') {
            Some((m, e)) => {
                let m = m.trim_end_matches('0').trim_end_matches('.');
                format!("{m}E{e}")
            }
            None => s,
        };
    }
    let decimals = (14 - magnitude).clamp(0, 20) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

fn render(v: &DataRef<'_>) -> String {
    match v {
        DataRef::Int(i) => i.to_string(),
        DataRef::Float(f) => number(*f),
        DataRef::String(s) => s.clone(),
        DataRef::SharedString(s) => s.to_string(),
        DataRef::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        DataRef::DateTime(d) if d.is_duration() => duration(d.as_f64()),
        DataRef::DateTime(d) => {
            let (y, mo, da, h, mi, s, _) = d.to_ymd_hms_milli();
            date_time(i64::from(y), u32::from(mo), u32::from(da), h, mi, s)
        }
        DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => s.clone(),
        DataRef::Error(e) => e.to_string(),
        DataRef::Empty => String::new(),
    }
}

/// A date, with its time when it has one.
pub(crate) fn date_time(y: i64, mo: u32, d: u32, h: u8, mi: u8, s: u8) -> String {
    match (h, mi, s) {
        (0, 0, 0) => format!("{y:04}-{mo:02}-{d:02}"),
        (_, _, 0) => format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}"),
        _ => format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}"),
    }
}

/// A duration in days as `[h]:mm:ss`.
fn duration(days: f64) -> String {
    if !days.is_finite() {
        return days.to_string();
    }
    let secs = (days * 86_400.0).round() as i64;
    let sign = if secs < 0 { "-" } else { "" };
    let secs = secs.abs();
    format!(
        "{sign}{}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_show_as_a_general_format() {
        assert_eq!(number(0.1 + 0.2), "0.3");
        assert_eq!(number(42.0), "42");
        assert_eq!(number(-1234.5), "-1234.5");
        assert_eq!(number(1e20), "1E20");
        assert_eq!(number(0.000001234), "1.234E-6");
        assert_eq!(column_name(0), "A");
        assert_eq!(column_name(27), "AB");
        assert_eq!(column_name(16_383), "XFD");
        assert_eq!(duration(1.5), "36:00:00");
    }
}
