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
    std::fs::write(&junk, b"BEFTRACE\x09\x00").unwrap();
    let out = bef_trace(&["stats", junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("format version 1 to 8 (this file is version 9)"));
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
    ok(&[
        "record",
        "corpus/trace/errors.mlir",
        "-w",
        "mstd:2",
        "--values",
        "-o",
        &rec,
    ]);
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
    run(&["record", &program, "-o", &full], 0);
    run(&["record", &program, "--no-embed", "-o", &left_out], 0);
    let read = |path: &str| bef_trace::read(&std::fs::read(path).unwrap()).unwrap();
    let recorded = read(&left_out);
    assert!(recorded.header.program_left_out && recorded.functions.is_empty());
    assert!(!read(&full).functions.is_empty());
    let hash = format!("{:016x}", recorded.header.program_hash);

    // Without the program: refused, saying what to give.
    let (_, err) = run(&["stats", &left_out], 1);
    assert!(
        err.contains("left_out.beftrace")
            && err.contains("--no-embed")
            && err.contains("--program FILE")
            && err.contains("p.mlir")
            && err.contains(&hash),
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
