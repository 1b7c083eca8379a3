#![no_main]
//! Fuzz target: generated host programs run on two work queues (the body is in `fuzz/src/`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::exec::exec_programs(data));
