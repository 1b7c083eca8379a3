#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::text::mlir_parse(data));
