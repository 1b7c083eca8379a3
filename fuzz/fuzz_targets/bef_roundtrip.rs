#![no_main]
//! Fuzz target: generated BEF models through encode and decode (the body is in `fuzz/src/`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::bef_file::bef_roundtrip(data));
