//! Printing is a fixed point for every program under `corpus/`: each
//! `// -----` chunk that parses prints (custom and generic forms, with and
//! without locations), parses back and prints to the same text, as
//! `bef opt %s | bef opt` relies on. With locations the module parsed back
//! is the one printed. The same holds through the `bef opt` command.

mod common;

use std::path::PathBuf;

use bef::ir::Module;
use bef::text::{PrintOptions, parse_module, print_module, render_diagnostic, split_input};

/// Every `.mlir` file under `corpus/`, sorted.
fn programs() -> Vec<PathBuf> {
    let mut stack = vec![common::corpus_path("")];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "mlir") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

const OPTIONS: [PrintOptions; 4] = [
    PrintOptions {
        generic: false,
        debug_info: false,
    },
    PrintOptions {
        generic: false,
        debug_info: true,
    },
    PrintOptions {
        generic: true,
        debug_info: false,
    },
    PrintOptions {
        generic: true,
        debug_info: true,
    },
];

/// Checks one parsed module in every print style; returns the problems.
fn check(name: &str, module: &Module) -> Vec<String> {
    let mut problems = Vec::new();
    for options in OPTIONS {
        let first = print_module(module, options);
        let back = match parse_module(&first, name) {
            Ok(back) => back,
            Err(d) => {
                problems.push(format!(
                    "{name} ({options:?}): the printed text does not parse:\n{}{first}",
                    render_diagnostic(&d, &first)
                ));
                continue;
            }
        };
        let second = print_module(&back, options);
        if second != first {
            problems.push(format!(
                "{name} ({options:?}): printing is not a fixed point\nfirst:\n{first}\nsecond:\n{second}"
            ));
        }
        if options.debug_info && back != *module {
            problems.push(format!(
                "{name} ({options:?}): the module parsed back differs from the one printed\n{first}"
            ));
        }
    }
    problems
}

#[test]
fn printing_every_corpus_program_is_a_fixed_point() {
    let mut checked = 0;
    let mut problems = Vec::new();
    for path in programs() {
        let source =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.display().to_string();
        for chunk in split_input(&source) {
            // Programs that must not parse (error tests, fuzz seeds) have
            // nothing to print.
            let Ok(module) = bef::text::parse_module_at(chunk.text, &name, chunk.first_line) else {
                continue;
            };
            problems.extend(check(&name, &module));
            checked += 1;
        }
    }
    assert!(checked > 150, "only {checked} programs checked");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn bef_opt_output_is_a_fixed_point() {
    let mut checked = 0;
    for path in programs() {
        let rel = path.strip_prefix(common::repo_root()).unwrap_or(&path);
        let rel = rel.to_str().expect("UTF-8 path");
        let first = common::bef(
            &[
                "opt",
                "--allow-unregistered-dialect",
                "--split-input-file",
                rel,
            ],
            None,
        );
        if !first.status.success() {
            continue;
        }
        let second = common::bef(
            &[
                "opt",
                "--allow-unregistered-dialect",
                "--split-input-file",
                "-",
            ],
            Some(&first.stdout),
        );
        assert!(
            second.status.success(),
            "{rel}: bef opt does not read its own output:\n{}",
            String::from_utf8_lossy(&second.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&second.stdout),
            String::from_utf8_lossy(&first.stdout),
            "{rel}: bef opt | bef opt changed the text"
        );
        checked += 1;
    }
    assert!(
        checked > 100,
        "only {checked} programs went through bef opt"
    );
}
