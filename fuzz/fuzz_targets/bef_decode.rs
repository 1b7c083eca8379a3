#![no_main]
//! Fuzz target: arbitrary bytes as a BEF file (the body is in `fuzz/src/`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::bef_file::bef_decode(data));
