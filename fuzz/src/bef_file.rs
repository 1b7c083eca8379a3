//! BEF bytes: arbitrary files through every decoder, and generated
//! models through encode → decode.

use arbitrary::Unstructured;
use bef::exec::{KernelRegistry, LoadError, Program};
use bef::format::FunctionKind;
use bef::format::arbitrary_model::arbitrary_module;
use bef::format::{BefBuffer, encode, verify};
use bef::inspect::{Listing, check_lookups};

/// Raw bytes → list (what `bef dump` shows), open, verify, decode. Must
/// never panic. The listing takes damaged files too and its lookups agree
/// with its ranges. A file that verifies must load for execution
/// ([`verified_file_loads`]), and one that verifies and decodes must
/// re-encode into a file that decodes the same.
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
    if verified {
        verified_file_loads(data);
    } else {
        // Loading for execution: resolves kernels and validates every
        // function's tables; a clear error or tables the executor can trust.
        if let Ok(program) = Program::load(
            BefBuffer::copy_from(data),
            "fuzz.bef",
            crate::standard_registry(),
        ) {
            let _ = decode_every_function(&program);
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

/// What `verify` accepts, the executor loads: `Program::load` succeeds and
/// every function's tables decode, so the two rule sets cannot drift
/// apart. Kernel and native function names are the one thing `verify`
/// cannot know, so a file naming ones the standard library lacks is loaded
/// again with a registry that has a kernel (strict, doing nothing) and a
/// native function for every name it uses.
pub fn verified_file_loads(data: &[u8]) {
    let loaded = |registry: &KernelRegistry| -> Result<(), LoadError> {
        let program = Program::load(BefBuffer::copy_from(data), "fuzz.bef", registry)?;
        decode_every_function(&program)
    };
    let error = match loaded(crate::standard_registry()) {
        Ok(()) => return,
        Err(error) => error,
    };
    let message = error.to_string();
    assert!(
        message.contains("unknown kernel name") || message.contains("unknown native function"),
        "a file `verify` accepts fails to load: {message}"
    );
    let buffer = BefBuffer::copy_from(data);
    let file = buffer.open().expect("a verified file opens");
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    for name in file
        .kernel_names()
        .expect("a verified file's kernel names decode")
    {
        if registry.kernel(name).is_none() {
            registry.add_kernel(name, does_nothing);
        }
    }
    for entry in file.functions() {
        if entry.kind == FunctionKind::Native && registry.native_function(entry.name).is_none() {
            registry.add_native_function(entry.name, |_, _, _| {});
        }
    }
    if let Err(error) = loaded(&registry) {
        panic!("a file `verify` accepts fails to load: {error}");
    }
}

bef::kernel! {
    /// Stands in for a kernel the standard library lacks.
    fn does_nothing() {}
}

/// Decodes the tables of every function the executor or the sync
/// interpreter runs; the first error.
fn decode_every_function(program: &Program) -> Result<(), LoadError> {
    for (i, info) in program.functions().iter().enumerate() {
        if info.kind != FunctionKind::Native {
            program.tables(i).map_err(LoadError::clone)?;
        }
    }
    Ok(())
}

/// Structured model → encode → decode → compare, and encode is stable; a
/// generated file that verifies also loads.
pub fn bef_roundtrip(data: &[u8]) {
    let Ok(module) = arbitrary_module(&mut Unstructured::new(data)) else {
        return;
    };
    let bytes = encode(&module).expect("generated modules encode");
    let buffer = BefBuffer::copy_from(&bytes);
    let file = buffer.open().expect("encoded modules open");
    let decoded = file.to_module().expect("encoded modules decode");
    assert_eq!(decoded, module);
    if verify(&file).is_ok() {
        verified_file_loads(&bytes);
    }
    assert_eq!(encode(&decoded).expect("decoded modules encode"), bytes);
}
