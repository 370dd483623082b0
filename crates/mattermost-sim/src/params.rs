//! Query parsing the way `web/params.go` `ParamsFromRequest` does it (notes §10), plus Go's
//! `strconv` number and boolean rules.

/// `PerPageDefault`, `PerPageMaximum`, `LimitDefault`, `LimitMaximum` of `web/params.go`.
pub(crate) const PER_PAGE_DEFAULT: i64 = 60;
pub(crate) const PER_PAGE_MAXIMUM: i64 = 200;
pub(crate) const LIMIT_DEFAULT: i64 = 60;
pub(crate) const LIMIT_MAXIMUM: i64 = 200;

/// Go `strconv.Atoi` on a 64-bit platform: optional sign then decimal digits, overflow is an error.
pub(crate) fn atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok()
}

/// Go `strconv.ParseUint(s, 10, 64)`.
pub(crate) fn parse_uint(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<u64>().ok()
}

/// Go `strconv.ParseBool`, treating errors as false (as the handlers do with `_`).
pub(crate) fn parse_bool(s: Option<&str>) -> bool {
    matches!(s, Some("1" | "t" | "T" | "TRUE" | "true" | "True"))
}

/// The handlers that compare with the literal `"true"`.
pub(crate) fn literal_true(s: Option<&str>) -> bool {
    s == Some("true")
}

/// The parsed paging params of one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Paging {
    pub(crate) page: i64,
    pub(crate) per_page: i64,
    pub(crate) limit_before: i64,
    pub(crate) limit_after: i64,
}

/// `ParamsFromRequest`: `per_page` not an integer or negative → 60, above 200 → 200, 0 kept;
/// `page` not an integer → 0, negative → 0 unless the route has a `{user_id}` variable or is
/// `/users/{id}/channel_members`; `limit_before`/`limit_after` not an integer or negative → 60,
/// above 200 → 200.
pub(crate) fn paging(
    query: &[(String, String)],
    route_has_user_id: bool,
    is_channel_members: bool,
) -> Paging {
    let get = |k: &str| query.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let per_page = match get("per_page").and_then(atoi) {
        Some(n) if n < 0 => PER_PAGE_DEFAULT,
        Some(n) if n > PER_PAGE_MAXIMUM => PER_PAGE_MAXIMUM,
        Some(n) => n,
        None => PER_PAGE_DEFAULT,
    };
    let page = match get("page").and_then(atoi) {
        Some(n) if n < 0 && !(route_has_user_id || is_channel_members) => 0,
        Some(n) => n,
        None => 0,
    };
    let limit = |k: &str| match get(k).and_then(atoi) {
        Some(n) if n < 0 => LIMIT_DEFAULT,
        Some(n) if n > LIMIT_MAXIMUM => LIMIT_MAXIMUM,
        Some(n) => n,
        None => LIMIT_DEFAULT,
    };
    Paging {
        page,
        per_page,
        limit_before: limit("limit_before"),
        limit_after: limit("limit_after"),
    }
}

/// Decode `application/x-www-form-urlencoded` pairs (the query string).
pub(crate) fn parse_query(q: &str) -> Vec<(String, String)> {
    q.split('&')
        .filter(|s| !s.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

pub(crate) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Path segments are decoded without the `+` → space rule.
pub(crate) fn decode_path_segment(s: &str) -> String {
    percent_decode(&s.replace('+', "%2B"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Vec<(String, String)> {
        parse_query(s)
    }

    #[test]
    fn per_page_rules() {
        assert_eq!(paging(&q(""), false, false).per_page, 60);
        assert_eq!(paging(&q("per_page=abc"), false, false).per_page, 60);
        assert_eq!(paging(&q("per_page=-5"), false, false).per_page, 60);
        assert_eq!(paging(&q("per_page=0"), false, false).per_page, 0);
        assert_eq!(paging(&q("per_page=500"), false, false).per_page, 200);
        assert_eq!(
            paging(&q("per_page=99999999999999999999999"), false, false).per_page,
            60
        );
        assert_eq!(paging(&q("page=-1"), false, false).page, 0);
        assert_eq!(paging(&q("page=-1"), true, false).page, -1);
    }

    #[test]
    fn decoding() {
        assert_eq!(percent_decode("a%20b+c"), "a b c");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(percent_decode("%zz"), "%zz");
    }
}
