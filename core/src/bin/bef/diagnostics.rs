//! `--verify-diagnostics`: errors a program produces are matched against
//! the `// expected-error {{...}}` annotations of its source, as MLIR's
//! verifier does: same line, the expected text a substring of the message,
//! each annotation used once. Matched errors are not printed.

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
                !used[i] && e.line == line && diagnostic.message.contains(&e.message)
            })
        });
        match matched {
            Some(i) => used[i] = true,
            None => {
                let unexpected = Diagnostic::new(
                    diagnostic.location.clone(),
                    format!("unexpected error: {}", diagnostic.message),
                );
                problems.push(render(&unexpected));
            }
        }
    }
    for (e, _) in expected.iter().zip(&used).filter(|(_, used)| !**used) {
        problems.push(format!(
            "{file}:{}: error: expected error \"{}\" was not produced",
            e.line, e.message
        ));
    }
    Check { problems }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bef::ir::Location;

    fn at(line: u32, message: &str) -> Diagnostic {
        Diagnostic::new(Location::file_line_col("f.mlir", line, 3), message)
    }

    fn expect(line: u32, message: &str) -> ExpectedDiagnostic {
        ExpectedDiagnostic {
            line,
            message: message.into(),
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
}
