//! The `bef-trace` binary: exit status 0 on success, 1 for bad input or a
//! program that cannot run, 2 for usage errors; every subcommand on a real
//! recording.

mod common;

use std::path::Path;
use std::process::{Command, Output};

fn bef_trace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bef-trace"))
        .args(args)
        .current_dir(common::repo_root())
        .output()
        .expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn usage_errors_exit_2_and_help_has_examples() {
    let out = bef_trace(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let out = bef_trace(&["record", "corpus/trace/errors.mlir"]);
    assert_eq!(out.status.code(), Some(2), "-o is required");
    let out = bef_trace(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    assert!(
        help.contains("Examples:") && help.contains("ui.perfetto.dev"),
        "{help}"
    );
}

#[test]
fn bad_input_exits_1_with_a_message() {
    let dir = std::env::temp_dir().join(format!("bef-trace-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = bef_trace(&["record", "corpus/trace/missing.mlir", "-o", "x.beftrace"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("missing.mlir"),
        "{}",
        text(&out.stderr)
    );
    let junk = dir.join("junk.beftrace");
    std::fs::write(&junk, b"BEFTRACE\x0b\x00").unwrap();
    let out = bef_trace(&["stats", junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("format version 1 to 10 (this file is version 11)"));
    let bad = dir.join("bad.mlir");
    std::fs::write(&bad, "func.func @f( {").unwrap();
    let out = bef_trace(&["record", bad.to_str().unwrap(), "-o", "x.beftrace"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("bad.mlir:1:"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_subcommand_runs_on_a_recording() {
    let dir = std::env::temp_dir().join(format!("bef-trace-cli-ok-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let ok = |args: &[&str]| {
        let out = bef_trace(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        text(&out.stdout)
    };
    let rec = at("a.beftrace");
    // The program fails (an error value): exit status 1, recording written.
    let out = bef_trace(&[
        "record",
        "corpus/trace/errors.mlir",
        "-w",
        "mstd:2",
        "--values",
        "-o",
        &rec,
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    ok(&[
        "run",
        "corpus/trace/serial_chain.mlir",
        "-o",
        &at("b.beftrace"),
        "--flamegraph",
        &at("b.svg"),
        "--perfetto",
        &at("b.pftrace"),
        "--chrome-json",
        &at("b.json"),
        "--folded",
        &at("b.folded"),
    ]);
    for file in ["b.beftrace", "b.svg", "b.pftrace", "b.json", "b.folded"] {
        assert!(Path::new(&at(file)).metadata().unwrap().len() > 0, "{file}");
    }
    ok(&[
        "flamegraph",
        &rec,
        "-o",
        &at("c.svg"),
        "--per-thread",
        "--inverted",
        "--clock",
        "wall",
    ]);
    ok(&["flamegraph", &rec, "-o", &at("d.svg"), "--flamechart"]);
    ok(&["flamegraph", &rec, "-o", &at("e.svg"), "--off-cpu"]);
    let svg = std::fs::read_to_string(at("e.svg")).unwrap();
    assert!(svg.contains("errors.mlir: flame graph of off-CPU time"));
    // A run asked for no export prints what `stats` would.
    let summary = ok(&["run", "corpus/trace/serial_chain.mlir"]);
    assert!(
        summary.starts_with("span ") && summary.contains("tfrt.add.i32"),
        "{summary}"
    );
    let folded = ok(&["folded", &rec]);
    assert!(
        folded.contains("errors;tfrt_test.fail#1 [error] "),
        "{folded}"
    );
    ok(&["perfetto", &rec, "-o", &at("c.pftrace")]);
    ok(&["chrome-json", &rec, "-o", &at("c.json")]);
    let stats = ok(&["stats", &rec]);
    assert!(stats.contains("first error: tfrt_test.fail#1"), "{stats}");
    let json: serde_json::Value = serde_json::from_str(&ok(&["stats", &rec, "--json"])).unwrap();
    assert_eq!(json["poisoned"], 3);
    let path = ok(&["critical-path", &at("b.beftrace"), "--what-if-workers", "2"]);
    assert!(path.starts_with("critical path: 9 kernels"), "{path}");
    assert!(path.contains("what if 2 workers"), "{path}");
    ok(&["critical-path", &rec, "--json"]);
    ok(&[
        "diff",
        &rec,
        &at("b.beftrace"),
        "-o",
        &at("diff.svg"),
        "--folded",
        &at("diff.folded"),
    ]);
    let out = bef_trace(&["critical-path", &rec, "--what-if-workers", "0"]);
    assert_eq!(out.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn keep_last_records_the_end_and_says_the_start_is_missing() {
    let dir = std::env::temp_dir().join(format!("bef-trace-keep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let recording = dir.join("last.beftrace");
    let out = bef_trace(&[
        "record",
        "corpus/mlir/fibonacci_repeat.mlir",
        "--max-events",
        "40",
        "--keep",
        "last",
        "-o",
        recording.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("the earliest are missing"),
        "{}",
        text(&out.stderr)
    );
    let out = bef_trace(&["stats", recording.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("the earliest are missing"),
        "{}",
        text(&out.stdout)
    );
    let out = bef_trace(&[
        "record",
        "corpus/mlir/fibonacci_repeat.mlir",
        "--keep",
        "middle",
    ]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_recording_without_its_program_is_read_with_the_program_it_ran() {
    let dir = std::env::temp_dir().join(format!("bef-trace-no-embed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let run = |args: &[&str], status: i32| {
        let out = bef_trace(args);
        assert_eq!(
            out.status.code(),
            Some(status),
            "{args:?}: {}",
            text(&out.stderr)
        );
        (text(&out.stdout), text(&out.stderr))
    };
    let program = at("p.mlir");
    std::fs::copy(
        common::corpus_path("trace/errors.mlir"),
        Path::new(&program),
    )
    .unwrap();
    let (full, left_out) = (at("full.beftrace"), at("left_out.beftrace"));
    // The program fails (an error value), and is recorded all the same.
    run(&["record", &program, "-o", &full], 1);
    run(
        &[
            "record",
            &program,
            "--no-embed",
            "--no-source",
            "-o",
            &left_out,
        ],
        1,
    );
    let read = |path: &str| bef_trace::read(&std::fs::read(path).unwrap()).unwrap();
    let recorded = read(&left_out);
    assert!(recorded.header.program_left_out && recorded.functions.is_empty());
    assert!(!read(&full).functions.is_empty());
    let hash = format!("{:016x}", recorded.header.program_hash);

    // Without --program: the program is found where it was recorded.
    let (stats, _) = run(&["stats", &left_out], 0);
    assert!(stats.contains("first error: tfrt_test.fail#1"), "{stats}");
    // Moved away (and its text left out): refused, saying what to give
    // and where it looked.
    let moved = at("moved.mlir");
    std::fs::rename(&program, &moved).unwrap();
    let (_, err) = run(&["stats", &left_out], 1);
    std::fs::rename(&moved, &program).unwrap();
    assert!(
        err.contains("left_out.beftrace")
            && err.contains("--no-embed")
            && err.contains("--program FILE")
            && err.contains("p.mlir: no such file")
            && err.contains(&hash)
            && !err.contains("not read: not read"),
        "{err}"
    );
    // Another program: refused, both named with their hashes.
    let (_, err) = run(
        &["stats", &left_out, "--program", "corpus/trace/sleeps.mlir"],
        1,
    );
    assert!(
        err.contains("sleeps.mlir is not the program the recording ran")
            && err.contains("p.mlir")
            && err.contains(&hash),
        "{err}"
    );
    // So is it for a recording that has its table.
    let (_, err) = run(
        &["stats", &full, "--program", "corpus/trace/sleeps.mlir"],
        1,
    );
    assert!(
        err.contains("is not the program the recording ran"),
        "{err}"
    );
    // The program it ran: every command reads it.
    let (stats, _) = run(&["stats", &left_out, "--program", &program], 0);
    assert!(stats.contains("first error: tfrt_test.fail#1"), "{stats}");
    let (folded, _) = run(&["folded", &left_out, "--program", &program], 0);
    assert!(
        folded.contains("errors;tfrt_test.fail#1 [error] "),
        "{folded}"
    );
    run(&["critical-path", &left_out, "--program", &program], 0);
    run(
        &[
            "perfetto",
            &left_out,
            "--program",
            &program,
            "-o",
            &at("p.pftrace"),
        ],
        0,
    );
    // The program is an input: no output may overwrite it.
    run(
        &[
            "flamegraph",
            &left_out,
            "--program",
            &program,
            "-o",
            &program,
        ],
        1,
    );
    assert_eq!(
        std::fs::read(&program).unwrap(),
        std::fs::read(common::corpus_path("trace/errors.mlir")).unwrap()
    );

    // `run --no-embed` writes the recording without the table; its
    // exports still have the names.
    let chain = at("chain.beftrace");
    let (_, _) = run(
        &[
            "run",
            "corpus/trace/serial_chain.mlir",
            "--no-embed",
            "-o",
            &chain,
            "--folded",
            &at("chain.folded"),
        ],
        0,
    );
    assert!(read(&chain).header.program_left_out);
    let folded = std::fs::read_to_string(at("chain.folded")).unwrap();
    assert!(folded.contains("tfrt.add.i32#2"), "{folded}");
    // A diff of two recordings without their programs takes both, each
    // matched by its hash; one missing is named.
    let diff = ["diff", &left_out, &chain, "-o", &at("d.svg")];
    let (_, err) = run(&[&diff[..], &["--program", &program]].concat(), 1);
    assert!(
        err.contains("chain.beftrace") && err.contains("is not"),
        "{err}"
    );
    run(
        &[
            &diff[..],
            &[
                "--program",
                "corpus/trace/serial_chain.mlir",
                "--program",
                &program,
            ],
        ]
        .concat(),
        0,
    );
    // A program given that neither ran is refused.
    let (_, err) = run(
        &[
            "diff",
            &full,
            &full,
            "-o",
            &at("e.svg"),
            "--program",
            "corpus/trace/sleeps.mlir",
        ],
        1,
    );
    assert!(
        err.contains("sleeps.mlir is not a program the recordings ran"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Errors describe, never echo: a program reading files of made-up secrets
/// as BTF is recorded, and neither `record`'s notes nor the recording's
/// `stats` show anything of the files.
#[test]
fn recording_a_program_that_reads_secrets_as_btf_echoes_nothing() {
    use bef_test_support::echo::{assert_no_echo, btf_reading_program, secret_btf_files};
    let dir = bef_test_support::corpus::scratch_dir("trace-secrets");
    for (name, bytes) in secret_btf_files() {
        let secret = dir.join(format!("{name}.txt"));
        std::fs::write(&secret, &bytes).unwrap();
        let program = dir.join(format!("{name}.mlir"));
        std::fs::write(&program, btf_reading_program(&secret)).unwrap();
        let recording = dir.join(format!("{name}.beftrace"));
        let (program, recording) = (program.to_str().unwrap(), recording.to_str().unwrap());
        let record = bef_trace(&["record", program, "-o", recording]);
        let stats = bef_trace(&["stats", recording]);
        assert!(stats.status.success(), "{}", text(&stats.stderr));
        for out in [record, stats] {
            let all = [out.stdout, out.stderr].concat();
            assert_no_echo(&bytes, &all, &format!("bef-trace on {name}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program that fails (an error value, a runtime error) is recorded all
/// the same, and `record` and `run` exit with status 1, naming the
/// function, as `bef run` does.
#[test]
fn a_failing_program_is_recorded_and_exits_1() {
    let dir = bef_test_support::corpus::scratch_dir("trace-failing");
    let recording = dir.join("errors.beftrace");
    let out = bef_trace(&[
        "record",
        "corpus/trace/errors.mlir",
        "-o",
        recording.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("note: @errors failed: returned <<error: something bad happened>>"),
        "{stderr}"
    );
    assert!(!stderr.contains("bef-trace: error:"), "{stderr}");
    let read = bef_trace::read(&std::fs::read(&recording).unwrap()).expect("the recording reads");
    let model = bef_trace::Model::new(read);
    assert!((0..model.runs.len()).any(|run| model.kernel_name(run) == "tfrt_test.fail"));
    // `run` writes its exports, then exits with 1 too.
    let trace = dir.join("errors.json");
    let out = bef_trace(&[
        "run",
        "corpus/trace/errors.mlir",
        "--chrome-json",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("@errors failed"));
    assert!(trace.metadata().unwrap().len() > 0);
    // A runtime error whose value is not returned fails the run too.
    let quiet = dir.join("quiet.mlir");
    std::fs::write(
        &quiet,
        "func.func @quiet() -> i32 {\n\
         \x20 %bad = \"tfrt_test.fail\"() : () -> i32\n\
         \x20 %one = tfrt.constant.i32 1\n\
         \x20 tfrt.return %one : i32\n\
         }\n",
    )
    .unwrap();
    let out = bef_trace(&[
        "record",
        quiet.to_str().unwrap(),
        "-o",
        recording.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("note: @quiet failed: runtime error: something bad happened"),
        "{}",
        text(&out.stderr)
    );
    bef_trace::read(&std::fs::read(&recording).unwrap()).expect("the recording reads");
    // A program that succeeds exits with 0.
    let out = bef_trace(&["run", "corpus/trace/serial_chain.mlir", "--stats"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("failed"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The digits classifier; its `classify` takes one 8×8 image
/// (corpus/conformance/models_digits_call.mlir calls it with `bef run`).
const DIGITS: &str = "corpus/models/digits/digits.mlir";

/// `record --call NAME --args @FILE` records the one function called with
/// typed arguments and prints its results as `bef run --call` does.
#[test]
fn record_call_records_the_function_called_with_arguments() {
    let dir = bef_test_support::corpus::scratch_dir("trace-call");
    let recording = dir.join("digits.beftrace");
    let out = bef_trace(&[
        "record",
        DIGITS,
        "--call",
        "classify",
        "--args",
        "@corpus/conformance/digits_image.json",
        "-o",
        recording.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "[[7]]\n");
    let read = bef_trace::read(&std::fs::read(&recording).unwrap()).expect("the recording reads");
    let model = bef_trace::Model::new(read);
    let classify = model
        .executions
        .iter()
        .position(|e| model.function_label_of(e.function) == "classify")
        .expect("an execution of classify");
    assert_eq!(model.executions[classify].caller, None);
    let in_classify = (0..model.runs.len())
        .filter(|&run| model.runs[model.call_chain(run)[0]].execution == classify)
        .map(|run| model.kernel_name(run).to_string())
        .collect::<Vec<_>>();
    assert!(
        in_classify.iter().any(|k| k == "tfrt_test.argmax.f32.2")
            && in_classify.iter().any(|k| k == "tfrt_test.matmul.f32.2"),
        "{in_classify:?}"
    );
    // `run --call` prints the results too, then what it was asked for.
    let out = bef_trace(&[
        "run",
        DIGITS,
        "--call",
        "classify",
        "--args",
        "@corpus/conformance/digits_image.json",
        "--stats",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("[[7]]\nspan "), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Arguments that do not fit are one `error:` line and exit status 1,
/// with no recording; usage mistakes exit with 2.
#[test]
fn record_call_argument_errors() {
    let dir = bef_test_support::corpus::scratch_dir("trace-call-errors");
    let recording = dir.join("x.beftrace");
    let out_path = recording.to_str().unwrap();
    let record = |extra: &[&str]| {
        let args: Vec<&str> = [&["record", DIGITS][..], extra, &["-o", out_path]].concat();
        bef_trace(&args)
    };
    // The wrong shape, given inline and as a BTF record (all the test
    // images, not one).
    for args in [
        "[[[0.0,1.0]]]",
        r#"[{"btf": "corpus/models/digits/digits.btf", "index": 4}]"#,
    ] {
        let out = record(&["--call", "classify", "--args", args]);
        assert_eq!(out.status.code(), Some(1), "{args}: {}", text(&out.stderr));
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(
                "bef-trace: error: function 'classify': argument 0: expected f32[1x64]"
            ),
            "{stderr}"
        );
        assert!(text(&out.stdout).is_empty());
        assert!(!recording.exists());
    }
    let out = record(&["--call", "classify", "--args", "[[[0.0,"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with("bef-trace: error: --args: "));
    let out = record(&["--call", "nothing", "--args", "[]"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // Usage mistakes.
    let out = record(&["--args", "[]"]);
    assert_eq!(out.status.code(), Some(2), "--args without --call");
    let out = record(&["--call", "classify", "-f", "classify"]);
    assert_eq!(out.status.code(), Some(2), "--call with --functions");
    let missing = dir.join("missing.json");
    let at_missing = format!("@{}", missing.display());
    let out = record(&["--call", "classify", "--args", &at_missing]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--args @"));
    assert!(!recording.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
