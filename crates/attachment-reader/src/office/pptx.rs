//! PowerPoint (pptx): slide by slide in the deck's order, one item a shape holding text (its
//! paragraphs joined by `\n`, a table's rows by line with cells joined by ` | `), the title marked,
//! then the slide's speaker notes as one item marked as notes.
//!
//! Slide numbers, dates, headers and footers are left out; so are pictures (whose text is not read).

use super::{Package, main_part, xml_error};
use crate::xml;
use crate::{Collector, Location, Read};
use quick_xml::Reader;
use quick_xml::events::Event;

pub(crate) fn read(bytes: &[u8]) -> Read {
    let mut pkg = Package::open(bytes)?;
    let main = main_part(&mut pkg, "ppt/presentation.xml")?;
    let presentation = pkg
        .part(&main)?
        .ok_or_else(|| "it has no presentation part (ppt/presentation.xml)".to_string())?;
    let rels = pkg.rels(&main)?;
    let slides: Vec<String> = slide_ids(&presentation)
        .map_err(|e| xml_error(&main, e))?
        .into_iter()
        .filter_map(|id| rels.get(&id).cloned())
        .collect();
    let mut out = Collector::new();
    let mut notes = Vec::new();
    let mut hidden = Vec::new();
    let mut empty = Vec::new();
    for (i, part) in slides.iter().enumerate() {
        let number = i as u32 + 1;
        let Some(xml_text) = pkg.part(part)? else {
            notes.push(format!("Slide {number}'s part {part} is missing."));
            continue;
        };
        let slide = shapes(&xml_text).map_err(|e| xml_error(part, e))?;
        if slide.hidden {
            hidden.push(number.to_string());
        }
        let mut any = false;
        for (text, title) in slide.shapes {
            any = true;
            out.push(
                Location::Slide {
                    slide: number,
                    title,
                    notes: false,
                },
                text,
            );
        }
        let notes_part = pkg
            .rels(part)?
            .into_values()
            .find(|target| target.contains("notesSlide"));
        if let Some(notes_part) = notes_part
            && let Some(xml_text) = pkg.part(&notes_part)?
        {
            let speaker = shapes(&xml_text).map_err(|e| xml_error(&notes_part, e))?;
            let text: Vec<String> = speaker.shapes.into_iter().map(|(t, _)| t).collect();
            if !text.is_empty() {
                any = true;
                out.push(
                    Location::Slide {
                        slide: number,
                        title: false,
                        notes: true,
                    },
                    text.join("\n"),
                );
            }
        }
        if !any {
            empty.push(number.to_string());
            out.push(
                Location::Slide {
                    slide: number,
                    title: false,
                    notes: false,
                },
                format!("[slide {number} has no text]"),
            );
        }
        if out.is_full() {
            break;
        }
    }
    if !hidden.is_empty() {
        notes.push(format!("Hidden slides: {}.", hidden.join(", ")));
    }
    if !empty.is_empty() {
        notes.push(format!(
            "Slides with no text (pictures or drawings only): {}.",
            empty.join(", ")
        ));
    }
    notes.extend(out.note("the rest of the deck"));
    let detail = format!(
        "{} slide{}",
        slides.len(),
        if slides.len() == 1 { "" } else { "s" }
    );
    Ok((out.items, notes, Some(detail)))
}

/// The relationship ids of the deck's slides, in order.
fn slide_ids(xml_text: &str) -> Result<Vec<String>, quick_xml::Error> {
    let mut reader = Reader::from_str(xml_text);
    let mut ids = Vec::new();
    loop {
        match reader.read_event()? {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "sldId" => {
                if let Some(id) = xml::attr_prefixed(&e, "id") {
                    ids.push(id);
                }
            }
            Event::Eof => return Ok(ids),
            _ => {}
        }
    }
}

struct Slide {
    /// Each shape's text and whether it is the title.
    shapes: Vec<(String, bool)>,
    hidden: bool,
}

/// The text of a slide's (or a notes page's) shapes, in order.
fn shapes(xml_text: &str) -> Result<Slide, quick_xml::Error> {
    let mut reader = Reader::from_str(xml_text);
    let mut slide = Slide {
        shapes: Vec::new(),
        hidden: false,
    };
    // The shape (`p:sp` or `p:graphicFrame`) being read: its text, title, left-out flag.
    let mut shape: Option<(String, bool, bool)> = None;
    let mut depth = 0u32;
    let mut in_t = false;
    let mut in_cell = false;
    let mut cell = String::new();
    let mut row: Vec<String> = Vec::new();
    loop {
        match reader.read_event()? {
            Event::Eof => break,
            Event::Start(e) => match e.local_name().as_ref() {
                "sld" => slide.hidden = xml::attr(&e, "show").is_some_and(|v| v == "0"),
                "sp" | "graphicFrame" => {
                    depth += 1;
                    if depth == 1 {
                        shape = Some((String::new(), false, false));
                    }
                }
                "t" => in_t = true,
                "tr" => row.clear(),
                "tc" => {
                    in_cell = true;
                    cell.clear();
                }
                "ph" => placeholder(&e, &mut shape),
                _ => {}
            },
            Event::Empty(e) => match e.local_name().as_ref() {
                "ph" => placeholder(&e, &mut shape),
                "br" => {
                    if let Some((text, _, _)) = shape.as_mut() {
                        if in_cell {
                            cell.push(' ');
                        } else {
                            text.push('\n');
                        }
                    }
                }
                "tc" => row.push(String::new()),
                _ => {}
            },
            Event::End(e) => match e.local_name().as_ref() {
                "t" => in_t = false,
                "p" => {
                    if let Some((text, _, _)) = shape.as_mut() {
                        if in_cell {
                            if !cell.is_empty() && !cell.ends_with(' ') {
                                cell.push(' ');
                            }
                        } else if !text.is_empty() && !text.ends_with('\n') {
                            text.push('\n');
                        }
                    }
                }
                "tc" => {
                    in_cell = false;
                    row.push(cell.trim().to_string());
                }
                "tr" => {
                    if let Some((text, _, _)) = shape.as_mut()
                        && row.iter().any(|c| !c.is_empty())
                    {
                        text.push_str(&row.join(" | "));
                        text.push('\n');
                    }
                }
                "sp" | "graphicFrame" => {
                    depth = depth.saturating_sub(1);
                    if depth == 0
                        && let Some((text, title, left_out)) = shape.take()
                    {
                        let text = text.trim();
                        if !left_out && !text.is_empty() {
                            slide.shapes.push((text.to_string(), title));
                        }
                    }
                }
                _ => {}
            },
            Event::Text(t) if in_t => push_text(&mut shape, in_cell, &mut cell, &xml::text(&t)),
            Event::GeneralRef(r) if in_t => {
                push_text(&mut shape, in_cell, &mut cell, &xml::reference(&r))
            }
            _ => {}
        }
    }
    Ok(slide)
}

fn push_text(shape: &mut Option<(String, bool, bool)>, in_cell: bool, cell: &mut String, s: &str) {
    if let Some((text, _, _)) = shape.as_mut() {
        if in_cell {
            cell.push_str(s);
        } else {
            text.push_str(s);
        }
    }
}

/// A placeholder's type: a title, or one left out (slide number, date, header, footer).
fn placeholder(e: &quick_xml::events::BytesStart<'_>, shape: &mut Option<(String, bool, bool)>) {
    if let Some((_, title, left_out)) = shape.as_mut() {
        match xml::attr(e, "type").as_deref() {
            Some("title" | "ctrTitle") => *title = true,
            Some("sldNum" | "dt" | "ftr" | "hdr" | "sldImg") => *left_out = true,
            _ => {}
        }
    }
}
