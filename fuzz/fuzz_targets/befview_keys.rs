#![no_main]
//! Thin cargo-fuzz target; the body lives in `bef_fuzz::befview` so that
//! `cargo test` runs it too.

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let _ = bef_fuzz::befview::befview_keys(&mut u);
});
