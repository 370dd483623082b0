//! The tools that read files: file search (capped as post search is) and a file's content, read by
//! lines like any list.

pub(crate) mod read_file;
pub(crate) mod search_files;

pub(crate) use super::shared::args::TEAM;
