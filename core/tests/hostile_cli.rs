//! Small hostile inputs through the `bef` binary: what it prints stays
//! bounded whatever a location says, `bef run` reads source lines only
//! from MLIR sources (each once), kernels refuse sizes past their limits,
//! and what the translator writes the other commands read. Each test bounds
//! the time, output or memory it takes.

#![cfg(unix)]

mod common;

use std::time::Duration;

use common::{Measured, bef, bef_measured, scratch_dir, text};

/// Long enough for any of these runs on a loaded machine; the runs that
/// these tests guard against took minutes, or never ended.
const TIMEOUT: Duration = Duration::from_secs(60);

fn run(args: &[&str], stdin: Option<&[u8]>) -> Measured {
    let m = bef_measured(args, stdin, TIMEOUT);
    assert!(
        !m.killed,
        "bef {args:?} ran for {:?}: {}",
        m.elapsed,
        text(&m.output.stderr)
    );
    m
}

#[test]
fn a_location_alias_cycle_is_one_short_error_at_its_definition() {
    // Used by an op (a placeholder once stood in its place, at column
    // 4294967295 of a real line of the input) or not used at all.
    for src in [
        "func.func @f() {\n  tfrt.return loc(#z)\n} loc(#a)\n#z = loc(\"a\":1:2)\n#a = loc(#a)\n",
        "#a = loc(#a)\n",
    ] {
        let line = src.lines().position(|l| l == "#a = loc(#a)").unwrap() + 1;
        let m = run(
            &["translate", "--mlir-to-bef", "-o", "/dev/null", "-"],
            Some(src.as_bytes()),
        );
        assert_eq!(m.output.status.code(), Some(1));
        assert_eq!(
            text(&m.output.stderr),
            format!(
                "<stdin>:{line}:1: error: location alias #a refers to itself\n#a = loc(#a)\n^\n\n"
            )
        );
        assert!(m.elapsed < Duration::from_secs(10));
    }
}

#[test]
fn columns_past_the_line_and_long_lines_print_a_bounded_excerpt() {
    // A translation error at an op whose location points far past its line.
    let src = "\"tfrt.x\"() {x = unit} : () -> () loc(\"<stdin>\":1:4294967295)\n";
    let m = run(
        &["translate", "--mlir-to-bef", "-o", "/dev/null", "-"],
        Some(src.as_bytes()),
    );
    assert_eq!(m.output.status.code(), Some(1));
    let stderr = text(&m.output.stderr);
    assert!(
        stderr.starts_with(
            "<stdin>:1:4294967295: error: BEF files cannot encode the 'x' attribute\n"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("note: column 4294967295 is past the end of line 1, which has 60 columns"),
        "{stderr}"
    );
    assert!(stderr.len() < 1024, "{} bytes of errors", stderr.len());

    // Runtime errors: a column past a line, a line past the file, and a
    // column in the middle of a line of a megabyte.
    let dir = scratch_dir("bounded-excerpt");
    let path = dir.join("p.mlir");
    let name = path.to_str().unwrap();
    let long = "x".repeat(1 << 20);
    let src = format!(
        "func.func @f() -> (i32, i32, i32) {{
  %a = \"tfrt_test.fail\"() : () -> i32 loc(\"{name}\":2:4000000000)
  %b = \"tfrt_test.fail\"() : () -> i32 loc(\"{name}\":4294967295:1)
  %c = \"tfrt_test.fail\"() : () -> i32 loc(\"{name}\":7:500000)
  tfrt.return %a, %b, %c : i32, i32, i32
}}
// {long}
"
    );
    std::fs::write(&path, &src).unwrap();
    let m = run(&["run", name], None);
    let stderr = text(&m.output.stderr);
    // In the order the kernels ran, which need not be the program's.
    let second = src.lines().nth(1).unwrap();
    for expected in [
        format!(
            "{name}:2:4000000000: error: runtime error: something bad happened\n{second}\n\
             note: column 4000000000 is past the end of line 2, which has {} columns\n",
            second.len()
        ),
        format!(
            "{name}:4294967295:1: error: runtime error: something bad happened\n\
             note: line 4294967295 is past the end of the source, which has 7 lines\n"
        ),
        format!(
            "{name}:7:500000: error: runtime error: something bad happened\n…{}…\n{}^\n",
            "x".repeat(200),
            " ".repeat(101)
        ),
    ] {
        assert!(stderr.contains(&expected), "{expected}\nnot in\n{stderr}");
    }
    assert_eq!(stderr.lines().count(), 8, "{stderr}");
    assert!(stderr.len() < 2048, "{} bytes of errors", stderr.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program whose one kernel fails at a location in `file`.
fn failing_at(file: &str) -> String {
    format!(
        "func.func @f() -> i32 {{
  %x = \"tfrt_test.fail\"() : () -> i32 loc(\"{file}\":1:1)
  tfrt.return %x : i32
}}
"
    )
}

#[test]
fn run_quotes_source_lines_only_from_mlir_sources() {
    let dir = scratch_dir("sources");
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    let zero_link = dir.join("zero.mlir");
    std::os::unix::fs::symlink("/dev/zero", &zero_link).unwrap();
    let fifo = dir.join("fifo.mlir");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only reads it.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let real = dir.join("real.mlir");
    std::fs::write(&real, "the first line of real.mlir\n").unwrap();
    let program = dir.join("program.mlir");
    for (file, quoted) in [
        // Read until memory ran out (11 GB).
        ("/dev/zero", None),
        // Printed its first line.
        ("/etc/passwd", None),
        (secret.to_str().unwrap(), None),
        // Named .mlir, but a device and a FIFO (which blocked the read).
        (zero_link.to_str().unwrap(), None),
        (fifo.to_str().unwrap(), None),
        (
            real.to_str().unwrap(),
            Some("the first line of real.mlir\n^\n"),
        ),
    ] {
        std::fs::write(&program, failing_at(file)).unwrap();
        let m = run(&["run", program.to_str().unwrap()], None);
        assert_eq!(
            text(&m.output.stderr),
            format!(
                "{file}:1:1: error: runtime error: something bad happened\n{}",
                quoted.unwrap_or_default()
            )
        );
        assert!(
            m.elapsed < Duration::from_secs(10),
            "{file}: {:?}",
            m.elapsed
        );
        assert!(m.max_rss < 256 << 20, "{file}: {} bytes", m.max_rss);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_takes_the_source_the_user_names() {
    let dir = scratch_dir("named-source");
    // Translated elsewhere: the locations name a file that is not there
    // any more; the user has the source under another path.
    let src = "func.func @f() -> i32 {\n  %x = \"tfrt_test.fail\"() : () -> i32\n  tfrt.return %x : i32\n}\n";
    std::fs::create_dir_all(dir.join("build")).unwrap();
    let built = dir.join("build/prog.mlir");
    std::fs::write(&built, src).unwrap();
    let out = bef(
        &["translate", "--mlir-to-bef", built.to_str().unwrap()],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::remove_file(&built).unwrap();
    let bef_path = dir.join("prog.bef");
    std::fs::write(&bef_path, &out.stdout).unwrap();
    let source = dir.join("prog.mlir");
    std::fs::write(&source, src).unwrap();
    let bef_name = bef_path.to_str().unwrap();
    let header = format!(
        "{}:2:8: error: runtime error: something bad happened\n",
        built.display()
    );
    let m = run(&["run", bef_name], None);
    assert_eq!(text(&m.output.stderr), header);
    let m = run(
        &["run", "--source", source.to_str().unwrap(), bef_name],
        None,
    );
    assert_eq!(
        text(&m.output.stderr),
        format!("{header}  %x = \"tfrt_test.fail\"() : () -> i32\n       ^\n")
    );
    let m = run(&["run", "--source", "/dev/zero", bef_name], None);
    assert_eq!(m.output.status.code(), Some(1));
    assert_eq!(
        text(&m.output.stderr),
        "error: source /dev/zero: /dev/zero is a system file\n"
    );
    assert!(m.elapsed < Duration::from_secs(10));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn forty_thousand_runtime_errors_read_the_source_once() {
    let dir = scratch_dir("many-errors");
    let path = dir.join("many.mlir");
    // A megabyte of source before the failing kernel: re-reading and
    // rescanning it for each error took 18 s.
    let padding = format!("// {}\n", "x".repeat(60)).repeat(20_000);
    let src = format!(
        "{padding}func.func @many() -> !tfrt.chain {{
  %ch0 = tfrt.new.chain
  %count = tfrt.constant.i32 40000
  %ch1 = tfrt.repeat.i32 %count, %ch0 : !tfrt.chain {{
    %x = \"tfrt_test.fail\"() : () -> i32
    tfrt.return %ch0 : !tfrt.chain
  }}
  tfrt.return %ch1 : !tfrt.chain
}}
"
    );
    std::fs::write(&path, &src).unwrap();
    let name = path.to_str().unwrap();
    let out = bef(&["translate", "--mlir-to-bef", name], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bef_path = dir.join("many.bef");
    std::fs::write(&bef_path, &out.stdout).unwrap();
    let m = run(&["run", bef_path.to_str().unwrap()], None);
    let stderr = text(&m.output.stderr);
    let first = format!(
        "{name}:20005:10: error: runtime error: something bad happened\n    \
         %x = \"tfrt_test.fail\"() : () -> i32\n         ^\n"
    );
    assert_eq!(stderr, first.repeat(40_000));
    assert!(
        m.elapsed < Duration::from_secs(5),
        "40,000 errors took {:?}",
        m.elapsed
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_parallel_loop_over_every_i32_is_an_error_value() {
    let src = "func.func @f() -> !tfrt.chain {
  %start = tfrt.constant.i32 -2147483648
  %end = tfrt.constant.i32 2147483647
  %block = tfrt.constant.i32 1
  %done = tfrt.parallel_for.i32 %start to %end fixed %block {
    tfrt.return
  }
  tfrt.return %done : !tfrt.chain
}
";
    let m = run(&["run", "-"], Some(src.as_bytes()));
    assert!(
        text(&m.output.stdout).contains(
            "'f' returned <<error: [-2147483648, 2147483647) in blocks of 1 makes \
             4294967295 blocks, more than the 1048576 one parallel loop may have>>"
        ),
        "{}",
        text(&m.output.stdout)
    );
    assert!(m.elapsed < Duration::from_secs(10), "{:?}", m.elapsed);
    assert!(m.max_rss < 256 << 20, "{} bytes", m.max_rss);
}

/// `"n0"("n1"(... "x.mlir":3:4 ...))`, a location `depth` levels deep.
fn nested_names(depth: usize) -> String {
    let mut text = String::from("\"x.mlir\":3:4");
    for i in (0..depth).rev() {
        text = format!("\"n{i}\"({text})");
    }
    text
}

#[test]
fn what_translate_writes_at_the_depth_limit_the_other_commands_read() {
    let program = |depth: usize| {
        format!(
            "func.func @f() -> i32 {{\n  %x = tfrt.constant.i32 1 loc({})\n  tfrt.return %x : i32\n}}\n",
            nested_names(depth)
        )
    };
    let src = program(64);
    let out = bef(&["translate", "--mlir-to-bef", "-"], Some(src.as_bytes()));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = out.stdout;
    let out = bef(&["verify", "-"], Some(&bytes));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = bef(&["dump", "-"], Some(&bytes));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("\"n63\"(\"x.mlir\":3:4)"));
    let out = bef(
        &["translate", "--bef-to-mlir", "--print-debuginfo", "-"],
        Some(&bytes),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = out.stdout;
    assert!(
        text(&printed).contains(&nested_names(64)),
        "{}",
        text(&printed)
    );
    let out = bef(&["translate", "--mlir-to-bef", "-"], Some(&printed));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        out.stdout, bytes,
        "text → BEF → text → BEF changed the file"
    );

    let src = program(65);
    let column = src.lines().nth(1).unwrap().find("\"x.mlir\"").unwrap() + 1;
    let out = bef(&["translate", "--mlir-to-bef", "-"], Some(src.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with(&format!(
            "<stdin>:2:{column}: error: locations nested deeper than 64 levels\n"
        )),
        "{}",
        text(&out.stderr)
    );
}
