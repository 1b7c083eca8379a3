#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::bytecode::mlirbc_roundtrip(data));
