//! `bef opt` from the command line: passes run in the order given, the
//! reference's single-dash spellings, output files, and hostile input
//! (truncated programs, bytes that are not text, deep nesting), which must
//! give `file:line:col: error:` diagnostics and exit status 1, never a
//! panic.

mod common;

use common::{bef, text};

const PROGRAM: &str = "func.func private @callee(%x: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  tfrt.return %y : i32
}
func.func @caller(%x: i32, %ch: !tfrt.chain) -> (i32, !tfrt.chain) {
  %a = tfrt.call @callee(%x) : (i32) -> i32
  %m = tfrt.merge.chains %ch, %ch : !tfrt.chain, !tfrt.chain
  tfrt.return %a, %m : i32, !tfrt.chain
}
";

fn opt(args: &[&str], input: &str) -> std::process::Output {
    let mut all = vec!["opt"];
    all.extend_from_slice(args);
    bef(&all, Some(input.as_bytes()))
}

fn remarks(output: &std::process::Output) -> Vec<String> {
    text(&output.stderr)
        .lines()
        .filter(|l| l.contains(": remark: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn passes_run_in_command_line_order() {
    let before = opt(&["-tfrt-print-stream", "-inline", "-"], PROGRAM);
    let after = opt(&["-inline", "-tfrt-print-stream", "-"], PROGRAM);
    assert!(before.status.success() && after.status.success());
    // Streams of both functions (each a remark and one per op) before
    // inlining; of the caller alone, with the callee's constant and add in
    // place of the call and the merge folded away, after.
    assert_eq!(remarks(&before).len(), 4 + 4);
    assert_eq!(remarks(&after).len(), 1 + 3);
    // The printed program is the same either way.
    assert_eq!(text(&before.stdout), text(&after.stdout));
    assert!(!text(&after.stdout).contains("@callee"));
    // A pass named twice runs twice (and changes nothing the second time).
    let twice = opt(
        &["--canonicalize", "--inline", "--canonicalize", "-"],
        PROGRAM,
    );
    assert_eq!(text(&twice.stdout), text(&after.stdout));
}

#[test]
fn reference_spellings_and_output_file() {
    let dir = std::env::temp_dir().join(format!("bef-opt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out.mlir");
    let out_arg = out.to_str().unwrap();
    let run = opt(
        &[
            "-allow-unregistered-dialect",
            "-mlir-print-op-generic",
            "-mlir-print-debuginfo",
            "-o",
            out_arg,
            "-",
        ],
        PROGRAM,
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(run.stdout.is_empty());
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.starts_with("\"builtin.module\"() ({"), "{written}");
    assert!(written.contains("loc(\"<stdin>\":2:10)"), "{written}");
    // A failing run leaves no output file behind.
    std::fs::remove_file(&out).unwrap();
    let failing = opt(
        &["-o", out_arg, "-"],
        "func.func @f() -> i32 {\n  tfrt.return\n}\n",
    );
    assert_eq!(failing.status.code(), Some(1));
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unknown_pass_is_a_usage_error() {
    let run = opt(&["--cse", "-"], PROGRAM);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
}

/// Every outcome of hostile input: success, or status 1 with located
/// errors.
fn assert_no_panic(args: &[&str], input: &[u8], what: &str) {
    let mut all = vec!["opt"];
    all.extend_from_slice(args);
    all.push("-");
    let run = bef(&all, Some(input));
    match run.status.code() {
        Some(0) => {}
        Some(1) => {
            let err = text(&run.stderr);
            assert!(err.contains("error:"), "{what}: no error message:\n{err}");
            assert!(!err.contains("panicked"), "{what}:\n{err}");
        }
        other => panic!("{what}: exit status {other:?}\n{}", text(&run.stderr)),
    }
}

#[test]
fn hostile_text_never_panics() {
    let passes: [&[&str]; 4] = [
        &[],
        &["--inline", "--canonicalize"],
        &["--tfrt-print-stream", "--verify-diagnostics"],
        &[
            "--split-input-file",
            "--allow-unregistered-dialect",
            "--inline",
        ],
    ];
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    // Every cut of a program with regions, calls and attributes.
    let full = format!(
        "{PROGRAM}
func.func @f(%c: i1, %x: i32) -> i32 attributes {{tfrt.cost_threshold = 0 : i64}} {{
  %r = tfrt.if %c, %x : (i32) -> (i32) {{
    %y = tfrt.call @caller(%x, %x) : (i32, i32) -> i32
    tfrt.return %y : i32
  }} else {{
    tfrt.return %x : i32
  }}
  %s = ts.build_shape [1 : i64, 2 : i64]
  tfrt.return %r : i32
}}
// -----
"
    );
    for cut in (0..full.len()).step_by(7) {
        if full.is_char_boundary(cut) {
            inputs.push((format!("cut at {cut}"), full.as_bytes()[..cut].to_vec()));
        }
    }
    inputs.push(("not UTF-8".into(), vec![0xff, 0xfe, b'{', 0x80]));
    inputs.push(("deep nesting".into(), {
        let mut s = String::from("func.func @f(%c: i1) {\n");
        for _ in 0..400 {
            s.push_str("tfrt.if %c : () -> () {\n");
        }
        s.into_bytes()
    }));
    inputs.push((
        "unknown callee".into(),
        b"func.func @f(%x: i32) -> i32 {\n %y = tfrt.call @g(%x) : (i32) -> i32\n tfrt.return %y : i32\n}\n"
            .to_vec(),
    ));
    inputs.push((
        "self call".into(),
        b"func.func private @f(%x: i32) -> i32 {\n %y = tfrt.call @f(%x) : (i32) -> i32\n tfrt.return %y : i32\n}\n"
            .to_vec(),
    ));
    for (what, input) in &inputs {
        for args in passes {
            assert_no_panic(args, input, &format!("{what} with {args:?}"));
        }
    }
}

#[test]
fn errors_name_file_line_and_column() {
    let run = opt(
        &["-"],
        "func.func @f(%x: i32) {\n  %y = tfrt.add.i32 %x\n}\n",
    );
    assert_eq!(run.status.code(), Some(1));
    let err = text(&run.stderr);
    assert!(err.starts_with("<stdin>:2:8: error: "), "{err}");
}
