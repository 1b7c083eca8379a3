//! What must never reach a terminal raw, written out here rather than
//! taken from the library the tests check: C0 controls but newline and
//! tab, DEL, C1 controls, and the bidirectional embeddings, overrides and
//! isolates.

/// Whether `c` must not reach a terminal raw.
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The characters of `text` that must not reach a terminal raw.
pub fn raw_controls(text: &str) -> Vec<char> {
    text.chars().filter(|&c| is_unsafe(c)).collect()
}

/// The first character of `bytes` that must not reach a terminal raw, with
/// its byte offset; bytes that are not UTF-8 count as such a character.
/// `None` when there is none.
pub fn unsafe_character(bytes: &[u8]) -> Option<(usize, String)> {
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        if let Some((i, c)) = chunk.valid().char_indices().find(|&(_, c)| is_unsafe(c)) {
            return Some((at + i, format!("{c:?}")));
        }
        at += chunk.valid().len();
        if let Some(b) = chunk.invalid().first() {
            return Some((at, format!("byte {b:#04x}")));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_are_unsafe_newlines_are_not() {
        assert_eq!(
            raw_controls("a\nb\tc\u{1b}[0m\u{9b}\u{202e}\u{7f}"),
            ['\u{1b}', '\u{9b}', '\u{202e}', '\u{7f}']
        );
        assert_eq!(
            unsafe_character(b"ok\n\xffx"),
            Some((3, "byte 0xff".into()))
        );
        assert_eq!(
            unsafe_character("é\u{7}".as_bytes()),
            Some((2, "'\\u{7}'".into()))
        );
        assert_eq!(unsafe_character(b"plain\ttext\n"), None);
    }
}
