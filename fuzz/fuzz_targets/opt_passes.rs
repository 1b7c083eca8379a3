#![no_main]
//! Fuzz target: generated modules through the passes of `bef opt` (the body is in `fuzz/src/`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::passes::opt_passes(data));
