#![no_main]
//! Fuzz target: arbitrary bytes as typed call arguments in JSON (the body is in `fuzz/src/abi.rs`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::abi::abi_call_arguments(data));
