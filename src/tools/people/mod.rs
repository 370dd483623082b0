//! The people tools: who the server acts as, people by name, user search and presence; and what they
//! share with the member lists (`common`).

pub(crate) mod common;
pub(crate) mod get_me;
pub(crate) mod get_status;
pub(crate) mod get_users;
pub(crate) mod search_users;
