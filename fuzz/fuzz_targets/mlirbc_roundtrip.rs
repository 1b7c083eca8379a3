#![no_main]
//! Fuzz target: generated IR through MLIR bytecode at every version (the body is in `fuzz/src/`).
libfuzzer_sys::fuzz_target!(|data: &[u8]| bef_fuzz::bytecode::mlirbc_roundtrip(data));
