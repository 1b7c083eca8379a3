//! The `bef` binary end to end: exit codes, error format, output modes.

mod common;

use common::{bef, text};

#[test]
fn dump_lists_every_part() {
    let out = bef(&["dump", "corpus/bef/functions_and_aggregates.bef"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for needle in [
        "Sections:",
        "FunctionIndex",
        "Strings (14):",
        "aggregate    [\"s\", [1 : i32]]",
        "FunctionIndex (4):",
        "Functions (3):",
        "native  @native_fn(i32) -> (i32)",
        "[1] tfrt.call at 0x200",
        "loc \"golden.mlir\":3:10",
        "function [2] @sync_inc",
        "result %1 -> used by [2]",
        "Locations (",
    ] {
        assert!(stdout.contains(needle), "missing {needle:?} in:\n{stdout}");
    }
}

#[test]
fn dump_hex_json_section_and_stdin() {
    let out = bef(&["dump", "--hex", "corpus/bef/add_i32.bef"], None);
    assert!(text(&out.stdout).contains("bytes: ab ab ab ab cd cd cd cd"));

    let out = bef(&["dump", "--json", "corpus/bef/add_i32.bef"], None);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(json["functions"][0]["kernels"][1]["name"], "tfrt.add.i32");
    assert_eq!(json["size"], 202);

    let out = bef(
        &["dump", "--section", "kernels", "corpus/bef/add_i32.bef"],
        None,
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Kernels (1):") && !stdout.contains("Strings ("),
        "{stdout}"
    );

    let bytes = common::read_corpus("bef/add_i32.bef");
    let out = bef(&["dump", "-"], Some(&bytes));
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("tfrt.add.i32"));
}

/// Every section's `--section` listing is headed by its name as the
/// section table spells it, and shows only that section: its row of the
/// section table and its contents.
#[test]
fn dump_section_prints_only_that_section_under_its_name() {
    let file = "corpus/bef/functions_and_aggregates.bef";
    let whole = text(&bef(&["dump", file], None).stdout);
    for name in [
        "Strings",
        "Attributes",
        "Kernels",
        "Types",
        "FunctionIndex",
        "Functions",
        "LocationStrings",
        "Locations",
        "AttributeTypes",
        "AttributeNames",
        "RegisterTypes",
    ] {
        let row = whole
            .lines()
            .find(|l| l.contains(&format!(" {name:<17} ")))
            .unwrap_or_else(|| panic!("no row for {name} in:\n{whole}"));
        let out = bef(&["dump", "--section", name, file], None);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        // The section table: its column heading, then only this row.
        let table: Vec<&str> = stdout
            .lines()
            .skip_while(|l| *l != "Sections:")
            .skip(2)
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(table, [row], "{stdout}");
        let headings: Vec<&str> = stdout
            .lines()
            .filter(|l| l.ends_with("):") && !l.starts_with(' '))
            .collect();
        assert_eq!(headings.len(), 1, "{stdout}");
        assert!(headings[0].starts_with(&format!("{name} (")), "{stdout}");
    }
    // Other spellings of a name select the same section.
    let out = bef(&["dump", "--section", "attribute-names", file], None);
    assert!(text(&out.stdout).contains("kernel [1]: agg, nested"));
    let out = bef(
        &["dump", "--json", "--section", "register_types", file],
        None,
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<_> = json.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["register_types", "sections", "size", "version"]);
    assert_eq!(json["sections"].as_array().unwrap().len(), 1);
    assert_eq!(json["register_types"][1]["types"][3], "!tfrt.chain");
}

#[test]
fn dump_of_a_damaged_file_lists_what_decodes_and_fails() {
    let bytes = common::read_corpus("bef/functions_and_aggregates.bef");
    // Cut inside the third kernel of @main.
    let cut = &bytes[..0x240];
    let out = bef(&["dump", "-"], Some(cut));
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    for needle in [
        "Strings (14):",
        "Kernels (4):",
        "FunctionIndex (4):",
        "Function [0] <anonymous> (bef) at 0x15c",
        "[1] tfrt.call at 0x200",
        "error: kernel 2 of function 'main' runs past the end of the function",
    ] {
        assert!(stdout.contains(needle), "missing {needle:?} in:\n{stdout}");
    }
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "error: <stdin> is not valid BEF: Functions section needs 392 bytes but only 228 remain at offset 0x15c\n"
        ),
        "{stderr}"
    );
    let out = bef(&["dump", "--json", "-"], Some(cut));
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(json["functions"][1]["kernels"].as_array().unwrap().len(), 2);
    let errors = json["errors"].as_array().unwrap();
    assert!(errors.iter().any(|e| e["offset"] == 0x15c), "{errors:?}");
}

#[test]
fn bad_input_is_an_error_with_an_offset_never_a_panic() {
    let out = bef(&["dump", "-"], Some(&[0x0b, 0xef, 0x00, 0x04, 0x02, 0x85]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: <stdin> is not valid BEF: unexpected end of data reading function count at offset 0x6\n"
    );

    let out = bef(&["dump", "-"], Some(b"hello"));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("error: <stdin> is text, not BEF or MLIR bytecode"),
        "{}",
        text(&out.stderr)
    );

    let out = bef(&["dump", "no/such/file.bef"], None);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a missing path is a usage error"
    );
    assert!(text(&out.stderr).contains("no/such/file.bef does not exist"));

    let out = bef(
        &["dump", "--section", "bogus", "corpus/bef/add_i32.bef"],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "clap usage errors exit with 2");
    assert!(text(&out.stderr).contains("unknown section 'bogus'"));
}

#[test]
fn verify_reports_ok_and_problems() {
    let out = bef(&["verify", "corpus/bef/functions_and_aggregates.bef"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("OK (4 functions)"));

    let mut bytes = common::read_corpus("bef/add_i32.bef");
    // Make the add kernel read register 9 instead of register 1.
    let header = [0u8, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0];
    let at = bytes.windows(12).position(|w| w == header).unwrap();
    bytes[at + 32] = 9;
    let out = bef(&["verify", "-"], Some(&bytes));
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("kernel 1 of 'add' reads register 9 of 3 at offset 0x"),
        "{stderr}"
    );
}

const ADD_I32: &str = "func.func @add(%a: i32, %b: i32) -> i32 {\n  %c = tfrt.add.i32 %a, %b\n  tfrt.return %c : i32\n}\n";

#[test]
fn translate_detects_the_direction_and_round_trips() {
    let out = bef(&["translate", "-"], Some(ADD_I32.as_bytes()));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bef_bytes = out.stdout;
    assert_eq!(&bef_bytes[..3], &[0x0b, 0xef, 0x00]);
    let out = bef(&["translate", "-", "--print-debuginfo"], Some(&bef_bytes));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.contains("tfrt.add.i32"), "{printed}");
    assert!(printed.contains("loc("), "{printed}");
    let again = bef(
        &["translate", "--mlir-to-bef", "-"],
        Some(printed.as_bytes()),
    );
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(again.stdout, bef_bytes);
    // Generic form on request, reference spellings with one dash.
    let out = bef(
        &["translate", "-bef-to-mlir", "-mlir-print-op-generic", "-"],
        Some(&bef_bytes),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("\"tfrt.add.i32\"("),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn translate_reports_errors_with_source_line_and_caret() {
    let source = "func.func @f() {\n  %x = tfrt.constant.i32 1\n}\n";
    let out = bef(&["translate", "-"], Some(source.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("<stdin>:2:")
            && stderr.contains("error: all functions need to have a tfrt.return"),
        "{stderr}"
    );
    assert!(
        stderr.contains("%x = tfrt.constant.i32 1") && stderr.contains('^'),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn translate_verify_diagnostics_passes_on_the_error_corpus() {
    let dir = common::corpus_path("mlir/errors");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "mlir") {
            continue;
        }
        let relative = format!(
            "corpus/mlir/errors/{}",
            path.file_name().unwrap().to_str().unwrap()
        );
        let out = bef(
            &[
                "translate",
                "-mlir-to-bef",
                "-split-input-file",
                "-verify-diagnostics",
                &relative,
            ],
            None,
        );
        assert!(out.status.success(), "{relative}:\n{}", text(&out.stderr));
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn translate_verify_diagnostics_fails_on_mismatch() {
    let source = "// expected-error @+1 {{something else}}\nfunc.func @f() {\n  %x = tfrt.constant.i32 1\n}\n";
    let out = bef(
        &["translate", "--verify-diagnostics", "-"],
        Some(source.as_bytes()),
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("unexpected error: all functions need to have a tfrt.return"),
        "{stderr}"
    );
    assert!(
        stderr.contains("expected error \"something else\" was not produced"),
        "{stderr}"
    );
}

#[test]
fn kernels_lists_signatures_filtered_by_prefix() {
    let out = bef(&["kernels"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let all = text(&out.stdout);
    let add = all
        .lines()
        .find(|line| line.starts_with("tfrt.add.i32 "))
        .expect("tfrt.add.i32 listed");
    assert!(add.ends_with("  (i32, i32) -> (i32)"), "{add:?}");
    // One column of names: every signature starts at the same place.
    let starts: std::collections::BTreeSet<usize> = all
        .lines()
        .map(|line| line.find("  (").expect("name, two spaces, signature"))
        .collect();
    assert_eq!(starts.len(), 1, "{starts:?}");

    let out = bef(&["kernels", "btf."], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let btf = text(&out.stdout);
    assert!(btf.lines().count() > 1);
    assert!(btf.lines().all(|line| line.starts_with("btf.")), "{btf}");
    assert!(btf.contains("btf.read_dense_tensor.f32.2  (!tfrt.string, i32) -> (!t.tensor)"));
}

#[test]
fn kernels_with_an_unmatched_prefix_fails_with_the_prefix_escaped() {
    let out = bef(&["kernels", "nope\x1b[2J"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no registered kernel name starts with 'nope\\u{1b}[2J'"),
        "{stderr}"
    );
    assert!(!stderr.contains('\x1b'));
}

#[test]
fn kernels_help_explains_the_listing() {
    let out = bef(&["kernels", "--help"], None);
    assert!(out.status.success());
    let help = text(&out.stdout);
    assert!(help.contains("bef kernels tfrt_dht."), "{help}");
    assert!(help.contains("@function"), "{help}");
}

#[test]
fn dump_lists_a_btf_files_tensors_with_statistics() {
    let out = bef(&["dump", "corpus/btf/tensors.btf"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "corpus/btf/tensors.btf: BTF, 13 tensors, 688 bytes"
    );
    assert!(lines[1].trim_start().starts_with("#  dtype  layout  shape"));
    // Every column lines up with its heading: the headings end where the
    // right-aligned cells end.
    let end_of = |line: &str, word: &str| line.find(word).map(|at| at + word.len());
    assert_eq!(end_of(lines[1], "offset"), end_of(lines[2], " 112"));
    assert_eq!(end_of(lines[1], "mean"), end_of(lines[2], "1.375"));
    let words = |line: &str| -> Vec<String> { line.split_whitespace().map(String::from).collect() };
    // index, dtype, layout, shape, offset, data, min, max, mean, NaN, values
    assert_eq!(
        words(lines[2]),
        [
            "0", "f32", "dense", "[2,", "3]", "112", "144", "-2.0", "6.0", "1.375", "0", "[1.5,",
            "-2.0,", "3.25,", "0.0,", "-0.5,", "6.0]"
        ]
    );
    let coo = lines
        .iter()
        .find(|l| l.contains("COO"))
        .expect("the COO tensor");
    assert!(coo.contains("[3, 3] (2 stored)"), "{coo}");
    let empty = lines[14];
    assert!(empty.ends_with("-      -  []"), "{empty:?}");
}

#[test]
fn dump_of_a_damaged_btf_file_names_each_bad_records_part() {
    let out = bef(&["dump", "corpus/btf/truncated.btf"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("0  unreadable\n"));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "error: corpus/btf/truncated.btf is not valid BTF: the 62-byte file ends \
             before the end of tensor 0's elements"
        ),
        "{stderr}"
    );

    let out = bef(&["dump", "corpus/btf/overflow.btf"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("exceeds 64 bits"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn dump_of_a_btf_file_whose_offsets_run_past_its_end_fails_at_the_table() {
    // A count of 2^40 tensors in a 16-byte file.
    let mut hostile = (1u64 << 40).to_le_bytes().to_vec();
    hostile.extend_from_slice(&8u64.to_le_bytes());
    let out = bef(&["dump", "--btf", "-"], Some(&hostile));
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "<stdin> is not valid BTF: the file's tensor count field (at offset 0) declares \
             more tensors than its 16 bytes can hold"
        ),
        "{stderr}"
    );
}

#[test]
fn dump_reads_every_btf_fuzz_seed_without_crashing() {
    let mut seen = 0;
    for seed in bef_test_support::corpus::corpus_dir_files("fuzz/btf_read") {
        let bytes = std::fs::read(seed).expect("seed");
        let out = bef(&["dump", "--btf", "-"], Some(&bytes));
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{:?}: {}",
            out.status,
            text(&out.stderr)
        );
        seen += 1;
    }
    assert!(seen > 0);
}

#[test]
fn dump_refuses_bef_only_options_for_btf() {
    let out = bef(&["dump", "--json", "corpus/btf/tensors.btf"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("--section, --hex and --json apply to BEF files only"));
}
