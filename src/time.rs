//! Times as Mattermost keeps them (milliseconds since the epoch, UTC) and as tools show and take them
//! (RFC 3339 in UTC, or a calendar day).

/// Days since 1970-01-01 for a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// `2026-11-30T12:00:00.123Z`.
pub fn rfc3339(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    if !(0..=9999).contains(&y) {
        return format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
            rem / 3600,
            (rem % 3600) / 60,
            rem % 60
        );
    }
    // Digit by digit (every list item shows a time or two; `format!` cost more than the rest of
    // showing a post).
    let mut s = String::with_capacity(24);
    let two = |s: &mut String, n: i64| {
        s.push(char::from(b'0' + (n / 10 % 10) as u8));
        s.push(char::from(b'0' + (n % 10) as u8));
    };
    two(&mut s, y / 100);
    two(&mut s, y % 100);
    s.push('-');
    two(&mut s, i64::from(m));
    s.push('-');
    two(&mut s, i64::from(d));
    s.push('T');
    two(&mut s, rem / 3600);
    s.push(':');
    two(&mut s, (rem % 3600) / 60);
    s.push(':');
    two(&mut s, rem % 60);
    s.push('.');
    s.push(char::from(b'0' + (millis / 100) as u8));
    two(&mut s, millis % 100);
    s.push('Z');
    s
}

/// `2026-11-30T12:00:00Z`: to the second, as a list shows when each item was written.
pub(crate) fn rfc3339_seconds(ms: i64) -> String {
    let mut full = rfc3339(ms.div_euclid(1000) * 1000);
    if full.ends_with(".000Z") {
        full.truncate(full.len() - ".000Z".len());
        full.push('Z');
    }
    full
}

fn number(s: &str, len: usize) -> Option<u32> {
    if s.len() == len && s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

/// Reads a time a tool was given: RFC 3339 (`2026-11-30T12:00:00Z`, fractions and offsets allowed), a
/// day (`2026-11-30`, its start in UTC), or milliseconds since the epoch.
pub fn parse(input: &str) -> Option<i64> {
    let s = input.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        return s.parse().ok();
    }
    let (date, rest) = if s.len() > 10 {
        s.split_at(10)
    } else {
        (s, "")
    };
    let mut parts = date.split('-');
    let (y, m, d) = (
        number(parts.next()?, 4)?,
        number(parts.next()?, 2)?,
        number(parts.next()?, 2)?,
    );
    if parts.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let day_ms = days_from_civil(i64::from(y), m, d) * 86_400_000;
    if rest.is_empty() {
        return Some(day_ms);
    }
    let rest = rest.strip_prefix(['T', 't', ' '])?;
    let (hms, zone) = match rest.find(['Z', 'z', '+', '-']) {
        Some(i) => rest.split_at(i),
        None => return None,
    };
    let (clock, fraction) = match hms.split_once('.') {
        Some((c, f)) => (c, f),
        None => (hms, ""),
    };
    let mut c = clock.split(':');
    let (h, mi, se) = (
        number(c.next()?, 2)?,
        number(c.next()?, 2)?,
        number(c.next()?, 2)?,
    );
    if c.next().is_some() || h > 23 || mi > 59 || se > 60 {
        return None;
    }
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let frac_ms = format!("{fraction:0<3}").get(..3)?.parse::<i64>().ok()?;
    let offset_ms = match zone {
        "Z" | "z" => 0,
        z => {
            let sign = if z.starts_with('-') { -1 } else { 1 };
            let (oh, om) = z.get(1..)?.split_once(':')?;
            sign * (i64::from(number(oh, 2)?) * 3_600_000 + i64::from(number(om, 2)?) * 60_000)
        }
    };
    Some(
        day_ms + i64::from(h) * 3_600_000 + i64::from(mi) * 60_000 + i64::from(se) * 1000 + frac_ms
            - offset_ms,
    )
}

/// Now, in milliseconds since the Unix epoch (this machine's clock).
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_as_the_general_formatter_does() {
        let general = |ms: i64| {
            let secs = ms.div_euclid(1000);
            let rem = secs.rem_euclid(86_400);
            let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
            format!(
                "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
                rem / 3600,
                (rem % 3600) / 60,
                rem % 60,
                ms.rem_euclid(1000)
            )
        };
        let mut ms: i64 = -62_167_219_200_000; // 0000-01-01
        while ms < 253_402_300_800_000 {
            // to 9999-12-31, in uneven steps
            assert_eq!(rfc3339(ms), general(ms), "{ms}");
            ms += 987_654_321_987;
        }
        for ms in [
            0,
            1,
            999,
            59_999,
            86_399_999,
            1_764_505_200_123,
            -1,
            i64::from(i32::MAX),
        ] {
            assert_eq!(rfc3339(ms), general(ms), "{ms}");
        }
        assert_eq!(rfc3339(1_764_505_200_123), "2025-11-30T12:20:00.123Z");
        assert_eq!(rfc3339_seconds(1_764_505_200_123), "2025-11-30T12:20:00Z");
        assert_eq!(
            rfc3339(-62_167_219_200_001),
            general(-62_167_219_200_001),
            "before year 0"
        );
    }

    #[test]
    fn formats_and_parses_round_trip() {
        for ms in [0, 1, 999, 1_764_505_200_123, 951_782_400_000, -1] {
            assert_eq!(parse(&rfc3339(ms)), Some(ms), "{ms} -> {}", rfc3339(ms));
        }
        assert_eq!(rfc3339(1_764_505_200_123), "2025-11-30T12:20:00.123Z");
    }

    #[test]
    fn reads_days_offsets_and_milliseconds() {
        assert_eq!(parse("1970-01-02"), Some(86_400_000));
        assert_eq!(parse("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(parse("1970-01-01T00:00:00.5Z"), Some(500));
        assert_eq!(parse("12345"), Some(12345));
        for bad in [
            "",
            "yesterday",
            "2026-13-01",
            "2026-11-30T25:00:00Z",
            "2026-11-30T10:00:00",
            "2026-1-1",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
