//! Rendering diagnostics with a source excerpt, `// -----` chunks, and
//! `expected-error` (`-warning`, `-remark`, `-note`) annotations for
//! `--verify-diagnostics`.
//!
//! The excerpt is bounded whatever the location says: a long line is
//! quoted around the column only (elided with `…`), and a line or column
//! that is not in the source (past the end of the file or of the line, or
//! a sentinel such as 4294967295) is said to be so in a note instead of
//! being pointed at with a caret after gigabytes of padding.

use crate::ir::{Diagnostic, Severity};

/// Lines up to this many characters are quoted whole.
pub const MAX_QUOTED_LINE: usize = 240;

/// Characters quoted on either side of the column of a longer line.
const QUOTE_CONTEXT: usize = 100;

/// Where each line of a source text starts, so that the lines many
/// diagnostics quote are found without rescanning the text for each one.
/// Lines are what [`str::lines`] yields (a final newline ends the last
/// line; it does not start an empty one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of the start of each line. Four bytes a line: a text of
    /// 4 GiB or more is indexed up to its first 4 GiB only.
    starts: Vec<u32>,
}

impl LineIndex {
    /// Indexes the lines of `text`.
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = Vec::new();
        if !bytes.is_empty() {
            starts.push(0);
        }
        for (i, &b) in bytes.iter().enumerate() {
            let next = i + 1;
            if b == b'\n' && next < bytes.len() {
                let Ok(start) = u32::try_from(next) else {
                    break;
                };
                starts.push(start);
            }
        }
        LineIndex { starts }
    }

    /// Number of lines indexed.
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The 1-based `line` of `text` (the text this index was made from),
    /// without its line ending; `None` past the last line.
    pub fn line<'a>(&self, text: &'a str, line: u32) -> Option<&'a str> {
        let i = usize::try_from(line).ok()?.checked_sub(1)?;
        let start = *self.starts.get(i)? as usize;
        let rest = text.get(start..)?;
        let line = rest.split('\n').next().unwrap_or(rest);
        Some(line.strip_suffix('\r').unwrap_or(line))
    }
}

/// A source text with its lines indexed once, to render many diagnostics
/// about it (a stream analysis makes one per op).
#[derive(Debug, Clone)]
pub struct SourceLines<'a> {
    text: &'a str,
    index: LineIndex,
}

impl<'a> SourceLines<'a> {
    /// Indexes the lines of `text`.
    pub fn new(text: &'a str) -> SourceLines<'a> {
        SourceLines {
            text,
            index: LineIndex::new(text),
        }
    }

    /// Line `line` (1-based), without its line break.
    pub fn line(&self, line: u32) -> Option<&'a str> {
        self.index.line(self.text, line)
    }

    /// [`render_diagnostic`] with the indexed source.
    pub fn render(&self, diag: &Diagnostic) -> String {
        let line = match diag.location.primary_position() {
            Some((_, line, _)) => SourceLine::indexed(self.text, &self.index, line),
            None => SourceLine::Unavailable,
        };
        render_diagnostic_line(diag, line)
    }
}

/// The source line a diagnostic points into, as its renderer found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceLine<'a> {
    /// The source is not known: only the `file:line:col: error:` line is
    /// written.
    Unavailable,
    /// The line, without its line ending.
    Line(&'a str),
    /// The source has only `lines` lines, fewer than the location's line.
    PastEnd {
        /// Number of lines of the source.
        lines: usize,
    },
}

impl<'a> SourceLine<'a> {
    /// Line `line` of `source` (scanning it once); an empty `source` is
    /// taken as unknown.
    pub fn find(source: &'a str, line: u32) -> SourceLine<'a> {
        if source.is_empty() {
            return SourceLine::Unavailable;
        }
        let Some(index) = usize::try_from(line).ok().and_then(|l| l.checked_sub(1)) else {
            return SourceLine::Unavailable;
        };
        let mut count = 0;
        for (i, text) in source.lines().enumerate() {
            if i == index {
                return SourceLine::Line(text.strip_suffix('\r').unwrap_or(text));
            }
            count = i + 1;
        }
        SourceLine::PastEnd { lines: count }
    }

    /// Line `line` of `source` through its `index`; an empty `source` is
    /// taken as unknown.
    pub fn indexed(source: &'a str, index: &LineIndex, line: u32) -> SourceLine<'a> {
        if source.is_empty() || line == 0 {
            return SourceLine::Unavailable;
        }
        match index.line(source, line) {
            Some(text) => SourceLine::Line(text),
            None => SourceLine::PastEnd {
                lines: index.line_count(),
            },
        }
    }
}

/// `file:line:col: error: message`, then the source line and a caret under
/// the column (tabs before the column are kept so the caret lines up).
/// `source` is the text of the file the location names (empty when not
/// known); it is scanned once, so a caller rendering many diagnostics of
/// one file should index it and call [`render_diagnostic_line`].
pub fn render_diagnostic(diag: &Diagnostic, source: &str) -> String {
    let line = match diag.location.primary_position() {
        Some((_, line, _)) => SourceLine::find(source, line),
        None => SourceLine::Unavailable,
    };
    render_diagnostic_line(diag, line)
}

/// [`render_diagnostic`] with the source line already found. The output is
/// bounded by the message and file name plus a few hundred characters,
/// whatever the line and column.
pub fn render_diagnostic_line(diag: &Diagnostic, source_line: SourceLine<'_>) -> String {
    let mut out = format!("{diag}\n");
    let Some((_, line, column)) = diag.location.primary_position() else {
        return out;
    };
    if line == 0 {
        return out;
    }
    match source_line {
        SourceLine::Unavailable => {}
        SourceLine::PastEnd { lines } => {
            // Just after the last line is where the end of the file is
            // reported ("expected '}'"): a real position with nothing to
            // quote.
            let end_of_file = usize::try_from(line).is_ok_and(|l| l == lines + 1) && column <= 1;
            if !end_of_file {
                out.push_str(&format!(
                    "note: line {line} is past the end of the source, which has {lines} line{}\n",
                    if lines == 1 { "" } else { "s" }
                ));
            }
        }
        SourceLine::Line(text) => quote(&mut out, text, line, column),
    }
    out
}

/// Appends the quoted `text` (line `line`) and, if `column` lies on it or
/// just after its end, a caret under it; otherwise a note saying where
/// the column is.
fn quote(out: &mut String, text: &str, line: u32, column: u32) {
    let len = text.len();
    // Byte offset of the column (columns count bytes from 1, as MLIR's);
    // up to two past the last character, where the line's end is (its
    // `\r\n` taken off).
    let at = usize::try_from(column)
        .ok()
        .and_then(|c| c.checked_sub(1))
        .filter(|&at| at <= len + 1);
    let Some(mut at) = at else {
        // The column is past the line: quote its end, at most
        // MAX_QUOTED_LINE characters of it.
        let start = text
            .char_indices()
            .rev()
            .nth(MAX_QUOTED_LINE - 1)
            .map_or(0, |(i, _)| i);
        push_quoted(out, text, start, len, start);
        if column != 0 {
            out.push_str(&format!(
                "note: column {column} is past the end of line {line}, which has {len} column{}\n",
                if len == 1 { "" } else { "s" }
            ));
        }
        return;
    };
    while at < len && !text.is_char_boundary(at) {
        at -= 1;
    }
    // The quoted stretch: the whole line when short, else the characters
    // around the column.
    let chars = text.chars().count();
    let (start, end) = if chars <= MAX_QUOTED_LINE {
        (0, len)
    } else {
        let before = text[..at.min(len)]
            .char_indices()
            .rev()
            .nth(QUOTE_CONTEXT - 1);
        let start = before.map_or(0, |(i, _)| i);
        let end = text[at.min(len)..]
            .char_indices()
            .nth(QUOTE_CONTEXT)
            .map_or(len, |(i, _)| at + i);
        (start, end)
    };
    let mut indent = push_quoted(out, text, start, end, at);
    for _ in len..at {
        indent.push(' ');
    }
    out.push_str(&indent);
    out.push_str("^\n");
}

/// Appends `text[start..end]` as one line, `…` marking what is left out on
/// either side and control characters (but tabs) shown as `�`; returns the
/// padding that puts a caret under byte `at` of `text`.
fn push_quoted(out: &mut String, text: &str, start: usize, end: usize, at: usize) -> String {
    let mut indent = String::new();
    if start > 0 {
        out.push('…');
        indent.push(' ');
    }
    for (i, c) in text[start..end].char_indices() {
        let shown = if c == '\t' || !c.is_control() {
            c
        } else {
            '\u{FFFD}'
        };
        out.push(shown);
        if start + i < at {
            indent.push(if c == '\t' { '\t' } else { ' ' });
        }
    }
    if end < text.len() {
        out.push('…');
    }
    out.push('\n');
    indent
}

/// One `// -----` chunk of a split input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk<'a> {
    /// The chunk's text, without the separator lines.
    pub text: &'a str,
    /// 1-based line of the chunk's first line in the whole file.
    pub first_line: u32,
}

/// Splits at lines that are exactly `// -----` (modulo surrounding
/// whitespace). The separator lines belong to no chunk.
pub fn split_input(source: &str) -> Vec<Chunk<'_>> {
    let mut chunks = Vec::new();
    let mut start = 0usize;
    let mut first_line = 1u32;
    let mut line = 1u32;
    let mut pos = 0usize;
    while pos < source.len() {
        let end = source[pos..]
            .find('\n')
            .map_or(source.len(), |i| pos + i + 1);
        if source[pos..end].trim() == "// -----" {
            chunks.push(Chunk {
                text: &source[start..pos],
                first_line,
            });
            start = end;
            first_line = line + 1;
        }
        pos = end;
        line += 1;
    }
    chunks.push(Chunk {
        text: &source[start..],
        first_line,
    });
    chunks
}

/// An `expected-error` (`-warning`, `-remark`, `-note`) annotation: the
/// line the diagnostic must be reported on, its severity and (a substring
/// of) its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedDiagnostic {
    /// 1-based line of the whole file the diagnostic must be reported on.
    pub line: u32,
    /// Text the message must contain.
    pub message: String,
    /// The severity the diagnostic must have.
    pub severity: Severity,
}

/// The annotation keywords and the severity each expects.
const EXPECTATIONS: [(&str, Severity); 4] = [
    ("expected-error", Severity::Error),
    ("expected-warning", Severity::Warning),
    ("expected-remark", Severity::Remark),
    ("expected-note", Severity::Note),
];

/// The first annotation keyword in `text`: its byte offset, length and
/// severity.
fn next_expectation(text: &str) -> Option<(usize, usize, Severity)> {
    EXPECTATIONS
        .iter()
        .filter_map(|(word, severity)| text.find(word).map(|at| (at, word.len(), *severity)))
        .min_by_key(|(at, _, _)| *at)
}

/// Collects `// expected-error {{msg}}` annotations (and `expected-warning`,
/// `expected-remark`, `expected-note`), with `@+N`, `@-N`, `@above`,
/// `@below` line offsets. `first_line` is the file line of the first line
/// of `source`.
pub fn expected_diagnostics(source: &str, first_line: u32) -> Vec<ExpectedDiagnostic> {
    let mut out = Vec::new();
    for (i, text) in source.lines().enumerate() {
        let line = first_line + i as u32;
        let mut rest = text;
        while let Some((at, len, severity)) = next_expectation(rest) {
            rest = &rest[at + len..];
            let mut target = i64::from(line);
            let trimmed = rest.trim_start();
            let mut after = trimmed;
            if let Some(spec) = trimmed.strip_prefix('@') {
                let end = spec
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(spec.len());
                let offset = &spec[..end];
                target = match offset {
                    "above" => target - 1,
                    "below" => target + 1,
                    _ => match offset
                        .strip_prefix('+')
                        .or(Some(offset))
                        .and_then(|n| n.parse::<i64>().ok())
                    {
                        Some(n) => target + n,
                        None => continue,
                    },
                };
                after = spec[end..].trim_start();
            }
            let Some(body) = after.strip_prefix("{{") else {
                continue;
            };
            let Some(close) = body.find("}}") else {
                continue;
            };
            if target >= 1 && target <= i64::from(u32::MAX) {
                out.push(ExpectedDiagnostic {
                    line: target as u32,
                    message: body[..close].to_string(),
                    severity,
                });
            }
            rest = &body[close + 2..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Location;

    #[test]
    fn renders_caret() {
        let src = "func.func @f() {\n\t  %x = foo\n}\n";
        let d = Diagnostic::new(
            Location::file_line_col("a.mlir", 2, 9),
            "custom op 'foo' is unknown",
        );
        assert_eq!(
            render_diagnostic(&d, src),
            "a.mlir:2:9: error: custom op 'foo' is unknown\n\t  %x = foo\n\t       ^\n"
        );
        let d = Diagnostic::new(Location::Unknown, "boom");
        assert_eq!(render_diagnostic(&d, src), "error: boom\n");
        let d = Diagnostic::new(Location::file_line_col("a.mlir", 9, 1), "far");
        assert_eq!(
            render_diagnostic(&d, src),
            "a.mlir:9:1: error: far\nnote: line 9 is past the end of the source, which has 3 lines\n"
        );
        // The end of the file, just after the last line.
        let d = Diagnostic::new(Location::file_line_col("a.mlir", 4, 1), "expected '}'");
        assert_eq!(
            render_diagnostic(&d, src),
            "a.mlir:4:1: error: expected '}'\n"
        );
        // Caret after the end of the line (e.g. "expected '}'" at EOF).
        let d = Diagnostic::new(Location::file_line_col("a.mlir", 3, 3), "x");
        assert_eq!(render_diagnostic(&d, src), "a.mlir:3:3: error: x\n}\n  ^\n");
        // No source: the position only.
        let d = Diagnostic::new(Location::file_line_col("a.mlir", 2, 9), "x");
        assert_eq!(render_diagnostic(&d, ""), "a.mlir:2:9: error: x\n");
    }

    #[test]
    fn columns_past_the_line_are_noted_not_padded() {
        let src = "func.func @f() {\n  %x = foo\n}\n";
        for column in [13, 1000, u32::MAX] {
            let d = Diagnostic::new(Location::file_line_col("a.mlir", 2, column), "far out");
            assert_eq!(
                render_diagnostic(&d, src),
                format!(
                    "a.mlir:2:{column}: error: far out\n  %x = foo\n\
                     note: column {column} is past the end of line 2, which has 10 columns\n"
                )
            );
        }
        let d = Diagnostic::new(Location::file_line_col("a.mlir", u32::MAX, u32::MAX), "x");
        assert_eq!(
            render_diagnostic(&d, src),
            "a.mlir:4294967295:4294967295: error: x\n\
             note: line 4294967295 is past the end of the source, which has 3 lines\n"
        );
        // Column 0 names the line only.
        let d = Diagnostic::new(Location::file_line_col("a.mlir", 2, 0), "x");
        assert_eq!(
            render_diagnostic(&d, src),
            "a.mlir:2:0: error: x\n  %x = foo\n"
        );
    }

    #[test]
    fn long_lines_are_quoted_around_the_column() {
        let line = format!("{}HERE{}", "a".repeat(1_000_000), "b".repeat(1_000_000));
        let src = format!("first\n{line}\nlast\n");
        let d = Diagnostic::new(Location::file_line_col("a.mlir", 2, 1_000_001), "here");
        let out = render_diagnostic(&d, &src);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        let quoted = format!(
            "…{}HERE{}…",
            "a".repeat(QUOTE_CONTEXT),
            "b".repeat(QUOTE_CONTEXT - 4)
        );
        assert_eq!(lines[1], quoted);
        assert_eq!(lines[2], format!("{}^", " ".repeat(QUOTE_CONTEXT + 1)));
        assert!(out.len() < 3 * MAX_QUOTED_LINE, "{} bytes", out.len());
        // At either end of the line, one side is elided.
        let d = Diagnostic::new(Location::file_line_col("a.mlir", 2, 1), "start");
        let out = render_diagnostic(&d, &src);
        assert!(out.lines().nth(1).unwrap().starts_with("aaa"), "{out}");
        assert!(out.lines().nth(1).unwrap().ends_with("a…"), "{out}");
        assert!(out.ends_with("\n^\n"), "{out}");
        let d = Diagnostic::new(Location::file_line_col("a.mlir", 2, 2_000_005), "end");
        let out = render_diagnostic(&d, &src);
        assert!(out.lines().nth(1).unwrap().starts_with("…b"), "{out}");
        assert!(out.len() < 3 * MAX_QUOTED_LINE, "{} bytes", out.len());
        // Multi-byte characters count as one column on screen.
        let wide = format!("{}é{}", "é".repeat(300), "x");
        let d = Diagnostic::new(Location::file_line_col("w.mlir", 1, 601), "x");
        let out = render_diagnostic(&d, &wide);
        let caret = out.lines().nth(2).unwrap();
        assert_eq!(caret.len(), QUOTE_CONTEXT + 2, "{out}");
    }

    #[test]
    fn control_characters_are_not_written_to_the_terminal() {
        let d = Diagnostic::new(Location::file_line_col("\u{1b}[2Jx", 1, 3), "boom");
        let out = render_diagnostic(&d, "a\u{7}b\tc\n");
        assert_eq!(out, "\\u{1b}[2Jx:1:3: error: boom\na\u{FFFD}b\tc\n  ^\n");
    }

    #[test]
    fn indexed_lines_match_a_scan() {
        for src in ["", "a", "a\n", "a\r\nb", "a\n\nb\n", "\n"] {
            let index = LineIndex::new(src);
            assert_eq!(index.line_count(), src.lines().count(), "{src:?}");
            for line in 0..5u32 {
                assert_eq!(
                    SourceLine::indexed(src, &index, line),
                    if line == 0 {
                        SourceLine::Unavailable
                    } else {
                        SourceLine::find(src, line)
                    },
                    "{src:?} line {line}"
                );
            }
        }
    }

    #[test]
    fn splits() {
        let src = "a\n// -----\nb\nc\n  // -----  \nd";
        let chunks = split_input(src);
        assert_eq!(
            chunks,
            vec![
                Chunk {
                    text: "a\n",
                    first_line: 1
                },
                Chunk {
                    text: "b\nc\n",
                    first_line: 3
                },
                Chunk {
                    text: "d",
                    first_line: 6
                },
            ]
        );
        assert_eq!(split_input("x").len(), 1);
        assert_eq!(split_input("// ------\n").len(), 1);
    }

    #[test]
    fn expectations() {
        let src = "foo // expected-error {{bad thing}}\n\
                   // expected-error @+1 {{next}}\n\
                   bar\n\
                   // expected-error@-2 {{up}} expected-error @above {{prev}}\n\
                   // expected-error @below {{down}}\n\
                   // expected-error {{unterminated\n";
        let e = expected_diagnostics(src, 10);
        let pairs: Vec<(u32, &str)> = e.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(
            pairs,
            vec![
                (10, "bad thing"),
                (12, "next"),
                (11, "up"),
                (12, "prev"),
                (15, "down")
            ]
        );
    }

    #[test]
    fn expectations_carry_their_severity() {
        let src = "// expected-remark@+1 {{stream id: 0}}\n\
                   op // expected-warning {{w}} expected-note {{n}}\n\
                   // expected-error {{e}}\n";
        let e = expected_diagnostics(src, 1);
        let got: Vec<(u32, Severity, &str)> = e
            .iter()
            .map(|d| (d.line, d.severity, d.message.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (2, Severity::Remark, "stream id: 0"),
                (2, Severity::Warning, "w"),
                (2, Severity::Note, "n"),
                (3, Severity::Error, "e"),
            ]
        );
    }

    #[test]
    fn renders_the_severity() {
        let d = Diagnostic::remark(Location::file_line_col("a.mlir", 1, 1), "stream id: 0");
        assert_eq!(
            render_diagnostic(&d, "x\n"),
            "a.mlir:1:1: remark: stream id: 0\nx\n^\n"
        );
        assert_eq!(d.to_string(), "a.mlir:1:1: remark: stream id: 0");
    }

    #[test]
    fn indexed_lines_render_as_the_scan_does() {
        let src = "a\r\n\tbb\n\nccc";
        let lines = SourceLines::new(src);
        for line in 0..=6 {
            assert_eq!(
                lines.line(line),
                line.checked_sub(1)
                    .and_then(|l| src.lines().nth(l as usize)),
                "line {line}"
            );
            let d = Diagnostic::new(Location::file_line_col("f", line, 2), "m");
            assert_eq!(lines.render(&d), render_diagnostic(&d, src));
        }
        assert_eq!(SourceLines::new("x\n").line(2), None);
        assert_eq!(SourceLines::new("").line(1), None);
    }
}
