//! The person's time zone, as Mattermost's own search reads date terms in it.
//!
//! Mattermost's web app sends a search its person's current UTC offset in seconds as
//! `time_zone_offset` (`performSearch` in `webapp/channels/src/actions/views/rhs.ts`: the user's
//! timezone setting, automatic or manual, as an offset now), and the server reads every date term as a
//! day of that fixed offset (`model.GetStartOfDayMillis`, `time.FixedZone`). The search tools do the
//! same, from the person's `timezone` (`useAutomaticTimezone` chooses `automaticTimezone` or
//! `manualTimezone`, IANA names read with jiff's bundled tz database); none set, or a name no
//! database knows, is UTC.

use crate::context::Ctx;
use crate::error::ToolError;
use crate::mattermost::types;

/// The person's time zone name, when they set one.
pub(crate) fn zone_name(u: &types::User) -> Option<String> {
    let tz = u.timezone.as_ref()?;
    let zone = if tz.use_automatic_timezone.as_deref() == Some("true") {
        &tz.automatic_timezone
    } else {
        &tz.manual_timezone
    };
    zone.clone().filter(|z| !z.trim().is_empty())
}

/// The offset from UTC, in seconds, of an IANA zone at a time (milliseconds since the epoch).
pub fn offset_at(zone: &str, at_ms: i64) -> Option<i64> {
    let tz = jiff::tz::db().get(zone.trim()).ok()?;
    let at = jiff::Timestamp::from_millisecond(at_ms).ok()?;
    Some(i64::from(tz.to_offset(at).seconds()))
}

/// The person's offset from UTC now, in seconds, as Mattermost's web app sends it with a search.
pub(crate) async fn person_offset(cx: &Ctx) -> Result<i64, ToolError> {
    let me = cx.me().await?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    Ok(zone_name(me).and_then(|z| offset_at(&z, now)).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_follow_the_zone_and_its_summer_time() {
        let winter = crate::time::parse("2026-01-15T12:00:00Z").unwrap_or(0);
        let summer = crate::time::parse("2026-07-15T12:00:00Z").unwrap_or(0);
        assert_eq!(offset_at("Europe/Berlin", winter), Some(3600));
        assert_eq!(offset_at("Europe/Berlin", summer), Some(7200));
        assert_eq!(offset_at("Asia/Kathmandu", winter), Some(20_700));
        assert_eq!(offset_at("America/St_Johns", winter), Some(-12_600));
        assert_eq!(offset_at("UTC", winter), Some(0));
        assert_eq!(offset_at("Mars/Olympus", winter), None);
    }

    #[test]
    fn the_zone_is_the_automatic_one_only_when_chosen() {
        let mut u = types::User::default();
        assert_eq!(zone_name(&u), None);
        u.timezone = Some(types::Timezone {
            use_automatic_timezone: Some("false".into()),
            automatic_timezone: Some("Asia/Tokyo".into()),
            manual_timezone: Some("Europe/Berlin".into()),
        });
        assert_eq!(zone_name(&u).as_deref(), Some("Europe/Berlin"));
    }
}
