//! `bef-trace diff --json`: two recordings of one corpus program (on
//! different work queues) compared kernel by kernel; every delta is the
//! difference of the two times, the times add up to each recording's
//! statistics, and the outputs are where the flags say.

mod common;

use std::collections::HashMap;
use std::process::{Command, Output};

use serde_json::Value;

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

fn ok(args: &[&str]) -> String {
    let out = bef_trace(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Self time per kernel name in `stats --json`.
fn stats_self_times(recording: &str) -> HashMap<String, (u64, u64)> {
    let stats = json(&ok(&["stats", recording, "--json"]));
    stats["kernels"]
        .as_array()
        .expect("kernels")
        .iter()
        .map(|k| {
            (
                k["name"].as_str().expect("name").to_owned(),
                (
                    k["self_ns"].as_u64().expect("self_ns"),
                    k["count"].as_u64().expect("count"),
                ),
            )
        })
        .collect()
}

#[test]
fn diff_json_gives_every_kernel_both_times_and_the_change() {
    let _serial = common::serial();
    let dir = bef_test_support::corpus::scratch_dir("bef-trace-diff-json");
    let at = |name: &str| dir.join(name).to_str().expect("UTF-8").to_owned();
    let (a, b) = (at("s.beftrace"), at("mstd.beftrace"));
    let program = "corpus/mlir/fibonacci_repeat.mlir";
    ok(&["record", program, "-w", "s", "-o", &a]);
    ok(&["record", program, "-w", "mstd:2", "-o", &b]);

    let report = json(&ok(&["diff", &a, &b, "--json"]));
    assert_eq!(report["different_programs"], false);
    let kernels = report["kernels"].as_array().expect("kernels");
    let delta = |v: &Value| v["delta_ns"].as_i64().expect("delta_ns");
    let ns = |v: &Value, key: &str| v[key].as_u64().expect("a time");
    for k in kernels {
        assert_eq!(
            delta(k),
            ns(k, "after_ns") as i64 - ns(k, "before_ns") as i64,
            "{k}"
        );
        // One program: each kernel ran as often in both.
        assert_eq!(k["before_count"], k["after_count"], "{k}");
        // The corpus program has locations: they match kernels.
        assert!(
            k["location"]
                .as_str()
                .unwrap()
                .contains("fibonacci_repeat.mlir\":"),
            "{k}"
        );
        assert_eq!(k["kernel_index"], Value::Null);
    }
    // The largest change first.
    let changes: Vec<u64> = kernels.iter().map(|k| delta(k).unsigned_abs()).collect();
    assert!(changes.windows(2).all(|w| w[0] >= w[1]), "{changes:?}");
    // The loop body's add runs ten times; the names are the program's.
    let add = kernels
        .iter()
        .find(|k| k["kernel"] == "tfrt.add.i32")
        .expect("the add");
    assert_eq!(add["before_count"], 10);
    assert!(
        add["function"].as_str().unwrap().starts_with("fibonacci"),
        "{add}"
    );
    // Summed by name, the times are `stats`' self times of each recording.
    for (recording, side) in [(&a, "before"), (&b, "after")] {
        let mut summed: HashMap<String, (u64, u64)> = HashMap::new();
        for k in kernels {
            let entry = summed
                .entry(k["kernel"].as_str().unwrap().to_owned())
                .or_default();
            entry.0 += ns(k, &format!("{side}_ns"));
            entry.1 += ns(k, &format!("{side}_count"));
        }
        assert_eq!(summed, stats_self_times(recording), "{side}");
        let total: u64 = summed.values().map(|s| s.0).sum();
        assert_eq!(ns(&report, &format!("{side}_ns")), total);
    }
    let functions = report["functions"].as_array().expect("functions");
    let fibonacci = functions
        .iter()
        .find(|f| f["function"] == "fibonacci")
        .expect("the function");
    assert_eq!(fibonacci["before_count"], 1);

    // --json=FILE writes the same report; the SVG is then optional, and
    // without either there is nothing to write.
    ok(&["diff", &a, &b, &format!("--json={}", at("d.json"))]);
    let written = std::fs::read_to_string(at("d.json")).expect("written");
    assert_eq!(json(&written), report);
    ok(&["diff", &a, &b, "-o", &at("d.svg"), "--json"]);
    assert!(std::fs::metadata(at("d.svg")).expect("svg").len() > 0);
    let out = bef_trace(&["diff", &a, &b]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // The JSON file may not be an input.
    let out = bef_trace(&["diff", &a, &b, &format!("--json={a}")]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).expect("removed");
}
