//! Runs the `async_value_ops` fuzz body on seeded pseudo-random inputs and
//! on the checked-in corpus, checking the global live-value counter too (this
//! binary has no other test creating values concurrently).

#![cfg(not(loom))]

use arbitrary::Unstructured;
use bef::runtime::{fuzz_body, live_async_values};

#[test]
fn seeded_programs_and_corpus_leave_no_value_alive() {
    let before = live_async_values();
    // BEF_FUZZ_ITERATIONS=100000 for a longer soak.
    let iterations = std::env::var("BEF_FUZZ_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    let ops = fuzz_body::run_seeded(0xA5A5_0001, iterations);
    assert!(ops > iterations * 10, "only {ops} operations");
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/fuzz/async_value_ops"
    );
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("corpus directory") {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let _ = fuzz_body::async_value_ops(&mut Unstructured::new(&bytes));
        seen += 1;
    }
    assert!(seen > 0);
    assert_eq!(live_async_values(), before);
}
