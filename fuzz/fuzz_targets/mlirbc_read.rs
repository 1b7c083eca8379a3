#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef::fuzz_targets::mlirbc_read(data));
