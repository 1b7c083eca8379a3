//! One checked-in input per class of hostile file that once crashed, hung,
//! exhausted memory, flooded the terminal or read the user's files, run
//! through the `bef` commands it broke. Each run must end by itself with
//! the expected status and message, within bounds on time, peak memory
//! (64 × the input's size + 64 MiB unless the case says why it needs more)
//! and output. The inputs live under `corpus/` (mostly `corpus/fuzz/`,
//! where the fuzz targets also take them as seeds).

#![cfg(unix)]

mod common;

use std::time::Duration;

use common::{bef_measured, corpus_path, text};

/// One `bef` run over one input and what it must do.
struct Case {
    /// What went wrong before, in a few words.
    class: &'static str,
    /// The input, under `corpus/`.
    input: &'static str,
    /// Arguments before the input's path.
    args: &'static [&'static str],
    /// Expected exit status.
    status: i32,
    /// Text that stdout or stderr must contain.
    expect: &'static str,
    /// Text that neither may contain.
    never: Option<&'static str>,
    /// Memory allowed beyond 64 × the input's size + 64 MiB.
    extra_memory: u64,
    /// Most bytes of stdout and stderr together.
    max_output: usize,
}

const MIB: u64 = 1 << 20;

const CASES: &[Case] = &[
    // Stack: correct deep recursion, runaway recursion, quiesce in loops.
    Case {
        class: "recursion 100,000 calls deep returning through unavailable values",
        input: "conformance/call_deep_recursion.mlir",
        args: &["run", "--work-queue", "mstd:2", "--functions", "deep_async"],
        status: 0,
        expect: "'deep_async' returned 0",
        never: None,
        // The native stack a correct recursion needs grows with its depth
        // (heap segments of stack, about 27 KiB a level in a debug build);
        // the call-depth limit bounds it, not the file's size.
        extra_memory: 100_000 * 32 * 1024,
        max_output: 4096,
    },
    Case {
        class: "runaway recursion",
        input: "conformance/call_runaway_recursion.mlir",
        args: &["run", "--max-call-depth", "5000", "--work-queue", "mstd:2"],
        status: 1,
        expect: "would nest more than 5000 function calls",
        never: None,
        extra_memory: 5_000 * 32 * 1024,
        max_output: 16 * 1024,
    },
    Case {
        class: "quiesce inside 10,000 parallel_for blocks",
        input: "conformance/test_quiesce.mlir",
        args: &["run", "--work-queue", "mstd:2"],
        status: 0,
        expect: "returned",
        never: Some("Memory leak detected"),
        extra_memory: 0,
        max_output: 64 * 1024,
    },
    // Hangs: files whose kernels can never all run.
    Case {
        class: "two kernels reading each other's results",
        input: "fuzz/bef_decode/cycle_two_kernels.bef",
        args: &["run"],
        status: 1,
        expect: "(a dataflow cycle)",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    Case {
        class: "a kernel reading its own result",
        input: "fuzz/bef_decode/cycle_self_read.bef",
        args: &["run"],
        status: 1,
        expect: "(a dataflow cycle)",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    Case {
        class: "a cycle passes verify",
        input: "fuzz/bef_decode/cycle_two_kernels.bef",
        args: &["verify"],
        status: 1,
        expect: "(a dataflow cycle)",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    Case {
        class: "used-by lists that verify rejects run anyway",
        input: "fuzz/bef_decode/used_by_omits_reader.bef",
        args: &["run"],
        status: 1,
        expect: "users of register 1 are listed as [] but are [2]",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    // Expansion: small inputs standing for huge trees.
    Case {
        class: "attribute aliases referring twice to the next",
        input: "fuzz/mlir_parse/alias_doubling_attributes.mlir",
        args: &["translate", "-o", "/dev/null"],
        status: 1,
        expect: "aliases expand to more than",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    Case {
        class: "location aliases referring twice to the next",
        input: "fuzz/mlir_parse/alias_doubling_locations.mlir",
        args: &["translate", "-o", "/dev/null"],
        status: 1,
        expect: "aliases expand to more than",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    Case {
        class: "type aliases referring twice to the next",
        input: "fuzz/mlir_parse/alias_doubling_types.mlir",
        args: &["translate", "-o", "/dev/null"],
        status: 1,
        expect: "aliases expand to more than",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    Case {
        class: "bytecode attributes sharing entries, translated",
        input: "fuzz/mlirbc_read/attributes_doubling_20_levels.mlirbc",
        args: &["translate", "-o", "/dev/null"],
        status: 1,
        expect: "stand for more than",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    Case {
        class: "bytecode attributes sharing entries, dumped",
        input: "fuzz/mlirbc_read/attributes_doubling_20_levels.mlirbc",
        args: &["dump"],
        status: 1,
        expect: "stand for more than",
        never: None,
        extra_memory: 0,
        max_output: 64 * 1024,
    },
    Case {
        class: "a 100 KB string shared by 2,000 kernels, translated back",
        input: "fuzz/regressions/shared_string_used_2000_times.bef",
        args: &["translate", "--bef-to-mlir", "-o", "/dev/null"],
        status: 1,
        expect: "copy more than",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    Case {
        class: "a 100 KB string shared by 2,000 kernels, dumped",
        input: "fuzz/regressions/shared_string_used_2000_times.bef",
        args: &["dump"],
        status: 0,
        expect: "(cut; in full under Attributes)",
        never: None,
        extra_memory: 0,
        max_output: 2 << 20,
    },
    Case {
        class: "forty distinct 64 MiB splats",
        input: "fuzz/regressions/splats_40_distinct_64mib.mlir",
        args: &["translate", "-o", "/dev/null"],
        status: 1,
        expect: "splats expand to more than",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    // Output: locations that point nowhere real.
    Case {
        class: "a location alias cycle",
        input: "fuzz/mlir_parse/alias_cycle_used.mlir",
        args: &["translate", "-o", "/dev/null"],
        status: 1,
        expect: "location alias #a refers to itself",
        never: None,
        extra_memory: 0,
        max_output: 1024,
    },
    Case {
        class: "an error at column 4294967295",
        input: "fuzz/mlir_parse/column_past_the_line.mlir",
        args: &["translate", "-o", "/dev/null"],
        status: 1,
        expect: "column 4294967295 is past the end of line 1",
        never: None,
        extra_memory: 0,
        max_output: 1024,
    },
    // The user's files: locations naming files that are not MLIR sources.
    Case {
        class: "a runtime error located in /etc/passwd",
        input: "fuzz/regressions/location_names_etc_passwd.bef",
        args: &["run"],
        status: 1,
        expect: "/etc/passwd:1:1: error: runtime error: something bad happened\n",
        never: Some("root:"),
        extra_memory: 0,
        max_output: 1024,
    },
    Case {
        class: "a runtime error located in /dev/zero",
        input: "fuzz/regressions/location_names_dev_zero.bef",
        args: &["run"],
        status: 1,
        expect: "/dev/zero:1:1: error: runtime error: something bad happened\n",
        never: None,
        extra_memory: 0,
        max_output: 1024,
    },
    // Sizes taken from the program.
    Case {
        class: "parallel_for over every i32 in blocks of one",
        input: "fuzz/regressions/parallel_for_every_i32.mlir",
        args: &["run"],
        status: 1,
        expect: "more than the 1048576 one parallel loop may have",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    Case {
        class: "forty thousand runtime errors, each quoting its line",
        input: "fuzz/regressions/forty_thousand_runtime_errors.mlir",
        args: &["run"],
        status: 1,
        expect: "error: runtime error: something bad happened",
        never: None,
        extra_memory: 0,
        max_output: 8 << 20,
    },
    // Work that grows with sharing: every entry naming one record.
    Case {
        class: "3072 offsets naming one COO record of 3584 coordinates",
        input: "fuzz/regressions/btf_shared_coo_record.btf",
        args: &["dump"],
        status: 0,
        expect: "skipped (not checked)",
        never: None,
        extra_memory: 0,
        max_output: 1 << 20,
    },
    // Counts taken on trust.
    Case {
        class: "an affine map declaring 3e9 dimensions",
        input: "fuzz/mlirbc_read/affine_map_3e9_dimensions.mlirbc",
        args: &["dump"],
        status: 1,
        expect: "3000000000 dimensions, more than",
        never: None,
        extra_memory: 0,
        max_output: 64 * 1024,
    },
    Case {
        class: "an integer set declaring 4e9 symbols",
        input: "fuzz/mlirbc_read/integer_set_4e9_symbols.mlirbc",
        args: &["translate", "-o", "/dev/null"],
        status: 1,
        expect: "4000000000 symbols, more than",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
    // Own output rejected: nesting past the shared depth limit.
    Case {
        class: "a location nested past the depth limit",
        input: "fuzz/mlir_parse/location_past_depth_limit.mlir",
        args: &["translate", "-o", "/dev/null"],
        status: 1,
        expect: "locations nested deeper than 64 levels",
        never: None,
        extra_memory: 0,
        max_output: 4096,
    },
];

/// Long enough for any of these runs on a loaded machine in a debug build;
/// the runs they guard against took minutes or never ended.
const TIMEOUT: Duration = Duration::from_secs(60);

#[test]
fn every_class_of_hostile_input_ends_cleanly_within_bounds() {
    let mut failures = Vec::new();
    for case in CASES {
        let path = corpus_path(case.input);
        let size = std::fs::metadata(&path).expect("input").len();
        let mut args: Vec<&str> = case.args.to_vec();
        let path_text = path.to_str().expect("UTF-8 path");
        args.push(path_text);
        let m = bef_measured(&args, None, TIMEOUT);
        let stdout = text(&m.output.stdout);
        let stderr = text(&m.output.stderr);
        let output = m.output.stdout.len() + m.output.stderr.len();
        let memory = 64 * size + 64 * MIB + case.extra_memory;
        let mut problems = Vec::new();
        if m.killed {
            problems.push(format!("ran past {TIMEOUT:?}"));
        }
        if m.output.status.code() != Some(case.status) {
            problems.push(format!(
                "exit status {:?}, expected {}",
                m.output.status, case.status
            ));
        }
        if !stdout.contains(case.expect) && !stderr.contains(case.expect) {
            problems.push(format!("no {:?} in the output", case.expect));
        }
        if let Some(never) = case.never
            && (stdout.contains(never) || stderr.contains(never))
        {
            problems.push(format!("{never:?} in the output"));
        }
        if m.max_rss > memory {
            problems.push(format!("{} bytes of memory, bound {memory}", m.max_rss));
        }
        if output > case.max_output {
            problems.push(format!(
                "{output} bytes of output, bound {}",
                case.max_output
            ));
        }
        if !problems.is_empty() {
            let excerpt: String = stderr.chars().take(600).collect();
            failures.push(format!(
                "{} (bef {}): {}\n  stderr: {excerpt}",
                case.class,
                args.join(" "),
                problems.join("; ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What `translate` writes at the shared nesting limit, `verify`, `dump`
/// and translation back all read (the reader's limit once was lower than
/// the parser's, so the translator's own output was rejected).
#[test]
fn own_output_at_the_depth_limit_is_read_back() {
    let source = corpus_path("fuzz/mlir_parse/location_at_depth_limit.mlir");
    let dir = common::scratch_dir("own-output");
    let bef_path = dir.join("limit.bef");
    let bef_text = bef_path.to_str().expect("UTF-8 path");
    let m = bef_measured(
        &[
            "translate",
            "--mlir-to-bef",
            "-o",
            bef_text,
            source.to_str().expect("UTF-8 path"),
        ],
        None,
        TIMEOUT,
    );
    assert_eq!(
        m.output.status.code(),
        Some(0),
        "{}",
        text(&m.output.stderr)
    );
    for args in [
        vec!["verify", bef_text],
        vec!["dump", bef_text],
        vec!["translate", "--bef-to-mlir", "-o", "/dev/null", bef_text],
    ] {
        let m = bef_measured(&args, None, TIMEOUT);
        assert_eq!(
            m.output.status.code(),
            Some(0),
            "bef {}: {}",
            args.join(" "),
            text(&m.output.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
