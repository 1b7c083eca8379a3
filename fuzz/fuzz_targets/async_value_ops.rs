#![no_main]
//! Thin cargo-fuzz target; the body lives in `bef_fuzz::async_value` so
//! that `cargo test` runs it too.

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let before = bef::runtime::live_async_values();
    let mut u = Unstructured::new(data);
    let _ = bef_fuzz::async_value::async_value_ops(&mut u);
    assert_eq!(
        bef::runtime::live_async_values(),
        before,
        "AsyncValue leaked"
    );
});
