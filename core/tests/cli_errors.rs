//! The `bef` command as a person meets it: its help, and a clear message
//! with the documented exit status for every way of getting it wrong.
//!
//! The rule (`bef --help`): 0 success; 1 an error in the input or the
//! program (empty, of the wrong kind, malformed, rejected, failing when
//! run); 2 a usage error, whatever the input holds (bad or conflicting
//! options, a path that does not exist or is a directory).
//!
//! Inputs: `corpus/cli/` holds an empty file (`empty.bef`), the first 100
//! bytes of `corpus/bef/add_i32.bef` (`truncated.bef`) and 64 bytes that
//! are neither BEF, MLIR bytecode nor text (`random.bin`).

mod common;

use std::process::Output;

use common::{bef, text};

const SUBCOMMANDS: [&str; 4] = ["translate", "run", "dump", "verify"];
const MLIR: &str = "corpus/mlir/basic_add_i32.mlir";
const BEF: &str = "corpus/bef/add_i32.bef";
const BYTECODE: &str = "corpus/vectors/mlir-bytecode/builtin_encodings.v0.mlirbc";
const EMPTY: &str = "corpus/cli/empty.bef";
const TRUNCATED: &str = "corpus/cli/truncated.bef";
const RANDOM: &str = "corpus/cli/random.bin";

/// Checks the exit status and that standard error is exactly `stderr`
/// (one `error: ...` line).
#[track_caller]
fn assert_error(out: &Output, status: i32, stderr: &str) {
    assert_eq!(
        (out.status.code(), text(&out.stderr).as_str()),
        (Some(status), format!("error: {stderr}\n").as_str()),
        "stdout: {}",
        text(&out.stdout)
    );
}

/// Checks the exit status and that standard error contains every needle.
#[track_caller]
fn assert_fails(out: &Output, status: i32, needles: &[&str]) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(status), "stderr: {stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "missing {needle:?} in:\n{stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

fn ensure_corpus() {
    for path in [MLIR, BEF, BYTECODE, EMPTY, TRUNCATED, RANDOM] {
        common::corpus_path(path.trim_start_matches("corpus/"));
    }
}

// --- help -------------------------------------------------------------

#[test]
fn top_level_help_has_one_line_summaries_and_the_exit_status_rule() {
    let out = bef(&["--help"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let help = text(&out.stdout);
    for sub in SUBCOMMANDS {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{sub} ")))
            .unwrap_or_else(|| panic!("no summary of {sub} in:\n{help}"));
        assert!(
            line.len() <= 80,
            "summary of {sub} longer than a line: {line}"
        );
    }
    for needle in [
        "Exit status:",
        "0  success",
        "1  an error in the input or the program",
        "a runtime error",
        "2  a usage error, whatever the input holds",
        "path that does not",
        "exist, is a directory",
    ] {
        assert!(help.contains(needle), "missing {needle:?} in:\n{help}");
    }
}

#[test]
fn each_subcommand_help_has_an_example() {
    for sub in SUBCOMMANDS {
        for flag in ["--help", "-h"] {
            let out = bef(&[sub, flag], None);
            assert!(out.status.success(), "{sub} {flag}");
            let help = text(&out.stdout);
            assert!(
                help.contains("Examples:") && help.contains(&format!("  bef {sub} ")),
                "{sub} {flag}:\n{help}"
            );
        }
    }
    // The long help has the full description, the short one a line.
    let long = text(&bef(&["translate", "--help"], None).stdout);
    assert!(long.contains("The direction follows the input"), "{long}");
}

// --- paths: usage errors (2) ------------------------------------------

#[test]
fn a_directory_as_input_is_a_usage_error() {
    let wants = [
        ("translate", "MLIR text, MLIR bytecode or a BEF file"),
        ("run", "a BEF file, MLIR text or MLIR bytecode"),
        ("dump", "a BEF, MLIR bytecode or BTF file"),
        ("verify", "a BEF file"),
    ];
    for (sub, wanted) in wants {
        let out = bef(&[sub, "corpus"], None);
        assert_error(
            &out,
            2,
            &format!("corpus is a directory; `bef {sub}` takes {wanted}"),
        );
        assert!(out.stdout.is_empty(), "{sub}");
    }
}

#[test]
fn a_missing_input_is_a_usage_error() {
    for sub in SUBCOMMANDS {
        let out = bef(&[sub, "no/such/file.bef"], None);
        assert_error(&out, 2, "no/such/file.bef does not exist");
    }
}

#[test]
fn an_output_that_cannot_be_created_is_a_usage_error_found_first() {
    ensure_corpus();
    let out = bef(&["translate", MLIR, "-o", "corpus"], None);
    assert_error(&out, 2, "output corpus is a directory; give a file name");
    let out = bef(&["translate", MLIR, "-o", "no/such/dir/x.bef"], None);
    assert_error(
        &out,
        2,
        "cannot write no/such/dir/x.bef: its directory does not exist",
    );
    let out = bef(&["translate", MLIR, "-o", MLIR], None);
    assert_error(
        &out,
        2,
        &format!("output {MLIR} is an input; give another name"),
    );
    let out = bef(
        &[
            "translate",
            MLIR,
            "-o",
            "corpus/mlir/../mlir/basic_add_i32.mlir",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // Found before the input is read: a bad input does not matter.
    let out = bef(&["translate", RANDOM, "-o", "corpus"], None);
    assert_eq!(out.status.code(), Some(2));
}

// --- empty input (1) -----------------------------------------------------

#[test]
fn an_empty_input_is_an_input_error() {
    ensure_corpus();
    let wants = [
        ("translate", "MLIR text, MLIR bytecode or a BEF file"),
        ("run", "a BEF file, MLIR text or MLIR bytecode"),
        ("dump", "a BEF, MLIR bytecode or BTF file"),
        ("verify", "a BEF file"),
    ];
    for (sub, wanted) in wants {
        let out = bef(&[sub, EMPTY], None);
        assert_error(
            &out,
            1,
            &format!("{EMPTY} is empty; `bef {sub}` takes {wanted}"),
        );
        assert!(out.stdout.is_empty(), "{sub}");
        // The same from an empty pipe.
        let out = bef(&[sub, "-"], Some(b""));
        assert_error(
            &out,
            1,
            &format!("<stdin> is empty; `bef {sub}` takes {wanted}"),
        );
    }
}

// --- wrong kind of file (1) -------------------------------------------

#[test]
fn mlir_text_where_bef_is_wanted_says_how_to_translate_it() {
    ensure_corpus();
    let hint = "translate it first with `bef translate corpus/mlir/basic_add_i32.mlir -o corpus/mlir/basic_add_i32.bef`";
    let out = bef(&["verify", MLIR], None);
    assert_error(&out, 1, &format!("{MLIR} is MLIR text, not BEF; {hint}"));
    let out = bef(&["dump", MLIR], None);
    assert_error(
        &out,
        1,
        &format!("{MLIR} is MLIR text, not BEF or MLIR bytecode; {hint}"),
    );
    // From a pipe, the hint is a pipe.
    let source = common::read_corpus("mlir/basic_add_i32.mlir");
    let out = bef(&["verify", "-"], Some(&source));
    assert_error(
        &out,
        1,
        "<stdin> is MLIR text, not BEF; translate it first: `bef translate - | bef verify -`",
    );
}

#[test]
fn bytecode_where_bef_is_wanted_says_how_to_translate_it() {
    ensure_corpus();
    let hint = format!(
        "translate it first with `bef translate --mlir-to-bef {BYTECODE} -o {}`",
        BYTECODE.replace(".mlirbc", ".bef")
    );
    let out = bef(&["verify", BYTECODE], None);
    assert_error(
        &out,
        1,
        &format!("{BYTECODE} is MLIR bytecode, not BEF; {hint}"),
    );
    // `bef run` translates bytecode as it does text.
    let program = "corpus/conformance/call_nested.mlir";
    let translated = bef(&["translate", "--emit-bytecode", program], None);
    assert!(translated.status.success(), "{}", text(&translated.stderr));
    let from_bytecode = bef(&["run", "-"], Some(&translated.stdout));
    let from_text = bef(&["run", program], None);
    assert!(
        from_bytecode.status.success(),
        "{}",
        text(&from_bytecode.stderr)
    );
    assert_eq!(text(&from_bytecode.stdout), text(&from_text.stdout));
    // Dump lists bytecode, but its BEF-only options do not apply.
    let out = bef(&["dump", "--section", "kernels", BYTECODE], None);
    assert_error(
        &out,
        1,
        &format!("{BYTECODE} is MLIR bytecode; --section and --json apply to BEF files only"),
    );
}

#[test]
fn random_bytes_are_named_by_their_first_bytes() {
    ensure_corpus();
    let tail = "it starts with the bytes 7f 45 4c 46, where BEF starts with 0b ef and MLIR bytecode with 4d 4c ef 52 (`ML\\xefR`)";
    for (sub, wanted) in [
        ("dump", "BEF or MLIR bytecode"),
        ("verify", "BEF"),
        ("run", "BEF, MLIR text or MLIR bytecode"),
        ("translate", "MLIR text, MLIR bytecode or a BEF file"),
    ] {
        let out = bef(&[sub, RANDOM], None);
        assert_error(&out, 1, &format!("{RANDOM} is not {wanted}: {tail}"));
    }
    let out = bef(&["dump", "-"], Some(b"hello"));
    assert_error(&out, 1, "<stdin> is text, not BEF or MLIR bytecode");
}

// --- malformed BEF: format errors (1), never runtime errors ---------------

#[test]
fn a_truncated_bef_is_a_format_error_with_its_offset_in_every_command() {
    ensure_corpus();
    let message = format!(
        "{TRUNCATED} is not valid BEF: Functions section needs 112 bytes but only 48 remain at offset 0x34"
    );
    for sub in SUBCOMMANDS.into_iter().filter(|&sub| sub != "dump") {
        let out = bef(&[sub, TRUNCATED], None);
        assert_error(&out, 1, &message);
        assert!(out.stdout.is_empty(), "{sub}: {}", text(&out.stdout));
    }
    let out = bef(&["run", "--verify-diagnostics", TRUNCATED], None);
    assert_error(&out, 1, &message);
    // `bef dump` lists what decodes, then fails with every problem, the
    // framing first (problems are in file order).
    let out = bef(&["dump", TRUNCATED], None);
    assert_fails(&out, 1, &[]);
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.lines().next(),
        Some(format!("error: {message}").as_str())
    );
    assert!(stderr.lines().all(|l| l.starts_with("error: ")), "{stderr}");
    let stdout = text(&out.stdout);
    for needle in ["Kernels (1):", "  [  0] tfrt.add.i32", "Function [0] @add"] {
        assert!(stdout.contains(needle), "missing {needle:?} in:\n{stdout}");
    }
}

#[test]
fn a_bad_table_found_when_loading_is_a_format_error_not_a_runtime_error() {
    // The framing is sound (`bef verify` opens the file); the Kernels
    // section says it holds no kernel names but has bytes left over, which
    // only loading the program notices.
    let mut bytes = common::read_corpus("bef/add_i32.bef");
    let buffer = bef::format::BefBuffer::copy_from(&bytes);
    let file = buffer.open().expect("the corpus file opens");
    let kernels = file
        .section(bef::format::SectionId::Kernels)
        .expect("a Kernels section");
    let at = kernels.data_offset as usize;
    bytes[at] = 0;
    for args in [vec!["run", "-"], vec!["run", "--verify-diagnostics", "-"]] {
        let out = bef(&args, Some(&bytes));
        assert_fails(
            &out,
            1,
            &[
                "error: <stdin> is not valid BEF: ",
                &format!(
                    "unexpected trailing bytes in Kernels section at offset {:#x}\n",
                    at + 1
                ),
            ],
        );
        assert!(!text(&out.stderr).contains("runtime error"));
    }
}

// --- conflicting options ----------------------------------------------

#[test]
fn options_that_exclude_each_other_are_usage_errors() {
    ensure_corpus();
    for args in [
        vec!["translate", "--mlir-to-bef", "--bef-to-mlir", MLIR],
        vec!["translate", "--mlir-to-bef", "--print-generic", MLIR],
        vec!["translate", "--mlir-to-bef", "--print-debuginfo", MLIR],
        vec!["translate", "--emit-bytecode", "--print-generic", MLIR],
        vec!["translate", "--emit-bytecode", "--mlir-to-bef", MLIR],
        vec![
            "translate",
            "--bef-to-mlir",
            "--disable-optional-sections",
            BEF,
        ],
        vec!["translate", "--bef-to-mlir", "--verify-diagnostics", BEF],
        vec!["translate", "--bef-to-mlir", "--split-input-file", BEF],
        // Reference spellings conflict the same way.
        vec!["translate", "-mlir-to-bef", "-mlir-print-op-generic", MLIR],
    ] {
        let out = bef(&args, None);
        assert_fails(&out, 2, &["cannot be used with"]);
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn options_that_do_not_fit_the_input_say_why() {
    ensure_corpus();
    let out = bef(&["translate", "--mlir-to-bef", BEF], None);
    assert_error(
        &out,
        1,
        &format!(
            "{BEF} is already BEF; --mlir-to-bef takes MLIR text or bytecode (without --mlir-to-bef, BEF is printed as MLIR text)"
        ),
    );
    let out = bef(&["translate", "-bef-to-mlir", MLIR], None);
    assert_error(
        &out,
        1,
        &format!(
            "{MLIR} is MLIR text, not BEF; --bef-to-mlir takes BEF or MLIR bytecode (without --bef-to-mlir, text is translated to BEF)"
        ),
    );
    let out = bef(&["translate", "--print-generic", MLIR], None);
    assert_error(
        &out,
        1,
        &format!(
            "--print-generic shapes MLIR text output, but {MLIR} is MLIR text, so the output is BEF; give it a BEF or MLIR bytecode file to print as text, or drop --print-generic"
        ),
    );
    let out = bef(&["translate", "--disable-optional-sections", BEF], None);
    assert_error(
        &out,
        1,
        &format!(
            "--disable-optional-sections shapes BEF output, but {BEF} is BEF, so the output is MLIR text; drop --disable-optional-sections"
        ),
    );
    let out = bef(&["translate", "--verify-diagnostics", BEF], None);
    assert_error(
        &out,
        1,
        &format!("{BEF} is BEF; --verify-diagnostics reads MLIR text"),
    );
    // Without the optional sections the text has placeholders, with the
    // reference's warning.
    let out = bef(&["translate", "corpus/bef/no_optional_sections.bef"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(
            "corpus/bef/no_optional_sections.bef: warning: Missing AttributeTypes, AttributeNames or RegisterTypes sections."
        ),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("func.func"),
        "{}",
        text(&out.stdout)
    );
    let out = bef(&["translate", "--emit-bytecode", BEF], None);
    assert_fails(
        &out,
        1,
        &["is BEF; --emit-bytecode takes MLIR text or bytecode"],
    );
}

// --- other usage errors ---------------------------------------------------

#[test]
fn bad_option_values_are_usage_errors_before_anything_runs() {
    ensure_corpus();
    let out = bef(&["run", "--work-queue", "bogus", MLIR], None);
    assert_fails(
        &out,
        2,
        &["invalid value 'bogus'", "unknown work queue type 'bogus'"],
    );
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let out = bef(&["run", "-work_queue_type=mstd:0", MLIR], None);
    assert_fails(&out, 2, &["invalid number of threads '0'"]);
    let out = bef(&["run", "--host-allocator", "bogus", MLIR], None);
    assert_fails(&out, 2, &["invalid value 'bogus'", "leak_check_allocator"]);
    let out = bef(&["translate", "--frobnicate", MLIR], None);
    assert_fails(&out, 2, &["unexpected argument '--frobnicate'"]);
    let out = bef(&[], None);
    assert_fails(&out, 2, &["Usage: bef <COMMAND>"]);
    let out = bef(&["frob"], None);
    assert_fails(&out, 2, &["unrecognized subcommand 'frob'"]);
}

// --- runtime and program errors (1) -----------------------------------

#[test]
fn a_runtime_error_exits_with_1_and_a_missing_function_names_the_others() {
    let program = "func.func @boom() -> i32 {\n  %x = \"tfrt_test.fail\"() : () -> i32\n  tfrt.return %x : i32\n}\n";
    let out = bef(&["run", "-"], Some(program.as_bytes()));
    assert_fails(
        &out,
        1,
        &["<stdin>:2:8: error: runtime error: something bad happened"],
    );
    assert!(text(&out.stdout).contains("'boom' returned <<error: something bad happened>>"));

    let out = bef(&["run", "--functions", "nope", BEF], None);
    assert_fails(
        &out,
        1,
        &["couldn't find function 'nope' (the program has: add)"],
    );
}

// --- dump --section -------------------------------------------------------

#[test]
fn dump_section_accepts_every_spelling_of_a_name() {
    ensure_corpus();
    for spelling in [
        "FunctionIndex",
        "function-index",
        "function_index",
        "FUNCTIONINDEX",
    ] {
        let out = bef(&["dump", "--section", spelling, BEF], None);
        assert!(out.status.success(), "{spelling}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains("FunctionIndex (1):"),
            "{spelling}:\n{stdout}"
        );
        assert!(
            stdout.contains("] 4   FunctionIndex "),
            "{spelling}:\n{stdout}"
        );
        for other in [
            "Strings",
            "Kernels",
            "Function [0]",
            "Functions ",
            "Locations",
        ] {
            assert!(!stdout.contains(other), "{spelling}: {other} in\n{stdout}");
        }
    }
}

#[test]
fn dump_section_errors_list_the_known_names() {
    ensure_corpus();
    let out = bef(&["dump", "--section", "bogus", BEF], None);
    assert_fails(
        &out,
        2,
        &[
            "unknown section 'bogus' (known: Strings, Attributes, Kernels, Types, FunctionIndex, Functions, LocationStrings, Locations, AttributeTypes, AttributeNames, RegisterTypes, Signatures)",
        ],
    );
    let out = bef(
        &[
            "dump",
            "--section",
            "register-types",
            "corpus/bef/no_optional_sections.bef",
        ],
        None,
    );
    assert_error(
        &out,
        1,
        "corpus/bef/no_optional_sections.bef has no RegisterTypes section (it has Strings, Attributes, Kernels, Types, FunctionIndex, Functions, LocationStrings, Locations)",
    );
}

// --- no panics ------------------------------------------------------------

#[test]
fn odd_arguments_never_panic() {
    ensure_corpus();
    let cases: &[&[&str]] = &[
        &["dump", "--section", "", BEF],
        &["dump", "--section"],
        &["run", "--work-queue", "mstd:99999999999999999999", BEF],
        &["run", "--work-queue", "mstd:1,2,3", BEF],
        &["run", "--work-queue", "s:1", BEF],
        &["run", "--functions", ",", BEF],
        &["run", "--functions", "", BEF],
        &["run", "--test-init-function", "", BEF],
        &[
            "translate",
            "--bytecode-version",
            "99",
            "--emit-bytecode",
            MLIR,
        ],
        &["translate", "--bytecode-version", "-1"],
        &["translate", "-o", "", MLIR],
        &["translate", "-o"],
        &["translate", "-", "-", "-"],
        &["verify", "-", "-"],
        &["dump", "--hex", "--json", "--section", "strings", BYTECODE],
        &["-", "-"],
        &["--", "run"],
        &["run", "--", "-weird"],
        &["help", "run"],
        &["help", "nope"],
    ];
    for args in cases {
        let out = bef(args, Some(b""));
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        let code = out.status.code();
        assert!(
            matches!(code, Some(0..=2)),
            "{args:?}: exit {code:?}: {stderr}"
        );
    }
}

#[test]
fn reference_spellings_still_work() {
    ensure_corpus();
    let out = bef(&["translate", "-mlir-to-bef", MLIR], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bef_bytes = out.stdout;
    let out = bef(
        &[
            "translate",
            "-bef-to-mlir",
            "-mlir-print-op-generic",
            "-mlir-print-debuginfo",
            "-",
        ],
        Some(&bef_bytes),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("loc("));
    let out = bef(
        &[
            "run",
            "-work_queue_type=mstd:2",
            "-host_allocator_type=malloc",
            "-",
        ],
        Some(&bef_bytes),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Choosing multi-threaded work queue."));
}

#[test]
fn a_recording_is_told_by_its_magic_and_sent_to_its_tools() {
    let dir = std::env::temp_dir().join(format!("bef-recording-kind-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("run.beftrace");
    // The magic is what tells it; the rest need not decode.
    std::fs::write(&path, b"BEFTRACE\x08\x00\x00\x00rest").expect("written");
    let shown = path.display().to_string();
    for command in ["dump", "run", "verify"] {
        let out = bef(&[command, &shown], None);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command}: {stderr}");
        assert!(
            stderr.contains("is a bef-trace recording")
                && stderr.contains(&format!("befview {shown}"))
                && stderr.contains(&format!("bef-trace stats {shown}")),
            "{command}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
