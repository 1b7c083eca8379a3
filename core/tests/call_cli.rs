//! `bef run --call`: every problem with the arguments is one error line on
//! standard error, nothing on standard output, and exit status 1; a
//! usage mistake is status 2.

mod common;

const PROGRAM: &str = "corpus/conformance/call_typed_arguments.mlir";

fn run(args: &[&str]) -> std::process::Output {
    let mut all = vec!["run", PROGRAM];
    all.extend_from_slice(args);
    common::bef(&all, None)
}

#[test]
fn argument_errors_are_one_line_and_status_1() {
    let dict = r#"{"bias": [1, 2], "weights": [[1, 2], [3, 4]]}"#;
    let cases = [
        (format!("[{dict}]"), "mismatched call arity"),
        (
            r#"[{"bias": [1, 2], "weights": [[1, 2, 3], [3, 4, 5]]}, [1, 2]]"#.to_string(),
            "dim 1 is 3, expected 2",
        ),
        (
            format!("[{dict}, [1, \"x\"]]"),
            "a string of 1 characters is not i64",
        ),
        (
            r#"[{"bias": [1, 2], "weights": [[1, 2], [3, 4]], "bias": [3, 4]}, [1, 2]]"#
                .to_string(),
            "duplicate key \"bias\" at line 1 column",
        ),
        (
            r#"[{"bias": [1, 1e39], "weights": [[1, 2], [3, 4]]}, [1, 2]]"#.to_string(),
            "1e+39 is out of the range of f32",
        ),
        (format!("[{dict}, [1, 2]"), "not JSON"),
        (format!("[{dict}, [1, 2], 3]"), "mismatched call arity"),
        ("5".to_string(), "a JSON list"),
        (
            r#"[{"bias": {"btf": "/dev/zero", "index": 0}, "weights": [[1, 2], [3, 4]]}, [1, 2]]"#
                .to_string(),
            "/dev/zero is a system file",
        ),
        (
            r#"[{"bias": [1, 2], "weights": [[1, 2], [3]]}, [1, 2]]"#.to_string(),
            "not rectangular",
        ),
        (
            format!("[{dict}, [1, 2, 3]]"),
            "a list of 2 values, given 3",
        ),
        (
            r#"[{"bias": [1, 2], "weights": [[1, 2], [3, 4]], "x": 1}, [1, 2]]"#.to_string(),
            "unknown key 'x'",
        ),
    ];
    for (json, message) in cases {
        let out = run(&["--call", "mix", "--args", &json]);
        let stderr = common::text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{json}: {stderr}");
        assert!(
            out.stdout.is_empty(),
            "{json}: {}",
            common::text(&out.stdout)
        );
        assert_eq!(stderr.lines().count(), 1, "{json}: {stderr}");
        assert!(stderr.starts_with("error: "), "{json}: {stderr}");
        assert!(stderr.contains(message), "{json}: {stderr}");
    }
}

#[test]
fn unknown_functions_and_files_are_reported() {
    let out = run(&["--call", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(common::text(&out.stderr).contains("couldn't find function 'nope'"));
    let out = run(&["--call", "mix", "--args", "@/nonexistent/args.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::text(&out.stderr).contains("--args @/nonexistent/args.json"));
    let out = run(&["--call", "mix", "--args", "@/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::text(&out.stderr).contains("--args @/dev/zero: /dev/zero is a system file"));
    // --args needs --call; --call excludes --functions.
    assert_eq!(run(&["--args", "[]"]).status.code(), Some(2));
    assert_eq!(
        run(&["--call", "mix", "--functions", "mix"]).status.code(),
        Some(2)
    );
}

#[test]
fn results_are_one_json_line() {
    let out = run(&["--call", "scalars", "--args", "[3, 0.5]"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::text(&out.stderr));
    assert_eq!(common::text(&out.stdout), "[1.5,3]\n");
}

#[test]
fn large_tensor_results_stream_in_bounded_memory() {
    // 2048 × 2048 f32: 16 MiB of elements, about 17 MB of JSON. Built as
    // a tree of JSON values first, the result took about 12 times its size.
    let dir = common::scratch_dir("call-large-result");
    let program = dir.join("big.mlir");
    std::fs::write(
        &program,
        "func.func @big() -> (!tfrt.chain, !t.tensor) {\n\
         \x20 %ch0 = tfrt.new.chain\n\
         \x20 %t = tfrt_dht.create_uninitialized_tensor.f32.2 [2048 : i64, 2048 : i64]\n\
         \x20 %ch1 = tfrt_dht.fill_tensor_with_constant.f32 %t, %ch0 1.5 : f32\n\
         \x20 tfrt.return %ch1, %t : !tfrt.chain, !t.tensor\n\
         }\n",
    )
    .unwrap();
    let m = common::bef_measured(
        &["run", program.to_str().unwrap(), "--call", "big"],
        None,
        std::time::Duration::from_secs(300),
    );
    assert!(!m.killed);
    assert_eq!(
        m.output.status.code(),
        Some(0),
        "{}",
        common::text(&m.output.stderr)
    );
    let out = &m.output.stdout;
    let chain = br#"{"ref":"!tfrt.chain"},"#;
    assert_eq!(
        out.len(),
        2 + chain.len() + 2 + 2048 * (2 + 2048 * 4 - 1) + 2047 + 1
    );
    assert!(out.starts_with(b"[{\"ref\":\"!tfrt.chain\"},[[1.5,1.5,"));
    assert!(out.ends_with(b"1.5]]]\n"));
    let bound = 96 << 20;
    assert!(m.max_rss < bound, "peak {} bytes, bound {bound}", m.max_rss);
    let _ = std::fs::remove_dir_all(&dir);
}
