//! The tools' own code, per area: from a call's checked input to its answer, through the paging
//! strategies and the Mattermost connection. The table (`crate::table`) says which function serves
//! which tool.

pub mod channels;
pub mod files;
pub mod people;
pub mod posts;
pub mod writing;
