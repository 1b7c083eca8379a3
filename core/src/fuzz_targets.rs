//! Bodies of the cargo-fuzz targets. They live in the library so that
//! `cargo test` runs them too (`tests/fuzz_bodies.rs`) and the fuzz crate
//! stays a thin shell.

use arbitrary::Unstructured;

use crate::dump::{DumpOptions, write_json, write_text};
use crate::format::arbitrary_model::arbitrary_module;
use crate::format::{BefBuffer, encode, verify};
use crate::inspect::Listing;

/// The listing's lookups agree with its ranges: the items of every
/// `step`th byte hold it, its field lies inside the innermost item, fields
/// do not overlap, and every error points inside the file.
pub fn check_listing(listing: &Listing<'_>, step: usize) {
    let len = listing.bytes().len();
    for offset in (0..len).step_by(step.max(1)) {
        let path = listing.item_at(offset);
        let range = listing
            .range_of(&path.items)
            .unwrap_or_else(|| panic!("no range for the items at {offset:#x}: {path:?}"));
        assert!(
            range.contains(&offset),
            "{path:?} at {offset:#x} spans {range:?}"
        );
        if let Some(field) = &path.field {
            assert!(
                field.range.contains(&offset)
                    && range.start <= field.range.start
                    && field.range.end <= range.end,
                "field {field:?} at {offset:#x} is not inside {range:?}"
            );
        }
    }
    let fields = listing.fields_in(0..len);
    for pair in fields.windows(2) {
        assert!(
            pair[0].range.end <= pair[1].range.start,
            "fields overlap: {pair:?}"
        );
    }
    for error in listing.errors() {
        assert!(error.offset <= len as u64, "error past the end: {error}");
    }
}

/// Raw bytes → open, verify, dump, decode. Must never panic. A file that
/// verifies and decodes must re-encode into a file that decodes the same.
pub fn bef_decode(data: &[u8]) {
    let buffer = BefBuffer::copy_from(data);
    if let Ok(listing) = Listing::new(buffer.bytes()) {
        for hex in [false, true] {
            let options = DumpOptions { section: None, hex };
            write_text(&mut std::io::sink(), &listing, &options)
                .expect("writing to a sink cannot fail");
            write_json(&mut std::io::sink(), &listing, &options)
                .expect("writing to a sink cannot fail");
        }
        // Every byte of small inputs, a sample of larger ones (debug
        // builds run this body thousands of times under `cargo test`).
        check_listing(&listing, 1 + data.len() / 128);
    }
    let Ok(file) = buffer.open() else { return };
    let verified = verify(&file).is_ok();
    // Loading for execution: resolves kernels and validates every
    // function's tables; a clear error or tables the executor can trust.
    if let Ok(program) =
        crate::exec::Program::load(BefBuffer::copy_from(data), "fuzz.bef", standard_registry())
    {
        for (i, info) in program.functions().iter().enumerate() {
            if info.kind != crate::format::FunctionKind::Native {
                let _ = program.tables(i);
            }
        }
    }
    let Ok(module) = file.to_module() else { return };
    // Back to MLIR text: must not panic; what it produces must print.
    if let Ok(ir) = crate::translate::bef_to_mlir(&file) {
        let _ = crate::text::print_module(&ir, crate::text::PrintOptions::default());
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

/// Any bytes → parse as MLIR text. Must never panic. When the text parses,
/// printing (custom and generic form, with locations) and parsing again
/// must reach a fixed point, and translating to BEF must not panic either.
/// The two-thread paths of large inputs (parse, translation, encoding),
/// forced on, must give what one thread gives.
pub fn mlir_parse(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = crate::text::parse_module(source, "fuzz.mlir");
    // Large texts are parsed, translated and encoded on two threads; forced
    // here, each must give what one thread gives.
    assert_eq!(
        crate::text::parse_module_on_two_threads(source, "fuzz.mlir"),
        parsed,
        "the two-thread parse differs"
    );
    let Ok(module) = parsed else {
        return;
    };
    let options = crate::translate::TranslateOptions::default();
    let model = crate::translate::mlir_to_bef_model(&module, options);
    assert_eq!(
        crate::translate::mlir_to_bef_model_on_two_threads(&module, options),
        model,
        "the two-thread translation differs"
    );
    if let Ok(model) = model {
        let encoded = crate::format::encode(&model);
        assert_eq!(
            crate::format::encoder::encode_on_two_threads(&model),
            encoded,
            "the two-thread encoding differs"
        );
        // The product path encodes the translator's flat bodies directly:
        // it must write what encoding the model writes.
        let direct = crate::translate::mlir_to_bef(&module, options)
            .map_err(|mut errors| errors.remove(0).message);
        assert_eq!(
            direct,
            encoded.map_err(|e| e.0),
            "the flat bodies encode differently"
        );
    }
    for generic in [false, true] {
        let options = crate::text::PrintOptions {
            generic,
            debug_info: true,
        };
        let printed = crate::text::print_module(&module, options);
        let reparsed = crate::text::parse_module(&printed, "fuzz.mlir")
            .unwrap_or_else(|e| panic!("printed module does not parse: {e}\n{printed}"));
        assert_eq!(
            reparsed, module,
            "print → parse changed the module:\n{printed}"
        );
        let again = crate::text::print_module(&reparsed, options);
        assert_eq!(again, printed, "printing is not a fixed point");
    }
}

/// Random valid host program → BEF → run on `s` and on `mstd:2`: both runs
/// finish (bounded time), give the same results (values or error
/// messages), and leave no async value alive.
pub fn exec_programs(data: &[u8]) {
    use crate::exec::arbitrary_program::{ProgramLimits, arbitrary_program};
    let mut u = Unstructured::new(data);
    let Ok(generated) = arbitrary_program(&mut u, ProgramLimits::default()) else {
        return;
    };
    let source = &generated.source;
    let module = crate::text::parse_module(source, "generated.mlir")
        .unwrap_or_else(|d| panic!("generated program does not parse: {d:?}\n{source}"));
    let options = crate::translate::TranslateOptions {
        optional_sections: false,
    };
    let bytes = crate::translate::mlir_to_bef(&module, options)
        .unwrap_or_else(|d| panic!("generated program does not translate: {d:?}\n{source}"));
    let before = crate::runtime::live_async_values();
    let single = run_generated(&bytes, "s", source);
    let multi = run_generated(&bytes, "mstd:2", source);
    assert_eq!(
        single, multi,
        "results differ between work queues\n{source}"
    );
    assert_eq!(single.len(), generated.results);
    assert_eq!(
        crate::runtime::live_async_values(),
        before,
        "async values leaked\n{source}"
    );
}

/// Results of `@main` as values or error messages, computed on another
/// thread so that a deadlock fails the run instead of hanging it.
fn run_generated(bef: &[u8], queue: &str, source: &str) -> Vec<Result<i32, String>> {
    use std::sync::{Arc, mpsc};
    let program = crate::exec::Program::load(
        BefBuffer::copy_from(bef),
        "generated.bef",
        standard_registry(),
    )
    .unwrap_or_else(|e| panic!("generated program does not load: {e}\n{source}"));
    let label = queue.to_string();
    let queue = label.clone();
    let (done, wait) = mpsc::channel();
    std::thread::spawn(move || {
        let host = crate::runtime::HostContext::with_work_queue_name(&queue)
            .expect("valid queue")
            .with_diagnostic_sink(|_| {});
        let ctx = crate::exec::ExecutionContext::new(Arc::new(host));
        let main = program.function_named("main").expect("generated @main");
        let f = crate::exec::Function::new(program.clone(), main);
        let results = f.execute(&ctx, &[]);
        ctx.host().await_values(&results);
        ctx.host().quiesce();
        let shown: Vec<Result<i32, String>> = results
            .iter()
            .map(|v| match v.error_diagnostic() {
                Some(d) => Err(d.message.clone()),
                None => v.get::<i32>().copied().map_err(|e| e.to_string()),
            })
            .collect();
        // Everything this run made is released before the caller counts
        // live values.
        drop(results);
        drop(ctx);
        let _ = done.send(shown);
    });
    wait.recv_timeout(std::time::Duration::from_secs(30))
        .unwrap_or_else(|_| panic!("no result within 30 s on '{label}' (deadlock?)\n{source}"))
}

/// The IR alone, in the form `bytecode::read` gives it, for comparing
/// modules: the origin (version, producer, registered ops) is file
/// metadata.
pub fn bytecode_ir(mut module: crate::ir::Module, version: u64) -> crate::ir::Module {
    module.origin = None;
    // Inherent attributes of known ops live in the properties once read.
    crate::bytecode::ops::split_all_inherent_attributes(&mut module);
    let mut stack = vec![&mut module.op];
    while let Some(op) = stack.pop() {
        for (_, a) in &mut op.attributes {
            i1_as_bool(a);
        }
        if let Some(p) = op.properties.as_deref_mut() {
            i1_as_bool(p);
        }
        stack.extend(
            op.regions
                .iter_mut()
                .flat_map(|r| &mut r.blocks)
                .flat_map(|b| &mut b.ops),
        );
    }
    // The writer lists builtin resources in first-reference order, as
    // upstream does; a file may list them in any order.
    for group in &mut module.resources {
        if matches!(&group.owner, crate::ir::ResourceOwner::Dialect(d) if d == "builtin") {
            group.entries.sort_by(|a, b| a.key.cmp(&b.key));
        }
    }
    // Versions 0-2 have no use-list orders (upstream drops them silently).
    if version < 3 {
        for v in &mut module.values {
            v.use_list_order = None;
        }
    }
    module
}

/// `0 : i1` and `false` are one attribute in MLIR (BoolAttr is an i1
/// IntegerAttr), so bytecode reads both back as `Bool`; this IR keeps
/// them apart for the text printer.
fn i1_as_bool(attr: &mut crate::ir::Attribute) {
    use crate::ir::{Attribute, Signedness, Type};
    match attr {
        Attribute::Integer {
            value,
            ty:
                Type::Integer {
                    width: 1,
                    signedness: Signedness::Signless,
                },
        } => *attr = Attribute::Bool(*value != 0),
        Attribute::Array(items) => items.iter_mut().for_each(i1_as_bool),
        Attribute::Dictionary(entries) => entries.iter_mut().for_each(|(_, a)| i1_as_bool(a)),
        _ => {}
    }
}

/// Any bytes → MLIR bytecode reader and `bef dump`. Must never panic, and
/// errors point inside the input. A file that reads and writes without
/// warnings at its version must read back to the same IR.
pub fn mlirbc_read(data: &[u8]) {
    use crate::bytecode::{self, Structure, WriteOptions};
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
    let _ = crate::text::print_module(&module, crate::text::PrintOptions::default());
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
            bytecode_ir(again, origin.version),
            bytecode_ir(module, origin.version),
            "read → write → read changed the IR"
        );
    }
}

/// Arbitrary IR → bytecode at every version → read → the same IR, unless
/// the writer warned that the version cannot express it.
pub fn mlirbc_roundtrip(data: &[u8]) {
    use crate::bytecode::{self, MAX_VERSION, WriteOptions};
    let Ok(module) = crate::text::arbitrary_ir::arbitrary_module(&mut Unstructured::new(data))
    else {
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
                bytecode_ir(back, version),
                bytecode_ir(module.clone(), version),
            );
            assert_eq!(got, expected, "v{version}: write → read changed the IR");
        }
    }
}

/// The standard kernels, registered once per process.
fn standard_registry() -> &'static crate::exec::KernelRegistry {
    static REGISTRY: std::sync::OnceLock<crate::exec::KernelRegistry> = std::sync::OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut registry = crate::exec::KernelRegistry::new();
        crate::kernels::register_all(&mut registry);
        registry
    })
}
