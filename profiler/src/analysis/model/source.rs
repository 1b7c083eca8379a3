//! Where kernels and functions are in the program's source: the file and
//! line of a kernel's location as the recording keeps it (the text MLIR
//! prints, `"digits.mlir":12:5`, possibly inside a name, a call site or a
//! fused location), and a function's line, from its kernels' (the
//! recording keeps no location of the function itself).

use crate::capture::recording::FunctionInfo;

/// A file and a line of it (from 1, as MLIR counts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceLine {
    /// The file name as the location gives it.
    pub file: String,
    /// The line.
    pub line: u64,
}

/// The first `"file":line:column` position in location text `text`, as
/// [`bef::format::Location`] prints it (file names quoted and escaped as
/// Rust quotes strings): a named location's child, a call site's callee
/// before its caller, a fused location's first part that has one. `None`
/// for `unknown`, names alone, and text that is not a location. Takes time
/// linear in the text.
pub fn source_line(text: &str) -> Option<SourceLine> {
    let mut rest = text;
    while let Some(open) = rest.find('"') {
        let (quoted, after) = unquote(&rest[open + 1..])?;
        if let Some(line) = line_after(after) {
            return Some(SourceLine { file: quoted, line });
        }
        rest = after;
    }
    None
}

/// The line of `:line:column` at the start of `text`.
fn line_after(text: &str) -> Option<u64> {
    let text = text.strip_prefix(':')?;
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let line = text[..digits].parse().ok()?;
    let column = text[digits..].strip_prefix(':')?;
    column
        .starts_with(|c: char| c.is_ascii_digit())
        .then_some(line)
}

/// The string quoted at the start of `text` (its opening quote already
/// taken), unescaped, and the text after its closing quote; `None` when
/// it is not closed or an escape is not one Rust writes.
fn unquote(text: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        at += c.len_utf8();
        match c {
            '"' => return Some((out, &text[at..])),
            '\\' => {
                let escaped = text[at..].chars().next()?;
                at += escaped.len_utf8();
                match escaped {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    '0' => out.push('\0'),
                    'u' => {
                        // `\u{hex}`.
                        let hex = text[at..].strip_prefix('{')?;
                        let close = hex.find('}')?;
                        let code = u32::from_str_radix(&hex[..close], 16).ok()?;
                        out.push(char::from_u32(code)?);
                        at += close + 2;
                    }
                    other => out.push(other),
                }
            }
            c => out.push(c),
        }
    }
    None
}

/// The line of function `function` in its source: the earliest line of
/// its kernels (its first operation, the line after its signature), in
/// the file of its first kernel that has a position. `None` when no
/// kernel of it has one (native functions, programs without locations).
pub fn function_line(function: &FunctionInfo) -> Option<SourceLine> {
    let mut positions = function
        .kernels
        .iter()
        .filter_map(|k| source_line(&k.location));
    let first = positions.next()?;
    let earliest = positions
        .filter(|p| p.file == first.file)
        .map(|p| p.line)
        .fold(first.line, u64::min);
    Some(SourceLine {
        file: first.file,
        line: earliest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: &str, line: u64) -> Option<SourceLine> {
        Some(SourceLine {
            file: file.into(),
            line,
        })
    }

    #[test]
    fn file_line_column() {
        assert_eq!(source_line("\"digits.mlir\":12:5"), at("digits.mlir", 12));
    }

    #[test]
    fn nested_locations_give_their_first_position() {
        assert_eq!(source_line("\"op\"(\"a.mlir\":3:1)"), at("a.mlir", 3));
        assert_eq!(
            source_line("callsite(\"callee.mlir\":7:2 at \"caller.mlir\":9:4)"),
            at("callee.mlir", 7)
        );
        assert_eq!(
            source_line("fused[\"name\", \"x.mlir\":40:1, \"y.mlir\":2:2]"),
            at("x.mlir", 40)
        );
    }

    #[test]
    fn escaped_file_names_read_back() {
        let printed = format!("{:?}:5:6", "dir \"q\"\\n\u{1b}é.mlir");
        assert_eq!(source_line(&printed), at("dir \"q\"\\n\u{1b}é.mlir", 5));
    }

    #[test]
    fn no_position_is_none() {
        for text in [
            "",
            "unknown",
            "\"just a name\"",
            "\"unterminated:1:2",
            "\"f\":x:1",
            "\"f\":1",
            "\"f\":1:",
            "\"f\":99999999999999999999999:1",
        ] {
            assert_eq!(source_line(text), None, "{text:?}");
        }
    }
}
