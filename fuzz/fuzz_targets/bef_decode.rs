#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::bef_file::bef_decode(data));
