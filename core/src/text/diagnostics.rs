//! Rendering diagnostics with a source excerpt, `// -----` chunks, and
//! `expected-error` (`-warning`, `-remark`, `-note`) annotations for
//! `--verify-diagnostics`.

use crate::ir::{Diagnostic, Severity};

/// `file:line:col: error: message` (`remark:` and so on for the other
/// severities), then the source line and a caret under the column (tabs
/// before the column are kept so the caret lines up). Finds the line by
/// scanning `source`; [`SourceLines`] renders many diagnostics of one
/// source without rescanning it.
pub fn render_diagnostic(diag: &Diagnostic, source: &str) -> String {
    render_with(diag, |line| source.lines().nth(line as usize - 1))
}

/// A source text with the start of each line found once, to render many
/// diagnostics about it (a stream analysis makes one per op).
#[derive(Debug, Clone)]
pub struct SourceLines<'a> {
    text: &'a str,
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
}

impl<'a> SourceLines<'a> {
    /// Indexes the lines of `text`.
    pub fn new(text: &'a str) -> SourceLines<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceLines { text, starts }
    }

    /// Line `line` (1-based), without its line break.
    pub fn line(&self, line: u32) -> Option<&'a str> {
        let index = (line as usize).checked_sub(1)?;
        let start = *self.starts.get(index)?;
        // As `str::lines`: no empty line after a final line break.
        if start >= self.text.len() {
            return None;
        }
        let end = self
            .starts
            .get(index + 1)
            .map_or(self.text.len(), |next| next - 1);
        let text = &self.text[start..end];
        Some(text.strip_suffix('\r').unwrap_or(text))
    }

    /// [`render_diagnostic`] with the indexed source.
    pub fn render(&self, diag: &Diagnostic) -> String {
        render_with(diag, |line| self.line(line))
    }
}

fn render_with<'s>(diag: &Diagnostic, line_text: impl FnOnce(u32) -> Option<&'s str>) -> String {
    let severity = diag.severity;
    let Some((file, line, column)) = diag.location.primary_position() else {
        return format!("{severity}: {}\n", diag.message);
    };
    let mut out = if file.is_empty() {
        format!("{line}:{column}: {severity}: {}\n", diag.message)
    } else {
        format!("{file}:{line}:{column}: {severity}: {}\n", diag.message)
    };
    if line == 0 {
        return out;
    }
    if let Some(text) = line_text(line) {
        let text = text.strip_suffix('\r').unwrap_or(text);
        out.push_str(text);
        out.push('\n');
        let col = (column as usize).saturating_sub(1);
        for (i, b) in text.bytes().enumerate() {
            if i >= col {
                break;
            }
            // Continuation bytes of a UTF-8 character take no column on screen.
            if b & 0xC0 == 0x80 {
                continue;
            }
            out.push(if b == b'\t' { '\t' } else { ' ' });
        }
        for _ in text.len()..col {
            out.push(' ');
        }
        out.push_str("^\n");
    }
    out
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
        assert_eq!(render_diagnostic(&d, src), "a.mlir:9:1: error: far\n");
        // Caret after the end of the line (e.g. "expected '}'" at EOF).
        let d = Diagnostic::new(Location::file_line_col("a.mlir", 3, 3), "x");
        assert_eq!(render_diagnostic(&d, src), "a.mlir:3:3: error: x\n}\n  ^\n");
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
