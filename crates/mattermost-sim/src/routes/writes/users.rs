//! Statuses and custom statuses (`api4/status.go` `updateUserStatus`, `updateUserCustomStatus`,
//! `removeUserCustomStatus`; `app/status.go`, `app/platform/status.go`).

use serde_json::{Value, json};

use super::decode::{Fields, WrongType, runes, struct_body};
use super::reactions::custom_emoji_exists;
use super::replies::{app_error, missing_account, status_ok};
use crate::clock::now_ms;
use crate::render;
use crate::reply::{AppError, HResult, Reply};
use crate::routes::Ctx;
use crate::world::Preference;
use crate::world::emoji::is_system_emoji;

/// `model.CustomStatusTextMaxRunes`.
const CUSTOM_STATUS_TEXT_MAX_RUNES: usize = 100;
/// `model.MaxRecentCustomStatuses`.
const MAX_RECENT_CUSTOM_STATUSES: usize = 5;
/// The durations `model.CustomStatus.AreDurationAndExpirationTimeValid` accepts.
const DURATIONS: &[&str] = &[
    "thirty_minutes",
    "one_hour",
    "four_hours",
    "today",
    "this_week",
    "date_and_time",
];
/// Go's zero `time.Time` as `MarshalJSON` writes it.
const ZERO_TIME: &str = "0001-01-01T00:00:00Z";

/// PUT /api/v4/users/{user_id}/status — `api4/status.go` `updateUserStatus`: `{user_id, status,
/// dnd_end_time?}`; a body that does not decode → 400 `status`; a `user_id` other than the
/// path's → 400 `user_id`; another user without `edit_other_users` → 403; "online"
/// (`SetStatusOnline`, manual: true, which stores manual false), "offline" (manual),
/// "away" (manual), "dnd" (manual, `dnd_end_time` in seconds truncated to the minute); anything
/// else → 400 `status`. Answers the stored status (`getUserStatus`).
pub(crate) fn update_status(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    let m = struct_body(ctx.body).ok_or_else(|| AppError::invalid_param("status"))?;
    let f = Fields(&m);
    let read = || -> Result<_, WrongType> {
        f.boolean("manual")?;
        f.int("last_activity_at")?;
        f.string("active_channel")?;
        Ok((
            f.string("user_id")?,
            f.string("status")?,
            f.int("dnd_end_time")?,
        ))
    };
    let (user_id, status, dnd_end_time) = read().map_err(|_| AppError::invalid_param("status"))?;
    if user_id != uid {
        return Err(AppError::invalid_param("user_id"));
    }
    if !ctx.w.may_act_for_user(&ctx.me, &uid) {
        return Err(AppError::permission());
    }
    let now = now_ms();
    match status.as_str() {
        "online" => ctx.w.set_status_online(&uid, true, now),
        "offline" => ctx.w.set_status_offline(&uid, now),
        "away" => ctx.w.set_status_away(&uid),
        "dnd" => ctx.w.set_status_dnd(&uid, dnd_end_time),
        _ => return Err(AppError::invalid_param("status")),
    }
    let s = ctx
        .w
        .statuses
        .iter()
        .find(|s| s.user_id == uid)
        .ok_or_else(|| {
            app_error(
                404,
                "api.status.user_not_found.app_error",
                "User not found.",
            )
        })?;
    Ok(Reply::json(&render::status(s)))
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Go's `time.Time.UnmarshalJSON` (RFC 3339, optional fraction, `Z` or `±hh:mm`): the instant in
/// milliseconds and the text `MarshalJSON` writes back (fraction without trailing zeros, `Z` for
/// a zero offset).
pub(crate) fn parse_rfc3339(s: &str) -> Option<(i64, String)> {
    let b = s.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let t = s.get(r)?;
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (y, mo, d, h, mi, se) = (
        num(0..4)?,
        num(5..7)?,
        num(8..10)?,
        num(11..13)?,
        num(14..16)?,
        num(17..19)?,
    );
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let month_days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&mo)
        || d < 1
        || d > month_days[(mo - 1) as usize]
        || h > 23
        || mi > 59
        || se > 59
    {
        return None;
    }
    let mut i = 19;
    let mut frac = String::new();
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
        frac = s[start..i].to_string();
    }
    let offset_secs = match b.get(i) {
        Some(b'Z') if i + 1 == b.len() => 0,
        Some(sign @ (b'+' | b'-')) if i + 6 == b.len() && b[i + 3] == b':' => {
            let (oh, om) = (num(i + 1..i + 3)?, num(i + 4..i + 6)?);
            if oh > 23 || om > 59 {
                return None;
            }
            let o = oh * 3600 + om * 60;
            if *sign == b'-' { -o } else { o }
        }
        _ => return None,
    };
    let secs = days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + se - offset_secs;
    let millis_frac: i64 = format!("{frac:0<3}")[..3].parse().unwrap_or(0);
    let trimmed = frac.trim_end_matches('0');
    let mut out = s[..19].to_string();
    if !trimmed.is_empty() {
        out.push('.');
        out.push_str(trimmed);
    }
    if offset_secs == 0 {
        out.push('Z');
    } else {
        out.push_str(&s[i..]);
    }
    Some((secs * 1000 + millis_frac, out))
}

/// `model.IsValidEmojiName` for a custom emoji name.
fn valid_custom_emoji_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+_-".contains(&b))
}

/// PUT /api/v4/users/{user_id}/status/custom — `api4/status.go` `updateUserCustomStatus` →
/// `App.SetCustomStatus`: `EnableCustomUserStatuses` off → 501 `api.custom_status.disabled`;
/// `{emoji, text, duration, expires_at}` that does not decode, has neither emoji nor text, or
/// fails `AreDurationAndExpirationTimeValid` (no duration: no or a future `expires_at`; a
/// duration of `thirty_minutes`, `one_hour`, `four_hours`, `today`, `this_week`,
/// `date_and_time`: a future `expires_at`) → 400 `custom_status`; another user → 403. `PreSave`:
/// no duration but a future `expires_at` → `date_and_time`; text cut to 100 characters. An emoji
/// that is neither a system emoji nor an existing custom one → 400
/// `api.custom_status.set_custom_statuses.emoji_not_found`. Stored as the user's
/// `props.customStatus` (JSON text) and first in the recent custom statuses preference.
pub(crate) fn update_custom_status(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    if !ctx.w.writes.enable_custom_user_statuses {
        return Err(app_error(
            501,
            "api.custom_status.disabled",
            "Custom status feature has been disabled. Please contact your system administrator for details.",
        ));
    }
    let bad = || AppError::invalid_param("custom_status");
    let m = struct_body(ctx.body).ok_or_else(bad)?;
    let f = Fields(&m);
    let (emoji, mut text, mut duration) = (
        f.string("emoji").map_err(|_| bad())?,
        f.string("text").map_err(|_| bad())?,
        f.string("duration").map_err(|_| bad())?,
    );
    let expires = match f.get("expires_at") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(parse_rfc3339(s).ok_or_else(bad)?),
        Some(_) => return Err(bad()),
    };
    let now = now_ms();
    let (expires_ms, expires_text) = match &expires {
        Some((ms, t)) => (Some(*ms), t.clone()),
        None => (None, ZERO_TIME.to_string()),
    };
    let zero = expires_text == ZERO_TIME;
    let before_now = expires_ms.is_none_or(|ms| ms < now);
    if emoji.is_empty() && text.is_empty() {
        return Err(bad());
    }
    let valid = (duration.is_empty() && (zero || !before_now))
        || (DURATIONS.contains(&duration.as_str()) && !before_now);
    if !valid {
        return Err(bad());
    }
    if !ctx.w.may_act_for_user(&ctx.me, &uid) {
        return Err(AppError::permission());
    }
    if duration.is_empty() && !before_now {
        duration = "date_and_time".to_string();
    }
    if runes(&text) > CUSTOM_STATUS_TEXT_MAX_RUNES {
        text = text.chars().take(CUSTOM_STATUS_TEXT_MAX_RUNES).collect();
    }
    if !emoji.is_empty()
        && !is_system_emoji(&emoji)
        && (!valid_custom_emoji_name(&emoji) || custom_emoji_exists(ctx.w, &emoji).is_err())
    {
        return Err(app_error(
            400,
            "api.custom_status.set_custom_statuses.emoji_not_found",
            "Failed to update the custom status. An emoji with the given name does not exist.",
        ));
    }
    if ctx.w.user_by_id(&uid).is_none() {
        return Err(missing_account());
    }
    let cs =
        json!({"emoji": emoji, "text": text, "duration": duration, "expires_at": expires_text});
    ctx.w.set_custom_status_prop(&uid, &cs.to_string(), now);
    let mut recent: Vec<Value> = ctx
        .w
        .preference(&uid, "custom_status", "recent_custom_statuses")
        .and_then(|v| serde_json::from_str::<Vec<Value>>(&v).ok())
        .unwrap_or_default();
    recent.retain(|r| r.get("text") != cs.get("text"));
    recent.insert(0, cs);
    recent.truncate(MAX_RECENT_CUSTOM_STATUSES);
    ctx.w.save_preference(Preference {
        user_id: uid.clone(),
        category: "custom_status".into(),
        name: "recent_custom_statuses".into(),
        value: Value::Array(recent).to_string(),
    });
    Ok(status_ok())
}

/// DELETE /api/v4/users/{user_id}/status/custom — `api4/status.go` `removeUserCustomStatus` →
/// `App.RemoveCustomStatus`: 501 when custom statuses are off; another user → 403; the user's
/// `props.customStatus` becomes "" (`User.ClearCustomStatus`).
pub(crate) fn remove_custom_status(ctx: &mut Ctx) -> HResult {
    let uid = ctx.require_id("user_id")?;
    if !ctx.w.writes.enable_custom_user_statuses {
        return Err(app_error(
            501,
            "api.custom_status.disabled",
            "Custom status feature has been disabled. Please contact your system administrator for details.",
        ));
    }
    if !ctx.w.may_act_for_user(&ctx.me, &uid) {
        return Err(AppError::permission());
    }
    if ctx.w.user_by_id(&uid).is_none() {
        return Err(missing_account());
    }
    ctx.w.set_custom_status_prop(&uid, "", now_ms());
    Ok(status_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_like_go() {
        assert_eq!(
            parse_rfc3339("1970-01-01T00:00:00Z"),
            Some((0, "1970-01-01T00:00:00Z".into()))
        );
        assert_eq!(
            parse_rfc3339("2026-01-02T03:04:05.120+01:00"),
            Some((1_767_319_445_120, "2026-01-02T03:04:05.12+01:00".into()))
        );
        assert_eq!(
            parse_rfc3339("2026-01-02T03:04:05+00:00").map(|x| x.1),
            Some("2026-01-02T03:04:05Z".into())
        );
        assert_eq!(
            parse_rfc3339(ZERO_TIME).map(|x| x.1),
            Some(ZERO_TIME.into())
        );
        for bad in [
            "",
            "2026-01-02",
            "2026-13-02T03:04:05Z",
            "2026-02-30T03:04:05Z",
            "2026-01-02 03:04:05Z",
            "2026-01-02T03:04:05",
            "2026-01-02T03:04:05.Z",
            "２026-01-02T03:04:05Z",
        ] {
            assert!(parse_rfc3339(bad).is_none(), "{bad}");
        }
    }
}
