//! Pure byte helpers for the hex view: the data inspector's readings at an
//! offset, offsets typed by the user, byte search patterns, and base64 for
//! OSC 52 copies.

/// The inspector's readings of the bytes at an offset: `(label, value)`,
/// `-` where too few bytes remain.
pub fn readings(bytes: &[u8], at: usize) -> Vec<(&'static str, String)> {
    let tail = bytes.get(at..).unwrap_or(&[]);
    fn take<const N: usize>(tail: &[u8]) -> Option<[u8; N]> {
        tail.get(..N)?.try_into().ok()
    }
    let none = || "-".to_owned();
    let mut out = vec![
        (
            "u8",
            take::<1>(tail).map_or_else(none, |b| b[0].to_string()),
        ),
        (
            "i8",
            take::<1>(tail).map_or_else(none, |b| (b[0] as i8).to_string()),
        ),
        (
            "u16",
            take::<2>(tail).map_or_else(none, |b| u16::from_le_bytes(b).to_string()),
        ),
        (
            "i16",
            take::<2>(tail).map_or_else(none, |b| i16::from_le_bytes(b).to_string()),
        ),
        (
            "u32",
            take::<4>(tail).map_or_else(none, |b| u32::from_le_bytes(b).to_string()),
        ),
        (
            "i32",
            take::<4>(tail).map_or_else(none, |b| i32::from_le_bytes(b).to_string()),
        ),
        (
            "u64",
            take::<8>(tail).map_or_else(none, |b| u64::from_le_bytes(b).to_string()),
        ),
        (
            "i64",
            take::<8>(tail).map_or_else(none, |b| i64::from_le_bytes(b).to_string()),
        ),
        (
            "f32",
            take::<4>(tail).map_or_else(none, |b| float(f64::from(f32::from_le_bytes(b)))),
        ),
        (
            "f64",
            take::<8>(tail).map_or_else(none, |b| float(f64::from_le_bytes(b))),
        ),
    ];
    out.push((
        "VBR",
        vbr_at(tail).map_or_else(none, |(v, len)| format!("{v} ({len} bytes)")),
    ));
    out.push(("string", c_string(tail)));
    out
}

/// A float short enough for the inspector: exponent form when plain
/// digits would be long.
fn float(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude != 0.0 && !(1e-6..1e15).contains(&magnitude) {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}

/// The VBR integer at the start of `bytes` and its length: big-endian
/// groups of seven bits, high bit set on all bytes but the last.
pub fn vbr_at(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value: u64 = 0;
    for (i, &byte) in bytes.iter().take(10).enumerate() {
        if value >> 57 != 0 {
            return None;
        }
        value = (value << 7) | u64::from(byte & 0x7f);
        if byte & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// The VBR encoding of `value`.
pub fn vbr_encode(value: u64) -> Vec<u8> {
    let groups = (64 - value.leading_zeros() as usize).div_ceil(7).max(1);
    (0..groups)
        .rev()
        .map(|g| {
            let bits = ((value >> (7 * g)) & 0x7f) as u8;
            if g == 0 { bits } else { bits | 0x80 }
        })
        .collect()
}

/// The NUL-terminated string at the start of `bytes`, quoted and clipped.
fn c_string(bytes: &[u8]) -> String {
    let Some(end) = bytes.iter().take(256).position(|&b| b == 0) else {
        return "- (no NUL in 256 bytes)".to_owned();
    };
    format!("{:?}", String::from_utf8_lossy(&bytes[..end]))
}

/// An offset typed by the user: `0x1f` or `1fh` hex, otherwise decimal.
pub fn parse_offset(text: &str) -> Option<usize> {
    let text = text.trim();
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        usize::from_str_radix(hex, 16).ok()
    } else if let Some(hex) = text.strip_suffix('h') {
        usize::from_str_radix(hex, 16).ok()
    } else {
        text.parse().ok()
    }
}

/// The bytes a hex-view search looks for: `#0b ef` hex bytes, `=300` the
/// VBR encoding of a number, anything else its UTF-8 text.
pub fn parse_pattern(text: &str) -> Result<Vec<u8>, String> {
    if let Some(hex) = text.strip_prefix('#') {
        let digits: String = hex.chars().filter(|c| !c.is_whitespace()).collect();
        if digits.is_empty() || !digits.len().is_multiple_of(2) {
            return Err(format!("'{hex}' is not whole hex bytes"));
        }
        (0..digits.len())
            .step_by(2)
            .map(|i| {
                digits
                    .get(i..i + 2)
                    .and_then(|d| u8::from_str_radix(d, 16).ok())
                    .ok_or_else(|| format!("'{hex}' is not hex bytes"))
            })
            .collect()
    } else if let Some(number) = text.strip_prefix('=') {
        number
            .trim()
            .parse::<u64>()
            .map(vbr_encode)
            .map_err(|_| format!("'{number}' is not a number"))
    } else if text.is_empty() {
        Err("empty search".to_owned())
    } else {
        Ok(text.as_bytes().to_vec())
    }
}

/// The next occurrence of `needle` starting after `from` (wrapping), or the
/// previous one before it when `backward`.
pub fn find(haystack: &[u8], needle: &[u8], from: usize, backward: bool) -> Option<usize> {
    use memchr::memmem;
    if needle.is_empty() || needle.len() > haystack.len() {
        return None;
    }
    let last = haystack.len() - needle.len();
    if backward {
        // Matches starting before `from`, else wrapping to the end.
        let start = from.min(last + 1);
        let before = &haystack[..(start + needle.len() - 1).min(haystack.len())];
        memmem::rfind(before, needle)
            .or_else(|| memmem::rfind(&haystack[start..], needle).map(|p| p + start))
    } else {
        // Matches starting after `from`, else wrapping to the start.
        let start = from.saturating_add(1).min(last + 1);
        memmem::find(&haystack[start..], needle)
            .map(|p| p + start)
            .or_else(|| {
                let end = (start + needle.len() - 1).min(haystack.len());
                memmem::find(&haystack[..end], needle)
            })
    }
}

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Bytes per line of the hex view and of `--dump hex`.
pub const WIDTH: usize = 16;

/// One line of plain hex (`--dump hex`): offset, hex, ASCII.
pub fn plain_line(bytes: &[u8], line: usize) -> String {
    let start = line * WIDTH;
    let chunk = &bytes[start..(start + WIDTH).min(bytes.len())];
    let mut text = format!("{start:08x}: ");
    for i in 0..WIDTH {
        match chunk.get(i) {
            Some(b) => text.push_str(&format!("{b:02x} ")),
            None => text.push_str("   "),
        }
    }
    text.push(' ');
    text.extend(chunk.iter().map(|&b| ascii(b)));
    text
}

/// A byte as the ASCII column shows it: printable or `.`.
pub fn ascii(b: u8) -> char {
    if b.is_ascii_graphic() || b == b' ' {
        b as char
    } else {
        '.'
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `find` means, one position at a time.
    fn find_slowly(haystack: &[u8], needle: &[u8], from: usize, backward: bool) -> Option<usize> {
        if needle.is_empty() || needle.len() > haystack.len() {
            return None;
        }
        let last = haystack.len() - needle.len();
        let hit = |at: &usize| haystack[*at..*at + needle.len()] == *needle;
        if backward {
            let start = from.min(last + 1);
            (0..start)
                .rev()
                .find(hit)
                .or_else(|| (start..=last).rev().find(hit))
        } else {
            let start = from.saturating_add(1).min(last + 1);
            (start..=last).find(hit).or_else(|| (0..start).find(hit))
        }
    }

    proptest! {
        #[test]
        fn find_agrees_with_a_scan(
            haystack in proptest::collection::vec(0u8..3, 0..64),
            needle in proptest::collection::vec(0u8..3, 0..4),
            from in 0usize..70,
            backward: bool,
        ) {
            prop_assert_eq!(
                find(&haystack, &needle, from, backward),
                find_slowly(&haystack, &needle, from, backward)
            );
        }
    }

    #[test]
    fn vbr_round_trips() {
        for v in [0, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let bytes = vbr_encode(v);
            assert_eq!(vbr_at(&bytes), Some((v, bytes.len())));
        }
        assert_eq!(vbr_encode(300), vec![0x82, 0x2c]);
    }

    #[test]
    fn readings_are_little_endian_and_bounded() {
        let r = readings(&[1, 0, 0, 0, b'a', 0], 0);
        assert_eq!(r[4], ("u32", "1".to_owned()));
        assert_eq!(r[6], ("u64", "-".to_owned()));
        assert_eq!(readings(&[b'h', b'i', 0], 0).last().unwrap().1, "\"hi\"");
        assert_eq!(readings(&[], 5)[0].1, "-");
    }

    #[test]
    fn patterns_and_offsets() {
        assert_eq!(parse_pattern("#0b ef"), Ok(vec![0x0b, 0xef]));
        assert_eq!(parse_pattern("=300"), Ok(vec![0x82, 0x2c]));
        assert_eq!(parse_pattern("ab"), Ok(b"ab".to_vec()));
        assert!(parse_pattern("#0").is_err());
        assert!(parse_pattern("#é1").is_err());
        assert_eq!(parse_offset("0x10"), Some(16));
        assert_eq!(parse_offset("10h"), Some(16));
        assert_eq!(parse_offset("10"), Some(10));
        assert_eq!(parse_offset("zz"), None);
    }

    #[test]
    fn find_wraps_both_ways() {
        let hay = b"abcabc";
        assert_eq!(find(hay, b"abc", 0, false), Some(3));
        assert_eq!(find(hay, b"abc", 3, false), Some(0));
        assert_eq!(find(hay, b"abc", 3, true), Some(0));
        assert_eq!(find(hay, b"abc", 0, true), Some(3));
        assert_eq!(find(hay, b"zz", 0, false), None);
        assert_eq!(find(b"", b"a", 0, true), None);
    }

    #[test]
    fn base64_matches_known_values() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
