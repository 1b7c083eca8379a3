//! BEF bytes: arbitrary files through every decoder, and generated
//! models through encode → decode.

use arbitrary::Unstructured;
use bef::format::arbitrary_model::arbitrary_module;
use bef::format::{BefBuffer, encode, verify};
use bef::inspect::{Listing, check_lookups};

/// Raw bytes → list (what `bef dump` shows), open, verify, decode. Must
/// never panic. The listing takes damaged files too and its lookups agree
/// with its ranges. A file that verifies and decodes must re-encode into a
/// file that decodes the same.
pub fn bef_decode(data: &[u8]) {
    let buffer = BefBuffer::copy_from(data);
    if let Ok(listing) = Listing::new(buffer.bytes()) {
        // Every byte of small inputs, a sample of larger ones (debug builds
        // run this body thousands of times under `cargo test`).
        if let Err(problem) = check_lookups(&listing, 1 + data.len() / 128) {
            panic!("{problem}");
        }
    }
    let Ok(file) = buffer.open() else { return };
    let verified = verify(&file).is_ok();
    // Loading for execution: resolves kernels and validates every
    // function's tables; a clear error or tables the executor can trust.
    if let Ok(program) = bef::exec::Program::load(
        BefBuffer::copy_from(data),
        "fuzz.bef",
        crate::standard_registry(),
    ) {
        for (i, info) in program.functions().iter().enumerate() {
            if info.kind != bef::format::FunctionKind::Native {
                let _ = program.tables(i);
            }
        }
    }
    let Ok(module) = file.to_module() else { return };
    // Back to MLIR text: must not panic; what it produces must print.
    if let Ok(ir) = bef::translate::bef_to_mlir(&file) {
        let _ = bef::text::print_module(&ir, bef::text::PrintOptions::default());
    }
    if !verified {
        return;
    }
    let bytes = encode(&module).expect("a verified, decoded module re-encodes");
    let again = BefBuffer::copy_from(&bytes);
    let decoded = again
        .open()
        .expect("re-encoded bytes open")
        .to_module()
        .expect("re-encoded bytes decode");
    assert_eq!(
        decoded, module,
        "decode(encode(module)) differs from module"
    );
}

/// Structured model → encode → decode → compare, and encode is stable.
pub fn bef_roundtrip(data: &[u8]) {
    let Ok(module) = arbitrary_module(&mut Unstructured::new(data)) else {
        return;
    };
    let bytes = encode(&module).expect("generated modules encode");
    let buffer = BefBuffer::copy_from(&bytes);
    let file = buffer.open().expect("encoded modules open");
    let decoded = file.to_module().expect("encoded modules decode");
    assert_eq!(decoded, module);
    assert_eq!(encode(&decoded).expect("decoded modules encode"), bytes);
}
