//! The people tools: who the server acts as, people by name, user search and presence; and what they
//! share with the member lists (`common`).

pub mod common;
pub mod get_me;
pub mod get_status;
pub mod get_users;
pub mod search_users;
