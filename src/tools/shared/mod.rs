//! What several toolsets share: the arguments many tools take ([`args`]), the errors for a channel or
//! team Mattermost refuses and the labels of channels ([`channels`]), the server's client
//! configuration ([`config`]), pages of lists kept for their cursor chains ([`lists`]), people read by
//! id and member lists ([`people`]), pages of posts shown with their authors and channels ([`posts`]),
//! what the post and file searches share ([`search`]), their terms read, checked and resolved
//! ([`search_terms`]), the person's time zone ([`time_zone`]), and what is unread as Mattermost counts
//! it ([`unread`]). Nothing here imports a toolset.

pub(crate) mod args;
pub(crate) mod channels;
pub(crate) mod config;
pub(crate) mod lists;
pub(crate) mod people;
pub(crate) mod posts;
pub(crate) mod search;
pub(crate) mod search_terms;
pub mod time_zone;
pub(crate) mod unread;
