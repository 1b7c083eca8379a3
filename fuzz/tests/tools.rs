//! `corpus-coverage` and `repro` on the checked-in seeds, run as the
//! built binaries.

use std::process::{Command, Output};

use bef_test_support::corpus::{corpus_dir_files, corpus_path, scratch_dir};

fn run(binary: &str, args: &[&str]) -> Output {
    Command::new(binary)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{binary}: {e}"))
}

fn coverage_json(target: &str) -> serde_json::Value {
    let dir = corpus_path(&format!("fuzz/{target}"));
    let out = run(
        env!("CARGO_BIN_EXE_corpus-coverage"),
        &["--json", target, dir.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{target}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the report is JSON")
}

fn names(report: &serde_json::Value, category: &str) -> Vec<String> {
    report["reached"][category]
        .as_object()
        .unwrap_or_else(|| panic!("no {category} in {report}"))
        .keys()
        .cloned()
        .collect()
}

/// The kernels the report says ran are the registered kernels it does not
/// list as unreached, each one written in some seed's generated program,
/// and the seeds reach every kernel the program generator can write.
#[test]
fn exec_seeds_report_the_kernels_their_programs_ran() {
    let report = coverage_json("exec_programs");
    let ran = names(&report, "kernels");
    let unreached: Vec<String> = report["unreached_kernels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    let registered = report["registered_kernels"].as_u64().unwrap() as usize;
    assert_eq!(ran.len() + unreached.len(), registered, "{report}");
    assert!(ran.iter().all(|k| !unreached.contains(k)));
    let programs: Vec<String> = corpus_dir_files("fuzz/exec_programs")
        .iter()
        .filter_map(|p| bef_fuzz::exec::generated_program(&std::fs::read(p).unwrap()).ok())
        .collect();
    assert_eq!(
        report["reached"]["inputs"]["program generated"].as_u64(),
        Some(programs.len() as u64)
    );
    for kernel in &ran {
        assert!(
            programs.iter().any(|p| p.contains(kernel.as_str())),
            "{kernel} ran but no seed's program names it"
        );
    }
    // Everything the generator writes (its module documentation lists it).
    for kernel in [
        "tfrt.constant.i32",
        "tfrt.add.i32",
        "tfrt.minus.i32",
        "tfrt.div.i32",
        "tfrt.lessequal.i32",
        "tfrt.if",
        "tfrt.repeat.i32",
        "tfrt.call",
        "tfrt_test.async_add.i32",
        "tfrt_test.fail",
    ] {
        assert!(ran.iter().any(|k| k == kernel), "no seed runs {kernel}");
    }
    // The generator calls registered kernels from their signatures; the
    // seeds reach most of them (docs/fuzzing.md names those they do not).
    assert!(
        ran.len() >= 330,
        "the seeds reach only {} kernels",
        ran.len()
    );
    // Kernels after an error operand are skipped, not run.
    assert!(!names(&report, "skipped kernels").is_empty());
}

#[test]
fn decoder_seeds_report_sections_attribute_kinds_and_ops() {
    let bef = coverage_json("bef_decode");
    let sections = names(&bef, "sections");
    for section in ["Kernels", "Attributes", "Functions", "FunctionIndex"] {
        assert!(sections.iter().any(|s| s == section), "{sections:?}");
    }
    let kinds = names(&bef, "attribute kinds");
    assert!(kinds.iter().any(|k| k == "i32"), "{kinds:?}");
    assert!(kinds.iter().any(|k| k.ends_with("_array")), "{kinds:?}");
    assert!(
        names(&bef, "kernel names")
            .iter()
            .any(|k| k == "tfrt.add.i32")
    );

    for target in ["mlir_parse", "mlirbc_read"] {
        let ops = names(&coverage_json(target), "ops");
        assert!(
            ops.iter().any(|o| o == "builtin.module"),
            "{target}: {ops:?}"
        );
        assert!(ops.len() >= 5, "{target}: {ops:?}");
    }
    let btf = coverage_json("btf_read");
    assert!(!names(&btf, "dtypes").is_empty());
    assert!(names(&btf, "records").iter().any(|k| k == "rejected"));
}

#[test]
fn text_report_lists_unreached_kernels_and_unknown_targets_fail() {
    let dir = corpus_path("fuzz/exec_programs");
    let out = run(
        env!("CARGO_BIN_EXE_corpus-coverage"),
        &["exec_programs", dir.to_str().unwrap()],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("registered kernels reached: "), "{text}");
    assert!(text.contains("\nunreached ("), "{text}");

    // Op names come from the inputs, some of them hostile: the report
    // escapes what a terminal would act on.
    let dir = corpus_path("fuzz/mlir_parse");
    let out = run(
        env!("CARGO_BIN_EXE_corpus-coverage"),
        &["mlir_parse", dir.to_str().unwrap()],
    );
    assert!(out.status.success());
    assert_eq!(
        bef_test_support::terminal::unsafe_character(&out.stdout),
        None
    );
    assert!(
        out.stdout
            .split(|&b| b == b'\n')
            .all(|line| line.len() < 600)
    );

    let out = run(
        env!("CARGO_BIN_EXE_corpus-coverage"),
        &["exec_program", dir.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    let error = String::from_utf8(out.stderr).unwrap();
    assert!(
        error.contains("unknown target 'exec_program'")
            && error.contains("exec_programs, bef_decode"),
        "{error}"
    );
    let out = run(
        env!("CARGO_BIN_EXE_corpus-coverage"),
        &["bef_decode", "/nonexistent/dir"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/dir"));
}

/// `repro exec_programs SEED -o prog.mlir` writes a program that parses
/// and translates to a BEF file that verifies (what `bef translate`
/// does), for every seed: the generator builds a program from any input.
#[test]
fn repro_writes_exec_programs_that_translate() {
    let dir = scratch_dir("repro_exec");
    let mut programs = 0;
    for (i, seed) in corpus_dir_files("fuzz/exec_programs").iter().enumerate() {
        let program = dir.join(format!("prog{i}.mlir"));
        let out = run(
            env!("CARGO_BIN_EXE_repro"),
            &[
                "exec_programs",
                seed.to_str().unwrap(),
                "-o",
                program.to_str().unwrap(),
            ],
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        programs += 1;
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(stdout.ends_with("exec_programs: ok\n"), "{stdout}");
        let source = std::fs::read_to_string(&program).unwrap();
        assert!(source.contains("func.func @main"), "{source}");
        let module = bef::text::parse_module(&source, "prog.mlir")
            .unwrap_or_else(|d| panic!("{}", bef::text::render_diagnostic(&d, &source)));
        let bytes = bef::translate::mlir_to_bef(&module, Default::default())
            .unwrap_or_else(|e| panic!("{}: {e:?}", seed.display()));
        let buffer = bef::format::BefBuffer::copy_from(&bytes);
        bef::format::verify(&buffer.open().unwrap()).unwrap();
    }
    assert!(programs >= 12, "only {programs} seeds");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn repro_verdicts_for_decoders_and_generators() {
    let dir = scratch_dir("repro_verdicts");
    // A decoder target writes its input unchanged.
    let seed = corpus_path("fuzz/bef_decode/add_i32.bef");
    let copy = dir.join("copy.bef");
    let out = run(
        env!("CARGO_BIN_EXE_repro"),
        &[
            "bef_decode",
            seed.to_str().unwrap(),
            "-o",
            copy.to_str().unwrap(),
        ],
    );
    assert!(out.status.success());
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&seed).unwrap());
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("bef_decode: ok\n"));

    // A truncated BEF file: refused with the decoder's message.
    let bytes = std::fs::read(&seed).unwrap();
    let cut = dir.join("cut.bef");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let out = run(
        env!("CARGO_BIN_EXE_repro"),
        &["bef_decode", cut.to_str().unwrap()],
    );
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("bef_decode: error (handled): "),
        "{stdout}"
    );

    // The program generator never gives up: even an empty input builds
    // a program (every choice falls back to something always there).
    let empty = dir.join("empty");
    std::fs::write(&empty, b"").unwrap();
    let written = dir.join("empty.mlir");
    let out = run(
        env!("CARGO_BIN_EXE_repro"),
        &[
            "exec_programs",
            empty.to_str().unwrap(),
            "-o",
            written.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let source = std::fs::read_to_string(&written).unwrap();
    assert!(source.contains("func.func @main"), "{source}");

    // bef_roundtrip writes the BEF file it generates, which opens.
    let seed = corpus_dir_files("fuzz/bef_roundtrip").remove(0);
    let generated = dir.join("gen.bef");
    let out = run(
        env!("CARGO_BIN_EXE_repro"),
        &[
            "bef_roundtrip",
            seed.to_str().unwrap(),
            "-o",
            generated.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let buffer = bef::format::BefBuffer::copy_from(&std::fs::read(&generated).unwrap());
    buffer.open().expect("the generated BEF opens");

    let out = run(
        env!("CARGO_BIN_EXE_repro"),
        &["nope", empty.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("repro supports: exec_programs"));
    std::fs::remove_dir_all(dir).unwrap();
}

/// A panicking body gives its message and place.
#[test]
fn panics_are_caught_with_their_message() {
    let caught = bef_fuzz::verdict::run_caught(|data| panic!("boom at {}", data.len()), b"abc");
    let message = caught.unwrap_err();
    assert!(message.starts_with("boom at 3 at "), "{message}");
    assert!(message.contains("tools.rs:"), "{message}");
    assert_eq!(bef_fuzz::verdict::run_caught(|_| {}, b""), Ok(()));
}
