#![no_main]
//! Fuzz target: arbitrary bytes as MLIR bytecode (the body is in `fuzz/src/`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::bytecode::mlirbc_read(data));
