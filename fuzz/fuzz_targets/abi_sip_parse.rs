#![no_main]
//! Fuzz target: arbitrary bytes as a SIP signature (the body is in `fuzz/src/abi.rs`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::abi::abi_sip_parse(data));
