//! The opaque cursor every list tool hands back as `next_cursor`.
//!
//! A cursor is short text, not base64 of JSON: a header that binds it to its list — a version letter,
//! four characters for the tool, four for the arguments that chose the list (their fingerprint, with
//! `limit` and `cursor` left out, so the page size may change between pages) and three for the person
//! — then the position's fields (numbers in base 36, ids as they are, other text escaped), each after
//! `_`, then a check of five characters over all of it. The whole is cut into groups of at most eight
//! characters joined by `.`, like a licence key: no group can look like a secret to the scanners that
//! redact long random-looking strings, and a cursor stays well under 80 characters.
//!
//! The check tells a cursor that was changed from one that was never a cursor; it is not a secret and
//! needs no key, so a cursor made by one instance of the server is continued by any other, and cursors
//! stay valid across restarts. The person's tag is there so that a cursor continues only the list of
//! the person it was made for; it grants nothing (each person's own token decides what they read).

use sha2::{Digest, Sha256};

const VERSION: char = 'a';
const SALT: &[u8] = b"mattermost-mcp cursor v2";
const TOOL_LEN: usize = 4;
const FINGERPRINT_LEN: usize = 4;
const PERSON_LEN: usize = 3;
const HEADER_LEN: usize = 1 + TOOL_LEN + FINGERPRINT_LEN + PERSON_LEN;
const CHECK_LEN: usize = 5;
const GROUP: usize = 8;
/// The longest cursor this server makes.
pub(crate) const MAX_LEN: usize = 80;
/// The longest text a position field holds; longer text is cut by its position (see `whole_list`).
pub(crate) const MAX_TEXT: usize = 12;
/// Arguments that do not choose the list.
/// `timeout_secs` (wait_for_activity) says how long to wait, not what is read.
const NOT_FINGERPRINTED: [&str; 3] = ["limit", "cursor", "timeout_secs"];

/// Why a cursor was refused. Every case tells the model to repeat the call without `cursor`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CursorError {
    /// Not something this server made: not a cursor's form, or no position inside.
    Garbled,
    /// Made by this server, then changed.
    Altered,
    /// Made by another tool (named when it is one this server knows).
    OtherTool(Option<String>),
    /// Made by this tool for other arguments.
    OtherArguments,
    /// Made for another person.
    OtherPerson,
}

impl CursorError {
    pub(crate) fn message(&self, tool: &str) -> String {
        let what = match self {
            CursorError::Garbled => {
                "is not a cursor this server made (it may be cut short, or be from an older version)".to_string()
            }
            CursorError::Altered => "was changed after this server made it".to_string(),
            CursorError::OtherTool(Some(other)) => {
                format!("was made by the tool `{other}`, not `{tool}`")
            }
            CursorError::OtherTool(None) => format!("was made by another tool, not `{tool}`"),
            CursorError::OtherArguments => format!(
                "was made by `{tool}` for other arguments; a cursor continues only the list of the call that \
                 returned it (the same arguments, any limit)"
            ),
            CursorError::OtherPerson => {
                "was made for another person; a cursor continues only the list of the person whose call \
                 returned it"
                    .to_string()
            }
        };
        format!(
            "The cursor {what}. Repeat the call without `cursor` to start the list from its beginning, or pass \
             the next_cursor exactly as the previous answer of this same call gave it."
        )
    }
}

/// What a cursor is bound to: its tool, the fingerprint of the arguments that chose the list, and the
/// person (their user id; empty where no person is involved, as for `tools/list`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub(crate) tool: &'static str,
    pub(crate) fingerprint: String,
    pub(crate) person: String,
}

impl Binding {
    pub fn new(
        tool: &'static str,
        args: &serde_json::Map<String, serde_json::Value>,
        person: &str,
    ) -> Binding {
        Binding {
            tool,
            fingerprint: fingerprint(args),
            person: person.to_string(),
        }
    }

    fn header(&self) -> String {
        let mut h = String::with_capacity(HEADER_LEN);
        h.push(VERSION);
        h.push_str(&tool_tag(self.tool));
        h.push_str(&tag(self.fingerprint.as_bytes(), FINGERPRINT_LEN));
        h.push_str(&tag(self.person.as_bytes(), PERSON_LEN));
        h
    }

    /// The check of a cursor's text for this binding: over the tool's whole name, the whole fingerprint
    /// and the person's whole id (not only their tags), and the text.
    fn check(&self, body: &str) -> String {
        digest_tag(
            &[
                SALT,
                self.tool.as_bytes(),
                b"\0",
                self.fingerprint.as_bytes(),
                b"\0",
                self.person.as_bytes(),
                b"\0",
                body.as_bytes(),
            ],
            CHECK_LEN,
        )
    }
}

/// The tag a tool's cursors carry (a test keeps the tags of all tools distinct).
pub(crate) fn tool_tag(tool: &str) -> String {
    digest_tag(&[b"tool ", tool.as_bytes()], TOOL_LEN)
}

/// The fields of a position, in order.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Fields(Vec<String>);

impl Fields {
    /// A whole number.
    pub fn num(&mut self, n: i64) -> &mut Fields {
        let digits = base36(n.unsigned_abs());
        self.0
            .push(if n < 0 { format!("-{digits}") } else { digits });
        self
    }

    /// A Mattermost id (26 lowercase letters and digits), or other short lowercase text.
    pub(crate) fn id(&mut self, id: &str) -> &mut Fields {
        self.text(id)
    }

    /// Text: lowercase letters, digits and `-` as they are, anything else escaped.
    pub(crate) fn text(&mut self, s: &str) -> &mut Fields {
        let mut out = String::new();
        for b in s.bytes() {
            if b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' {
                out.push(char::from(b));
            } else {
                out.push('~');
                out.push_str(&crate::hex::hex(&[b]));
            }
        }
        self.0.push(out);
        self
    }

    /// One of a few cases, as a letter.
    pub(crate) fn tag(&mut self, c: char) -> &mut Fields {
        self.text(&c.to_string())
    }
}

/// Reads the fields of a position in the order they were written.
pub(crate) struct Reader<'a> {
    fields: std::slice::Iter<'a, String>,
}

impl<'a> Reader<'a> {
    pub(crate) fn num(&mut self) -> Option<i64> {
        let f = self.fields.next()?;
        let (negative, digits) = match f.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, f.as_str()),
        };
        if digits.is_empty() || digits.len() > 13 {
            return None;
        }
        let n = i64::try_from(u64::from_str_radix(digits, 36).ok()?).ok()?;
        Some(if negative { -n } else { n })
    }

    pub(crate) fn id(&mut self) -> Option<String> {
        self.text()
    }

    pub(crate) fn text(&mut self) -> Option<String> {
        let f = self.fields.next()?;
        let mut bytes = Vec::with_capacity(f.len());
        let mut chars = f.bytes();
        while let Some(b) = chars.next() {
            if b == b'~' {
                let hi = chars.next()?;
                let lo = chars.next()?;
                let hex = [hi, lo];
                let s = std::str::from_utf8(&hex).ok()?;
                bytes.push(u8::from_str_radix(s, 16).ok()?);
            } else {
                bytes.push(b);
            }
        }
        String::from_utf8(bytes).ok()
    }

    pub(crate) fn tag(&mut self) -> Option<char> {
        let t = self.text()?;
        let mut chars = t.chars();
        let c = chars.next()?;
        chars.next().is_none().then_some(c)
    }

    /// Whether every field was read.
    pub(crate) fn done(&mut self) -> bool {
        self.fields.next().is_none()
    }
}

/// Where a list continues, as its strategy keeps it in a cursor.
pub(crate) trait Position: Sized {
    fn write(&self, fields: &mut Fields);
    fn read(fields: &mut Reader<'_>) -> Option<Self>;
}

/// The position's fields, for [`encode`].
pub(crate) fn fields_of<P: Position>(position: &P) -> Fields {
    let mut f = Fields::default();
    position.write(&mut f);
    f
}

/// Reads a decoded cursor's fields as the strategy's own position. Fields that do not fit were not
/// made by this strategy (a cursor of an older server version, say), which is reported as garbled.
pub(crate) fn position<P: Position>(fields: &Fields) -> Result<P, CursorError> {
    let mut reader = Reader {
        fields: fields.0.iter(),
    };
    let p = P::read(&mut reader).ok_or(CursorError::Garbled)?;
    if reader.done() {
        Ok(p)
    } else {
        Err(CursorError::Garbled)
    }
}

/// The fingerprint of the arguments that chose a list: sha256 over their canonical JSON (keys sorted,
/// `limit` and `cursor` left out), as 16 hex digits (a cursor carries four characters of it and its
/// check covers the whole).
pub(crate) fn fingerprint(args: &serde_json::Map<String, serde_json::Value>) -> String {
    let mut keys: Vec<&String> = args
        .keys()
        .filter(|k| !NOT_FINGERPRINTED.contains(&k.as_str()))
        .collect();
    keys.sort();
    let mut canonical = String::from("{");
    for (i, k) in keys.iter().enumerate() {
        if i > 0 {
            canonical.push(',');
        }
        canonical.push_str(&serde_json::Value::String((*k).clone()).to_string());
        canonical.push(':');
        canonical.push_str(&canonical_value(&args[*k]));
    }
    canonical.push('}');
    crate::hex::hex(&Sha256::digest(canonical.as_bytes())[..8])
}

fn canonical_value(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| {
                    format!(
                        "{}:{}",
                        Value::String((*k).clone()),
                        canonical_value(&map[*k])
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(list) => format!(
            "[{}]",
            list.iter()
                .map(canonical_value)
                .collect::<Vec<_>>()
                .join(",")
        ),
        other => other.to_string(),
    }
}

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    if n == 0 {
        return "0".into();
    }
    let mut out = Vec::new();
    while n > 0 {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// `len` base-36 characters of sha256 over `data`, one from each of its first bytes.
fn tag(data: &[u8], len: usize) -> String {
    digest_tag(&[data], len)
}

fn digest_tag(parts: &[&[u8]], len: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize()
        .iter()
        .take(len)
        .map(|b| char::from(DIGITS[usize::from(*b) % 36]))
        .collect()
}

fn grouped(raw: &str) -> String {
    let chars: Vec<char> = raw.chars().collect();
    chars
        .chunks(GROUP)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(".")
}

/// Makes the cursor for the page that starts at `position`.
pub fn encode(binding: &Binding, fields: &Fields) -> String {
    let mut body = binding.header();
    for f in &fields.0 {
        body.push('_');
        body.push_str(f);
    }
    let check = binding.check(&body);
    grouped(&format!("{body}{check}"))
}

/// Reads a cursor made by [`encode`] for this binding, and returns its position's fields (the strategy
/// reads them with [`position`]). `tools` names the tools a cursor of another tool may come from.
/// Never panics, whatever the input.
pub(crate) fn decode(
    cursor: &str,
    binding: &Binding,
    tools: &[&str],
) -> Result<Fields, CursorError> {
    let trimmed = cursor.trim();
    if trimmed.len() > 4 * MAX_LEN || !trimmed.is_ascii() {
        return Err(CursorError::Garbled);
    }
    let well_grouped = trimmed
        .split('.')
        .all(|g| !g.is_empty() && g.len() <= GROUP);
    let raw: String = trimmed.chars().filter(|c| *c != '.').collect();
    let allowed =
        |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '~' | '-');
    if !well_grouped || raw.len() < HEADER_LEN + CHECK_LEN || !raw.chars().all(allowed) {
        return Err(CursorError::Garbled);
    }
    let (body, sum) = raw.split_at(raw.len() - CHECK_LEN);
    let (header, rest) = body.split_at(HEADER_LEN);
    if !header.starts_with(VERSION) || !(rest.is_empty() || rest.starts_with('_')) {
        return Err(CursorError::Garbled);
    }
    let expected = binding.header();
    let part = |h: &str, from: usize, len: usize| h[from..from + len].to_string();
    let (tool_at, fp_at) = ((1, TOOL_LEN), (1 + TOOL_LEN, FINGERPRINT_LEN));
    let made_by = part(header, tool_at.0, tool_at.1);
    if made_by != part(&expected, tool_at.0, tool_at.1) {
        let other = tools
            .iter()
            .find(|t| tool_tag(t) == made_by)
            .map(|t| t.to_string());
        return Err(CursorError::OtherTool(other));
    }
    if part(header, fp_at.0, fp_at.1) != part(&expected, fp_at.0, fp_at.1) {
        return Err(CursorError::OtherArguments);
    }
    if header != expected {
        return Err(CursorError::OtherPerson);
    }
    if binding.check(body) != sum {
        return Err(CursorError::Altered);
    }
    let fields = rest
        .split('_')
        .skip(1)
        .map(str::to_string)
        .collect::<Vec<_>>();
    Ok(Fields(fields))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value, json};

    #[derive(Debug, PartialEq)]
    struct Pos {
        back: bool,
        t: i64,
        id: String,
    }

    impl Position for Pos {
        fn write(&self, f: &mut Fields) {
            f.tag(if self.back { 'b' } else { 'f' })
                .num(self.t)
                .id(&self.id);
        }
        fn read(r: &mut Reader<'_>) -> Option<Pos> {
            let back = match r.tag()? {
                'b' => true,
                'f' => false,
                _ => return None,
            };
            Some(Pos {
                back,
                t: r.num()?,
                id: r.id()?,
            })
        }
    }

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    fn binding(tool: &'static str, a: Value, person: &str) -> Binding {
        Binding::new(tool, &args(a), person)
    }

    fn sample() -> Pos {
        Pos {
            back: true,
            t: 1_733_052_000_123,
            id: "abcdefghijklmnopqrstuvwxyz".into(),
        }
    }

    #[test]
    fn round_trips_and_stays_short_and_grouped() {
        let b = binding("read_channel", json!({"channel": "x"}), "user1");
        let c = encode(&b, &fields_of(&sample()));
        assert!(c.len() <= MAX_LEN, "{c} is {} long", c.len());
        assert!(c.split('.').all(|g| g.len() <= GROUP), "{c}");
        let p: Pos = position(&decode(&c, &b, &[]).expect("decodes")).expect("fits");
        assert_eq!(p, sample());
    }

    #[test]
    fn fingerprint_ignores_limit_cursor_and_key_order() {
        let a = fingerprint(&args(json!({"channel": "x", "team": "t", "limit": 5})));
        let b = fingerprint(&args(
            json!({"team": "t", "channel": "x", "limit": 50, "cursor": "zz"}),
        ));
        assert_eq!(a, b);
        assert_ne!(a, fingerprint(&args(json!({"channel": "y", "team": "t"}))));
    }

    #[test]
    fn refuses_each_kind_of_wrong_cursor() {
        let b = binding("read_channel", json!({"channel": "x"}), "user1");
        let c = encode(&b, &fields_of(&sample()));
        assert_eq!(
            decode(
                &c,
                &binding("list_saved", json!({"channel": "x"}), "user1"),
                &["read_channel"]
            ),
            Err(CursorError::OtherTool(Some("read_channel".into())))
        );
        assert_eq!(
            decode(
                &c,
                &binding("read_channel", json!({"channel": "y"}), "user1"),
                &[]
            ),
            Err(CursorError::OtherArguments)
        );
        assert_eq!(
            decode(
                &c,
                &binding("read_channel", json!({"channel": "x"}), "user2"),
                &[]
            ),
            Err(CursorError::OtherPerson)
        );
        assert_eq!(decode("not a cursor!", &b, &[]), Err(CursorError::Garbled));
        assert_eq!(decode("", &b, &[]), Err(CursorError::Garbled));
        // Change one character of the position: the check no longer matches.
        let at = c.rfind('z').expect("a z of the id");
        let mut altered = c.clone();
        altered.replace_range(at..at + 1, "y");
        assert_eq!(decode(&altered, &b, &[]), Err(CursorError::Altered));
        // Cut short.
        assert!(decode(&c[..c.len() - 3], &b, &[]).is_err());
    }

    #[test]
    fn text_with_any_character_round_trips() {
        #[derive(Debug, PartialEq)]
        struct T(String, i64);
        impl Position for T {
            fn write(&self, f: &mut Fields) {
                f.text(&self.0).num(self.1);
            }
            fn read(r: &mut Reader<'_>) -> Option<T> {
                Some(T(r.text()?, r.num()?))
            }
        }
        let b = binding("list_emoji", json!({}), "");
        for s in ["", "a_b.c", "Ünï", "~~", "x y"] {
            let c = encode(&b, &fields_of(&T(s.into(), -42)));
            assert_eq!(
                position::<T>(&decode(&c, &b, &[]).expect("decodes")),
                Ok(T(s.into(), -42))
            );
        }
    }
}

/// The decoder against random and mutated input: it must never panic, and it must never accept a
/// cursor for the wrong tool, arguments or person. `cursor_decoder_survives_a_million_cases` is the
/// long run (`cargo test --release --lib cursor_decoder_survives -- --ignored`).
#[cfg(test)]
mod robustness {
    use super::*;
    use proptest::prelude::*;

    fn binding() -> Binding {
        Binding::new("read_channel", &serde_json::Map::new(), "person")
    }

    fn valid() -> String {
        let mut f = Fields::default();
        f.tag('b')
            .num(1_700_000_000_000)
            .id("abcdefghijklmnopqrstuvwxyz");
        encode(&binding(), &f)
    }

    /// Decodes `input` as `read_channel` with empty arguments and checks the outcome is sane.
    fn check_one(input: &str) {
        match decode(input, &binding(), &["list_saved"]) {
            Ok(fields) => {
                // Accepted only when it is this binding's cursor with a valid check: re-encoding gives
                // it back.
                assert_eq!(
                    encode(&binding(), &fields),
                    input.trim(),
                    "accepted a cursor it did not make"
                );
            }
            Err(e) => {
                let _ = e.message("read_channel");
            }
        }
        let other = Binding::new("list_saved", &serde_json::Map::new(), "someone");
        let _ = decode(input, &other, &[]);
    }

    proptest! {
        #[test]
        fn random_strings_never_panic(s in ".{0,300}") {
            check_one(&s);
        }

        #[test]
        fn cursor_looking_strings_never_panic(s in "[a-z0-9_.~-]{0,120}") {
            check_one(&s);
        }

        #[test]
        fn mutated_cursors_are_refused_not_accepted(at in 0usize..200, with in 0u8..64, cut in 0usize..200) {
            let good = valid();
            let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz0123456789_.~-".chars().collect();
            let mut chars: Vec<char> = good.chars().collect();
            let i = at % chars.len();
            let replacement = alphabet[usize::from(with) % alphabet.len()];
            let changed = chars[i] != replacement;
            chars[i] = replacement;
            let mutated: String = chars.iter().collect();
            check_one(&mutated);
            if changed && !(chars[i] == '.' || good.chars().nth(i) == Some('.')) {
                prop_assert!(decode(&mutated, &binding(), &[]).is_err(), "a changed cursor was accepted");
            }
            let truncated: String = good.chars().take(cut % good.len()).collect();
            check_one(&truncated);
        }
    }

    /// A simple, fast generator for the long run: splitmix64 over random bytes, cursor-alphabet strings,
    /// and one-, two- and three-character mutations of a valid cursor.
    #[test]
    #[ignore = "the long run: a million cases"]
    fn cursor_decoder_survives_a_million_cases() {
        let cases: u64 = std::env::var("CURSOR_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1_000_000);
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let good = valid();
        let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz0123456789_.~-ABZ=+/ %"
            .chars()
            .collect();
        let started = std::time::Instant::now();
        for n in 0..cases {
            let input = match n % 3 {
                0 => {
                    let len = (next() % 300) as usize;
                    let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                    String::from_utf8_lossy(&bytes).into_owned()
                }
                1 => {
                    let len = (next() % 100) as usize;
                    (0..len)
                        .map(|_| alphabet[(next() as usize) % alphabet.len()])
                        .collect()
                }
                _ => {
                    let mut chars: Vec<char> = good.chars().collect();
                    for _ in 0..1 + next() % 3 {
                        let i = (next() as usize) % chars.len();
                        chars[i] = alphabet[(next() as usize) % alphabet.len()];
                    }
                    chars.into_iter().collect()
                }
            };
            check_one(&input);
        }
        eprintln!(
            "cursor decoder: {cases} cases in {:.1} s, no panic, no wrong cursor accepted",
            started.elapsed().as_secs_f64()
        );
    }
}
