//! Archives (zip, tar, tar.gz): a listing, one item an entry (its path; its size, time and whether it
//! is a folder beside it), never extracted.
//!
//! A zip is listed from its central directory without inflating anything. A tar is read header by
//! header; a tar.gz is inflated as it is read, up to [`MAX_TAR_INFLATED_BYTES`], past which the
//! listing stops and says so. At most [`MAX_ARCHIVE_ENTRIES`] entries are listed; a note says how
//! many were left.

use crate::caps::{MAX_ARCHIVE_ENTRIES, MAX_TAR_INFLATED_BYTES};
use crate::{Collector, Location, Read, dates, mib};
use std::io::Cursor;

pub(crate) fn read_zip(bytes: &[u8]) -> Read {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| format!("its zip directory cannot be read ({e})"))?;
    let total = zip.len();
    let mut out = Collector::new();
    let mut listed = 0usize;
    let mut unpacked: u64 = 0;
    let mut encrypted = 0usize;
    for i in 0..total {
        let entry = match zip.by_index_raw(i) {
            Ok(e) => e,
            Err(e) => return Err(format!("its entry {} cannot be read ({e})", i + 1)),
        };
        let size = entry.size();
        unpacked = unpacked.saturating_add(size);
        if entry.encrypted() {
            encrypted += 1;
        }
        if listed >= MAX_ARCHIVE_ENTRIES || out.is_full() {
            continue;
        }
        let path = entry
            .name()
            .map(|n| n.into_owned())
            .unwrap_or_else(|_| String::from_utf8_lossy(entry.name_raw()).into_owned());
        let modified = entry.last_modified().map(|t| {
            format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
                t.year(),
                t.month(),
                t.day(),
                t.hour(),
                t.minute(),
                t.second()
            )
        });
        let at = Location::Entry {
            entry: i as u32 + 1,
            size,
            modified,
            dir: entry.is_dir(),
        };
        if out.push(at, path) {
            listed += 1;
        }
    }
    let mut notes = Vec::new();
    if listed < total {
        notes.push(format!(
            "{listed} of {total} entries are listed; {} more are not.",
            total - listed
        ));
    }
    if encrypted > 0 {
        notes.push(format!("{encrypted} entries are encrypted."));
    }
    let detail = format!(
        "{total} entries, {} unpacked (as the archive declares)",
        size_text(unpacked)
    );
    Ok((out.items, notes, Some(detail)))
}

/// Counts the bytes read through it, and stops at a limit.
struct Counted<R> {
    inner: R,
    read: u64,
    limit: u64,
}

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.read >= self.limit {
            return Err(std::io::Error::other("inflation limit reached"));
        }
        let room = usize::try_from(self.limit - self.read).unwrap_or(usize::MAX);
        let n = buf.len().min(room);
        let got = self.inner.read(&mut buf[..n])?;
        self.read += got as u64;
        Ok(got)
    }
}

pub(crate) fn read_tar(bytes: &[u8], gzip: bool) -> Read {
    let source: Box<dyn std::io::Read + '_> = if gzip {
        Box::new(flate2::read::GzDecoder::new(bytes))
    } else {
        Box::new(bytes)
    };
    let mut counted = Counted {
        inner: source,
        read: 0,
        limit: MAX_TAR_INFLATED_BYTES,
    };
    let mut archive = tar::Archive::new(&mut counted);
    let entries = archive
        .entries()
        .map_err(|e| format!("its tar stream cannot be read ({e})"))?;
    let mut out = Collector::new();
    let mut notes = Vec::new();
    let mut count = 0usize;
    let mut unpacked: u64 = 0;
    let mut stopped: Option<String> = None;
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                stopped = Some(e.to_string());
                break;
            }
        };
        count += 1;
        let size = entry.size();
        unpacked = unpacked.saturating_add(size);
        if count > MAX_ARCHIVE_ENTRIES || out.is_full() {
            continue;
        }
        let path = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let header = entry.header();
        let modified = header
            .mtime()
            .ok()
            .filter(|t| *t > 0)
            .and_then(|t| i64::try_from(t).ok())
            .map(dates::utc_from_unix);
        let dir = header.entry_type().is_dir();
        out.push(
            Location::Entry {
                entry: count as u32,
                size,
                modified,
                dir,
            },
            path,
        );
    }

    if let Some(e) = stopped {
        if count == 0 {
            return Err(format!("its tar stream cannot be read ({e})"));
        }
        if counted.read >= MAX_TAR_INFLATED_BYTES {
            notes.push(format!(
                "The listing stops after {} inflated, the most read; later entries are not listed.",
                mib(MAX_TAR_INFLATED_BYTES)
            ));
        } else {
            notes.push(format!(
                "The listing stops at entry {} where the archive is malformed ({e}).",
                count + 1
            ));
        }
    }
    let listed = count.min(MAX_ARCHIVE_ENTRIES).min(out.items.len());
    if listed < count {
        notes.push(format!(
            "{listed} of {count} entries are listed; {} more are not.",
            count - listed
        ));
    }
    let detail = format!("{count} entries, {} unpacked", size_text(unpacked));
    Ok((out.items, notes, Some(detail)))
}

/// A byte count for a sentence.
fn size_text(n: u64) -> String {
    if n < 1024 * 1024 {
        format!("{n} bytes")
    } else {
        mib(n)
    }
}
