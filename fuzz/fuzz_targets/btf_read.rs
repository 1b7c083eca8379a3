#![no_main]
//! Fuzz target: arbitrary bytes as a BTF tensor file (the body is in `fuzz/src/`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::btf::btf_read(data));
