//! People read by id, 200 to a request, and the members of a team or channel keyed for a kept list.

use super::lists::name_key;
use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::facts::UserFacts;
use crate::mattermost::types;
use crate::paging::whole_list::Keyed;
use crate::show::UserItem;
use std::collections::HashMap;

/// How many ids one GetUsersByIds request carries.
const ID_BATCH: usize = 200;

/// People by id, 200 to a request (the `USERNAMES` call), as a map by id; an id Mattermost does not
/// know is left out. Their usernames are kept for later pages.
pub(crate) async fn users_by_ids(
    cx: &Ctx,
    ids: &[String],
) -> Result<HashMap<String, types::User>, ToolError> {
    let mut out = HashMap::new();
    for chunk in ids.chunks(ID_BATCH) {
        let users = cx
            .call(
                cx.api().get_users_by_ids().body(chunk.to_vec()).send(),
                "users",
                &chunk.join(","),
            )
            .await?;
        for u in users {
            if !u.id().is_empty() && !u.username().is_empty() {
                cx.learn_user(&u);
                out.insert(u.id().to_string(), u);
            }
        }
    }
    Ok(out)
}

/// The members of a team or channel (user id, and whether they administer it), each with their person
/// read by id, keyed by username (in lowercase) then id for a kept list. A member whose person
/// Mattermost no longer has keeps only the id.
pub(crate) async fn members_keyed<T>(
    cx: &Ctx,
    members: Vec<(String, bool)>,
    make: impl Fn(UserItem, bool) -> T,
) -> Result<Vec<Keyed<T>>, ToolError> {
    let ids: Vec<String> = members.iter().map(|(id, _)| id.clone()).collect();
    let users = users_by_ids(cx, &ids).await?;
    Ok(members
        .into_iter()
        .map(|(id, admin)| {
            let item = match users.get(&id) {
                Some(u) => UserItem::of(u),
                None => UserItem {
                    id: id.clone(),
                    username: String::new(),
                    name: None,
                    nickname: None,
                    email: None,
                    is_bot: false,
                    deactivated: false,
                },
            };
            Keyed::new(name_key(&item.username), id, make(item, admin))
        })
        .collect())
}
