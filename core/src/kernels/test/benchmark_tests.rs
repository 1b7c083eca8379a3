//! `tfrt_test.benchmark`, `tfrt_test.sync_benchmark` and
//! `tfrt_test.test_cost` run from MLIR text.

use crate::kernels::test_support::{QUEUES, run, serial};

/// The statistics labels `benchmark.mlir` checks, in order.
const LABELS: [&str; 11] = [
    "Duration(ns)",
    "Count",
    "Time Min(ns)",
    "Time 50%(ns)",
    "Time 95%(ns)",
    "Time 99%(ns)",
    "CPU Min(ns)",
    "CPU 50%(ns)",
    "CPU 95%(ns)",
    "CPU 99%(ns)",
    "CPU utilization(percent)",
];

/// Checks `lines` are the statistics of benchmark `name` with `count` runs
/// (every value a number).
fn check_stats(lines: &[&str], name: &str, count: usize) {
    assert_eq!(lines.len(), LABELS.len(), "{lines:#?}");
    for (line, label) in lines.iter().zip(LABELS) {
        let prefix = format!("BM:{name}:{label}: ");
        let value = line
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{line:?} does not start with {prefix:?}"));
        assert!(value.parse::<f64>().is_ok(), "{line:?}");
    }
    assert_eq!(lines[1], format!("BM:{name}:Count: {count}"));
    let min: u128 = lines[2].rsplit(' ').next().unwrap().parse().unwrap();
    let median: u128 = lines[3].rsplit(' ').next().unwrap().parse().unwrap();
    let total: u128 = lines[0].rsplit(' ').next().unwrap().parse().unwrap();
    assert!(min <= median && median <= total, "{lines:#?}");
}

const ASYNC: &str = r#"
func.func @benchmark() -> !tfrt.chain {
  %ch = "tfrt_test.benchmark"() ({
    %c = tfrt.constant.i32 42
    %x = tfrt.add.i32 %c, %c
    tfrt.return %x : i32
  }) {duration_secs = 1 : i32, max_count = 100 : i32, name = "add.i32", num_warmup_runs = 10 : i32} : () -> !tfrt.chain
  tfrt.return %ch : !tfrt.chain
}
func.func @benchmark2() {
  %c = tfrt.constant.i32 42
  "tfrt_test.benchmark"(%c) ({
    ^bb0(%a: i32):
      %x = "tfrt_test.async_add.i32"(%a, %a) : (i32, i32) -> i32
      tfrt.return %x : i32
  }) {name = "async", max_count = 7 : i32, duration_secs = 1 : i32} : (i32) -> ()
  tfrt.return
}
func.func @two_results() {
  "tfrt_test.benchmark"() ({
    %c = tfrt.constant.i32 42
    tfrt.return %c, %c : i32, i32
  }) {duration_secs = 1 : i32, max_count = 7 : i32, name = "bad"} : () -> ()
  tfrt.return
}
func.func @no_name() -> !tfrt.chain {
  %ch = "tfrt_test.benchmark"() ({
    %c = tfrt.constant.i32 42
    tfrt.return %c : i32
  }) {duration_secs = 1 : i32, max_count = 7 : i32} : () -> !tfrt.chain
  tfrt.return %ch : !tfrt.chain
}
"#;

#[test]
fn benchmark_prints_the_reference_statistics() {
    let _serial = serial();
    for queue in QUEUES {
        let r = run(ASYNC, "benchmark", queue);
        assert!(r.result::<crate::runtime::Chain>(0).is_ok(), "{queue}");
        check_stats(&r.lines(), "add.i32", 100);
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        // The body runs asynchronously; the default is one warm-up run;
        // attributes are read in name order whatever the source order.
        let r = run(ASYNC, "benchmark2", queue);
        check_stats(&r.lines(), "async", 7);
    }
}

#[test]
fn benchmark_rejects_bad_bodies_and_attributes() {
    let _serial = serial();
    for queue in QUEUES {
        let r = run(ASYNC, "two_results", queue);
        assert_eq!(
            r.error_messages(),
            ["Benchmark op requires the input function have exactly one return value"]
        );
        assert!(r.output.is_empty());
        let r = run(ASYNC, "no_name", queue);
        let message = r.result::<crate::runtime::Chain>(0).unwrap_err();
        assert!(message.contains("expects a name attribute"), "{message}");
    }
}

#[test]
fn benchmark_runs_and_durations_are_bounded() {
    let _serial = serial();
    let src = r#"
func.func @body() -> i32 {
  %c = tfrt.constant.i32 1
  tfrt.return %c : i32
}
func.func @forever() -> !tfrt.chain {
  %ch = "tfrt_test.benchmark"() ({
    %c = tfrt.constant.i32 1
    tfrt.return %c : i32
  }) {name = "x", duration_secs = 2147483647 : i32, max_count = 10 : i32} : () -> !tfrt.chain
  tfrt.return %ch : !tfrt.chain
}
func.func @countless() -> !tfrt.chain {
  %ch = "tfrt_test.benchmark"() ({
    %c = tfrt.constant.i32 1
    tfrt.return %c : i32
  }) {name = "x", duration_secs = 1 : i32, max_count = 2147483647 : i32} : () -> !tfrt.chain
  tfrt.return %ch : !tfrt.chain
}
"#;
    let started = std::time::Instant::now();
    for name in ["forever", "countless"] {
        let r = run(src, name, "s");
        let message = r.result::<crate::runtime::Chain>(0).unwrap_err();
        assert!(
            message.contains("may be at most 600") && message.contains("at most 1000000 runs"),
            "{message}"
        );
        assert!(r.output.is_empty());
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

const SYNC: &str = r#"
func.func @fibonacci.i32(%0: i32, %1: i32) -> () attributes {tfrt.sync} {
  %2 = "tfrt.add_s.i32"(%0, %1) : (i32, i32) -> i32
  %3 = "tfrt.add_s.i32"(%1, %2) : (i32, i32) -> i32
  tfrt.return
}
func.func @returns(%0: i32) -> i32 attributes {tfrt.sync} {
  %1 = "tfrt.add_s.i32"(%0, %0) : (i32, i32) -> i32
  tfrt.return %1 : i32
}
func.func @sync_benchmark() attributes {tfrt.sync} {
  %0 = "tfrt.constant_s.i32"() {value = 0 : i32} : () -> i32
  %1 = "tfrt.constant_s.i32"() {value = 1 : i32} : () -> i32
  "tfrt_test.sync_benchmark"(%0, %1) {duration_secs = 1 : i32, fn = @fibonacci.i32, max_count = 50 : i32, num_warmup_runs = 10 : i32} : (i32, i32) -> ()
  tfrt.return
}
func.func @not_zero_results() -> i32 attributes {tfrt.sync} {
  %0 = "tfrt.constant_s.i32"() {value = 0 : i32} : () -> i32
  "tfrt_test.sync_benchmark"(%0) {duration_secs = 1 : i32, fn = @returns, max_count = 50 : i32} : (i32) -> ()
  tfrt.return %0 : i32
}
func.func @wrong_arity() attributes {tfrt.sync} {
  %0 = "tfrt.constant_s.i32"() {value = 0 : i32} : () -> i32
  "tfrt_test.sync_benchmark"(%0) {duration_secs = 1 : i32, fn = @fibonacci.i32, max_count = 50 : i32} : (i32) -> ()
  tfrt.return
}
"#;

#[test]
fn sync_benchmark_runs_on_the_calling_thread() {
    let _serial = serial();
    for queue in QUEUES {
        let r = run(SYNC, "sync_benchmark", queue);
        check_stats(&r.lines(), "fibonacci.i32", 50);
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        let r = run(SYNC, "not_zero_results", queue);
        assert_eq!(
            r.error_messages(),
            ["SyncBenchmark op requires the input function have zero return value"]
        );
        let r = run(SYNC, "wrong_arity", queue);
        assert_eq!(
            r.error_messages(),
            ["Incorrect number of arguments for the target function for the SyncBenchmark op"]
        );
    }
}

#[test]
fn test_cost_prints_its_id_and_forwards_its_argument() {
    let _serial = serial();
    let src = r#"
func.func @test_cost() -> i32 {
  %c0 = tfrt.constant.i32 1
  %c1 = "tfrt_test.test_cost"(%c0) {id = 7 : i64, _tfrt_cost = 100 : i64} : (i32) -> i32
  %c2 = "tfrt_test.test_cost"(%c1) {_tfrt_cost = 3 : i64, id = 0 : i64} : (i32) -> i32
  tfrt.return %c2 : i32
}
func.func @no_id() -> i32 {
  %c0 = tfrt.constant.i32 1
  %c1 = "tfrt_test.test_cost"(%c0) {_tfrt_cost = 100 : i64} : (i32) -> i32
  tfrt.return %c1 : i32
}
"#;
    for queue in QUEUES {
        let r = run(src, "test_cost", queue);
        assert_eq!(r.lines(), ["id: 7", "id: 0"]);
        assert_eq!(r.result::<i32>(0), Ok(1));
        let r = run(src, "no_id", queue);
        assert!(r.output.is_empty());
        let message = r.result::<i32>(0).unwrap_err();
        assert!(message.contains("attribute"), "{message}");
    }
}
