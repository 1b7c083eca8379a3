#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef::fuzz_targets::bef_decode(data));
