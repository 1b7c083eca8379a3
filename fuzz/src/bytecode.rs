//! MLIR bytecode: any bytes through the reader, arbitrary IR through the
//! writer at every version.

use arbitrary::Unstructured;

/// Any bytes → MLIR bytecode reader and `bef dump`. Must never panic, and
/// errors point inside the input. A file that reads and writes without
/// warnings at its version must read back to the same IR.
pub fn mlirbc_read(data: &[u8]) {
    use bef::bytecode::{self, Structure, WriteOptions};
    // Framing and the `bef dump` listing must not panic either. They see
    // `data` at its own address, where aligned sections may frame
    // differently than in `read_aligned`'s copy, so only their
    // robustness is checked here.
    let framed = Structure::parse(data).map(|s| s.version);
    for hex in [false, true] {
        if let Err(e) = bytecode::dump::dump(data, hex) {
            assert!(e.offset <= data.len(), "dump error past the end: {e}");
        }
    }
    let module = match bytecode::read_aligned(data) {
        Ok(module) => module,
        Err(e) => {
            assert!(
                e.offset <= data.len(),
                "error offset {} past the end ({} bytes): {e}",
                e.offset,
                data.len()
            );
            return;
        }
    };
    let origin = module
        .origin
        .clone()
        .expect("read modules record their origin");
    if let Ok(version) = framed {
        assert_eq!(origin.version, version);
    }
    let _ = bef::text::print_module(&module, bef::text::PrintOptions::default());
    // The reader does not verify ops, so a damaged file can give IR the
    // writer refuses (an error, e.g. a `func.func` read from an old-version
    // dictionary without `function_type`): fine, as long as it is an error.
    let Ok(written) = bytecode::write(
        &module,
        &WriteOptions {
            version: origin.version,
            producer: origin.producer.clone(),
        },
    ) else {
        return;
    };
    let again = bytecode::read_aligned(&written.bytes)
        .unwrap_or_else(|e| panic!("written bytecode does not read: {e}"));
    // Warnings mean the version could not hold everything the module
    // carries (which reading that version can still produce, e.g.
    // properties decoded from an op the file marks unregistered).
    if written.warnings.is_empty() {
        assert_eq!(
            bytecode::ir_as_read(again, origin.version),
            bytecode::ir_as_read(module, origin.version),
            "read → write → read changed the IR"
        );
    }
}

/// Arbitrary IR → bytecode at every version → read → the same IR, unless
/// the writer warned that the version cannot express it.
pub fn mlirbc_roundtrip(data: &[u8]) {
    use bef::bytecode::{self, MAX_VERSION, WriteOptions};
    let Ok(module) = bef::text::arbitrary_ir::arbitrary_module(&mut Unstructured::new(data)) else {
        return;
    };
    for version in 0..=MAX_VERSION {
        let written = bytecode::write(
            &module,
            &WriteOptions {
                version,
                ..WriteOptions::default()
            },
        )
        .unwrap_or_else(|e| panic!("v{version}: generated modules write: {e}"));
        let back = bytecode::read_aligned(&written.bytes)
            .unwrap_or_else(|e| panic!("v{version}: written bytecode does not read: {e}"));
        if written.warnings.is_empty() {
            let (got, expected) = (
                bytecode::ir_as_read(back, version),
                bytecode::ir_as_read(module.clone(), version),
            );
            assert_eq!(got, expected, "v{version}: write → read changed the IR");
        }
    }
}
