//! Known answers for the conclusions `bef-trace` draws (`corpus/trace/`):
//! the critical path through joins, the executor's own time, the replay
//! of a recording on one worker, and `--speedup`.

mod common;

use bef_trace::Model;
use bef_trace::analysis::critical_path::{self, Analysis, CriticalOptions};
use bef_trace::export::stats;

fn analyse(model: &Model, options: &CriticalOptions) -> Analysis {
    critical_path::analyse(model, options)
}

/// The last kernel of each branch feeding the join (`tfrt.merge.chains`
/// at the end), with when its result was available.
fn branch_ends(model: &Model) -> Vec<(usize, u64)> {
    let join = (0..model.runs.len())
        .filter(|&r| model.kernel_name(r) == "tfrt.merge.chains")
        .max_by_key(|&r| model.runs[r].start)
        .expect("a join");
    model
        .edges
        .iter()
        .filter(|e| e.to == join)
        .map(|e| (e.from, model.results_done(e.from)))
        .collect()
}

#[test]
fn the_path_through_a_join_follows_the_branch_that_arrived_last() {
    let _serial = common::serial();
    for program in ["trace/joined_equal.mlir", "trace/joined_unequal.mlir"] {
        let model = Model::new(common::record(program, "mstd:2"));
        let analysis = analyse(&model, &CriticalOptions::default());
        let ends = branch_ends(&model);
        assert_eq!(ends.len(), 4, "{program}");
        let last = ends.iter().max_by_key(|&&(r, t)| (t, r)).unwrap().0;
        let path = &analysis.path;
        let at_join = path.len() - 1;
        assert_eq!(model.kernel_name(path[at_join]), "tfrt.merge.chains");
        assert_eq!(
            path[at_join - 1],
            last,
            "{program}: the path reaches the join through {}, which arrived last",
            model.frame(last)
        );
        // Nothing of the path is left unexplained.
        let split = analysis.split;
        assert_eq!(split.total(), analysis.length_ns, "{program}");
        assert!(
            split.becoming_ready_ns * 20 < analysis.length_ns,
            "{program}: {split:?}"
        );
    }
}

#[test]
fn a_cpu_bound_loop_is_the_executors_time_not_idle() {
    let _serial = common::serial();
    let model = Model::new(common::record("trace/cpu_loop.mlir", "s"));
    let stats = stats::stats(&model);
    let main = &stats.threads[0];
    assert!(
        main.busy_ns * 10 >= stats.span_ns * 8,
        "main is busy {} of {} ns",
        main.busy_ns,
        stats.span_ns
    );
    assert!(main.executor_ns > 0);
    assert_eq!(main.busy_ns + main.idle_ns, stats.span_ns);
    let analysis = analyse(&model, &CriticalOptions::default());
    let split = analysis.split;
    assert!(split.executor_ns > 0, "{split:?}");
    assert_eq!(split.async_ns, 0, "the loop's time is not async: {split:?}");
    // The executor's time is the largest share of a loop of adds.
    assert!(split.executor_ns > split.running_ns, "{split:?}");
    // The loop's function includes its iterations.
    let loop_total = stats
        .functions
        .iter()
        .find(|f| f.name == "cpu_loop")
        .expect("the loop function")
        .total_ns;
    assert!(loop_total * 10 >= stats.span_ns * 9, "{loop_total}");
}

#[test]
fn a_one_worker_replay_of_a_one_worker_recording_reproduces_its_span() {
    let _serial = common::serial();
    for program in [
        "trace/cpu_loop.mlir",
        "trace/joined_unequal.mlir",
        "trace/serial_chain.mlir",
        "trace/branches.mlir",
    ] {
        let model = Model::new(common::record(program, "s"));
        let options = CriticalOptions {
            what_if_workers: Some(1),
            ..Default::default()
        };
        let what_if = analyse(&model, &options).what_if.unwrap();
        let recorded = model.span.1 - model.span.0;
        let error = what_if.span_ns.abs_diff(recorded) as f64 / recorded as f64;
        assert!(
            error <= 0.10,
            "{program}: replayed {} ns, recorded {recorded} ns",
            what_if.span_ns
        );
        assert!(what_if.lower_bound_ns <= what_if.span_ns, "{what_if:?}");
    }
}

#[test]
fn speeding_up_a_kernel_off_the_path_changes_nothing_and_on_it_shortens_the_span() {
    let _serial = common::serial();
    let model = Model::new(common::record(
        "trace/sleeps_on_and_off_path.mlir",
        "mstd:2",
    ));
    let speedup = |pattern: &str, percent: f64| {
        let options = CriticalOptions {
            speedups: vec![(pattern.to_string(), percent)],
            ..Default::default()
        };
        analyse(&model, &options).speedup.unwrap()
    };
    // The 5 ms sleep beside the path: even gone, nothing changes.
    let off = speedup("usleep#7", 100.0);
    assert_eq!(off.runs_matched, 1);
    let change = off.span_ns.abs_diff(off.baseline_ns) as f64 / off.baseline_ns as f64;
    assert!(change <= 0.05, "{off:?}");
    // The path's 40 ms sleep halved: half of it less, as long as it took
    // here (a loaded machine oversleeps).
    let on = speedup("usleep#4", 50.0);
    assert_eq!(on.runs_matched, 1);
    let sleep = (0..model.runs.len())
        .find(|&r| model.frame(r) == "tfrt_test.blocking.usleep#4")
        .map(|r| model.runs[r].duration() + model.async_tail(r))
        .unwrap();
    assert!(sleep >= 40_000_000, "{sleep}");
    let saved = on.baseline_ns.saturating_sub(on.span_ns) as f64;
    assert!(
        (saved - sleep as f64 / 2.0).abs() <= 0.05 * on.baseline_ns as f64,
        "{on:?}: saved {saved} ns of a {sleep} ns sleep"
    );
}
