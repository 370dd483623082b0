//! OpenDocument spreadsheets (ods): each table's rows from `content.xml`, read as a stream, laid out
//! as Excel workbooks are (see [`super::xlsx`]).
//!
//! A cell's text is the text the file shows for it (its `text:p` paragraphs), so numbers and dates
//! read as formatted. Repeated rows and columns cost only their count, unless they hold text; cell
//! comments are left out.

use super::xlsx::{Book, SheetRows};
use super::{Package, xml_error};
use crate::Read;
use crate::xml;
use calamine::{SheetType, SheetVisible};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// The most times one repeated cell or row holding text is given.
const MAX_REPEAT_WITH_TEXT: u32 = 1_000;

fn repeat(e: &BytesStart<'_>, name: &str) -> u32 {
    xml::attr(e, name)
        .and_then(|v| v.trim().parse::<u32>().ok())
        .unwrap_or(1)
        .max(1)
}

pub(crate) fn read(bytes: &[u8]) -> Read {
    let mut pkg = Package::open(bytes)?;
    let part = "content.xml";
    let content = pkg
        .part(part)?
        .ok_or_else(|| "it has no content part (content.xml)".to_string())?;
    let mut reader = Reader::from_str(&content);
    let mut sheets: Vec<SheetRows> = Vec::new();
    let mut sheet: Option<SheetRows> = None;
    let mut table_depth = 0u32;
    let mut skip_depth = 0u32;
    let (mut row, mut col) = (0u32, 0u32);
    let mut rows_repeat = 1u32;
    let mut row_cells: Vec<(u32, String)> = Vec::new();
    let mut cell: Option<(String, u32)> = None;
    let mut full = false;
    loop {
        let event = reader.read_event().map_err(|e| xml_error(part, e))?;
        if skip_depth > 0 {
            match event {
                Event::Start(e) if e.local_name().as_ref() == "annotation" => skip_depth += 1,
                Event::End(e) if e.local_name().as_ref() == "annotation" => skip_depth -= 1,
                Event::Eof => break,
                _ => {}
            }
            continue;
        }
        match event {
            Event::Eof => break,
            Event::Start(e) => match e.local_name().as_ref() {
                "table" => {
                    table_depth += 1;
                    if table_depth == 1 {
                        let name = xml::attr(&e, "name").unwrap_or_default();
                        sheet = Some(SheetRows::new(&name));
                        (row, col) = (0, 0);
                    }
                }
                "table-row" if table_depth == 1 => {
                    rows_repeat = repeat(&e, "number-rows-repeated");
                    row_cells.clear();
                    col = 0;
                }
                "table-cell" | "covered-table-cell" if table_depth == 1 => {
                    cell = Some((String::new(), repeat(&e, "number-columns-repeated")));
                }
                "annotation" => skip_depth = 1,
                "p" => {
                    if let Some((text, _)) = cell.as_mut()
                        && !text.is_empty()
                    {
                        text.push(' ');
                    }
                }
                _ => {}
            },
            Event::Empty(e) => match e.local_name().as_ref() {
                "table-cell" | "covered-table-cell" if table_depth == 1 && cell.is_none() => {
                    col = col.saturating_add(repeat(&e, "number-columns-repeated"));
                }
                "table-row" if table_depth == 1 => {
                    row = row.saturating_add(repeat(&e, "number-rows-repeated"));
                }
                "s" => {
                    if let Some((text, _)) = cell.as_mut() {
                        let n = xml::attr(&e, "c")
                            .and_then(|v| v.parse::<usize>().ok())
                            .unwrap_or(1);
                        text.push_str(&" ".repeat(n.clamp(1, 100)));
                    }
                }
                "tab" | "line-break" => {
                    if let Some((text, _)) = cell.as_mut() {
                        text.push(' ');
                    }
                }
                _ => {}
            },
            Event::End(e) => match e.local_name().as_ref() {
                "table-cell" | "covered-table-cell" if table_depth == 1 => {
                    if let Some((text, n)) = cell.take() {
                        let text = text.trim();
                        if !text.is_empty() {
                            for k in 0..n.min(MAX_REPEAT_WITH_TEXT) {
                                row_cells.push((col.saturating_add(k), text.to_string()));
                            }
                        }
                        col = col.saturating_add(n);
                    }
                }
                "table-row" if table_depth == 1 => {
                    if let Some(s) = sheet.as_mut() {
                        let times = if row_cells.is_empty() {
                            0
                        } else {
                            rows_repeat.min(MAX_REPEAT_WITH_TEXT)
                        };
                        'rows: for r in 0..times {
                            for (c, text) in &row_cells {
                                if !s.text(row.saturating_add(r), *c, text.clone()) {
                                    full = true;
                                    break 'rows;
                                }
                            }
                        }
                    }
                    row = row.saturating_add(rows_repeat);
                }
                "table" => {
                    table_depth = table_depth.saturating_sub(1);
                    if table_depth == 0 {
                        sheets.extend(sheet.take());
                    }
                }
                _ => {}
            },
            Event::Text(t) => {
                if let Some((text, _)) = cell.as_mut() {
                    text.push_str(&xml::text(&t));
                }
            }
            Event::GeneralRef(r) => {
                if let Some((text, _)) = cell.as_mut() {
                    text.push_str(&xml::reference(&r));
                }
            }
            _ => {}
        }
        if full {
            break;
        }
    }
    sheets.extend(sheet.take());
    let mut book = Book::new();
    let count = sheets.len();
    for (i, s) in sheets.into_iter().enumerate() {
        book.sheet(s, i, count, SheetType::WorkSheet, SheetVisible::Visible);
    }
    Ok(book.finish())
}
