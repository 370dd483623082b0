//! Office documents: the zip container they share (parts read with inflation capped per part and in
//! total, relationships resolved), and a reader for each format.

pub(crate) mod docx;
pub(crate) mod ods;
pub(crate) mod pptx;
pub(crate) mod xlsx;

use crate::caps::{MAX_INFLATED_BYTES, MAX_PART_BYTES, MAX_PARTS};
use crate::mib;
use crate::xml;
use quick_xml::Reader;
use quick_xml::events::Event;
use std::collections::BTreeMap;
use std::io::{Cursor, Read};
use zip::ZipArchive;

/// A zip container whose parts are read with their inflation capped.
pub(crate) struct Package<'a> {
    zip: ZipArchive<Cursor<&'a [u8]>>,
    inflated: u64,
}

impl<'a> Package<'a> {
    pub fn open(bytes: &'a [u8]) -> Result<Self, String> {
        let zip = ZipArchive::new(Cursor::new(bytes))
            .map_err(|e| format!("its zip container is malformed ({e})"))?;
        if zip.len() > MAX_PARTS {
            return Err(format!(
                "its container holds {} parts, more than the {MAX_PARTS} read",
                zip.len()
            ));
        }
        Ok(Package { zip, inflated: 0 })
    }

    /// The index of the part named `name` (a leading `/` ignored; case-insensitive, as OOXML has it).
    fn index(&self, name: &str) -> Option<usize> {
        let name = name.trim_start_matches('/');
        self.zip.index_for_name(name).or_else(|| {
            (0..self.zip.len()).find(|&i| {
                self.zip
                    .name_for_index(i)
                    .and_then(Result::ok)
                    .is_some_and(|n| n.eq_ignore_ascii_case(name))
            })
        })
    }

    pub fn has(&self, name: &str) -> bool {
        self.index(name).is_some()
    }

    /// Inflates the part at `i` into `sink`, within the caps.
    fn inflate(&mut self, i: usize, sink: &mut Vec<u8>, keep: bool) -> Result<u64, String> {
        let mut entry = self
            .zip
            .by_index(i)
            .map_err(|e| format!("a part of its container cannot be read ({e})"))?;
        let name = entry.name().map(|n| n.into_owned()).unwrap_or_default();
        let mut limited = (&mut entry).take(MAX_PART_BYTES + 1);
        let n = if keep {
            limited.read_to_end(sink)
        } else {
            std::io::copy(&mut limited, &mut std::io::sink()).map(|n| n as usize)
        }
        .map_err(|e| format!("its part {name} cannot be inflated ({e})"))? as u64;
        if n > MAX_PART_BYTES {
            return Err(format!(
                "its part {name} inflates past {}, more than a part may (a zip bomb?)",
                mib(MAX_PART_BYTES)
            ));
        }
        self.inflated += n;
        if self.inflated > MAX_INFLATED_BYTES {
            return Err(format!(
                "its parts inflate past {} together, more than a document may (a zip bomb?)",
                mib(MAX_INFLATED_BYTES)
            ));
        }
        Ok(n)
    }

    /// The part named `name` as text (`None` when there is no such part).
    pub fn part(&mut self, name: &str) -> Result<Option<String>, String> {
        let Some(i) = self.index(name) else {
            return Ok(None);
        };
        let mut bytes = Vec::new();
        self.inflate(i, &mut bytes, true)?;
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        Ok(Some(String::from_utf8_lossy(body).into_owned()))
    }

    /// Inflates every part (and discards it), so that a reader that inflates parts itself meets no
    /// part past the caps: the same bytes inflate the same way again.
    pub fn check_all(&mut self) -> Result<(), String> {
        for i in 0..self.zip.len() {
            let mut none = Vec::new();
            self.inflate(i, &mut none, false)?;
        }
        Ok(())
    }

    /// The relationships of the part `source`: id to the target's part name (external targets left
    /// out).
    pub fn rels(&mut self, source: &str) -> Result<BTreeMap<String, String>, String> {
        let (dir, file) = match source.rsplit_once('/') {
            Some((d, f)) => (d, f),
            None => ("", source),
        };
        let rels_name = if dir.is_empty() {
            format!("_rels/{file}.rels")
        } else {
            format!("{dir}/_rels/{file}.rels")
        };
        let mut out = BTreeMap::new();
        let Some(text) = self.part(&rels_name)? else {
            return Ok(out);
        };
        let mut reader = Reader::from_str(&text);
        loop {
            match reader.read_event() {
                Ok(Event::Start(e) | Event::Empty(e))
                    if e.local_name().as_ref() == "Relationship" =>
                {
                    if xml::attr(&e, "TargetMode").is_some_and(|m| m == "External") {
                        continue;
                    }
                    if let (Some(id), Some(target)) = (xml::attr(&e, "Id"), xml::attr(&e, "Target"))
                    {
                        out.insert(id, resolve(dir, &target));
                    }
                }
                Ok(Event::Eof) => break,
                Err(e) => return Err(format!("its part {rels_name} is malformed XML ({e})")),
                _ => {}
            }
        }
        Ok(out)
    }
}

/// A relationship target resolved against the folder of its source part.
fn resolve(dir: &str, target: &str) -> String {
    let mut parts: Vec<&str> = if target.starts_with('/') {
        Vec::new()
    } else {
        dir.split('/').filter(|p| !p.is_empty()).collect()
    };
    for p in target.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// The part an OOXML package's main relationship points to (`officeDocument`), or `fallback`.
pub(crate) fn main_part(pkg: &mut Package<'_>, fallback: &str) -> Result<String, String> {
    let text = pkg.part("_rels/.rels")?.unwrap_or_default();
    let mut reader = Reader::from_str(&text);
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) if e.local_name().as_ref() == "Relationship" => {
                let officedoc =
                    xml::attr(&e, "Type").is_some_and(|t| t.ends_with("/officeDocument"));
                if let (true, Some(target)) = (officedoc, xml::attr(&e, "Target")) {
                    let part = resolve("", &target);
                    if pkg.has(&part) {
                        return Ok(part);
                    }
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    Ok(fallback.to_string())
}

/// Reports a part's XML error as a reason.
pub(crate) fn xml_error(part: &str, e: impl std::fmt::Display) -> String {
    format!("its part {part} is malformed XML ({e})")
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn targets_resolve_against_their_source() {
        assert_eq!(resolve("ppt", "slides/slide1.xml"), "ppt/slides/slide1.xml");
        assert_eq!(
            resolve("ppt/slides", "../notesSlides/n1.xml"),
            "ppt/notesSlides/n1.xml"
        );
        assert_eq!(resolve("word", "/word/document.xml"), "word/document.xml");
    }
}
