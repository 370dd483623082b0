//! What several toolsets share: the arguments many tools take ([`args`]), the errors for a channel or
//! team Mattermost refuses and the labels of channels ([`channels`]), pages of lists kept for their
//! cursor chains ([`lists`]), people read by id and member lists ([`people`]), pages of posts shown
//! with their authors and channels ([`posts`]), and what the post and file searches share ([`search`]).
//! Nothing here imports a toolset.

pub mod args;
pub mod channels;
pub mod lists;
pub mod people;
pub mod posts;
pub mod search;
