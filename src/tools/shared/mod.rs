//! What several toolsets share: the arguments many tools take ([`args`]), the errors for a channel or
//! team Mattermost refuses and the labels of channels ([`channels`]), the server's client
//! configuration ([`config`]), pages of lists kept for their cursor chains ([`lists`]), people read by
//! id and member lists ([`people`]), pages of posts shown with their authors and channels ([`posts`]),
//! what the post and file searches share ([`search`]), their terms read, checked and resolved
//! ([`search_terms`]), the person's time zone ([`time_zone`]), and what is unread as Mattermost counts
//! it ([`unread`]). Nothing here imports a toolset.

pub mod args;
pub mod channels;
pub mod config;
pub mod lists;
pub mod people;
pub mod posts;
pub mod search;
pub mod search_terms;
pub mod time_zone;
pub mod unread;
