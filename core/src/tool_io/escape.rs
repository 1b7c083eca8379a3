//! Escaping untrusted text for a terminal.
//!
//! A name in a BEF file, a recording or a program can hold any character.
//! Printed raw, ESC starts a control sequence (OSC 0 sets the window title,
//! OSC 52 writes the clipboard), CR overwrites what was printed, and the
//! bidirectional controls reorder what the reader sees. Every
//! human-readable output of the tools goes through these functions; JSON
//! output escapes on its own.
//!
//! Escapes are written as Rust writes them (`\n`, `\t`, `\r`, `\u{1b}`), so
//! that what is shown can be typed back. A backslash is left as it is: the
//! output is for reading, not a format to be parsed.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::Path;

/// `true` for a character that must not reach a terminal raw: control
/// characters (C0, DEL, C1) and the invisible format characters that
/// reorder or hide text (bidirectional embeddings, overrides and isolates,
/// zero-width joiners and marks, the byte-order mark, line and paragraph
/// separators).
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{2069}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}')
}

/// A one-line field (a name, a path, a value) with every unsafe character
/// escaped, newlines and tabs included. Borrowed when nothing needs it.
pub fn terminal(text: &str) -> Cow<'_, str> {
    escape_where(text, is_unsafe)
}

/// Multi-line text (a source listing, a diagnostic with its quoted line)
/// with every unsafe character escaped except `\n` and `\t`.
pub fn terminal_lines(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| c != '\n' && c != '\t' && is_unsafe(c))
}

/// Bytes that should be UTF-8 but come from anywhere: each byte of an
/// invalid sequence as `\xNN`, then escaped as [`terminal`].
pub fn bytes(raw: &[u8]) -> String {
    let mut out = String::with_capacity(raw.len());
    for chunk in raw.utf8_chunks() {
        out.push_str(&terminal(chunk.valid()));
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// A path for display: its bytes as [`bytes`] shows them (a path need not
/// be UTF-8 on Unix).
pub fn path(path: &Path) -> Cow<'_, str> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let raw = path.as_os_str().as_bytes();
        match std::str::from_utf8(raw) {
            Ok(text) => terminal(text),
            Err(_) => Cow::Owned(bytes(raw)),
        }
    }
    #[cfg(not(unix))]
    {
        Cow::Owned(terminal(&path.to_string_lossy()).into_owned())
    }
}

/// A [`Write`](std::io::Write) adapter that escapes what passes through
/// it as [`terminal_lines`] does (keeping `\n` and `\t`), for text written
/// piecewise (a listing, a table). A UTF-8 sequence split between two
/// writes is joined first; bytes that are not UTF-8 are shown as `\xNN`.
pub struct Writer<W: std::io::Write> {
    inner: W,
    /// The start of a UTF-8 sequence the last write ended inside.
    pending: Vec<u8>,
}

impl<W: std::io::Write> Writer<W> {
    /// Escapes what is written before passing it to `inner`.
    pub fn new(inner: W) -> Writer<W> {
        Writer {
            inner,
            pending: Vec::new(),
        }
    }

    fn write_pending_bytes(&mut self) -> std::io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let shown = bytes(&std::mem::take(&mut self.pending));
        self.inner.write_all(shown.as_bytes())
    }
}

impl<W: std::io::Write> std::io::Write for Writer<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let joined;
        let data = if self.pending.is_empty() {
            buf
        } else {
            joined = [std::mem::take(&mut self.pending).as_slice(), buf].concat();
            &joined[..]
        };
        let mut chunks = data.utf8_chunks().peekable();
        while let Some(chunk) = chunks.next() {
            self.inner
                .write_all(terminal_lines(chunk.valid()).as_bytes())?;
            let invalid = chunk.invalid();
            // An invalid tail at the very end may be a sequence cut by the
            // caller's buffering: keep it for the next write.
            if chunks.peek().is_none() && !invalid.is_empty() && invalid.len() < 4 {
                let end_of_data = data.len() - invalid.len();
                if std::str::from_utf8(&data[end_of_data..])
                    .err()
                    .is_some_and(|e| e.error_len().is_none())
                {
                    self.pending.extend_from_slice(invalid);
                    break;
                }
            }
            for b in invalid {
                write!(self.inner, "\\x{b:02x}")?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<W: std::io::Write> Drop for Writer<W> {
    fn drop(&mut self) {
        let _ = self.write_pending_bytes();
    }
}

fn escape_where(text: &str, unsafe_char: impl Fn(char) -> bool) -> Cow<'_, str> {
    let Some(first) = text.find(&unsafe_char) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if !unsafe_char(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            _ => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_text_is_borrowed() {
        assert!(matches!(terminal("tfrt.add.i32 é 字"), Cow::Borrowed(_)));
        assert!(matches!(terminal_lines("a\n\tb"), Cow::Borrowed(_)));
    }

    #[test]
    fn escape_sequences_cannot_pass() {
        let osc52 = "x\u{1b}]52;c;aGk=\u{7}y";
        assert_eq!(terminal(osc52), "x\\u{1b}]52;c;aGk=\\u{7}y");
        assert_eq!(terminal("a\rb\nc\td"), "a\\rb\\nc\\td");
        assert_eq!(terminal("\u{9b}31m\u{7f}"), "\\u{9b}31m\\u{7f}");
        assert_eq!(terminal("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(terminal_lines("a\n\u{1b}[2J\tb\r"), "a\n\\u{1b}[2J\tb\\r");
    }

    #[test]
    fn the_writer_escapes_across_writes() {
        use std::io::Write;
        let text = "é\u{1b}]0;x\u{7}\n字\t\u{9b}".as_bytes();
        for split in 0..text.len() {
            let mut out = Vec::new();
            let mut w = Writer::new(&mut out);
            w.write_all(&text[..split]).unwrap();
            w.write_all(&text[split..]).unwrap();
            w.write_all(b"\xff|").unwrap();
            drop(w);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                "é\\u{1b}]0;x\\u{7}\n字\t\\u{9b}\\xff|",
                "split at {split}"
            );
        }
    }

    #[test]
    fn invalid_bytes_are_shown_as_hex() {
        assert_eq!(bytes(b"ok\xff\x1b\xc3"), "ok\\xff\\u{1b}\\xc3");
    }

    #[cfg(unix)]
    #[test]
    fn paths_need_not_be_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let p = Path::new(std::ffi::OsStr::from_bytes(b"/tmp/\xfe\x1b.mlir"));
        assert_eq!(path(p), "/tmp/\\xfe\\u{1b}.mlir");
    }

    #[test]
    fn nothing_unsafe_survives_any_input() {
        for c in (0..0x11_0000u32).filter_map(char::from_u32) {
            let text = format!("a{c}b");
            assert!(!terminal(&text).chars().any(is_unsafe), "{c:?}");
            assert!(
                !terminal_lines(&text)
                    .chars()
                    .any(|c| c != '\n' && c != '\t' && is_unsafe(c)),
                "{c:?}"
            );
        }
    }
}
