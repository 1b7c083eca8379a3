//! `bef translate` with MLIR bytecode on either side: bytecode → text,
//! text → bytecode (version, producer, warnings), bytecode → BEF, and
//! errors for malformed bytecode and bad options.

mod common;

use bef::bytecode::{self, Structure};
use bef::ir::Module;
use bef::text::{PrintOptions, parse_module, print_module};

use common::{bef, text};

/// Relative to the repository root (the commands' working directory).
const VECTORS: &str = "corpus/vectors/mlir-bytecode";

fn vector(name: &str) -> String {
    format!("{VECTORS}/{name}")
}

fn read_vector(name: &str) -> Vec<u8> {
    common::read_corpus(&format!("vectors/mlir-bytecode/{name}"))
}

fn repo_file(path: &str) -> Vec<u8> {
    let path = common::repo_root().join(path);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The IR alone, in the form the reader gives it (inherent attributes of
/// known ops in their properties).
fn ir(mut m: Module) -> Module {
    m.origin = None;
    bytecode::ops::split_all_inherent_attributes(&mut m);
    m
}

#[test]
fn bytecode_input_prints_as_text() {
    let bytes = read_vector("func_arith.v6.mlirbc");
    let expected = print_module(
        &bytecode::read_aligned(&bytes).unwrap(),
        PrintOptions {
            generic: true,
            debug_info: true,
        },
    );
    let path = vector("func_arith.v6.mlirbc");
    for args in [
        vec!["translate", "--print-generic", "--print-debuginfo", &path],
        // The direction may also be given explicitly, and stdin works.
        vec![
            "translate",
            "--bef-to-mlir",
            "-mlir-print-op-generic",
            "-mlir-print-debuginfo",
            "-",
        ],
    ] {
        let out = bef(&args, Some(&bytes));
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), expected, "{args:?}");
    }
}

#[test]
fn text_to_bytecode_honours_version_and_producer() {
    let source = text(&repo_file("corpus/mlir/basic_add_i32.mlir"));
    // Locations name the file as given on the command line.
    let parsed = ir(parse_module(&source, "corpus/mlir/basic_add_i32.mlir").unwrap());
    let from_stdin = ir(parse_module(&source, "<stdin>").unwrap());

    let out = bef(
        &[
            "translate",
            "--emit-bytecode",
            "corpus/mlir/basic_add_i32.mlir",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let s = Structure::parse(&out.stdout).unwrap();
    assert_eq!(s.version, 6);
    assert_eq!(s.producer, bytecode::DEFAULT_PRODUCER);
    assert_eq!(ir(bytecode::read_aligned(&out.stdout).unwrap()), parsed);

    for version in 0..=6u64 {
        let v = version.to_string();
        let out = bef(
            &[
                "translate",
                "-emit-bytecode",
                "--bytecode-version",
                &v,
                "--bytecode-producer",
                "bef tests",
                "-",
            ],
            Some(source.as_bytes()),
        );
        assert!(out.status.success(), "v{v}: {}", text(&out.stderr));
        let s = Structure::parse(&out.stdout).unwrap();
        assert_eq!((s.version, s.producer), (version, "bef tests"));
        assert_eq!(
            ir(bytecode::read_aligned(&out.stdout).unwrap()),
            from_stdin,
            "v{v}"
        );
    }
}

#[test]
fn bytecode_rewrites_to_identical_bytes_through_the_cli() {
    let bytes = read_vector("func_arith.v4.mlirbc");
    let producer = Structure::parse(&bytes).unwrap().producer.to_string();
    let out = bef(
        &[
            "translate",
            "--emit-bytecode",
            "--bytecode-version",
            "4",
            "--bytecode-producer",
            &producer,
            &vector("func_arith.v4.mlirbc"),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout == bytes, "re-written bytes differ");
}

#[test]
fn bytecode_translates_to_the_same_bef_as_text() {
    let from_text = bef(
        &[
            "translate",
            "--mlir-to-bef",
            "corpus/mlir/basic_add_i32.mlir",
        ],
        None,
    );
    assert!(from_text.status.success(), "{}", text(&from_text.stderr));
    let bc = bef(
        &[
            "translate",
            "--emit-bytecode",
            "corpus/mlir/basic_add_i32.mlir",
        ],
        None,
    );
    assert!(bc.status.success());
    let from_bc = bef(&["translate", "--mlir-to-bef", "-"], Some(&bc.stdout));
    assert!(from_bc.status.success(), "{}", text(&from_bc.stderr));
    assert!(from_bc.stdout == from_text.stdout, "BEF bytes differ");
}

#[test]
fn older_versions_warn_about_what_they_drop() {
    let out = bef(
        &[
            "translate",
            "--emit-bytecode",
            "--bytecode-version",
            "4",
            &vector("unregistered.v6.mlirbc"),
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("warning: ") && stderr.contains("cannot be expressed before version 5"),
        "{stderr}"
    );
    assert_eq!(Structure::parse(&out.stdout).unwrap().version, 4);
    // Version 5 holds the same module without a warning.
    let out = bef(
        &[
            "translate",
            "--emit-bytecode",
            "--bytecode-version",
            "5",
            &vector("unregistered.v6.mlirbc"),
        ],
        None,
    );
    assert!(out.status.success() && out.stderr.is_empty());
}

#[test]
fn malformed_bytecode_and_bad_options_fail() {
    let out = bef(
        &["translate", &vector("invalid/truncated_half.mlirbc")],
        None,
    );
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("error: ")
            && stderr.contains(": byte ")
            && stderr.contains("attempting to parse"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());

    for args in [
        vec![
            "translate",
            "--emit-bytecode",
            "--bytecode-version",
            "7",
            "-",
        ],
        // Version and producer only make sense when writing bytecode.
        vec!["translate", "--bytecode-version", "3", "-"],
        vec!["translate", "--emit-bytecode", "--mlir-to-bef", "-"],
    ] {
        let out = bef(&args, Some(b"module {}\n"));
        assert!(!out.status.success(), "{args:?} succeeded");
    }

    // BEF is not an input for bytecode output.
    let out = bef(
        &["translate", "--emit-bytecode", "corpus/bef/add_i32.bef"],
        None,
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("is BEF"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn dump_lists_the_framing_of_bytecode() {
    let path = vector("dense_resources.v6.mlirbc");
    let out = bef(&["dump", &path], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let bytes = read_vector("dense_resources.v6.mlirbc");
    let s = Structure::parse(&bytes).unwrap();
    let ir_section = s.sections.iter().find(|x| x.id == 4).unwrap();
    for needle in [
        format!("MLIR bytecode, {} bytes", bytes.len()),
        "Version: 6".to_string(),
        format!("Producer: {:?}", s.producer),
        format!("{:#08x}  IR ", ir_section.header_offset),
        "Dialects (".to_string(),
        "] builtin".to_string(),
        "Op names (".to_string(),
        "registered".to_string(),
        "Attributes (".to_string(),
        "Types (".to_string(),
        "bytes: ".to_string(),
        "Resources (".to_string(),
        "blob, alignment".to_string(),
        "Properties (".to_string(),
    ] {
        assert!(stdout.contains(&needle), "missing {needle:?} in:\n{stdout}");
    }
    // Every op name of the file is listed.
    for op in &s.op_names {
        let name = op.full_name(&s.table.dialects);
        assert!(stdout.contains(&name), "missing op {name}");
    }

    // --hex shows whole entries, so the listing only grows.
    let long = bef(&["dump", "--hex", &path], None);
    assert!(long.status.success());
    assert!(long.stdout.len() > out.stdout.len());

    let out = bef(
        &["dump", &vector("invalid/invalid_section_id.mlirbc")],
        None,
    );
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("byte ") && stderr.contains("invalid section ID: 9"),
        "{stderr}"
    );

    let out = bef(&["dump", "--json", &path], None);
    assert!(!out.status.success());
}
