//! The opaque cursor every list tool hands back as `next_cursor`.
//!
//! A cursor is base64url (no padding) of a small JSON payload — the tool's name, a fingerprint of the
//! arguments that chose the list, and the position where the next page starts — followed by a check of
//! six bytes. The fingerprint leaves out `limit` (it may change between pages) and `cursor`. The check
//! tells a cursor that was changed from one that was never a cursor; it is not a secret, so cursors stay
//! valid across restarts of the server.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

const VERSION: u64 = 1;
const CHECK_LEN: usize = 6;
const SALT: &[u8] = b"mattermost-mcp cursor v1";
/// Arguments that do not choose the list.
const NOT_FINGERPRINTED: [&str; 2] = ["limit", "cursor"];

/// Why a cursor was refused. Every case tells the model to repeat the call without `cursor`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CursorError {
    /// Not something this server made: not base64url, too short, or no cursor inside.
    Garbled,
    /// Made by this server, then changed.
    Altered,
    /// Made by another tool.
    OtherTool(String),
    /// Made by this tool for other arguments.
    OtherArguments,
}

impl CursorError {
    pub fn message(&self, tool: &str) -> String {
        let what = match self {
            CursorError::Garbled => {
                "is not a cursor this server made (it does not decode)".to_string()
            }
            CursorError::Altered => "was changed after this server made it".to_string(),
            CursorError::OtherTool(other) => {
                format!("was made by the tool `{other}`, not `{tool}`")
            }
            CursorError::OtherArguments => format!(
                "was made by `{tool}` for other arguments; a cursor continues only the list of the call that \
                 returned it (the same arguments, any limit)"
            ),
        };
        format!(
            "The cursor {what}. Repeat the call without `cursor` to start the list from its beginning, or pass \
             the next_cursor exactly as the previous answer of this same call gave it."
        )
    }
}

/// The fingerprint of the arguments that chose a list: sha256 over their canonical JSON (keys sorted,
/// `limit` and `cursor` left out), first 8 bytes as hex.
pub fn fingerprint(args: &Map<String, Value>) -> String {
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
        canonical.push_str(&Value::String((*k).clone()).to_string());
        canonical.push(':');
        canonical.push_str(&canonical_value(&args[*k]));
    }
    canonical.push('}');
    hex(&Sha256::digest(canonical.as_bytes())[..8])
}

fn canonical_value(v: &Value) -> String {
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

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn check(payload: &[u8]) -> [u8; CHECK_LEN] {
    let mut h = Sha256::new();
    h.update(SALT);
    h.update(payload);
    let digest = h.finalize();
    let mut out = [0u8; CHECK_LEN];
    out.copy_from_slice(&digest[..CHECK_LEN]);
    out
}

/// Makes the cursor for the page that starts at `position`.
pub fn encode<P: Serialize>(tool: &str, fingerprint: &str, position: &P) -> String {
    let payload = json!({ "v": VERSION, "t": tool, "f": fingerprint, "p": position }).to_string();
    let mut bytes = payload.into_bytes();
    let sum = check(&bytes);
    bytes.extend_from_slice(&sum);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Reads a cursor made by `encode` for this tool and these arguments, and returns its position (still
/// as JSON; the strategy reads it with [`position`]). Never panics, whatever the input.
pub fn decode(cursor: &str, tool: &str, fingerprint: &str) -> Result<Value, CursorError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(cursor.trim().as_bytes())
        .map_err(|_| CursorError::Garbled)?;
    if bytes.len() <= CHECK_LEN {
        return Err(CursorError::Garbled);
    }
    let (payload, sum) = bytes.split_at(bytes.len() - CHECK_LEN);
    let parsed: Option<Map<String, Value>> = serde_json::from_slice(payload).ok();
    let looks_like_cursor = parsed
        .as_ref()
        .is_some_and(|m| m.contains_key("t") && m.contains_key("f") && m.contains_key("p"));
    if check(payload) != sum {
        return Err(if looks_like_cursor {
            CursorError::Altered
        } else {
            CursorError::Garbled
        });
    }
    let Some(mut map) = parsed.filter(|_| looks_like_cursor) else {
        return Err(CursorError::Garbled);
    };
    if map.get("v").and_then(Value::as_u64) != Some(VERSION) {
        return Err(CursorError::Garbled);
    }
    let made_by = map
        .get("t")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    if made_by != tool {
        return Err(CursorError::OtherTool(made_by));
    }
    if map.get("f").and_then(Value::as_str) != Some(fingerprint) {
        return Err(CursorError::OtherArguments);
    }
    Ok(map.remove("p").unwrap_or(Value::Null))
}

/// Reads a decoded position as the strategy's own type. A position that does not fit was not made by
/// this strategy (a cursor of an older server version, say), which is reported as garbled.
pub fn position<P: DeserializeOwned>(value: Value) -> Result<P, CursorError> {
    serde_json::from_value(value).map_err(|_| CursorError::Garbled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    struct Pos {
        t: i64,
        id: String,
    }

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn round_trips() {
        let f = fingerprint(&args(json!({"channel": "x"})));
        let c = encode(
            "read_channel",
            &f,
            &Pos {
                t: 5,
                id: "a".into(),
            },
        );
        let p: Pos = position(decode(&c, "read_channel", &f).expect("decodes")).expect("fits");
        assert_eq!(
            p,
            Pos {
                t: 5,
                id: "a".into()
            }
        );
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
        let f = fingerprint(&args(json!({"channel": "x"})));
        let c = encode("read_channel", &f, &json!({"t": 1}));
        assert_eq!(
            decode(&c, "list_saved", &f),
            Err(CursorError::OtherTool("read_channel".into()))
        );
        assert_eq!(
            decode(&c, "read_channel", "0000000000000000"),
            Err(CursorError::OtherArguments)
        );
        assert_eq!(
            decode("not a cursor!", "read_channel", &f),
            Err(CursorError::Garbled)
        );
        assert_eq!(decode("", "read_channel", &f), Err(CursorError::Garbled));
        // Change one character of the payload: the check no longer matches.
        let mut bytes = URL_SAFE_NO_PAD.decode(&c).expect("b64");
        let at = bytes
            .iter()
            .position(|b| *b == b'1')
            .expect("a digit in the position");
        bytes[at] = b'2';
        let altered = URL_SAFE_NO_PAD.encode(&bytes);
        assert_eq!(
            decode(&altered, "read_channel", &f),
            Err(CursorError::Altered)
        );
    }
}

/// The decoder against random and mutated input: it must never panic, and it must never accept a
/// cursor for the wrong tool or arguments. `cursor_decoder_survives_a_million_cases` is the long run
/// (`cargo test --release --lib cursor_decoder_survives -- --ignored`).
#[cfg(test)]
mod robustness {
    use super::*;
    use proptest::prelude::*;

    fn valid() -> String {
        let f = fingerprint(&serde_json::Map::new());
        encode(
            "read_channel",
            &f,
            &json!({"d": "b", "t": 1_700_000_000_000i64, "a": "abcdefghijklmnopqrstuvwxyz"}),
        )
    }

    /// Decodes `input` as the tool `read_channel` with empty arguments and checks the outcome is sane.
    fn check_one(input: &str) {
        let f = fingerprint(&serde_json::Map::new());
        match decode(input, "read_channel", &f) {
            Ok(position) => {
                // Accepted only when it is this tool's cursor with a valid check: re-encoding gives it back.
                assert_eq!(
                    encode("read_channel", &f, &position),
                    input.trim(),
                    "accepted a cursor it did not make"
                );
            }
            Err(e) => {
                let _ = e.message("read_channel");
            }
        }
        let _ = decode(input, "list_saved", "0123456789abcdef");
    }

    proptest! {
        #[test]
        fn random_strings_never_panic(s in ".{0,300}") {
            check_one(&s);
        }

        #[test]
        fn base64_looking_strings_never_panic(s in "[A-Za-z0-9_-]{0,400}") {
            check_one(&s);
        }

        #[test]
        fn mutated_cursors_are_refused_not_accepted(at in 0usize..200, with in 0u8..64, cut in 0usize..200) {
            let good = valid();
            let alphabet: Vec<char> = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".chars().collect();
            let mut chars: Vec<char> = good.chars().collect();
            let i = at % chars.len();
            let replacement = alphabet[usize::from(with) % alphabet.len()];
            let changed = chars[i] != replacement;
            chars[i] = replacement;
            let mutated: String = chars.iter().collect();
            check_one(&mutated);
            if changed {
                prop_assert!(decode(&mutated, "read_channel", &fingerprint(&serde_json::Map::new())).is_err(), "a changed cursor was accepted");
            }
            let truncated: String = good.chars().take(cut % good.len()).collect();
            check_one(&truncated);
        }
    }

    /// A simple, fast generator for the long run: splitmix64 over random bytes, base64 of random
    /// payloads, and one-, two- and three-character mutations of a valid cursor.
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
        let alphabet: Vec<char> =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ .%"
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
                    let len = (next() % 300) as usize;
                    let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                    URL_SAFE_NO_PAD.encode(bytes)
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
