//! A page of posts as a tool shows it: the authors' usernames in one lookup, the channel each post is
//! in when they come from many, and the orders such pages are kept in.

use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::{ChannelFacts, ChannelKind, PostFacts};
use crate::mattermost::types::{self, Post};
use crate::paging::search_windows;
use crate::paging::whole_list::{Keyed, SortKey};
use crate::show::{self, PostItem, Shown};
use std::collections::{HashMap, HashSet};

/// Items for a page of posts, with the authors' usernames (one lookup for those not yet known); `max`
/// is the message length beyond which a message is cut.
pub(crate) async fn post_items(
    cx: &Ctx,
    posts: &[Post],
    max: Option<usize>,
) -> Result<Vec<PostItem>, ToolError> {
    let authors = cx.authors(show::authors(posts)).await?;
    let names: HashMap<String, String> = authors
        .iter()
        .map(|(id, a)| (id.clone(), a.username.clone()))
        .collect();
    let me = cx.my_id().await?;
    let shown = Shown {
        usernames: &names,
        authors: &authors,
        me: &me,
    };
    Ok(posts.iter().map(|p| PostItem::of(p, &shown, max)).collect())
}

/// Labels (`~name`, `@username`, a group's names) of the person's channels among `ids`; a channel that
/// is not theirs keeps no label.
pub(crate) async fn channel_labels<'a>(
    cx: &Ctx,
    ids: impl IntoIterator<Item = &'a str>,
) -> Result<HashMap<String, String>, ToolError> {
    let wanted: HashSet<&str> = ids.into_iter().collect();
    if wanted.is_empty() {
        return Ok(HashMap::new());
    }
    let mine = cx.my_channels().await?;
    let me = cx.my_id().await?;
    let chans: Vec<&types::Channel> = mine.iter().filter(|c| wanted.contains(c.id())).collect();
    let others = chans
        .iter()
        .filter(|c| c.kind() == ChannelKind::Direct)
        .filter_map(|c| c.other_person(&me))
        .map(str::to_string);
    let names = cx.usernames(others.collect::<Vec<_>>()).await?;
    Ok(chans
        .iter()
        .map(|c| (c.id().to_string(), show::channel_label(c, &me, &names)))
        .collect())
}

/// Items for posts from many channels, each saying which channel it is in.
pub(crate) async fn post_items_in_channels(
    cx: &Ctx,
    posts: &[Post],
) -> Result<Vec<PostItem>, ToolError> {
    let items = post_items(cx, posts, Some(show::MESSAGE_CUT)).await?;
    let labels = channel_labels(cx, posts.iter().map(|p| p.channel())).await?;
    Ok(posts
        .iter()
        .zip(items)
        .map(|(p, item)| item.in_channel(p.channel(), labels.get(p.channel()).map(String::as_str)))
        .collect())
}

/// Posts keyed newest first, ties by id.
pub(crate) fn newest_first(posts: Vec<Post>) -> Vec<Keyed<Post>> {
    search_windows::ordered(posts, |p| p.created(), |p| p.id().to_string())
}

/// Keyed by creation time, for lists kept whole.
pub(crate) fn by_creation<T>(p: &Post, item: T) -> Keyed<T> {
    Keyed::new(SortKey::Int(p.created()), p.id(), item)
}
