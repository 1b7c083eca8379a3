#![no_main]
//! Fuzz target: arbitrary bytes as MLIR text (the body is in `fuzz/src/`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::text::mlir_parse(data));
