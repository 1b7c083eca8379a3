//! `--verify-diagnostics`: diagnostics a program produces are matched
//! against the `// expected-error {{...}}` (`expected-remark`, ...)
//! annotations of its source, as MLIR's verifier does: same line, same
//! severity, the expected text a substring of the message, each annotation
//! used once. Matched diagnostics are not printed.

use bef::ir::Diagnostic;
use bef::text::ExpectedDiagnostic;

/// Outcome of checking one chunk.
#[derive(Debug, Default)]
pub struct Check {
    /// Lines to print on stderr, each a complete diagnostic.
    pub problems: Vec<String>,
}

impl Check {
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Matches `produced` against `expected`. `file` names the source for
/// messages about annotations.
pub fn check(
    file: &str,
    produced: &[Diagnostic],
    expected: &[ExpectedDiagnostic],
    render: impl Fn(&Diagnostic) -> String,
) -> Check {
    let mut used = vec![false; expected.len()];
    let mut problems = Vec::new();
    for diagnostic in produced {
        let line = diagnostic
            .location
            .primary_position()
            .filter(|(f, _, _)| *f == file)
            .map(|(_, line, _)| line);
        let matched = line.and_then(|line| {
            expected.iter().enumerate().position(|(i, e)| {
                !used[i]
                    && e.line == line
                    && e.severity == diagnostic.severity
                    && diagnostic.message.contains(&e.message)
            })
        });
        match matched {
            Some(i) => used[i] = true,
            None => {
                // Reported as an error whatever its severity: it fails the check.
                let unexpected = Diagnostic::new(
                    diagnostic.location.clone(),
                    format!("unexpected {}: {}", diagnostic.severity, diagnostic.message),
                );
                problems.push(render(&unexpected));
            }
        }
    }
    for (e, _) in expected.iter().zip(&used).filter(|(_, used)| !**used) {
        problems.push(format!(
            "{file}:{}: error: expected {} \"{}\" was not produced",
            e.line, e.severity, e.message
        ));
    }
    Check { problems }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bef::ir::{Location, Severity};

    fn at(line: u32, message: &str) -> Diagnostic {
        Diagnostic::new(Location::file_line_col("f.mlir", line, 3), message)
    }

    fn expect(line: u32, message: &str) -> ExpectedDiagnostic {
        ExpectedDiagnostic {
            line,
            message: message.into(),
            severity: Severity::Error,
        }
    }

    #[test]
    fn matches_by_line_and_substring_once_each() {
        let produced = [
            at(4, "function @f not defined"),
            at(4, "function @g not defined"),
        ];
        let expected = [expect(4, "@f not"), expect(4, "not defined")];
        assert!(check("f.mlir", &produced, &expected, |d| d.to_string()).passed());
    }

    #[test]
    fn reports_unexpected_and_missing() {
        let produced = [at(5, "boom")];
        let expected = [expect(4, "boom")];
        let result = check("f.mlir", &produced, &expected, |d| d.to_string());
        assert_eq!(
            result.problems,
            [
                "f.mlir:5:3: error: unexpected error: boom",
                "f.mlir:4: error: expected error \"boom\" was not produced"
            ]
        );
    }

    #[test]
    fn severities_must_agree() {
        let remark = Diagnostic::remark(Location::file_line_col("f.mlir", 2, 1), "stream id: 0");
        let expected = [ExpectedDiagnostic {
            severity: Severity::Remark,
            ..expect(2, "stream id")
        }];
        assert!(
            check("f.mlir", std::slice::from_ref(&remark), &expected, |d| d
                .to_string())
            .passed()
        );
        let result = check("f.mlir", &[remark], &[expect(2, "stream id")], |d| {
            d.to_string()
        });
        assert_eq!(
            result.problems,
            [
                "f.mlir:2:1: error: unexpected remark: stream id: 0",
                "f.mlir:2: error: expected error \"stream id\" was not produced"
            ]
        );
    }
}
