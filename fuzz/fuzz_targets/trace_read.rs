#![no_main]
//! Fuzz target: arbitrary bytes as a bef-trace recording (the body is in `fuzz/src/`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::trace::trace_read(data));
