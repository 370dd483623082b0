//! Mattermost-style ids: 26 characters of lowercase base32, generated from the world's seed.

use crate::rng::Rng;

/// The alphabet of Mattermost's `model.NewId` (base32 with a custom encoding).
const ALPHABET: &[u8] = b"ybndrfg8ejkmcpqxot1uwisza345h769";

pub(crate) fn new_id(rng: &mut Rng) -> String {
    let mut out = String::with_capacity(26);
    let mut bits = 0u32;
    let mut acc = 0u64;
    while out.len() < 26 {
        if bits < 5 {
            acc = rng.next_u64();
            bits = 64;
        }
        out.push(ALPHABET[(acc & 31) as usize] as char);
        acc >>= 5;
        bits -= 5;
    }
    out
}

/// `model.IsValidId`: exactly 26 letters or digits.
pub fn is_valid_id(s: &str) -> bool {
    s.len() == 26 && s.chars().all(|c| c.is_ascii_alphanumeric())
}

/// A 40-hex-digit name for group channels (the real server uses a SHA-1 of the member ids).
pub(crate) fn group_name(member_ids: &[String]) -> String {
    let mut sorted = member_ids.to_vec();
    sorted.sort();
    let joined = sorted.join(",");
    let mut out = String::new();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for round in 0u64..3 {
        for b in joined.bytes().chain(round.to_le_bytes()) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        out.push_str(&format!("{h:016x}"));
    }
    out.truncate(40);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_26_lowercase_alnum() {
        let mut rng = Rng::new(1);
        for _ in 0..100 {
            let id = new_id(&mut rng);
            assert!(is_valid_id(&id));
            assert!(
                id.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            );
        }
    }
}
