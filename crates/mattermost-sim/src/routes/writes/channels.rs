//! Channels: create a team channel (`api4/channel.go` `createChannel` →
//! `App.CreateChannelWithUser`), a DM (`createDirectChannel` → `App.GetOrCreateDirectChannel`), a
//! GM (`createGroupChannel` → `App.CreateGroupChannel`), and archive one (`deleteChannel` →
//! `App.DeleteChannel`).

use serde_json::Value;

use super::decode::{Fields, WrongType, first_value, runes, string_array};
use super::replies::{app_error, created, invalid, status_ok};
use crate::clock::now_ms;
use crate::ids::is_valid_id;
use crate::params::parse_bool;
use crate::render;
use crate::reply::{AppError, HResult};
use crate::routes::Ctx;
use crate::world::channels::NewChannel;
use crate::world::perms::Perm;

/// `TeamSettings.MaxChannelsPerTeam` default.
const MAX_CHANNELS_PER_TEAM: usize = 2000;
/// `model.ChannelDisplayNameMaxRunes`, `ChannelHeaderMaxRunes`, `ChannelPurposeMaxRunes`.
const DISPLAY_NAME_MAX_RUNES: usize = 64;
const HEADER_MAX_RUNES: usize = 1024;
const PURPOSE_MAX_RUNES: usize = 250;
/// The `Channels.Name` column is `VARCHAR(64)`: longer names fail in the database.
const NAME_COLUMN_MAX: usize = 64;
/// `model.ChannelGroupMinUsers`, `ChannelGroupMaxUsers`.
const GROUP_MIN: usize = 3;
const GROUP_MAX: usize = 8;

/// `model.IsValidChannelIdentifier` (`^[a-z0-9]+([a-z\-\_0-9]+|(__)?)[a-z0-9]*$`): a lowercase
/// letter or digit, then lowercase letters, digits, `-` and `_`.
fn valid_channel_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_lowercase() || b.is_ascii_digit())
        && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

/// `Channel.IsValid`'s last rule for team channels: no 40-hex-digit (GM-like) name and no
/// `<id>__<id>` (DM-like) name.
fn looks_like_dm_or_gm(name: &str) -> bool {
    let gm = name.len() == 40
        && name
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    let parts: Vec<&str> = name.split("__").collect();
    gm || (parts.len() == 2 && is_valid_id(parts[0]) && is_valid_id(parts[1]))
}

/// POST /api/v4/channels — `api4/channel.go` `createChannel` → `App.CreateChannelWithUser` →
/// `App.CreateChannel` → `SqlChannelStore.Save`. A body that does not decode (or `null`) → 400
/// `channel`; no `team_id` or `display_name` → 400; "O" needs `create_public_channel`, "P"
/// `create_private_channel` on the team (team members have both; 403); "D"/"G" → 400
/// `api.channel.create_channel.direct_channel.app_error`; a team with no channel at all → 404
/// `app.channel.get_channels.not_found.app_error`; 2000 channels → 400; `Channel.IsValid` (400
/// `model.channel.is_valid.*`: display name over 64 characters, a name not of lowercase letters,
/// digits, `-`, `_` starting with a letter or digit (`1_or_more`), a DM- or GM-like name, another
/// type, header over 1024, purpose over 250); a name longer than 64 fails in the database (500
/// `app.channel.create_channel.internal_error`); a name already used in the team, archived
/// channels included → 400 `store.sql_channel.save_channel.exists.app_error`. The creator becomes
/// a channel admin and "<user> joined the channel." is posted. 201 with the channel.
pub(crate) fn create_channel(ctx: &mut Ctx) -> HResult {
    let bad = || invalid("channel");
    let m = match first_value(ctx.body) {
        Some(Value::Object(m)) => m,
        _ => return Err(bad()),
    };
    let f = Fields(&m);
    let read = || -> Result<_, WrongType> {
        for k in [
            "create_at",
            "update_at",
            "last_post_at",
            "total_msg_count",
            "extra_update_at",
        ] {
            f.int(k)?;
        }
        f.string("creator_id")?;
        Ok((
            f.string("id")?,
            f.int("delete_at")?,
            f.string("team_id")?,
            f.string("type")?,
            f.string("display_name")?,
            f.string("name")?,
            f.string("header")?,
            f.string("purpose")?,
        ))
    };
    let (id, delete_at, team_id, kind, display_name, name, header, purpose) =
        read().map_err(|_| bad())?;
    if team_id.is_empty() {
        return Err(invalid("team_id"));
    }
    if display_name.is_empty() {
        return Err(invalid("display_name"));
    }
    let me = ctx.me.clone();
    if kind == "O"
        && !ctx
            .w
            .has_team_permission(&me, &team_id, Perm::CreatePublicChannel)
    {
        return Err(AppError::permission());
    }
    if kind == "P"
        && !ctx
            .w
            .has_team_permission(&me, &team_id, Perm::CreatePrivateChannel)
    {
        return Err(AppError::permission());
    }
    if kind == "D" || kind == "G" {
        return Err(app_error(
            400,
            "api.channel.create_channel.direct_channel.app_error",
            "Must use createDirectChannel API service for direct message channel creation.",
        ));
    }
    let count = ctx
        .w
        .channels
        .iter()
        .filter(|c| c.team_id == team_id && c.kind != "D")
        .count();
    if count == 0 {
        return Err(app_error(
            404,
            "app.channel.get_channels.not_found.app_error",
            "No channels were found.",
        ));
    }
    if count + 1 > MAX_CHANNELS_PER_TEAM {
        return Err(app_error(
            400,
            "api.channel.create_channel.max_channel_limit.app_error",
            &format!(
                "Unable to create more than {MAX_CHANNELS_PER_TEAM} channels for current team."
            ),
        ));
    }
    let display_name = display_name.trim().to_string();
    if delete_at != 0 {
        return Err(app_error(
            400,
            "store.sql_channel.save.archived_channel.app_error",
            "You can not modify an archived channel.",
        ));
    }
    if !id.is_empty() {
        return Err(app_error(
            400,
            "store.sql_channel.save_channel.existing.app_error",
            "Must call update for existing channel.",
        ));
    }
    let invalid_model = |what: &str, msg: &str| {
        app_error(
            400,
            &format!("model.channel.is_valid.{what}.app_error"),
            msg,
        )
    };
    if runes(&display_name) > DISPLAY_NAME_MAX_RUNES {
        return Err(invalid_model("display_name", "Invalid display name."));
    }
    if !valid_channel_name(&name) {
        return Err(invalid_model(
            "1_or_more",
            "Name must be 1 or more lowercase alphanumeric character.",
        ));
    }
    let kind: &'static str = match kind.as_str() {
        "O" => "O",
        "P" => "P",
        _ => return Err(invalid_model("type", "Invalid type.")),
    };
    if runes(&header) > HEADER_MAX_RUNES {
        return Err(invalid_model("header", "Invalid header."));
    }
    if runes(&purpose) > PURPOSE_MAX_RUNES {
        return Err(invalid_model("purpose", "Invalid purpose."));
    }
    if looks_like_dm_or_gm(&name) {
        return Err(invalid_model(
            "name",
            "Channel names can't be in a hexadecimal format. Please enter a different channel name.",
        ));
    }
    if name.len() > NAME_COLUMN_MAX {
        return Err(app_error(
            500,
            "app.channel.create_channel.internal_error",
            "Unable to save channel.",
        ));
    }
    if ctx
        .w
        .channels
        .iter()
        .any(|c| c.team_id == team_id && c.name == name)
    {
        return Err(app_error(
            400,
            "store.sql_channel.save_channel.exists.app_error",
            "A channel with that name already exists on the same team.",
        ));
    }
    let new = NewChannel {
        team_id,
        name,
        display_name,
        kind,
        header,
        purpose,
    };
    let cid = ctx.w.create_team_channel(new, &me, now_ms());
    let c = ctx.channel(&cid)?;
    Ok(created(&render::channel(&c)))
}

/// POST /api/v4/channels/direct — `api4/channel.go` `createDirectChannel` →
/// `App.GetOrCreateDirectChannel`: a JSON array of two user ids (`[me]` means a DM with oneself;
/// duplicates are dropped); not an array of strings → 400 `api.payload.parse.error`; not two ids
/// → 400 `user_ids`; an invalid id → 400 `user_id`; without the session user → 403 unless system
/// admin; an unknown user → 400 `api.channel.create_direct_channel.invalid_user.app_error`. The
/// existing DM is answered as it is. 201 with the channel.
pub(crate) fn create_direct(ctx: &mut Ctx) -> HResult {
    let mut ids = string_array(ctx.body).ok_or_else(|| {
        app_error(
            400,
            "api.payload.parse.error",
            "An error occurred while parsing the payload.",
        )
    })?;
    let mut seen: Vec<String> = Vec::new();
    ids.retain(|i| {
        let new = !seen.contains(i);
        seen.push(i.clone());
        new
    });
    let me = ctx.me.clone();
    if ids.len() == 1 && ids[0] == me {
        ids.push(me.clone());
    }
    if ids.len() != 2 {
        return Err(invalid("user_ids"));
    }
    if ids.iter().any(|i| !is_valid_id(i)) {
        return Err(invalid("user_id"));
    }
    let allowed = ids.contains(&me);
    if !ctx.w.has_permission(&me, Perm::CreateDirectChannel) {
        return Err(AppError::permission());
    }
    if !allowed && !ctx.w.has_permission(&me, Perm::ManageSystem) {
        return Err(AppError::permission());
    }
    let (a, b) = (ids[0].clone(), ids[1].clone());
    let (x, y) = if a <= b { (&a, &b) } else { (&b, &a) };
    let name = format!("{x}__{y}");
    let existing = ctx
        .w
        .channels
        .iter()
        .find(|c| c.kind == "D" && c.name == name)
        .cloned();
    if let Some(c) = existing {
        return Ok(created(&render::channel(&c)));
    }
    if ctx.w.user_by_id(&a).is_none() || ctx.w.user_by_id(&b).is_none() {
        return Err(app_error(
            400,
            "api.channel.create_direct_channel.invalid_user.app_error",
            "Invalid user ID for direct channel creation.",
        ));
    }
    let cid = ctx.w.create_direct_now(&a, &b, now_ms());
    let c = ctx.channel(&cid)?;
    Ok(created(&render::channel(&c)))
}

/// POST /api/v4/channels/group — `api4/channel.go` `createGroupChannel` → `App.CreateGroupChannel`:
/// a JSON array of user ids (sorted, duplicates dropped; the session user is added if missing);
/// not an array of strings → 400 `api.payload.parse.error`; empty → 400 `user_ids`; an invalid id
/// → 400 `user_id`; fewer than 3 or more than 8 members with the caller → 400
/// `api.channel.create_group.bad_size.app_error`; an unknown user → 400
/// `api.channel.create_group.bad_user.app_error`. The existing GM is answered as it is. 201.
pub(crate) fn create_group(ctx: &mut Ctx) -> HResult {
    let mut ids = string_array(ctx.body).ok_or_else(|| {
        app_error(
            400,
            "api.payload.parse.error",
            "An error occurred while parsing the payload.",
        )
    })?;
    ids.sort();
    ids.dedup();
    if ids.is_empty() {
        return Err(invalid("user_ids"));
    }
    if ids.iter().any(|i| !is_valid_id(i)) {
        return Err(invalid("user_id"));
    }
    let me = ctx.me.clone();
    if !ids.contains(&me) {
        ids.push(me.clone());
    }
    if !ctx.w.has_permission(&me, Perm::CreateGroupChannel) {
        return Err(AppError::permission());
    }
    if ids.len() > GROUP_MAX || ids.len() < GROUP_MIN {
        return Err(app_error(
            400,
            "api.channel.create_group.bad_size.app_error",
            "Group message channels must contain at least 3 and no more than 8 users.",
        ));
    }
    if ids.iter().any(|i| ctx.w.user_by_id(i).is_none()) {
        return Err(app_error(
            400,
            "api.channel.create_group.bad_user.app_error",
            "One of the provided users does not exist.",
        ));
    }
    let cid = ctx.w.create_group_now(&ids, now_ms());
    let c = ctx.channel(&cid)?;
    Ok(created(&render::channel(&c)))
}

/// DELETE /api/v4/channels/{channel_id} — `api4/channel.go` `deleteChannel` → `App.DeleteChannel`:
/// unknown → 404; a DM or GM → 400 `api.channel.delete_channel.type.invalid`; no
/// `delete_public_channel` / `delete_private_channel` (channel members have them) → 403;
/// `permanent=true` → 401 (`EnableAPIChannelDeletion` off); already archived → 400
/// `api.channel.delete_channel.deleted.app_error`; `town-square` → 400
/// `api.channel.delete_channel.cannot.app_error`. Posts "<user> archived the channel."
/// (`system_channel_deleted`) first, then sets DeleteAt. `{"status":"OK"}`.
pub(crate) fn archive_channel(ctx: &mut Ctx) -> HResult {
    let cid = ctx.require_id("channel_id")?;
    let c = ctx.channel(&cid)?;
    if c.kind == "D" || c.kind == "G" {
        return Err(app_error(
            400,
            "api.channel.delete_channel.type.invalid",
            "Unable to delete direct or group message channels",
        ));
    }
    let me = ctx.me.clone();
    let perm = if c.kind == "O" {
        Perm::DeletePublicChannel
    } else {
        Perm::DeletePrivateChannel
    };
    if !ctx.w.has_channel_permission(&me, &cid, perm).0 {
        return Err(AppError::permission());
    }
    if parse_bool(ctx.q("permanent")) {
        return Err(if ctx.is_admin() {
            app_error(
                401,
                "api.user.delete_channel.not_enabled.for_admin.app_error",
                "Permanent channel deletion feature is not enabled. ServiceSettings.EnableAPIChannelDeletion must be set to true to use this command. See https://mattermost.com/pl/environment-configuration-settings for more information",
            )
        } else {
            app_error(
                401,
                "api.user.delete_channel.not_enabled.app_error",
                "Permanent channel deletion feature is not enabled. Please contact your System Administrator.",
            )
        });
    }
    if c.delete_at > 0 {
        return Err(app_error(
            400,
            "api.channel.delete_channel.deleted.app_error",
            "The channel has been archived or deleted.",
        ));
    }
    if c.name == "town-square" {
        return Err(app_error(
            400,
            "api.channel.delete_channel.cannot.app_error",
            "Unable to delete the default channel town-square.",
        ));
    }
    ctx.w.archive_at(&cid, &me, now_ms());
    Ok(status_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_names_as_the_server_checks_them() {
        for ok in ["a", "dev", "dev-ops", "dev_ops", "0day", "x-", "a__b"] {
            assert!(valid_channel_name(ok), "{ok}");
        }
        for bad in ["", "Dev", "-dev", "_dev", "dev ops", "dév", "dev.ops"] {
            assert!(!valid_channel_name(bad), "{bad}");
        }
        assert!(looks_like_dm_or_gm(&"a".repeat(40)));
        assert!(!looks_like_dm_or_gm(&"g".repeat(40)));
        let id = "abcdefghijklmnopqrstuvwxyz";
        assert!(looks_like_dm_or_gm(&format!("{id}__{id}")));
    }
}
